/**
 * A worker thread that runs one randomized SVD (core/index/linalg.ts) and hands the result back
 * (transferred, not copied): ./svd-thread.ts. The corpus LSA's SVD is most of a cold build's
 * training; here it runs on the second core while the indexer's thread prepares the snapshot.
 */
import { parentPort, workerData } from "node:worker_threads";
import { randomizedSvd, type CsrMatrix, type RandomizedSvdOptions, type TruncatedSvd } from "../../core/index/linalg.js";
import { LSA_KERNEL } from "../../core/index/lsa-kernel.js";

export interface SvdJob {
  matrix: CsrMatrix;
  rank: number;
  options: RandomizedSvdOptions;
  /** The caller's kernel choice (a benchmark's "before" runs the plain loops on both threads). */
  kernel: (typeof LSA_KERNEL)["use"];
}

export type SvdMessage = { type: "done"; svd: TruncatedSvd } | { type: "failed"; message: string };

if (parentPort) {
  const port = parentPort;
  const job = workerData as SvdJob;
  try {
    LSA_KERNEL.use = job.kernel;
    const svd = randomizedSvd(job.matrix, job.rank, job.options);
    port.postMessage({ type: "done", svd } satisfies SvdMessage, [svd.singularValues.buffer as ArrayBuffer, svd.rightVectors.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies SvdMessage);
  }
}
