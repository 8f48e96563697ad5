/**
 * Runs the indexer in a worker thread, so a long phase (parsing, LSA training) never blocks
 * the server's event loop: the chat keeps answering from what is already indexed. The worker
 * opens its own connection to the same SQLite file (WAL lets the server read meanwhile).
 */
import { parentPort, workerData } from "node:worker_threads";
import { SqliteStore } from "../adapters/store/sqlite-store.js";
import { indexCorpus, type IndexProgress, type IndexSummary } from "./indexer.js";
import { parseDenseChoice } from "./dense.js";

export interface IndexJob {
  dataDir: string;
  corpusDir: string;
  contextWindow: number;
  batchSize: number;
  embeddingModel: string;
}

export type WorkerMessage =
  | { type: "progress"; progress: IndexProgress }
  | { type: "done"; summary: IndexSummary }
  | { type: "failed"; message: string };

async function run(job: IndexJob): Promise<void> {
  const store = SqliteStore.open(job.dataDir);
  try {
    const summary = await indexCorpus({
      store,
      corpusDir: job.corpusDir,
      contextWindow: job.contextWindow,
      batchSize: job.batchSize,
      dense: parseDenseChoice(job.embeddingModel),
      onProgress: (progress) => parentPort?.postMessage({ type: "progress", progress } satisfies WorkerMessage),
    });
    parentPort?.postMessage({ type: "done", summary } satisfies WorkerMessage);
  } catch (error) {
    parentPort?.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies WorkerMessage);
  } finally {
    store.close();
  }
}

if (parentPort && workerData) void run(workerData as IndexJob);
