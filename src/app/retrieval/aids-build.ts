/**
 * The aids' snapshot built on a worker thread (./aids-build-worker.ts) while an index run writes
 * the index: it depends on the resource files only. Undefined when the stored one is current,
 * or when the thread fails (the run then builds it on its own thread, as before).
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { answerOf } from "../start-worker.js";
import type { AidsBuildMessage } from "./aids-build-worker.js";
import { aidsSnapshotCurrent, type BuiltAidsSnapshot } from "./aids-snapshot.js";

export async function buildAidsSnapshotAhead(store: UnitStore): Promise<BuiltAidsSnapshot | undefined> {
  try {
    if (await aidsSnapshotCurrent(store)) return undefined;
    return await answerOf(
      "retrieval/aids-build-worker",
      {},
      (message: AidsBuildMessage) => (message.type === "built" ? message.built : new Error(message.message)),
      "a thread dos recursos",
    );
  } catch {
    return undefined;
  }
}
