/**
 * Reading a snapshot ahead, on another thread (./snapshot-read-worker.ts): a process that will
 * load the engine starts the read first and does the rest of its start meanwhile. What comes
 * back is exactly what the store's `loadSnapshot` gives (the same row, the same checksum), and
 * the caller checks its key as for any read, so a read that raced a write is never used.
 */
import type { StoredSnapshot } from "../../adapters/index/store.js";
import { startAppWorker } from "../start-worker.js";
import type { SnapshotReadJob, SnapshotReadMessage } from "./snapshot-read-worker.js";

/** The stored snapshot `name` of the SQLite index file `file`, read on a worker thread; rejects when the thread cannot read it. */
export function prefetchSnapshot(file: string, name: string): Promise<StoredSnapshot | undefined> {
  return new Promise((resolve, reject) => {
    const worker = startAppWorker("retrieval/snapshot-read-worker", { workerData: { file, name } satisfies SnapshotReadJob });
    worker.once("message", (message: SnapshotReadMessage) => {
      void worker.terminate();
      if (message.type === "read") {
        const stored = message.stored;
        // The bytes arrive as a plain Uint8Array; the store gives a Buffer.
        resolve(stored && "data" in stored ? { key: stored.key, data: Buffer.from(stored.data.buffer, stored.data.byteOffset, stored.data.byteLength) } : stored);
      } else reject(new Error(message.message));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`o leitor do retrato terminou (código ${code}) sem responder`)));
  });
}
