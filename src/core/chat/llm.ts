/**
 * The language-model specification: what the chat layer asks of a provider and what a
 * provider may fail with. Types only (plus the error class): no I/O, no SDK. Adapters in
 * `src/adapters/chat/` implement `LlmProvider`.
 */

import type { ChatTurn } from "../grounding/prompt.js";
import type { CrisisKind } from "../reading/crisis.js";
import type { AnswerShape } from "../grounding/answer-shape.js";

/** One turn of the conversation already held with the user (the prompt's own type: one shape from the question to the provider). */
export type { ChatTurn };

/** A passage retrieved for the question, cited by `reference` exactly as given. */
export interface GroundingPassage {
  reference: string;
  text: string;
}

export interface GenerateRequest {
  /** The system prompt (instructions plus the retrieved passages, as the chat layer writes it). */
  system: string;
  /** The conversation, oldest first; the last turn is normally the user's question. */
  messages: ChatTurn[];
  /** Aborts the generation, including the upstream HTTP request. */
  signal?: AbortSignal;
  /** For the offline stub only: the passages to build the extractive answer from. */
  passages?: GroundingPassage[];
  /** For the offline stub only: the user's question, plain. */
  question?: string;
  /** For the offline stub only: what the passages come from ("a Bíblia" unless said). */
  corpusLabel?: string;
  /** For the offline stub only: the writer is at risk (core/reading/crisis.ts); the passages are of consolation. */
  care?: CrisisKind;
  /** For the offline stub only: the gate kept the question with a doubt (set from the plan; the model reads it in the prompt). */
  doubtful?: boolean;
  /** For the offline stub only: the kind of message and what retrieval found for it (the model reads it in the prompt's `<tipo>` note). */
  shape?: AnswerShape;
}

export const LLM_PROVIDER_IDS = ["stub", "ollama", "openai", "groq", "anthropic"] as const;

export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

export interface LlmProvider {
  readonly id: LlmProviderId;
  readonly model: string;
  /**
   * Streams the answer as text deltas. Every failure is thrown as an `LlmError`, during the
   * iteration (never as a silent early end).
   */
  stream(request: GenerateRequest): AsyncIterable<string>;
}

/** The default end-user message for each code (Brazilian Portuguese, never any secret). */
export const LLM_ERROR_MESSAGES = {
  llm_auth: "O provedor de IA recusou a chave de acesso configurada.",
  llm_rate_limited: "O provedor de IA está recebendo pedidos demais. Tente de novo em instantes.",
  llm_unavailable: "O provedor de IA está indisponível no momento.",
  llm_timeout: "O provedor de IA demorou demais para responder.",
  llm_bad_response: "O provedor de IA enviou uma resposta em formato inesperado.",
  llm_aborted: "A geração da resposta foi cancelada.",
  llm_config: "O provedor de IA não está configurado corretamente.",
} as const;

export type LlmErrorCode = keyof typeof LLM_ERROR_MESSAGES;

/** The message for a stream cut mid-way (code `llm_bad_response`). */
export const LLM_STREAM_INTERRUPTED_MESSAGE = "A resposta do provedor de IA foi interrompida.";

export interface LlmErrorOptions {
  /** The end-user message; defaults to `LLM_ERROR_MESSAGES[code]`. Must never contain a secret. */
  message?: string;
  /** The upstream HTTP status, when there was one. */
  status?: number;
  /** The underlying error, for logs (it may mention URLs, never keys: the SDK does not echo them). */
  cause?: unknown;
}

/**
 * A provider failure. `message` is a Portuguese sentence fit to show to the user as is;
 * `code` is what the API and the UI switch on.
 */
export class LlmError extends Error {
  readonly code: LlmErrorCode;
  readonly status?: number;
  readonly provider: string;

  constructor(code: LlmErrorCode, provider: string, options: LlmErrorOptions = {}) {
    super(options.message ?? LLM_ERROR_MESSAGES[code], options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LlmError";
    this.code = code;
    this.provider = provider;
    if (options.status !== undefined) this.status = options.status;
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}
