/**
 * The aids' snapshot built on a worker thread (./aids-build-worker.ts) while an index run writes
 * the index: it depends on the resource files only. Undefined when the stored one is current,
 * or when the thread fails (the run then builds it on its own thread, as before).
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { startAppWorker } from "../start-worker.js";
import type { AidsBuildMessage } from "./aids-build-worker.js";
import { aidsSnapshotCurrent, type BuiltAidsSnapshot } from "./aids-snapshot.js";

export async function buildAidsSnapshotAhead(store: UnitStore): Promise<BuiltAidsSnapshot | undefined> {
  try {
    if (await aidsSnapshotCurrent(store)) return undefined;
    return await new Promise<BuiltAidsSnapshot>((resolve, reject) => {
      const worker = startAppWorker("retrieval/aids-build-worker", {});
      worker.once("message", (message: AidsBuildMessage) => {
        void worker.terminate();
        if (message.type === "built") resolve(message.built);
        else reject(new Error(message.message));
      });
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`a thread dos recursos terminou (código ${code}) sem responder`)));
    });
  } catch {
    return undefined;
  }
}
