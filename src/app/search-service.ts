import path from "node:path";
import type { Worker } from "node:worker_threads";
import { GENERATION_KEY, StoreError, type UnitStore, type SourceRecord, type StoreKind } from "../adapters/index/store.js";
import type { Settings } from "../config/settings.js";
import type { SearchEngine } from "../core/retrieval/engine.js";
import type { IndexError, IndexProgress, IndexSummary } from "./index/indexer.js";
import type { IndexJob, WorkerMessage } from "./index-worker.js";
import { localAnswerEngine, type AnswerEngine } from "./grounding/answer-engine.js";
import { loadEngine, type LoadOptions, type SnapshotUse } from "./retrieval/load-engine.js";
import { startPoller, type Poller } from "./index/poller.js";
import type { PoolStatus, SearchPool } from "./grounding/search-pool.js";
import type { RetrievalAids } from "./retrieval/retrieval-aids.js";
import { storeConfig } from "./runtime.js";
import { startAppWorker } from "./start-worker.js";

export interface ServiceStatus {
  sources: { file: string; sha256: string; verses: number; status: SourceRecord["status"] }[];
  versesIndexed: number;
  indexing: boolean;
  progress: IndexProgress | null;
  lastIndex: { finishedAt: string; ms: number; versesIndexed: number; vectorsComputed: number } | null;
  /**
   * What failed in the last indexing (a corpus file: its name, the line and column, the
   * message; `unchanged` when the same content had failed before and was not parsed again),
   * or in loading its result (the index that was serving goes on serving).
   */
  errors: ServiceError[];
  dense: { enabled: boolean; model: string | null; reason: string | null };
  lexicalReady: boolean;
  /** The store the index lives in; with a shared store (Chroma), whether it answers. */
  store: { kind: StoreKind; available: boolean; error: StoreProblem | null };
  /** Where search runs: the worker pool (SEARCH_WORKERS ≥ 1), or this thread (size 0). */
  searchWorkers: PoolStatus;
  /** How the engine serving now was loaded: from the index's snapshot, or built from the index (why, and whether a new snapshot was saved); null before the first load. */
  snapshot: SnapshotUse | null;
}

export type ServiceError = { message: string; code?: string } & Partial<Pick<IndexError, "file" | "line" | "column" | "unchanged">>;

/** Why the shared store cannot be used right now (Portuguese, safe to show: no address). */
export interface StoreProblem {
  code: "store_unavailable" | "store_failed";
  message: string;
  since: string;
}

export interface ServiceLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

const STORE_MESSAGES: Record<StoreProblem["code"], string> = {
  store_unavailable:
    "O banco compartilhado do índice (ChromaDB) não responde. Este servidor tenta de novo a cada poucos segundos e volta a responder sozinho quando ele voltar.",
  store_failed: "O banco compartilhado do índice (ChromaDB) recusou uma operação. Este servidor tenta de novo a cada poucos segundos.",
};

export class ReindexConflictError extends Error {
  readonly code = "reindex_running";
  constructor() {
    super("Uma reindexação já está em andamento.");
  }
}

/**
 * Holds the live search engine and the indexing job. The engine is rebuilt from the store
 * whenever indexing commits something new (after the lexical phase and at the end), so
 * search answers during indexing from what is already indexed.
 */
export class SearchService {
  /** The engine in this thread (SEARCH_WORKERS=0 only; the workers hold it otherwise). */
  private engineValue: SearchEngine | undefined;
  private answersValue: AnswerEngine | undefined;
  private denseModel: string | null = null;
  private denseReason: string | null = "o índice ainda não foi carregado";
  private snapshotUse: SnapshotUse | null = null;
  private worker: Worker | undefined;
  /** The indexing worker is done and its final reload is running: status still says "indexing". */
  private finishing = false;
  private progress: IndexProgress | null = null;
  private lastIndex: ServiceStatus["lastIndex"] = null;
  private errors: ServiceError[] = [];
  /** Corpus files whose content failed to index, by name: not parsed again while their content stays the same. */
  private readonly failedFiles = new Map<string, IndexError>();
  private reloading: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private sources: SourceRecord[] = [];
  private problem: StoreProblem | null = null;
  /** The shared store's generation the engine was loaded at (replicas poll it). */
  private generation: string | undefined;
  private readonly poller: Poller | undefined;

  constructor(
    private readonly store: UnitStore,
    private readonly settings: Settings,
    private readonly aids: RetrievalAids,
    private readonly logger?: ServiceLogger,
    /** Search workers holding the engine; without them the engine lives in this thread. */
    private readonly pool?: SearchPool,
  ) {
    // A shared store is polled: another replica's indexing (a new generation) is loaded, and a
    // store that went down is noticed and, once back, reloaded from.
    if (store.shared) this.poller = startPoller(() => this.poll(), settings.CHROMA_POLL_MS);
  }

  /** Set while the shared store cannot be reached: the chat refuses to answer and says why. */
  get storeProblem(): StoreProblem | null {
    return this.problem;
  }

  /** The engine in this thread; undefined with search workers (see `answers`). */
  get engine(): SearchEngine | undefined {
    return this.engineValue;
  }

  /** The loaded index as the chat and `/api/verses` use it, wherever it runs. */
  get answers(): AnswerEngine | undefined {
    return this.answersValue;
  }

  /** True from the start of indexing until the engine serving its result is loaded (in every search worker). */
  get indexing(): boolean {
    return this.worker !== undefined || this.finishing;
  }

  /**
   * Rebuilds the engine from whatever the store holds (the lexical index from persisted terms).
   * Reloads run one after another, and each call is followed by a load that starts after it (a
   * reload requested while one runs, say at the end of indexing, is never answered by the older
   * one that missed the newest data).
   */
  async reload(): Promise<void> {
    const next = (this.reloading ?? Promise.resolve()).catch(() => undefined).then(() => this.load());
    this.reloading = next;
    void next.finally(() => {
      if (this.reloading === next) this.reloading = undefined;
    }).catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    try {
      const generation = this.store.shared ? await this.store.getManifest(GENERATION_KEY) : undefined;
      this.sources = await this.store.listSources();
      if ((await this.store.unitCount()) === 0) {
        this.engineValue = undefined;
        this.answersValue = undefined;
        this.denseReason = "o índice está vazio";
      } else if (this.pool) {
        // Each worker loads its engine from the store and swaps it in.
        const summary = await this.pool.load(this.snapshotMode());
        this.answersValue = this.pool.answerEngine(summary);
        this.denseModel = summary.denseModel;
        this.denseReason = summary.denseReason;
        this.snapshotLoaded(summary.snapshot);
      } else {
        // Built whole, then swapped in: a failed read keeps the engine already serving.
        const loaded = await loadEngine(this.store, this.settings, this.aids, { snapshot: this.snapshotMode() });
        this.engineValue = loaded.engine;
        this.answersValue = localAnswerEngine(loaded.engine, this.aids.crossReferences);
        this.denseModel = loaded.embedder?.id ?? null;
        this.denseReason = loaded.denseOffReason ?? null;
        this.snapshotLoaded(loaded.snapshot);
      }
      this.generation = generation;
      this.storeUp();
    } catch (error) {
      if (!this.storeDown(error)) throw error;
    }
  }

  /** While this process indexes, the index changes under the load: the engine is built, and the indexer saves the snapshot at its end. */
  private snapshotMode(): LoadOptions["snapshot"] {
    if (!this.settings.SNAPSHOTS) return "ignore";
    return this.worker ? "build" : "save";
  }

  private snapshotLoaded(use: SnapshotUse): void {
    this.snapshotUse = use;
    if (use.state === "loaded") this.logger?.info("engine loaded from snapshot", { ms: use.ms });
    else this.logger?.warn("engine rebuilt from the index", { reason: use.reason, snapshotSaved: use.saved, ms: use.ms });
  }

  /** One look at the shared store: down, back, or a new generation to load. */
  private async poll(): Promise<void> {
    try {
      const generation = await this.store.getManifest(GENERATION_KEY);
      const wasDown = this.problem !== null;
      // While this process indexes, its own progress drives the reloads.
      if (wasDown || (generation !== this.generation && !this.worker)) {
        if (generation !== this.generation) {
          this.logger?.info("store generation changed", { from: this.generation ?? null, to: generation ?? null });
          // The other replica's indexing has committed: "it is indexing" is no longer news.
          this.errors = this.errors.filter((e) => e.code !== "index_locked");
        }
        await this.reload();
      }
    } catch (error) {
      if (!this.storeDown(error)) this.logger?.warn("store poll failed", { message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Records a store failure; false when the error is not the store's. */
  private storeDown(error: unknown): boolean {
    if (!(error instanceof StoreError) || (error.code !== "store_unavailable" && error.code !== "store_failed")) return false;
    if (this.problem?.code !== error.code) {
      this.problem = { code: error.code, message: STORE_MESSAGES[error.code], since: new Date().toISOString() };
      this.logger?.warn("store unavailable", { code: error.code, message: error.message });
      this.notify();
    }
    return true;
  }

  private storeUp(): void {
    if (!this.problem) return;
    this.logger?.info("store available again", { since: this.problem.since });
    this.problem = null;
    this.notify();
  }

  /** Starts indexing in a worker; rejects with ReindexConflictError if one is running. */
  startIndexing(): Promise<IndexSummary> {
    if (this.worker) return Promise.reject(new ReindexConflictError());
    const job: IndexJob = {
      dataDir: path.resolve(this.settings.DATA_DIR),
      corpusDir: path.resolve(this.settings.CORPUS_DIR),
      contextWindow: this.settings.CONTEXT_WINDOW,
      batchSize: this.settings.INDEX_BATCH_SIZE,
      embeddingModel: this.settings.EMBEDDING_MODEL,
      store: storeConfig(this.settings),
      lockTtlMs: this.settings.INDEX_LOCK_TTL_MS,
      snapshots: this.settings.SNAPSHOTS,
      knownFailures: [...this.failedFiles.values()].map(({ unchanged: _unchanged, ...failure }) => failure),
    };
    const worker = startAppWorker("index-worker", { workerData: job, stderr: true });
    this.worker = worker;
    let stderr = "";
    worker.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    this.progress = { phase: "scanning", done: 0, total: 0 };
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (error: Error | undefined, summary?: IndexSummary) => {
        if (settled) return;
        settled = true;
        this.worker = undefined;
        this.finishing = true;
        void worker.terminate();
        void this.reloadIndexed().finally(() => {
          this.finishing = false;
          this.notify();
          if (error) reject(error);
          else resolve(summary!);
        });
      };
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "progress") {
          const previous = this.progress?.phase;
          this.progress = message.progress;
          // The lexical side is complete: serve it while vectors are computed.
          if (previous === "lexical" && message.progress.phase !== "lexical") void this.reloadIndexed();
          this.notify();
        } else if (message.type === "done") {
          const { ms, versesIndexed, vectorsComputed } = message.summary;
          this.lastIndex = { finishedAt: new Date().toISOString(), ms, versesIndexed, vectorsComputed };
          this.errors = message.summary.errors.map(({ sha256: _sha256, ...error }) => error);
          for (const { message: detail, ...where } of this.errors) this.logger?.warn("corpus file failed", { ...where, detail });
          if (message.summary.snapshotFailed) this.logger?.warn("snapshot not saved", { detail: message.summary.snapshotFailed });
          this.rememberFailures(message.summary);
          this.progress = { phase: "done", done: message.summary.versesTotal, total: message.summary.versesTotal };
          finish(undefined, message.summary);
        } else {
          this.errors = [{ code: message.code ?? "index_failed", message: message.message }];
          finish(message.code ? new StoreError(message.code, message.message) : new Error(message.message));
        }
      });
      worker.on("error", (error) => {
        this.errors = [{ code: "index_failed", message: error.message }];
        finish(error);
      });
      worker.on("exit", (code) => {
        // After "done" the worker is terminated on purpose (exit code 1): not a failure.
        if (code !== 0 && !settled) {
          const detail = stderr.trim().split("\n").slice(0, 3).join(" ");
          this.errors = [{ code: "index_failed", message: `a indexação terminou com o código ${code}${detail ? `: ${detail}` : ""}` }];
          finish(new Error(`index worker exited with code ${code}`));
        }
      });
    });
  }

  /**
   * Loads what indexing committed. A load that fails (an index the engine cannot be built
   * from) never takes the server down: the engine that was serving goes on serving, and the
   * status says what failed.
   */
  private async reloadIndexed(): Promise<void> {
    try {
      await this.reload();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.logger?.warn("index load failed", { message: detail });
      this.errors = [
        ...this.errors.filter((e) => e.code !== "index_load_failed"),
        { code: "index_load_failed", message: `O índice novo não pôde ser carregado; o anterior continua respondendo: ${detail}` },
      ];
      this.notify();
    }
  }

  /** The files that failed, kept while their content stays the same; a file indexed or gone is forgotten. */
  private rememberFailures(summary: IndexSummary): void {
    for (const source of summary.sources) if (source.action !== "failed") this.failedFiles.delete(source.file);
    for (const name of summary.removedSources) this.failedFiles.delete(name);
    for (const error of summary.errors) this.failedFiles.set(error.file, error);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** The search workers' size and load (all zero when search runs in this thread). */
  searchWorkers(): PoolStatus {
    return this.pool?.status() ?? { size: 0, busy: 0, queued: 0, restarts: 0 };
  }

  async status(): Promise<ServiceStatus> {
    try {
      this.sources = await this.store.listSources();
    } catch (error) {
      if (!this.storeDown(error)) throw error;
    }
    return {
      sources: this.sources.map((s) => ({ file: s.id, sha256: s.sha256, verses: s.unitCount, status: s.status })),
      versesIndexed: this.answersValue?.size ?? 0,
      indexing: this.indexing,
      progress: this.progress,
      lastIndex: this.lastIndex,
      errors: this.errors,
      dense: { enabled: this.answersValue?.denseAvailable ?? false, model: this.denseModel, reason: this.denseReason },
      lexicalReady: this.answersValue !== undefined && this.answersValue.size > 0,
      store: { kind: this.store.kind, available: this.problem === null, error: this.problem },
      searchWorkers: this.searchWorkers(),
      snapshot: this.snapshotUse,
    };
  }

  async close(): Promise<void> {
    await this.poller?.stop();
    if (this.worker) await this.worker.terminate();
    this.worker = undefined;
    await this.pool?.close();
  }
}
