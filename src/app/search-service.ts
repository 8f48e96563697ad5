import path from "node:path";
import { Worker } from "node:worker_threads";
import type { SqliteStore, SourceRecord } from "../adapters/store/sqlite-store.js";
import type { Settings } from "../config/settings.js";
import type { SearchEngine } from "../core/search/engine.js";
import type { IndexProgress, IndexSummary } from "./indexer.js";
import type { IndexJob, WorkerMessage } from "./index-worker.js";
import { loadEngine } from "./load-engine.js";
import type { RetrievalAids } from "./retrieval-aids.js";

export interface ServiceStatus {
  sources: { file: string; sha256: string; verses: number; status: SourceRecord["status"] }[];
  versesIndexed: number;
  indexing: boolean;
  progress: IndexProgress | null;
  lastIndex: { finishedAt: string; ms: number; versesIndexed: number; vectorsComputed: number } | null;
  errors: { file?: string; code?: string; message: string }[];
  dense: { enabled: boolean; model: string | null; reason: string | null };
  lexicalReady: boolean;
}

/**
 * The index worker: the compiled module in production; from the TypeScript sources (tests,
 * `tsx`), a tiny bootstrap registers tsx inside the worker first, since Node 20 does not
 * carry `--import` loaders into workers.
 */
function startIndexWorker(job: IndexJob): Worker {
  const runningFromSources = import.meta.url.endsWith(".ts");
  const url = new URL(runningFromSources ? "./index-worker.ts" : "./index-worker.js", import.meta.url);
  if (!runningFromSources) return new Worker(url, { workerData: job, stderr: true });
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: job, stderr: true });
}

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
  private engineValue: SearchEngine | undefined;
  private denseModel: string | null = null;
  private denseReason: string | null = "o índice ainda não foi carregado";
  private worker: Worker | undefined;
  private progress: IndexProgress | null = null;
  private lastIndex: ServiceStatus["lastIndex"] = null;
  private errors: ServiceStatus["errors"] = [];
  private reloading: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: SqliteStore,
    private readonly settings: Settings,
    private readonly aids: RetrievalAids,
  ) {}

  get engine(): SearchEngine | undefined {
    return this.engineValue;
  }

  get indexing(): boolean {
    return this.worker !== undefined;
  }

  /** Loads whatever the store holds (the lexical index is rebuilt from persisted terms). */
  /**
   * Rebuilds the engine from the store. Reloads run one after another, and each call is
   * followed by a load that starts after it (a reload requested while one runs, say at the
   * end of indexing, is never answered by the older one that missed the newest data).
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
    if (this.store.verseCount() === 0) {
      this.engineValue = undefined;
      this.denseReason = "o índice está vazio";
      return;
    }
    const loaded = await loadEngine(this.store, this.settings, this.aids);
    this.engineValue = loaded.engine;
    this.denseModel = loaded.embedder?.id ?? null;
    this.denseReason = loaded.denseOffReason ?? null;
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
    };
    const worker = startIndexWorker(job);
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
        void worker.terminate();
        void this.reload().finally(() => {
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
          if (previous === "lexical" && message.progress.phase !== "lexical") void this.reload();
          this.notify();
        } else if (message.type === "done") {
          this.lastIndex = {
            finishedAt: new Date().toISOString(),
            ms: message.summary.ms,
            versesIndexed: message.summary.versesIndexed,
            vectorsComputed: message.summary.vectorsComputed,
          };
          this.errors = message.summary.errors.map((e) => ({ file: e.file, code: e.code, message: e.message }));
          this.progress = { phase: "done", done: message.summary.versesTotal, total: message.summary.versesTotal };
          finish(undefined, message.summary);
        } else {
          this.errors = [{ code: "index_failed", message: message.message }];
          finish(new Error(message.message));
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

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  status(): ServiceStatus {
    const sources = this.store.listSources();
    return {
      sources: sources.map((s) => ({ file: s.file, sha256: s.sha256, verses: s.verseCount, status: s.status })),
      versesIndexed: this.engineValue?.size ?? 0,
      indexing: this.indexing,
      progress: this.progress,
      lastIndex: this.lastIndex,
      errors: this.errors,
      dense: { enabled: this.engineValue?.denseAvailable ?? false, model: this.denseModel, reason: this.denseReason },
      lexicalReady: this.engineValue !== undefined && this.engineValue.size > 0,
    };
  }

  async close(): Promise<void> {
    if (this.worker) await this.worker.terminate();
    this.worker = undefined;
  }
}
