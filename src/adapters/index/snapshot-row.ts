/**
 * A snapshot as the SQLite index keeps it (the `snapshots` table: its key, a CRC-32 of its
 * bytes, the bytes), read by the store and by the thread that reads it ahead
 * (src/app/retrieval/snapshot-read-worker.ts). Small on purpose: that thread loads only this.
 */
import type Database from "better-sqlite3";
import { crc32 } from "node:zlib";
import type { StoredSnapshot } from "./store.js";

/** The stored snapshot `name` in `db`: its bytes when their checksum holds, why not otherwise; undefined when there is none. */
export function readSnapshotRow(db: Database.Database, name: string): StoredSnapshot | undefined {
  const row = db.prepare("SELECT key, crc32, bytes FROM snapshots WHERE name = ?").get(name) as { key: string; crc32: number; bytes: Buffer } | undefined;
  if (!row) return undefined;
  if (!Buffer.isBuffer(row.bytes) || crc32(row.bytes) !== row.crc32) return { key: row.key, damaged: "a soma de verificação não confere" };
  return { key: row.key, data: row.bytes };
}
