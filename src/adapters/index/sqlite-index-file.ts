import type Database from "better-sqlite3";
import { openSqliteFile, writeTransaction } from "./sqlite-connection.js";
import { migrateSchema, readManifest, writeManifest } from "./sqlite-manifest.js";
import type { CollectionStoreBase, LockAttempt } from "./store.js";

export interface SqliteIndexSchema {
  /** The tables of the units (the manifest, `vectors` and `models` are added here). */
  tables: string;
  version: number;
  /** The column of `vectors` that names its unit (`verse_id`, `chunk_id`). */
  vectorUnit: string;
  /** The units' table (`verses`, `chunks`): a unit's vector goes with it. */
  unitTable: string;
  /** Whether `models` has a `created_at` column to fill (the Bible's file has one). */
  modelsStamped: boolean;
}

/** The tables every index file keeps beside its units: one vector per unit (of one model key), and the trained model. */
function denseTablesSql({ vectorUnit, unitTable, modelsStamped }: SqliteIndexSchema): string {
  return `
CREATE TABLE IF NOT EXISTS vectors (
  ${vectorUnit} INTEGER PRIMARY KEY REFERENCES ${unitTable}(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS vectors_model ON vectors(model);
CREATE TABLE IF NOT EXISTS models (id TEXT PRIMARY KEY, data BLOB NOT NULL${modelsStamped ? ", created_at TEXT NOT NULL" : ""});
`;
}

/**
 * One collection's index in one SQLite file, as the Bible's `SqliteStore` and each document
 * collection's `CollectionStore` both keep it: the file (WAL, created tables), its write
 * transactions, the manifest, the trained model (one kept) and one vector per unit under a
 * model key. One process writes a file at a time through SQLite's own locking, so the indexing
 * lock is always granted.
 */
export abstract class SqliteIndexFile implements CollectionStoreBase {
  readonly shared = false;
  readonly db: Database.Database;

  protected constructor(
    readonly file: string,
    private readonly schema: SqliteIndexSchema,
  ) {
    this.db = openSqliteFile(file);
    // One write transaction: two processes may open a new file at once.
    migrateSchema(this.db, `${schema.tables}\n${denseTablesSql(schema)}`, schema.version);
  }

  get location(): string {
    return this.file;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

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

  saveModel(id: string, data: Buffer): void {
    const upsert = "ON CONFLICT(id) DO UPDATE SET data = excluded.data";
    this.transaction(() => {
      this.db.prepare("DELETE FROM models WHERE id <> ?").run(id);
      if (this.schema.modelsStamped) this.db.prepare(`INSERT INTO models (id, data, created_at) VALUES (?, ?, ?) ${upsert}`).run(id, data, new Date().toISOString());
      else this.db.prepare(`INSERT INTO models (id, data) VALUES (?, ?) ${upsert}`).run(id, data);
    });
  }

  loadModel(id: string): Buffer | undefined {
    const row = this.db.prepare("SELECT data FROM models WHERE id = ?").get(id) as { data: Buffer } | undefined;
    return row?.data;
  }

  saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): void {
    const unit = this.schema.vectorUnit;
    const upsert = this.db.prepare(
      `INSERT INTO vectors (${unit}, model, vector) VALUES (?, ?, ?) ON CONFLICT(${unit}) DO UPDATE SET model = excluded.model, vector = excluded.vector`,
    );
    this.transaction(() => {
      for (const row of rows) upsert.run(row.id, model, Buffer.from(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength));
    });
  }

  /** Vectors of `model`, keyed by unit id. */
  loadVectors(model: string): Map<number, Float32Array> {
    const vectors = new Map<number, Float32Array>();
    const rows = this.db.prepare(`SELECT ${this.schema.vectorUnit} AS id, vector FROM vectors WHERE model = ?`).iterate(model) as IterableIterator<{
      id: number;
      vector: Buffer;
    }>;
    for (const row of rows) {
      const copy = new Float32Array(row.vector.byteLength / 4);
      new Uint8Array(copy.buffer).set(row.vector);
      vectors.set(row.id, copy);
    }
    return vectors;
  }

  vectorCount(model: string): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM vectors WHERE model = ?").get(model) as { n: number }).n;
  }
}
