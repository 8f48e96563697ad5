import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { LLM_STREAM_INTERRUPTED_MESSAGE, LlmError, type LlmProviderId } from "../../core/chat/llm.js";
import type { ProviderClient, ProviderEvent, ProviderTurn } from "./provider-stream.js";

/**
 * The providers read through the Vercel AI SDK (Anthropic's official provider, the community
 * Ollama provider), at the SDK's specification level (`LanguageModelV3.doStream`): an answer
 * here is plain text in one step, so `streamText`'s steps, tools, telemetry and chained web
 * streams would only cost CPU on the event loop (≈ 3.5× the work per delta, measured).
 */

/** The turns as the AI SDK specification's prompt: the system prompt, then the turns as text parts. */
function toSpecPrompt(turns: readonly ProviderTurn[]): LanguageModelV3Prompt {
  return turns.map((turn) =>
    turn.role === "system" ? { role: "system", content: turn.content } : { role: turn.role, content: [{ type: "text", text: turn.content }] },
  );
}

/**
 * A model of the AI SDK's specification as a provider client, read at the `doStream` level.
 * A stream cut cleanly (no `message_stop`) still yields a finish part, without the provider's
 * finish reason, so that is an interrupted answer. (Ollama's ending is checked by
 * ndjsonGuardFetch.)
 */
export function aiSdkClient(id: LlmProviderId, model: LanguageModelV3, maxOutputTokens?: number): ProviderClient {
  return async (turns, signal) => sdkEvents(id, model, turns, maxOutputTokens, signal);
}

async function* sdkEvents(
  id: LlmProviderId,
  model: LanguageModelV3,
  turns: readonly ProviderTurn[],
  maxOutputTokens: number | undefined,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const { stream } = await model.doStream({
    prompt: toSpecPrompt(turns),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    abortSignal: signal,
  });
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) return;
      if (part.type === "text-delta") yield { type: "text", delta: part.delta };
      else if (part.type === "error") throw part.error;
      else if (part.type === "finish") {
        if (part.finishReason.raw === undefined && id !== "ollama") {
          throw new LlmError("llm_bad_response", id, {
            message: LLM_STREAM_INTERRUPTED_MESSAGE,
            cause: new Error("stream ended without the provider's finish reason"),
          });
        }
        yield { type: "finish" };
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Ollama's NDJSON stream, checked line by line before the provider parses it: the community
 * provider skips a malformed line with a console warning and treats a stream that stops
 * without its `done: true` line as complete. Here a malformed line, an `{"error": …}` line or
 * a stream that ends early fails the response, so the user gets an error, not a silently
 * truncated answer.
 */
export const ndjsonGuardFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.ok || response.body === null) return response;
  let buffer = "";
  let sawDone = false;
  // A line that fails throws its LlmError, which errors the stream as controller.error would.
  const checkLine = (line: string, controller: TransformStreamDefaultController<string>): void => {
    const trimmed = line.trim();
    if (trimmed === "") return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (cause) {
      throw new LlmError("llm_bad_response", "ollama", { cause });
    }
    if (typeof value !== "object" || value === null) {
      throw new LlmError("llm_bad_response", "ollama", { cause: new Error("NDJSON line is not an object") });
    }
    const record = value as Record<string, unknown>;
    if (record["error"] !== undefined) throw new LlmError("llm_unavailable", "ollama", { cause: new Error(String(record["error"])) });
    if (record["done"] === true) sawDone = true;
    controller.enqueue(`${trimmed}\n`);
  };
  const guard = new TransformStream<string, string>({
    transform(text, controller) {
      buffer += text;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) checkLine(line, controller);
    },
    flush(controller) {
      checkLine(buffer, controller);
      if (!sawDone) {
        throw new LlmError("llm_bad_response", "ollama", {
          message: LLM_STREAM_INTERRUPTED_MESSAGE,
          cause: new Error("NDJSON stream ended without done:true"),
        });
      }
    },
  });
  const body = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(guard)
    .pipeThrough(new TextEncoderStream());
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
