/**
 * Runs the indexer in a worker thread, so a long phase (parsing, LSA training) never blocks
 * the server's event loop: the chat keeps answering from what is already indexed. The worker
 * opens its own connection to the same SQLite file (WAL lets the server read meanwhile), or
 * its own client of the same Chroma server. Once the index is written, it saves the engine's
 * snapshot (./retrieval/engine-snapshot.ts) when the index changed, so the reload that
 * follows, and every replica, reads it instead of building the engine.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openIndexStore, type StoreConfig } from "../adapters/index/open.js";
import { StoreError, type StoreErrorCode } from "../adapters/index/store.js";
import { indexCorpus, type IndexError, type IndexProgress, type IndexSummary } from "./index/indexer.js";
import { parseDenseChoice } from "./index/dense.js";
import { indexSnapshots } from "./retrieval/engine-snapshot.js";

export interface IndexJob {
  dataDir: string;
  corpusDir: string;
  contextWindow: number;
  batchSize: number;
  embeddingModel: string;
  /** The store to index into (the worker opens its own connection or client). */
  store: StoreConfig;
  lockTtlMs?: number;
  /** Save the snapshots once the index is written (SNAPSHOTS). */
  snapshots?: boolean;
  /** Files that failed before: not parsed again while their content is the same (`IndexOptions.knownFailures`). */
  knownFailures?: IndexError[];
}

export type WorkerMessage =
  | { type: "progress"; progress: IndexProgress }
  | { type: "done"; summary: IndexSummary }
  | { type: "failed"; message: string; code?: StoreErrorCode };

async function run(job: IndexJob): Promise<void> {
  let store;
  try {
    store = await openIndexStore(job.store);
    const opened = store;
    const summary = await indexCorpus({
      store,
      corpusDir: job.corpusDir,
      contextWindow: job.contextWindow,
      batchSize: job.batchSize,
      dense: parseDenseChoice(job.embeddingModel),
      lockTtlMs: job.lockTtlMs,
      knownFailures: job.knownFailures,
      onProgress: (progress) => parentPort?.postMessage({ type: "progress", progress } satisfies WorkerMessage),
      ...(job.snapshots === false ? {} : indexSnapshots(opened)),
    });
    parentPort?.postMessage({ type: "done", summary } satisfies WorkerMessage);
  } catch (error) {
    const reason = error instanceof Error && error.name === "AbortError" && error.cause instanceof StoreError ? error.cause : error;
    const message = reason instanceof Error ? reason.message : String(reason);
    parentPort?.postMessage({ type: "failed", message, ...(reason instanceof StoreError ? { code: reason.code } : {}) } satisfies WorkerMessage);
  } finally {
    await store?.close();
  }
}

if (parentPort && workerData) void run(workerData as IndexJob);
