import { LlmError, type LlmProviderId } from "../../core/chat/llm.js";
import { toLlmError } from "./provider-errors.js";

/**
 * What a provider's client yields, reduced to what an answer needs: text, then the provider's
 * finish. An error is thrown, never yielded; a stream that ends without `finish` was cut.
 */
export type ProviderEvent = { type: "text"; delta: string } | { type: "finish" };

/** One turn as every provider is sent it: the system prompt first, then the conversation. */
export interface ProviderTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A provider's client: opens one streamed answer to the turns; `signal` aborts the upstream request. */
export type ProviderClient = (turns: readonly ProviderTurn[], signal: AbortSignal) => Promise<AsyncIterable<ProviderEvent>>;

/** Why the upstream request was aborted, when it was us who aborted it. */
type AbortCause = "caller" | "timeout" | "done";

/**
 * One answer from any provider client: the text deltas in order, with what every provider
 * shares around them: the caller's abort signal, an inactivity timeout (the longest wait for
 * the response to start and then between two events; the wait on our own consumer does not
 * count), one `LlmError` for whatever ended the stream early, and the upstream request closed
 * on every early exit (an error, an abort, or a consumer that stopped reading). `turns` is
 * called only once the caller's signal is known not to be aborted: an aborted or invalid
 * request sends nothing.
 */
export async function* streamAnswer(
  id: LlmProviderId,
  client: ProviderClient,
  turns: () => ProviderTurn[],
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
): AsyncGenerator<string> {
  if (callerSignal?.aborted) throw new LlmError("llm_aborted", id);

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

  // clearTimeout ignores a timer already fired or cleared (and undefined).
  let timer: NodeJS.Timeout | undefined;
  const armTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => abortUpstream("timeout"), timeoutMs);
  };

  /** Turns whatever ended the stream into the LlmError the caller sees. */
  const failure = (error: unknown): LlmError => {
    if (abortCause === "caller" || callerSignal?.aborted) return new LlmError("llm_aborted", id);
    if (abortCause === "timeout") return new LlmError("llm_timeout", id, { cause: error });
    return toLlmError(error, id);
  };

  let finished = false;
  let readToTheEnd = false;
  try {
    armTimer();
    const events = await client(turns(), upstream.signal);
    for await (const event of events) {
      if (event.type === "finish") {
        // Read on to the stream's end (`[DONE]`, a usage event), so the connection is reused.
        finished = true;
      } else if (event.delta !== "" && !finished) {
        // The wait on our consumer is not the provider's silence.
        clearTimeout(timer);
        yield event.delta;
        if (callerSignal?.aborted) throw new LlmError("llm_aborted", id);
      }
      armTimer();
    }
    readToTheEnd = true;
    if (!finished) throw failure(new Error("stream ended without a finish event"));
  } catch (error) {
    // After the provider's finish the answer is whole: a silence or a break in what follows
    // (`[DONE]`, a usage event) only costs the connection, closed below.
    if (finished) return;
    throw error instanceof LlmError ? error : failure(error);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    // An early exit (an error, or the consumer stopped reading) must close the upstream request.
    if (!readToTheEnd) abortUpstream("done");
  }
}
