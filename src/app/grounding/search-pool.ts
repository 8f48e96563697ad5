import type { Worker } from "node:worker_threads";
import { StoreError, type StoreErrorCode } from "../../adapters/index/store.js";
import type { Settings } from "../../config/settings.js";
import type { Versification } from "../../core/bible/references.js";
import type { ChatTurn } from "../../core/grounding/prompt.js";
import type { Passage } from "../../core/grounding/passages.js";
import type { AnswerEngine, PrepareOptions, PreparedAnswer, VerseCoordinate, VerseRecord } from "./answer-engine.js";
import type { DocumentSearchOptions, DocumentSearchResponse } from "../../core/retrieval/document-search.js";
import type { CollectionSearchHost, CollectionSummary, PreparedCollectionAnswer } from "./collection-host.js";
import { SearchUnavailableError, type AnswerCitationCheck } from "./answer-engine.js";
import { startAppWorker } from "../start-worker.js";
import type { LoadOptions, SnapshotUse } from "../retrieval/load-engine.js";

/** What a worker reports after loading the engine (the same in every worker). */
export interface EngineSummary {
  /** Whether the engine was read from the index's snapshot or built from the index (the first worker's, which saves a new snapshot when asked). */
  snapshot: SnapshotUse;
  size: number;
  denseAvailable: boolean;
  denseModel: string | null;
  denseReason: string | null;
  versification: Versification;
}

export type PoolRequest = { id: number } & (
  | { type: "load"; snapshot?: LoadOptions["snapshot"] }
  | { type: "prepare"; question: string; history: readonly ChatTurn[]; options: PrepareOptions }
  | { type: "verses"; coordinates: readonly VerseCoordinate[] }
  | { type: "hold"; flag: SharedArrayBuffer }
  // The first push (or the finish of an answer without deltas) opens the check with its passages.
  | { type: "check-push"; session: number; delta: string; passages?: readonly Passage[] }
  | { type: "check-finish"; session: number; passages?: readonly Passage[] }
  | { type: "check-close"; session: number }
  | { type: "collection-load"; name: string }
  | { type: "collection-prepare"; name: string; question: string; history: readonly ChatTurn[]; topK: number }
  | { type: "collection-search"; name: string; query: string; options: DocumentSearchOptions }
);

type RequestBody = PoolRequest extends infer R ? (R extends PoolRequest ? Omit<R, "id"> : never) : never;

export type PoolReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; storeCode: StoreErrorCode | undefined } };

interface Task {
  body: RequestBody;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** An answer's first check request: its first token waits on it, so no question goes before. */
  opening?: boolean;
  /** When it was queued (performance.now()): a later check waits behind questions only so long. */
  queuedAt: number;
}

interface Slot {
  worker: Worker;
  /** The requests sent to this worker and not answered yet (at most `inFlight`), by request id. */
  inFlight: Map<number, Task>;
  /** Tasks for this worker only (its engine loads), before the shared queue. */
  pinned: Task[];
  /** False until the first engine load of a replacement is sent, so it takes no question before. */
  ready: boolean;
  exited: boolean;
  /** Citation checks of answers streaming through this worker. */
  checks: number;
}

/** Whether the worker is building an engine: what comes after waits for it (a check needs the loaded versification). */
function loading(slot: Slot): boolean {
  for (const task of slot.inFlight.values()) if (task.body.type === "load" || task.body.type === "collection-load") return true;
  return false;
}

/** How the pool orders a worker's work (the defaults were measured under 50 streams: docs/ARCHITECTURE.md, the worker pool). */
export interface PoolSchedule {
  /** How long a worker's own request (a later citation delta, an engine load) waits behind new questions at most. */
  patienceMs: number;
  /**
   * Requests a worker holds at once: the next ones wait in its port while it runs one, so it
   * does not idle while the busy event loop gets round to its replies (it answers them as they
   * finish). What waits in a port keeps its order: a request still in the pool can go before
   * it, one already sent cannot.
   */
  inFlight: number;
}

/**
 * Eight in flight: under a burst of 50 questions the event loop, busy with the streams, often
 * reaches a reply only after the worker has finished the next request too; with two, the
 * worker then idled (≈ 40 % of the burst) while questions waited in the pool.
 */
export const DEFAULT_POOL_SCHEDULE: PoolSchedule = Object.freeze({ patienceMs: 400, inFlight: 8 });

export interface PoolStatus {
  size: number;
  busy: number;
  queued: number;
  restarts: number;
}

export interface PoolLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The search workers (SEARCH_WORKERS ≥ 1): each holds its own read-only engine, built from
 * the store, and runs retrieval, the out-of-scope gate and prompt building off the event
 * loop. Questions wait in one FIFO queue and go to the first idle worker. A worker that
 * dies fails only the question it was running (`SearchUnavailableError`, Portuguese) and is
 * replaced by one that loads the current index before taking questions.
 */
export class SearchPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private nextSession = 1;
  private restartCount = 0;
  private closed = false;
  /** Set after the first load: a replacement worker loads the engine before it serves. */
  private hasEngine = false;
  /** The document collections the workers serve: a replacement loads them too before it serves. */
  private readonly collections = new Set<string>();

  constructor(
    private readonly settings: Settings,
    readonly size: number,
    private readonly logger?: PoolLogger,
    private readonly schedule: PoolSchedule = DEFAULT_POOL_SCHEDULE,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = startAppWorker("grounding/search-worker", { workerData: { settings: this.settings } });
    const slot: Slot = { worker, inFlight: new Map(), pinned: [], ready: true, exited: false, checks: 0 };
    worker.on("message", (reply: PoolReply) => this.settle(slot, reply));
    worker.on("error", (error) => this.logger?.warn("search worker error", { message: error.message }));
    worker.on("exit", (code) => this.exited(slot, code));
    return slot;
  }

  private exited(slot: Slot, code: number): void {
    slot.exited = true;
    const index = this.slots.indexOf(slot);
    const lost = [...slot.inFlight.values(), ...slot.pinned];
    slot.inFlight.clear();
    slot.pinned = [];
    for (const task of lost) task.reject(task.body.type === "load" ? new Error(`search worker exited with code ${code}`) : new SearchUnavailableError());
    if (this.closed || index < 0) return;
    this.logger?.warn("search worker exited; starting another", { code });
    this.restartCount += 1;
    const replacement = this.spawn();
    this.slots[index] = replacement;
    if (this.hasEngine || this.collections.size > 0) {
      replacement.ready = false;
      this.loadEverything(replacement).then(
        () => {
          replacement.ready = true;
          this.drain();
        },
        (error: unknown) => this.logger?.warn("search worker failed to load the index", { message: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  /** What a replacement loads before it takes questions: the Bible's engine, then every collection served. */
  private async loadEverything(slot: Slot): Promise<void> {
    if (this.hasEngine) await this.pin(slot, { type: "load" });
    for (const name of this.collections) await this.pin(slot, { type: "collection-load", name });
  }

  private settle(slot: Slot, reply: PoolReply): void {
    const task = slot.inFlight.get(reply.id);
    slot.inFlight.delete(reply.id);
    if (task) {
      if (reply.ok) task.resolve(reply.value);
      else task.reject(reply.error.storeCode ? new StoreError(reply.error.storeCode, reply.error.message) : new Error(reply.error.message));
    }
    this.drain();
  }

  private run<T>(body: RequestBody, signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new SearchUnavailableError("O servidor está sendo encerrado."));
    return new Promise<T>((resolve, reject) => {
      const task: Task = { body, resolve: resolve as (value: unknown) => void, reject, queuedAt: performance.now() };
      this.queue.push(task);
      // A client gone before its question reached a worker: it leaves the queue.
      signal?.addEventListener(
        "abort",
        () => {
          const at = this.queue.indexOf(task);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(new SearchUnavailableError("A pergunta foi cancelada."));
          }
        },
        { once: true },
      );
      this.drain();
    });
  }

  private pin<T>(slot: Slot, body: RequestBody, opening = false): Promise<T> {
    if (slot.exited) return Promise.reject(new SearchUnavailableError());
    return new Promise<T>((resolve, reject) => {
      const task: Task = { body, resolve: resolve as (value: unknown) => void, reject, opening, queuedAt: performance.now() };
      // An opening goes after the other openings and before everything else: it is its
      // answer's first request, so no request of the same answer can be ahead of it.
      const at = opening ? slot.pinned.findIndex((queued) => !queued.opening) : -1;
      if (at < 0) slot.pinned.push(task);
      else slot.pinned.splice(at, 0, task);
      this.drain();
    });
  }

  private drain(): void {
    const now = performance.now();
    // Idle workers first, then those with requests in flight, up to `inFlight` each.
    for (let depth = 0; depth < this.schedule.inFlight; depth++) {
      for (const slot of this.slots) {
        if (slot.inFlight.size !== depth || slot.exited || loading(slot)) continue;
        const task = this.nextTask(slot, now);
        if (!task) continue;
        const id = this.nextId++;
        slot.inFlight.set(id, task);
        slot.worker.postMessage({ ...task.body, id } satisfies PoolRequest);
      }
    }
  }

  /**
   * What a worker takes next: an answer's opening check first (its first token waits on it);
   * then new questions, unless the worker's own queue (later citation deltas, engine loads)
   * has waited `patienceMs`. So a burst of questions is searched back to back, and a
   * streaming answer pauses for at most that long, never starves.
   */
  private nextTask(slot: Slot, now: number): Task | undefined {
    const head = slot.pinned[0];
    const ownFirst = head !== undefined && (head.opening === true || now - head.queuedAt >= this.schedule.patienceMs);
    if (!ownFirst && slot.ready && this.queue.length > 0) return this.queue.shift();
    return slot.pinned.shift();
  }

  /**
   * Every worker loads the engine from the store and swaps it in; the summary of the first. The
   * first loads alone, and with `snapshot: "save"` saves a new snapshot when the stored one is
   * not current, so the others read it instead of each building the engine.
   */
  async load(snapshot: LoadOptions["snapshot"] = "build"): Promise<EngineSummary> {
    const [first, ...others] = this.slots;
    const summary = await this.pin<EngineSummary>(first!, { type: "load", snapshot });
    const summaries = [summary, ...(await Promise.all(others.map((slot) => this.pin<EngineSummary>(slot, { type: "load" }))))];
    this.hasEngine = true;
    for (const slot of this.slots) slot.ready = true;
    return summaries[0]!;
  }

  /** The engine the workers hold, as the chat and `/api/verses` use it. */
  answerEngine(summary: EngineSummary): AnswerEngine {
    return {
      size: summary.size,
      denseAvailable: summary.denseAvailable,
      versification: summary.versification,
      prepare: (question, history, options, signal) => this.run<PreparedAnswer>({ type: "prepare", question, history, options }, signal),
      versesAt: (coordinates) => this.run<(VerseRecord | undefined)[]>({ type: "verses", coordinates }),
      checkCitations: (passages) => this.citationCheck(passages),
    };
  }

  /**
   * The document collections' searches in the workers: each loads a collection from its own
   * connection to the index; questions take the shared queue like the Bible's.
   */
  collectionHost(): CollectionSearchHost {
    return {
      load: async (name) => {
        const summaries = await Promise.all(this.slots.map((slot) => this.pin<CollectionSummary>(slot, { type: "collection-load", name })));
        this.collections.add(name);
        return summaries[0]!;
      },
      prepare: (name, question, history, topK, signal) =>
        this.run<PreparedCollectionAnswer>({ type: "collection-prepare", name, question, history, topK }, signal),
      search: (name, query, options) => this.run<DocumentSearchResponse>({ type: "collection-search", name, query, options }),
    };
  }

  /**
   * An answer's citation check in the worker with the fewest: its requests go to that worker
   * in order. The first one (the answer's first token waits on it) goes ahead of questions
   * waiting for a search; the later ones take turns with them.
   */
  private citationCheck(passages: readonly Passage[]): AnswerCitationCheck {
    const slot = this.slots.filter((s) => !s.exited).reduce((a, b) => (b.checks < a.checks ? b : a));
    const session = this.nextSession++;
    slot.checks += 1;
    let open = true;
    const end = () => {
      if (!open) return;
      open = false;
      slot.checks -= 1;
    };
    let unsent: readonly Passage[] | undefined = passages;
    // The first request opens the check with the passages, ahead of waiting questions.
    const send = <T>(body: Extract<RequestBody, { type: "check-push" | "check-finish" }>): Promise<T> => {
      const first = unsent;
      unsent = undefined;
      return this.pin<T>(slot, first ? { ...body, passages: first } : body, first !== undefined);
    };
    return {
      push: (delta) => send<string>({ type: "check-push", session, delta }),
      finish: async () => {
        const result = await send<{ tail: string; citations: string[] }>({ type: "check-finish", session });
        end();
        return result;
      },
      close: () => {
        if (!open) return;
        end();
        if (!slot.exited && unsent === undefined) this.pin(slot, { type: "check-close", session }).catch(() => undefined);
      },
    };
  }

  status(): PoolStatus {
    return { size: this.size, busy: this.slots.filter((slot) => slot.inFlight.size > 0).length, queued: this.queue.length, restarts: this.restartCount };
  }

  /** The worker threads, for tests that stop one as a crash would. */
  get workers(): readonly Worker[] {
    return this.slots.map((slot) => slot.worker);
  }

  /**
   * Test hook: the next request the idle workers' queue hands `slotIndex` blocks that worker's
   * thread until `flag[0]` is set to non-zero (as a long search would), so a test can observe
   * the server while a worker is busy, without timing.
   */
  async holdNextTask(slotIndex: number, flag: SharedArrayBuffer): Promise<void> {
    await this.pin(this.slots[slotIndex]!, { type: "hold", flag });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new SearchUnavailableError("O servidor está sendo encerrado."));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}
