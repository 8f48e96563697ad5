/**
 * Reading a snapshot ahead, on another thread (./snapshot-read-worker.ts): a process that will
 * load the engine starts the read first and does the rest of its start meanwhile. What comes
 * back is exactly what the store's `loadSnapshot` gives (the same row, the same checksum), and
 * the caller checks its key as for any read, so a read that raced a write is never used.
 */
import type { StoredSnapshot } from "../../adapters/index/store.js";
import { answerOf } from "../start-worker.js";
import type { SnapshotReadJob, SnapshotReadMessage } from "./snapshot-read-worker.js";

/** The stored snapshot `name` of the SQLite index file `file`, read on a worker thread; rejects when the thread cannot read it. */
export function prefetchSnapshot(file: string, name: string): Promise<StoredSnapshot | undefined> {
  return answerOf(
    "retrieval/snapshot-read-worker",
    { workerData: { file, name } satisfies SnapshotReadJob },
    (message: SnapshotReadMessage) => {
      if (message.type !== "read") return new Error(message.message);
      const stored = message.stored;
      // The bytes arrive as a plain Uint8Array; the store gives a Buffer.
      return stored && "data" in stored ? { key: stored.key, data: Buffer.from(stored.data.buffer, stored.data.byteOffset, stored.data.byteLength) } : stored;
    },
    "o leitor do retrato",
  );
}
