import type { GenerateRequest, LlmProvider } from "../core/chat/llm.js";

/** The provider with its stream in pieces of at most one per `windowMs` ({@link coalesceDeltas}); 0 leaves it as it is. */
export function withStreamPieces(provider: LlmProvider, windowMs: number): LlmProvider {
  if (windowMs <= 0) return provider;
  return {
    id: provider.id,
    model: provider.model,
    stream: (request: GenerateRequest) => coalesceDeltas(provider.stream(request), windowMs),
  };
}

/**
 * A model's stream in fewer, larger pieces: the first delta passes at once (time to first
 * token is untouched); each later piece is every delta that arrived since the previous one,
 * at most one piece per `windowMs`. Every piece costs the server a citation check round trip,
 * an SSE frame and a socket write, and 50 ms between pieces is below what a reader notices;
 * with a provider that sends a token every 20 ms, a 50 ms window does that work about once
 * for three tokens.
 * The text is the same and in the same order; a provider error comes after the text that
 * preceded it.
 */
export async function* coalesceDeltas(source: AsyncIterable<string>, windowMs: number): AsyncGenerator<string> {
  if (windowMs <= 0) {
    yield* source;
    return;
  }
  const iterator = source[Symbol.asyncIterator]();
  let pending = "";
  let ended = false;
  let failure: { error: unknown } | undefined;
  let arrived: (() => void) | undefined;
  // The provider is read as fast as it sends; what it sent waits here for the next piece.
  // `end` resolves when the reading stops (never rejects: a failure is kept for the reader).
  const end = (async () => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        pending += next.value;
        arrived?.();
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      arrived?.();
    }
  })();
  let lastPiece: number | undefined;
  try {
    for (;;) {
      while (pending === "" && !ended) await new Promise<void>((resolve) => (arrived = resolve));
      arrived = undefined;
      if (pending === "") break;
      const wait = lastPiece === undefined ? 0 : lastPiece + windowMs - performance.now();
      if (wait > 0 && !ended) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, wait))), end]);
        clearTimeout(timer);
      }
      const piece = pending;
      pending = "";
      lastPiece = performance.now();
      yield piece;
    }
    if (failure) throw failure.error;
  } finally {
    // A reader that stops early (the client left) stops the provider's stream too.
    if (!ended) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
