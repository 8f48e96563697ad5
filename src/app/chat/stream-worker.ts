/**
 * The answers' stream thread (src/app/chat/stream-thread.ts): each answer's model call through
 * its citation check, on this thread's own provider (built from the server's settings), its
 * checked text posted back as it is released. No index here: the thread is small, and the
 * search workers keep searching while the answers stream.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createProvider } from "../../adapters/chat/providers.js";
import type { Versification } from "../../core/bible/references.js";
import { isLlmError } from "../../core/chat/llm.js";
import { localAnswerStreamer } from "./checked-stream.js";
import type { StreamThreadData, StreamControl, StreamEvent, StreamFailure } from "./stream-thread.js";

const port = parentPort!;
const { provider } = workerData as StreamThreadData;
/** The primary source's versification, from the engine the search workers loaded last. */
let versification: Versification = new Map();
const streamer = localAnswerStreamer(createProvider(provider), () => versification);
/** The answers streaming here, by session: how to stop each. */
const streams = new Map<number, AbortController>();

/** Streams one answer, posting its checked text as it is released, then its citations or its failure. */
async function streamAnswer(start: Extract<StreamControl, { type: "stream-start" }>): Promise<void> {
  const { session } = start;
  const controller = new AbortController();
  streams.set(session, controller);
  const post = (event: StreamEvent) => port.postMessage(event);
  try {
    const answer = streamer.stream({ ...start.request, signal: controller.signal }, start.check);
    let next = await answer.next();
    for (; !next.done; next = await answer.next()) post({ session, text: next.value });
    post({ session, citations: next.value });
  } catch (error) {
    // Stopped by the client: nobody waits for more.
    if (!controller.signal.aborted) post({ session, failed: streamFailure(error) });
  } finally {
    streams.delete(session);
  }
}

/** An error as it crosses to the event loop: an `LlmError` keeps its code, provider and status. */
function streamFailure(error: unknown): StreamFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (!isLlmError(error)) return { message };
  const llm: StreamFailure["llm"] = { code: error.code, provider: error.provider };
  if (error.status !== undefined) llm.status = error.status;
  return { message, llm };
}

port.on("message", (message: StreamControl) => {
  if (message.type === "versification") versification = message.versification;
  else if (message.type === "stream-start") void streamAnswer(message);
  else streams.get(message.session)?.abort();
});
