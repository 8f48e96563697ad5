/**
 * The answers' stream thread, seen from the event loop: every answer's model call and
 * citation check run in one worker thread of their own (src/app/chat/stream-worker.ts), and
 * only the checked text comes back, as it is released. The provider's HTTP client, its stream
 * parsing and the per-token check then cost the event loop nothing (it frames SSE), and they
 * do not wait behind the search workers' searches either.
 */
import type { Worker } from "node:worker_threads";
import type { ProviderConfig } from "../../adapters/chat/providers.js";
import type { Versification } from "../../core/bible/references.js";
import { LlmError, type GenerateRequest, type LlmErrorCode } from "../../core/chat/llm.js";
import { SearchUnavailableError } from "../grounding/answer-engine.js";
import { startAppWorker } from "../start-worker.js";
import type { AnswerStreamer, CheckSpec } from "./checked-stream.js";

/** What the stream thread starts with: the provider it builds (plain settings, keys included). */
export interface StreamThreadData {
  provider: ProviderConfig;
}

/** The event loop's messages to the stream thread. */
export type StreamControl =
  | { type: "versification"; versification: Versification }
  | { type: "stream-start"; session: number; request: Omit<GenerateRequest, "signal">; check: CheckSpec }
  | { type: "stream-abort"; session: number };

/** A provider error on its way out of the thread: an `LlmError`'s code and message, or only a message. */
export interface StreamFailure {
  message: string;
  llm?: { code: LlmErrorCode; provider: string; status?: number };
}

/** The thread's events of one answer: checked text, then the citations kept or the failure. */
export type StreamEvent = { session: number } & ({ text: string } | { citations: string[] } | { failed: StreamFailure });

/** Why an answer stops waiting for its thread: the thread died ("lost"), or the client left ("aborted"). */
type Arrival = StreamEvent | "lost" | "aborted";

const CANCELLED = "A resposta foi cancelada.";

/**
 * The stream thread keeps little alive (the answers in flight), so a small young generation
 * costs it only more frequent, short scavenges: ≈ 37 MB of RSS at rest, and peaks under load
 * below those of V8's default (measured: docs/ARCHITECTURE.md, the stream thread).
 */
const STREAM_THREAD_YOUNG_GENERATION_MB = 12;

/** One answer's arrivals, taken in order. */
class Inbox {
  private readonly items: Arrival[] = [];
  private waiting: ((item: Arrival) => void) | undefined;

  put(item: Arrival): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(item);
    else this.items.push(item);
  }

  take(): Promise<Arrival> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift()!);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

export interface StreamThreadLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The stream thread and its answers. A thread that dies fails the answers it held with the
 * Portuguese `search_failed` error (after the text already sent) and is replaced at once.
 */
export class StreamThread implements AnswerStreamer {
  private thread: Worker;
  private readonly inboxes = new Map<number, Inbox>();
  private nextSession = 1;
  private versification: Versification | undefined;
  private closed = false;
  /** How many times the thread was replaced. */
  restarts = 0;

  constructor(
    private readonly provider: ProviderConfig,
    private readonly logger?: StreamThreadLogger,
  ) {
    this.thread = this.spawn();
  }

  /** The worker thread, for tests that stop it as a crash would. */
  get worker(): Worker {
    return this.thread;
  }

  /** Answers streaming now. */
  get streaming(): number {
    return this.inboxes.size;
  }

  private spawn(): Worker {
    const thread = startAppWorker("chat/stream-worker", {
      workerData: { provider: this.provider } satisfies StreamThreadData,
      resourceLimits: { maxYoungGenerationSizeMb: STREAM_THREAD_YOUNG_GENERATION_MB },
    });
    thread.on("message", (event: StreamEvent) => this.inboxes.get(event.session)?.put(event));
    thread.on("error", (error) => this.logger?.warn("stream thread error", { message: error.message }));
    thread.on("exit", (code) => this.exited(thread, code));
    if (this.versification) thread.postMessage({ type: "versification", versification: this.versification } satisfies StreamControl);
    return thread;
  }

  private exited(thread: Worker, code: number): void {
    if (thread !== this.thread) return;
    for (const inbox of this.inboxes.values()) inbox.put("lost");
    if (this.closed) return;
    this.logger?.warn("stream thread exited; starting another", { code });
    this.restarts += 1;
    this.thread = this.spawn();
  }

  /** The versification Bible citations are checked against (after every engine load). */
  setVersification(versification: Versification): void {
    this.versification = versification;
    this.thread.postMessage({ type: "versification", versification } satisfies StreamControl);
  }

  async *stream(request: GenerateRequest, check: CheckSpec): AsyncGenerator<string, string[]> {
    if (this.closed) throw new SearchUnavailableError("O servidor está sendo encerrado.");
    const { signal, ...plain } = request;
    if (signal?.aborted) throw new Error(CANCELLED);
    const thread = this.thread;
    const session = this.nextSession++;
    const inbox = new Inbox();
    this.inboxes.set(session, inbox);
    let open = true;
    // The client left (or the consumer stopped): the thread stops the model, and this side
    // stops waiting at once, as a provider call in this thread throws on its abort.
    const abort = () => {
      if (!open) return;
      open = false;
      if (thread === this.thread) thread.postMessage({ type: "stream-abort", session } satisfies StreamControl);
      inbox.put("aborted");
    };
    signal?.addEventListener("abort", abort, { once: true });
    thread.postMessage({ type: "stream-start", session, request: plain, check } satisfies StreamControl);
    try {
      for (;;) {
        const event = await inbox.take();
        if (event === "lost") throw new SearchUnavailableError();
        if (event === "aborted") throw new Error(CANCELLED);
        if ("text" in event) yield event.text;
        else {
          open = false;
          if ("citations" in event) return event.citations;
          throw streamFailure(event.failed);
        }
      }
    } finally {
      signal?.removeEventListener("abort", abort);
      abort();
      this.inboxes.delete(session);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.thread.terminate();
  }
}

/** A thread's failure as this side throws it: the provider's `LlmError` (its code and message), or a plain error. */
function streamFailure(failed: StreamFailure): Error {
  if (!failed.llm) return new Error(failed.message);
  const { code, provider, status } = failed.llm;
  return new LlmError(code, provider, status === undefined ? { message: failed.message } : { message: failed.message, status });
}
