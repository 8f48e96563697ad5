import { mkdirSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { BIBLE_COLLECTION } from "../../core/types.js";
import { bibleStoreFile, collectionStoreFile } from "./collection-names.js";
import { readSnapshotRow } from "./snapshot-row.js";
import { openSqliteFile, writeTransaction } from "./sqlite-connection.js";
import { readManifest, writeManifest, MANIFEST_TABLE_SQL } from "./sqlite-manifest.js";
import { migrateLegacyTables, type LegacyMigration } from "./sqlite-legacy.js";
import { crc32 } from "node:zlib";
import { parseFields, type StoredSnapshot, type LockAttempt, type SourceRecord, type SourceStart, type SourceWrite, type StoredUnit, type UnitFields, type UnitStore, type UnitWrite } from "./store.js";

/**
 * The embedded index of one collection: ONE SQLite file (the Bible's `${DATA_DIR}/pastor.sqlite`,
 * a document collection's `${DATA_DIR}/collections/<name>.sqlite`), holding its sources, their
 * units with the analysed terms BM25 is rebuilt from, one vector per unit (of one model key),
 * the trained dense model and a manifest. WAL mode and small transactions: a `kill -9` loses
 * at most the batch in flight. One process writes a file at a time through SQLite's own
 * locking, so the indexing lock is always granted.
 *
 * Version 2 of the file: one schema for every collection. A file of version 1 (the Bible's
 * `sources`/`verses`, a collection's `documents`/`chunks`) is migrated when it is opened, in
 * one transaction, keeping every unit's id (so its vector) — see sqlite-legacy.ts.
 */
export const SCHEMA_VERSION = 2;

const TABLES = `
  CREATE TABLE IF NOT EXISTS unit_sources (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL,
    unit_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('partial', 'complete')),
    indexed_at TEXT,
    fields TEXT NOT NULL DEFAULT '{}'
  );
  CREATE TABLE IF NOT EXISTS units (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id INTEGER NOT NULL REFERENCES unit_sources(id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL,
    fields TEXT NOT NULL DEFAULT '{}',
    UNIQUE (source_id, ord)
  );
  CREATE TABLE IF NOT EXISTS unit_vectors (
    unit_id INTEGER PRIMARY KEY REFERENCES units(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS unit_vectors_model ON unit_vectors(model);
  CREATE TABLE IF NOT EXISTS models (id TEXT PRIMARY KEY, data BLOB NOT NULL, created_at TEXT);
  CREATE TABLE IF NOT EXISTS snapshots (name TEXT PRIMARY KEY, key TEXT NOT NULL, crc32 INTEGER NOT NULL, bytes BLOB NOT NULL, created_at TEXT);
`;

/** Stable order of units everywhere (loading, training, embedding): source, then position. */
const UNIT_ORDER = "s.name, u.ord";
const UNIT_COLUMNS = "u.id, s.name AS source, u.ord, u.text, u.terms, u.fields";

interface UnitRow {
  id: number;
  source: string;
  ord: number;
  text: string;
  terms: string;
  fields: string;
}

export class SqliteUnitStore implements UnitStore {
  readonly kind = "sqlite" as const;
  readonly shared = false;
  readonly db: Database.Database;
  /** What opening the file migrated from the version-1 tables (undefined: nothing to migrate). */
  readonly migrated: LegacyMigration | undefined;

  private constructor(
    readonly name: string,
    readonly file: string,
  ) {
    this.db = openSqliteFile(file);
    // One write transaction: two processes may open a new (or old) file at once.
    this.migrated = writeTransaction(this.db, () => {
      this.db.exec(`${MANIFEST_TABLE_SQL}\n${TABLES}`);
      const migrated = migrateLegacyTables(this.db);
      const version = readManifest(this.db, "schema_version");
      if (version === undefined || migrated) writeManifest(this.db, "schema_version", String(SCHEMA_VERSION));
      return migrated;
    });
  }

  /** Opens (creating if needed) the index file `file` of collection `name`. */
  static open(file: string, name: string): SqliteUnitStore {
    mkdirSync(path.dirname(file), { recursive: true });
    return new SqliteUnitStore(name, file);
  }

  /** The Bible's index under `dataDir` (`pastor.sqlite`). */
  static bible(dataDir: string): SqliteUnitStore {
    return SqliteUnitStore.open(bibleStoreFile(dataDir), BIBLE_COLLECTION);
  }

  /**
   * The index of document collection `name` under `dataDir` (`collections/<name>.sqlite`).
   * @throws {CollectionStoreError} `invalid_collection_name`.
   */
  static collection(dataDir: string, name: string): SqliteUnitStore {
    return SqliteUnitStore.open(collectionStoreFile(dataDir, name), name);
  }

  get location(): string {
    return this.file;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `work` in one write transaction (nested calls join it). */
  transaction<T>(work: () => T): T {
    return writeTransaction(this.db, work);
  }

  getManifest(key: string): string | undefined {
    return readManifest(this.db, key);
  }

  setManifest(key: string, value: string): void {
    writeManifest(this.db, key, value);
  }

  /** Always granted: the file belongs to one writer at a time (a lock left by a killed process would only block its resume). */
  tryLockIndexing(owner: string): LockAttempt {
    return { acquired: true, lock: { owner, renew: () => Promise.resolve(true), release: () => Promise.resolve() } };
  }

  // --- sources and units ----------------------------------------------------------------

  listSources(): SourceRecord[] {
    const rows = this.db.prepare("SELECT name, sha256, unit_count, status, indexed_at, fields FROM unit_sources ORDER BY name").all() as {
      name: string;
      sha256: string;
      unit_count: number;
      status: "partial" | "complete";
      indexed_at: string | null;
      fields: string;
    }[];
    return rows.map((row) => ({
      id: row.name,
      sha256: row.sha256,
      unitCount: row.unit_count,
      status: row.status,
      indexedAt: row.indexed_at,
      fields: parseFields(row.fields),
    }));
  }

  /** The source row keeps its id across versions; its old units (and their vectors) go. */
  beginSources(sources: readonly SourceStart[]): void {
    const upsert = this.db.prepare(`
      INSERT INTO unit_sources (name, sha256, unit_count, status, fields) VALUES (?, ?, 0, 'partial', ?)
      ON CONFLICT(name) DO UPDATE SET sha256 = excluded.sha256, unit_count = 0, status = 'partial', indexed_at = NULL, fields = excluded.fields
      RETURNING id`);
    const dropUnits = this.db.prepare("DELETE FROM units WHERE source_id = ?");
    this.transaction(() => {
      for (const source of sources) {
        const { id } = upsert.get(source.id, source.sha256, JSON.stringify(source.fields ?? {})) as { id: number };
        dropUnits.run(id);
      }
    });
  }

  insertUnits(units: readonly UnitWrite[]): void {
    const sourceId = this.db.prepare("SELECT id FROM unit_sources WHERE name = ?");
    const insert = this.db.prepare("INSERT INTO units (source_id, ord, text, terms, fields) VALUES (?, ?, ?, ?, ?)");
    const ids = new Map<string, number>();
    this.transaction(() => {
      for (const unit of units) {
        let id = ids.get(unit.source);
        if (id === undefined) {
          const row = sourceId.get(unit.source) as { id: number } | undefined;
          if (!row) throw new Error(`source not started in the index: ${unit.source}`);
          id = row.id;
          ids.set(unit.source, id);
        }
        insert.run(id, unit.ord, unit.text, unit.terms, JSON.stringify(unit.fields));
      }
    });
  }

  completeSources(ids: readonly string[]): void {
    const complete = this.db.prepare(`
      UPDATE unit_sources SET status = 'complete', indexed_at = ?,
        unit_count = (SELECT COUNT(*) FROM units WHERE source_id = unit_sources.id) WHERE name = ?`);
    const now = new Date().toISOString();
    this.transaction(() => {
      for (const id of ids) complete.run(now, id);
    });
  }

  writeSources(sources: readonly SourceWrite[]): void {
    this.transaction(() => {
      this.beginSources(sources);
      this.insertUnits(sources.flatMap((source) => source.units.map((unit) => ({ ...unit, source: source.id }))));
      this.completeSources(sources.map((source) => source.id));
    });
  }

  /** Its units and their vectors go by cascade. */
  removeSource(id: string): boolean {
    return this.db.prepare("DELETE FROM unit_sources WHERE name = ?").run(id).changes > 0;
  }

  committedUnitCount(id: string): number {
    const row = this.db.prepare("SELECT COUNT(*) AS n FROM units u JOIN unit_sources s ON s.id = u.source_id WHERE s.name = ?").get(id) as { n: number };
    return row.n;
  }

  unitCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM units").get() as { n: number }).n;
  }

  loadUnits(): StoredUnit[] {
    const rows = this.db.prepare(`SELECT ${UNIT_COLUMNS} FROM units u JOIN unit_sources s ON s.id = u.source_id ORDER BY ${UNIT_ORDER}`).all() as UnitRow[];
    return rows.map(toStoredUnit);
  }

  rewriteTerms(analyzeText: (text: string) => string, batchSize: number): number {
    const rows = this.db.prepare("SELECT id, text FROM units ORDER BY id").all() as { id: number; text: string }[];
    const update = this.db.prepare("UPDATE units SET terms = ? WHERE id = ?");
    for (let start = 0; start < rows.length; start += batchSize) {
      this.transaction(() => {
        for (const row of rows.slice(start, start + batchSize)) update.run(analyzeText(row.text), row.id);
      });
    }
    return rows.length;
  }

  updateFields(rows: readonly { id: number; fields: UnitFields }[]): void {
    const update = this.db.prepare("UPDATE units SET fields = json_patch(fields, ?) WHERE id = ?");
    this.transaction(() => {
      for (const row of rows) update.run(JSON.stringify(row.fields), row.id);
    });
  }

  // --- dense side -------------------------------------------------------------------------

  saveModel(id: string, data: Buffer): void {
    this.transaction(() => {
      this.db.prepare("DELETE FROM models WHERE id <> ?").run(id);
      this.db
        .prepare("INSERT INTO models (id, data, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET data = excluded.data, created_at = excluded.created_at")
        .run(id, data, new Date().toISOString());
    });
  }

  loadModel(id: string): Buffer | undefined {
    return (this.db.prepare("SELECT data FROM models WHERE id = ?").get(id) as { data: Buffer } | undefined)?.data;
  }

  saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): void {
    const upsert = this.db.prepare(
      "INSERT INTO unit_vectors (unit_id, model, vector) VALUES (?, ?, ?) ON CONFLICT(unit_id) DO UPDATE SET model = excluded.model, vector = excluded.vector",
    );
    this.transaction(() => {
      for (const row of rows) upsert.run(row.id, model, Buffer.from(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength));
    });
  }

  /** Vectors of `model`, keyed by unit id. */
  loadVectors(model: string): Map<number, Float32Array> {
    const vectors = new Map<number, Float32Array>();
    const rows = this.db.prepare("SELECT unit_id AS id, vector FROM unit_vectors WHERE model = ?").iterate(model) as IterableIterator<{ id: number; vector: Buffer }>;
    // Copied into a buffer of their own: the row's bytes need not be 4-byte aligned.
    for (const row of rows) vectors.set(row.id, new Float32Array(new Uint8Array(row.vector).buffer));
    return vectors;
  }

  vectorCount(model: string): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM unit_vectors WHERE model = ?").get(model) as { n: number }).n;
  }

  unitsMissingVectors(model: string): StoredUnit[] {
    const rows = this.db
      .prepare(
        `SELECT ${UNIT_COLUMNS} FROM units u JOIN unit_sources s ON s.id = u.source_id
         LEFT JOIN unit_vectors x ON x.unit_id = u.id AND x.model = ?
         WHERE x.unit_id IS NULL AND u.text <> '' ORDER BY ${UNIT_ORDER}`,
      )
      .all(model) as UnitRow[];
    return rows.map(toStoredUnit);
  }

  deleteVectorsExcept(model: string): number {
    return this.db.prepare("DELETE FROM unit_vectors WHERE model <> ?").run(model).changes;
  }

  // --- serving snapshot -------------------------------------------------------------------

  saveSnapshot(name: string, key: string, data: Uint8Array): void {
    this.db
      .prepare(
        "INSERT INTO snapshots (name, key, crc32, bytes, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET key = excluded.key, crc32 = excluded.crc32, bytes = excluded.bytes, created_at = excluded.created_at",
      )
      .run(name, key, crc32(data), Buffer.from(data.buffer, data.byteOffset, data.byteLength), new Date().toISOString());
  }

  loadSnapshot(name: string): StoredSnapshot | undefined {
    return readSnapshotRow(this.db, name);
  }

  snapshotKey(name: string): string | undefined {
    return (this.db.prepare("SELECT key FROM snapshots WHERE name = ?").get(name) as { key: string } | undefined)?.key;
  }
}

function toStoredUnit(row: UnitRow): StoredUnit {
  return { ...row, fields: parseFields(row.fields) };
}
