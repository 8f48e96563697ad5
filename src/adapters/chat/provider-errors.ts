import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoSuchModelError,
  TypeValidationError,
} from "@ai-sdk/provider";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { LLM_STREAM_INTERRUPTED_MESSAGE, LlmError, type LlmErrorCode } from "../../core/chat/llm.js";

const CANNOT_CONNECT = "Não foi possível conectar ao provedor de IA. Verifique se ele está no ar e se o endereço configurado está certo.";
const MODEL_NOT_FOUND = "O modelo de IA configurado não foi encontrado no provedor. Verifique LLM_MODEL e o endereço do provedor.";

/**
 * Maps an error of a provider client (the AI SDK's, OpenAI's), of fetch or of the provider
 * itself to an LlmError. The clients' own messages (which may quote the provider's response)
 * are kept only as `cause`, never shown.
 */
export function toLlmError(error: unknown, provider: string): LlmError {
  if (error instanceof LlmError) return error;

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return new LlmError("llm_unavailable", provider, { cause: error, message: CANNOT_CONNECT });
    }
    if (status >= 200 && status < 300) {
      // The response had started: its body broke or could not be read.
      const message = isStreamCut(error) ? LLM_STREAM_INTERRUPTED_MESSAGE : undefined;
      return new LlmError("llm_bad_response", provider, { status, cause: error, message });
    }
    return fromStatus(status, provider, error);
  }
  const fromOpenAi = fromOpenAiClient(error, provider);
  if (fromOpenAi !== undefined) return fromOpenAi;
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

/**
 * OpenAI's client (the Chat Completions providers): an HTTP status, a connection that failed
 * or timed out, an `error` event inside the stream (an `APIError` without a status), or a
 * malformed event (its `SyntaxError`). Undefined for anything else, such as a body cut
 * mid-stream, which arrives as undici's own error.
 */
function fromOpenAiClient(error: unknown, provider: string): LlmError | undefined {
  if (error instanceof APIConnectionTimeoutError) return new LlmError("llm_timeout", provider, { cause: error });
  if (error instanceof APIUserAbortError) return new LlmError("llm_aborted", provider, { cause: error });
  if (error instanceof APIConnectionError) return new LlmError("llm_unavailable", provider, { cause: error, message: CANNOT_CONNECT });
  if (error instanceof APIError) {
    if (error.status !== undefined) return fromStatus(error.status, provider, error);
    const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : "error";
    return new LlmError(codeForErrorType(type), provider, { cause: error });
  }
  if (error instanceof SyntaxError) return new LlmError("llm_bad_response", provider, { cause: error });
  return undefined;
}

function fromStatus(status: number, provider: string, cause: unknown): LlmError {
  const error = (code: LlmErrorCode, message?: string) => new LlmError(code, provider, { status, cause, message });
  if (status === 401 || status === 403) return error("llm_auth");
  if (status === 429) return error("llm_rate_limited");
  if (status === 408 || status === 504) return error("llm_timeout");
  if (status === 404) return error("llm_config", MODEL_NOT_FOUND);
  if (status >= 500) return error("llm_unavailable");
  return error("llm_bad_response", "O provedor de IA recusou o pedido.");
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

const STREAM_CUT_CODES: readonly unknown[] = ["UND_ERR_SOCKET", "ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE"];
const TIMEOUT_CODES: readonly unknown[] = ["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"];

const codeOf = (error: Error): unknown => (error as { code?: unknown }).code;

/** undici's "terminated" (socket closed mid-body), a reset, or a premature close. */
function isStreamCut(error: unknown): boolean {
  return causes(error).some(
    (entry) =>
      entry instanceof Error &&
      ((entry instanceof TypeError && entry.message === "terminated") ||
        STREAM_CUT_CODES.includes(codeOf(entry)) ||
        entry.message === "stream ended without a finish event"),
  );
}

function isTimeout(error: unknown): boolean {
  return causes(error).some(
    (entry) => entry instanceof Error && (entry.name === "TimeoutError" || TIMEOUT_CODES.includes(codeOf(entry))),
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
