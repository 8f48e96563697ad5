import type Database from "better-sqlite3";
import { writeTransaction } from "./sqlite-connection.js";

/** The `manifest` key/value table both SQLite stores keep (Bible index and collections). */
export const MANIFEST_TABLE_SQL = "CREATE TABLE IF NOT EXISTS manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);";

export function readManifest(db: Database.Database, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM manifest WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeManifest(db: Database.Database, key: string, value: string): void {
  db.prepare("INSERT INTO manifest (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}

/**
 * Creates what is missing of a schema (its tables, and the manifest's), in one write
 * transaction (two processes may open a new file at once), and records `schema_version`
 * when the file had none.
 */
export function migrateSchema(db: Database.Database, tablesSql: string, version: number): void {
  writeTransaction(db, () => {
    db.exec(`${MANIFEST_TABLE_SQL}\n${tablesSql}`);
    if (readManifest(db, "schema_version") === undefined) writeManifest(db, "schema_version", String(version));
  });
}
