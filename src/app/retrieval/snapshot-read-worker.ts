/**
 * A worker thread that reads one snapshot from an SQLite index file and hands its bytes over
 * (transferred, not copied): ./snapshot-prefetch.ts. Reading the engine's snapshot (tens of MB)
 * takes a good part of a command-line search's start; here it runs on the second core while the
 * main thread loads the rest.
 */
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import { readSnapshotRow } from "../../adapters/index/snapshot-row.js";
import type { StoredSnapshot } from "../../adapters/index/store.js";

export interface SnapshotReadJob {
  file: string;
  name: string;
}

export type SnapshotReadMessage = { type: "read"; stored: StoredSnapshot | undefined } | { type: "failed"; message: string };

if (parentPort) {
  const port = parentPort;
  const { file, name } = workerData as SnapshotReadJob;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    let stored: StoredSnapshot | undefined;
    try {
      stored = readSnapshotRow(db, name);
    } finally {
      db.close();
    }
    const bytes = stored && "data" in stored ? stored.data : undefined;
    const message: SnapshotReadMessage = { type: "read", stored };
    // A buffer of its own is moved to the main thread; one sharing memory with others is copied.
    const own = bytes !== undefined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    port.postMessage(message, own ? [bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies SnapshotReadMessage);
  }
}
