import { createAnthropic } from "@ai-sdk/anthropic";
import { createGroq } from "@ai-sdk/groq";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoSuchModelError,
  RetryError,
  TypeValidationError,
} from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import {
  LLM_PROVIDER_IDS,
  LLM_STREAM_INTERRUPTED_MESSAGE,
  LlmError,
  type GenerateRequest,
  type LlmErrorCode,
  type LlmProvider,
  type LlmProviderId,
} from "../../core/chat/llm.js";
import { STUB_MODEL, createStubProvider } from "./stub.js";

/**
 * The provider factory: turns configuration (normally the environment) into an
 * `LlmProvider`. The four real providers go through the Vercel AI SDK's official provider
 * packages (OpenAI, Groq, Anthropic) and the community Ollama provider (native `/api/chat`
 * NDJSON), called at the SDK's specification level (`LanguageModelV3.doStream`): an answer
 * here is plain text in one step, so `streamText`'s steps, tools, telemetry and chained web
 * streams would only cost CPU on the event loop (≈ 3.5× the work per delta, measured). Keys
 * live only here and in the SDK's request headers: they are never part of an error message,
 * a log line or anything sent to the browser.
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

const BASE_URL_VARIABLES: Readonly<Partial<Record<LlmProviderId, string>>> = {
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
  const baseUrlVariable = BASE_URL_VARIABLES[id];
  const baseUrl = baseUrlVariable === undefined ? undefined : clean(env[baseUrlVariable]);
  config.baseUrl = baseUrl ?? DEFAULT_BASE_URLS[id];

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
    return createStubProvider(config.chunkDelayMs === undefined ? {} : { chunkDelayMs: config.chunkDelayMs });
  }
  const model = clean(config.model) ?? DEFAULT_MODELS[id];
  const keyVariable = API_KEY_VARIABLES[id];
  const apiKey = clean(config.apiKey);
  if (keyVariable !== undefined && apiKey === undefined) throw missingKey(id, keyVariable);
  const baseUrl = (clean(config.baseUrl) ?? DEFAULT_BASE_URLS[id]).replace(/\/+$/u, "");
  const timeoutMs = config.timeoutMs !== undefined && config.timeoutMs > 0 ? config.timeoutMs : DEFAULT_TIMEOUTS_MS[id];

  let languageModel: LanguageModelV3;
  let maxOutputTokens: number | undefined;
  switch (id) {
    case "openai":
      // `.chat()`: the Chat Completions API (`/chat/completions`), which every
      // OpenAI-compatible server also speaks; the default would be the Responses API.
      languageModel = createOpenAI({ apiKey, baseURL: baseUrl }).chat(model);
      break;
    case "groq":
      languageModel = createGroq({ apiKey, baseURL: baseUrl })(model);
      break;
    case "anthropic":
      languageModel = createAnthropic({ apiKey, baseURL: baseUrl })(model);
      // The Messages API requires max_tokens; set it so the SDK need not guess per model.
      maxOutputTokens = ANTHROPIC_MAX_OUTPUT_TOKENS;
      break;
    case "ollama":
      languageModel = createOllama({ baseURL: `${baseUrl.replace(/\/api$/u, "")}/api`, fetch: ndjsonGuardFetch })(model);
      break;
  }
  return {
    id,
    model,
    stream: (request) => streamWithSdk(id, languageModel, request, { timeoutMs, maxOutputTokens }),
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

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** Why the upstream request was aborted, when it was us who aborted it. */
type AbortCause = "caller" | "timeout" | "done";

/** The request as the specification's prompt: the system prompt, then the turns as text parts. */
function toSpecPrompt(system: string | undefined, messages: readonly { role: "user" | "assistant"; content: string }[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system === undefined ? [] : [{ role: "system", content: system }];
  for (const turn of messages) prompt.push({ role: turn.role, content: [{ type: "text", text: turn.content }] });
  return prompt;
}

async function* streamWithSdk(
  id: LlmProviderId,
  model: LanguageModelV3,
  request: GenerateRequest,
  { timeoutMs, maxOutputTokens }: { timeoutMs: number; maxOutputTokens: number | undefined },
): AsyncGenerator<string> {
  const callerSignal = request.signal;
  if (callerSignal?.aborted) throw new LlmError("llm_aborted", id);

  const messages = request.messages.map((turn) => ({ role: turn.role, content: turn.content }));
  if (messages.length === 0 && request.question?.trim()) messages.push({ role: "user", content: request.question.trim() });
  if (messages.length === 0) {
    throw new LlmError("llm_config", id, { message: "Nenhuma pergunta foi enviada ao provedor de IA." });
  }

  const upstream = new AbortController();
  let abortCause: AbortCause | undefined;
  const abortUpstream = (cause: AbortCause) => {
    if (abortCause !== undefined) return;
    abortCause = cause;
    upstream.abort(
      cause === "timeout"
        ? new DOMException(`Sem resposta do provedor em ${timeoutMs} ms`, "TimeoutError")
        : new DOMException("Geração cancelada", "AbortError"),
    );
  };
  const onCallerAbort = () => abortUpstream("caller");
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  let timer: NodeJS.Timeout | undefined;
  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const armTimer = () => {
    stopTimer();
    timer = setTimeout(() => abortUpstream("timeout"), timeoutMs);
  };

  /** Turns whatever ended the stream into the LlmError the caller sees. */
  const failure = (error: unknown): LlmError => {
    if (abortCause === "caller" || callerSignal?.aborted) return new LlmError("llm_aborted", id);
    if (abortCause === "timeout") return new LlmError("llm_timeout", id, { cause: error });
    return toLlmError(error, id);
  };

  let finished = false;
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  try {
    armTimer();
    // One try (no retries): an error reaches the user in seconds, not after a minute of backoff.
    const { stream } = await model.doStream({
      prompt: toSpecPrompt(request.system, messages),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      abortSignal: upstream.signal,
    });
    reader = stream.getReader();
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) break;
      switch (part.type) {
        case "text-delta":
          if (part.delta !== "") {
            // The wait on our consumer is not the provider's silence.
            stopTimer();
            yield part.delta;
            if (callerSignal?.aborted) throw new LlmError("llm_aborted", id);
          }
          break;
        case "error":
          throw failure(part.error);
        case "finish":
          // A stream cut cleanly (no `[DONE]`/`message_stop`) still yields a finish part,
          // without the provider's finish reason. (Ollama's ending is checked by ndjsonGuardFetch.)
          if (part.finishReason.raw === undefined && id !== "ollama") {
            throw new LlmError("llm_bad_response", id, {
              message: LLM_STREAM_INTERRUPTED_MESSAGE,
              cause: new Error("stream ended without the provider's finish reason"),
            });
          }
          finished = true;
          break;
        default:
          break;
      }
      armTimer();
    }
    if (!finished) throw failure(new Error("stream ended without a finish event"));
  } catch (error) {
    throw error instanceof LlmError ? error : failure(error);
  } finally {
    stopTimer();
    callerSignal?.removeEventListener("abort", onCallerAbort);
    // An early exit (an error, or the consumer stopped reading) must close the upstream request.
    if (!finished) abortUpstream("done");
    reader?.cancel().catch(() => undefined);
  }
}

/**
 * Maps an AI SDK / fetch / provider error to an LlmError. The SDK's own messages (which may
 * quote the provider's response) are kept only as `cause`, never shown.
 */
export function toLlmError(error: unknown, provider: string): LlmError {
  if (error instanceof LlmError) return error;
  if (RetryError.isInstance(error)) return toLlmError(error.lastError, provider);

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return new LlmError("llm_unavailable", provider, {
        cause: error,
        message: "Não foi possível conectar ao provedor de IA. Verifique se ele está no ar e se o endereço configurado está certo.",
      });
    }
    if (status >= 200 && status < 300) {
      // The response had started: its body broke or could not be read.
      return isStreamCut(error)
        ? new LlmError("llm_bad_response", provider, { status, cause: error, message: LLM_STREAM_INTERRUPTED_MESSAGE })
        : new LlmError("llm_bad_response", provider, { status, cause: error });
    }
    return fromStatus(status, provider, error);
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error)
  ) {
    return new LlmError("llm_bad_response", provider, { cause: error });
  }
  if (LoadAPIKeyError.isInstance(error) || NoSuchModelError.isInstance(error)) {
    return new LlmError("llm_config", provider, { cause: error });
  }
  if (isStreamCut(error)) {
    return new LlmError("llm_bad_response", provider, { cause: error, message: LLM_STREAM_INTERRUPTED_MESSAGE });
  }
  if (isTimeout(error)) return new LlmError("llm_timeout", provider, { cause: error });

  // An error event inside the stream: `{ type, message }` (Anthropic, OpenAI) or a string (Ollama).
  const inStream = inStreamErrorType(error);
  if (inStream !== undefined) return new LlmError(codeForErrorType(inStream), provider, { cause: error });

  return new LlmError("llm_unavailable", provider, { cause: error });
}

function fromStatus(status: number, provider: string, cause: unknown): LlmError {
  let code: LlmErrorCode;
  let message: string | undefined;
  if (status === 401 || status === 403) code = "llm_auth";
  else if (status === 429) code = "llm_rate_limited";
  else if (status === 408 || status === 504) code = "llm_timeout";
  else if (status === 404) {
    code = "llm_config";
    message = "O modelo de IA configurado não foi encontrado no provedor. Verifique LLM_MODEL e o endereço do provedor.";
  } else if (status >= 500) code = "llm_unavailable";
  else {
    code = "llm_bad_response";
    message = "O provedor de IA recusou o pedido.";
  }
  return new LlmError(code, provider, { status, cause, ...(message === undefined ? {} : { message }) });
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 6) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** undici's "terminated" (socket closed mid-body), a reset, or a premature close. */
function isStreamCut(error: unknown): boolean {
  return causes(error).some((entry) => {
    if (!(entry instanceof Error)) return false;
    const code = (entry as { code?: unknown }).code;
    return (
      (entry instanceof TypeError && entry.message === "terminated") ||
      code === "UND_ERR_SOCKET" ||
      code === "ECONNRESET" ||
      code === "ERR_STREAM_PREMATURE_CLOSE" ||
      entry.message === "stream ended without a finish event"
    );
  });
}

function isTimeout(error: unknown): boolean {
  return causes(error).some(
    (entry) =>
      entry instanceof Error &&
      (entry.name === "TimeoutError" ||
        (entry as { code?: unknown }).code === "UND_ERR_HEADERS_TIMEOUT" ||
        (entry as { code?: unknown }).code === "UND_ERR_BODY_TIMEOUT"),
  );
}

function inStreamErrorType(error: unknown): string | undefined {
  if (typeof error === "string") return "error";
  if (typeof error !== "object" || error === null || error instanceof Error) return undefined;
  const record = error as Record<string, unknown>;
  if (typeof record["type"] === "string") return record["type"];
  if (typeof record["code"] === "string") return record["code"];
  if (typeof record["message"] === "string") return "error";
  return undefined;
}

function codeForErrorType(type: string): LlmErrorCode {
  if (/auth|permission|invalid_api_key/u.test(type)) return "llm_auth";
  if (/rate_limit/u.test(type)) return "llm_rate_limited";
  if (/timeout/u.test(type)) return "llm_timeout";
  return "llm_unavailable";
}

/**
 * Ollama's NDJSON stream, checked line by line before the provider parses it: the community
 * provider skips a malformed line with a console warning and treats a stream that stops
 * without its `done: true` line as complete. Here a malformed line, an `{"error": …}` line or
 * a stream that ends early fails the response, so the user gets an error, not a silently
 * truncated answer.
 */
const ndjsonGuardFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.ok || response.body === null) return response;
  let buffer = "";
  let sawDone = false;
  const checkLine = (line: string, controller: TransformStreamDefaultController<string>): boolean => {
    const trimmed = line.trim();
    if (trimmed === "") return true;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (cause) {
      controller.error(new LlmError("llm_bad_response", "ollama", { cause }));
      return false;
    }
    if (typeof value !== "object" || value === null) {
      controller.error(new LlmError("llm_bad_response", "ollama", { cause: new Error("NDJSON line is not an object") }));
      return false;
    }
    const record = value as Record<string, unknown>;
    if (record["error"] !== undefined) {
      controller.error(new LlmError("llm_unavailable", "ollama", { cause: new Error(String(record["error"])) }));
      return false;
    }
    if (record["done"] === true) sawDone = true;
    controller.enqueue(`${trimmed}\n`);
    return true;
  };
  const guard = new TransformStream<string, string>({
    transform(text, controller) {
      buffer += text;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) if (!checkLine(line, controller)) return;
    },
    flush(controller) {
      if (!checkLine(buffer, controller)) return;
      if (!sawDone) {
        controller.error(
          new LlmError("llm_bad_response", "ollama", {
            message: LLM_STREAM_INTERRUPTED_MESSAGE,
            cause: new Error("NDJSON stream ended without done:true"),
          }),
        );
      }
    },
  });
  const body = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(guard)
    .pipeThrough(new TextEncoderStream());
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
