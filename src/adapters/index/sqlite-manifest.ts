import type Database from "better-sqlite3";

/** The `manifest` key/value table of every SQLite index file (the Bible's and each collection's). */
export const MANIFEST_TABLE_SQL = "CREATE TABLE IF NOT EXISTS manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);";

export function readManifest(db: Database.Database, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM manifest WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeManifest(db: Database.Database, key: string, value: string): void {
  db.prepare("INSERT INTO manifest (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}
