import { createAnthropic } from "@ai-sdk/anthropic";
import { createOllama } from "ollama-ai-provider-v2";
import {
  LLM_PROVIDER_IDS,
  LlmError,
  type GenerateRequest,
  type LlmProvider,
  type LlmProviderId,
} from "../../core/chat/llm.js";
import { aiSdkClient, ndjsonGuardFetch } from "./ai-sdk-stream.js";
import { openAiCompatibleClient } from "./openai-compatible.js";
import { streamAnswer, type ProviderClient, type ProviderTurn } from "./provider-stream.js";
import { STUB_MODEL, createStubProvider } from "./stub.js";

/**
 * The provider factory: turns configuration (normally the environment) into an
 * `LlmProvider`. OpenAI and Groq (and any OpenAI-compatible server) go through OpenAI's
 * official client (`openai-compatible.ts`); Anthropic and Ollama (native `/api/chat` NDJSON)
 * through the Vercel AI SDK's providers (`ai-sdk-stream.ts`). Every one streams through
 * `streamAnswer` (timeout, abort, one LlmError). Keys live only here and in the clients'
 * request headers: they are never part of an error message, a log line or anything sent to
 * the browser.
 */

export interface ProviderConfig {
  /** `stub` | `ollama` | `openai` | `groq` | `anthropic` (case-insensitive; empty means `stub`). */
  provider: string;
  /** The model id; each provider has a default. */
  model?: string;
  /**
   * The API base URL, version path included as the AI SDK expects it
   * (`https://api.openai.com/v1`, `https://api.groq.com/openai/v1`, `https://api.anthropic.com/v1`);
   * for Ollama the server address (`http://127.0.0.1:11434`), `/api` is added.
   */
  baseUrl?: string;
  apiKey?: string;
  /**
   * Inactivity timeout in milliseconds: the longest wait for the response to start and then
   * between two chunks. A stream that keeps flowing is never cut.
   */
  timeoutMs?: number;
  /** Stub only: pause between chunks (default 15 ms). */
  chunkDelayMs?: number;
}

export const DEFAULT_MODELS: Readonly<Record<LlmProviderId, string>> = {
  stub: STUB_MODEL,
  openai: "gpt-4o-mini",
  groq: "llama-3.3-70b-versatile",
  anthropic: "claude-haiku-4-5",
  ollama: "llama3.1",
};

export const DEFAULT_BASE_URLS: Readonly<Record<Exclude<LlmProviderId, "stub">, string>> = {
  openai: "https://api.openai.com/v1",
  groq: "https://api.groq.com/openai/v1",
  anthropic: "https://api.anthropic.com/v1",
  ollama: "http://127.0.0.1:11434",
};

/** Cloud providers answer fast; a local Ollama may first have to load the model into memory. */
export const DEFAULT_TIMEOUTS_MS: Readonly<Record<Exclude<LlmProviderId, "stub">, number>> = {
  openai: 30_000,
  groq: 30_000,
  anthropic: 30_000,
  ollama: 120_000,
};

/** Anthropic's Messages API requires `max_tokens`; an answer here is a few paragraphs. */
export const ANTHROPIC_MAX_OUTPUT_TOKENS = 2048;

/** The environment variable that holds each provider's key (Ollama needs none). */
export const API_KEY_VARIABLES: Readonly<Partial<Record<LlmProviderId, string>>> = {
  openai: "OPENAI_API_KEY",
  groq: "GROQ_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

const BASE_URL_VARIABLES: Readonly<Record<Exclude<LlmProviderId, "stub">, string>> = {
  openai: "OPENAI_BASE_URL",
  groq: "GROQ_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
  ollama: "OLLAMA_BASE_URL",
};

type Env = Record<string, string | undefined>;

/**
 * Reads the provider configuration from the environment: `LLM_PROVIDER` (default `stub`),
 * `LLM_MODEL`, `LLM_TIMEOUT_MS`, and the chosen provider's key and base URL. Fails fast with
 * an `llm_config` error naming the variable when the provider is unknown or its key is missing.
 */
export function providerConfigFromEnv(env: Env = process.env): ProviderConfig {
  const id = parseProviderId(env["LLM_PROVIDER"]);
  const config: ProviderConfig = { provider: id };
  const model = clean(env["LLM_MODEL"]);
  if (model !== undefined) config.model = model;
  if (id === "stub") return config;

  const keyVariable = API_KEY_VARIABLES[id];
  if (keyVariable !== undefined) {
    const apiKey = clean(env[keyVariable]);
    if (apiKey === undefined) throw missingKey(id, keyVariable);
    config.apiKey = apiKey;
  }
  config.baseUrl = clean(env[BASE_URL_VARIABLES[id]]) ?? DEFAULT_BASE_URLS[id];

  const timeout = clean(env["LLM_TIMEOUT_MS"]);
  if (timeout !== undefined) {
    const value = Number(timeout);
    if (!Number.isInteger(value) || value < 1) {
      throw new LlmError("llm_config", id, {
        message: `Configuração inválida: LLM_TIMEOUT_MS deve ser um número inteiro de milissegundos maior que zero.`,
      });
    }
    config.timeoutMs = value;
  }
  return config;
}

/** Builds the provider. Throws `LlmError('llm_config')` for an unknown provider or a missing key. */
export function createProvider(config: ProviderConfig): LlmProvider {
  const id = parseProviderId(config.provider);
  if (id === "stub") {
    return createStubProvider({ chunkDelayMs: config.chunkDelayMs });
  }
  const model = clean(config.model) ?? DEFAULT_MODELS[id];
  const keyVariable = API_KEY_VARIABLES[id];
  const apiKey = clean(config.apiKey);
  if (keyVariable !== undefined && apiKey === undefined) throw missingKey(id, keyVariable);
  const baseUrl = (clean(config.baseUrl) ?? DEFAULT_BASE_URLS[id]).replace(/\/+$/u, "");
  const timeoutMs = config.timeoutMs !== undefined && config.timeoutMs > 0 ? config.timeoutMs : DEFAULT_TIMEOUTS_MS[id];

  let client: ProviderClient;
  switch (id) {
    case "openai":
    case "groq":
      // Both speak Chat Completions (`/chat/completions`), as every OpenAI-compatible server does.
      client = openAiCompatibleClient({ apiKey: apiKey ?? "", baseUrl, model, headersTimeoutMs: timeoutMs * 2 });
      break;
    case "anthropic":
      // The Messages API requires max_tokens; set it so the SDK need not guess per model.
      client = aiSdkClient(id, createAnthropic({ apiKey, baseURL: baseUrl })(model), ANTHROPIC_MAX_OUTPUT_TOKENS);
      break;
    case "ollama":
      client = aiSdkClient(id, createOllama({ baseURL: `${baseUrl.replace(/\/api$/u, "")}/api`, fetch: ndjsonGuardFetch })(model));
      break;
  }
  return {
    id,
    model,
    stream: (request) => streamAnswer(id, client, () => toTurns(id, request), request.signal, timeoutMs),
  };
}

function parseProviderId(value: string | undefined): LlmProviderId {
  const name = (value ?? "").trim().toLowerCase();
  if (name === "") return "stub";
  if ((LLM_PROVIDER_IDS as readonly string[]).includes(name)) return name as LlmProviderId;
  throw new LlmError("llm_config", name, {
    message: `LLM_PROVIDER="${value ?? ""}" não é um provedor conhecido. Use um destes: ${LLM_PROVIDER_IDS.join(", ")}.`,
  });
}

function missingKey(id: LlmProviderId, variable: string): LlmError {
  return new LlmError("llm_config", id, {
    message: `A chave de acesso do provedor de IA não foi configurada: defina a variável de ambiente ${variable} para usar LLM_PROVIDER=${id}.`,
  });
}

/** The trimmed value; undefined when it is missing or blank. */
function clean(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

/** The request's turns: the system prompt, then the conversation (or the bare question). */
function toTurns(id: LlmProviderId, request: GenerateRequest): ProviderTurn[] {
  const turns: ProviderTurn[] = request.messages.map((turn) => ({ role: turn.role, content: turn.content }));
  if (turns.length === 0 && request.question?.trim()) turns.push({ role: "user", content: request.question.trim() });
  if (turns.length === 0) {
    throw new LlmError("llm_config", id, { message: "Nenhuma pergunta foi enviada ao provedor de IA." });
  }
  return request.system === undefined ? turns : [{ role: "system", content: request.system }, ...turns];
}
