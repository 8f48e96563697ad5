/**
 * The corpus LSA's SVD on a worker thread (./svd-worker.ts), as core/index/lsa.ts's
 * `SvdRunner`: the same function on the same inputs, so the same bits. A thread that cannot
 * start or fails is not an indexing failure: the SVD then runs here, as it always could.
 */
import { randomizedSvd, type CsrMatrix, type RandomizedSvdOptions, type TruncatedSvd } from "../../core/index/linalg.js";
import { LSA_KERNEL } from "../../core/index/lsa-kernel.js";
import type { SvdRunner } from "../../core/index/lsa.js";
import { answerOf } from "../start-worker.js";
import type { SvdJob, SvdMessage } from "./svd-worker.js";

/** `randomizedSvd` on a worker thread; on this one when the thread fails. */
export function svdOnWorker(matrix: CsrMatrix, rank: number, options: RandomizedSvdOptions): Promise<TruncatedSvd> {
  // The matrix is copied (structured clone), not moved: the fallback below still has it.
  return answerOf(
    "index/svd-worker",
    { workerData: { matrix, rank, options, kernel: LSA_KERNEL.use } satisfies SvdJob },
    (message: SvdMessage) => (message.type === "done" ? message.svd : new Error(message.message)),
    "a thread do SVD",
  ).catch(() => randomizedSvd(matrix, rank, options));
}

/**
 * An `SvdRunner` that runs the SVD on a worker thread and `meanwhile` on this one (work that
 * can overlap the training), and resolves when both are done.
 */
export function svdWhile(meanwhile: (() => Promise<void>) | undefined): SvdRunner {
  return async (matrix, rank, options) => {
    const running = svdOnWorker(matrix, rank, options);
    await meanwhile?.();
    return running;
  };
}
