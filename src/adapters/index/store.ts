/**
 * The storage interface of every collection's index (`UnitStore`), implemented by the
 * embedded SQLite file (`SqliteUnitStore`, the default, synchronous) and by a shared ChromaDB
 * server (`ChromaUnitStore`, over HTTP). Every method may answer directly or with a promise;
 * callers always `await`.
 */
export type Awaitable<T> = T | Promise<T>;

/** What a source or a unit carries beside its text: flat scalar fields (a verse's book and window, a chunk's page and title…). */
export type UnitFields = Readonly<Record<string, string | number | boolean>>;

/**
 * A source of units as the index records it: a USFX file of the Bible, a document of a
 * collection. `id` is its identity in the source (file name, source id); `sha256` what
 * `planSync` compares; `fields` what the source says of itself (a document's discipline, slug,
 * title, metadata block); nothing for a Bible file.
 */
export interface SourceRecord {
  id: string;
  sha256: string;
  unitCount: number;
  status: "partial" | "complete";
  indexedAt: string | null;
  fields: UnitFields;
}

/** A source to start (or restart): its old units and their vectors go. */
export interface SourceStart {
  id: string;
  sha256: string;
  fields?: UnitFields;
}

/**
 * One unit to write: a verse (with its context window in `fields`), a chunk (with its page and
 * title). `ord` is its position in its source, `terms` its analysed text (space-separated), what
 * BM25 is rebuilt from.
 */
export interface UnitWrite {
  source: string;
  ord: number;
  text: string;
  terms: string;
  fields: UnitFields;
}

/** A whole source to write at once: started, its units, completed. */
export interface SourceWrite extends SourceStart {
  units: readonly Omit<UnitWrite, "source">[];
}

/** A stored unit: its row id is the key of its vector. */
export interface StoredUnit {
  id: number;
  source: string;
  ord: number;
  text: string;
  terms: string;
  fields: UnitFields;
}

/**
 * A serving snapshot as the store keeps it: the key that says what it was built from, and its
 * bytes — or why they cannot be used (a checksum that does not match: a damaged file or a
 * write cut short).
 */
export type StoredSnapshot = { key: string; data: Uint8Array } | { key: string; damaged: string };

/** The indexing lock, held by one process at a time (only meaningful for a shared store). */
export interface IndexLock {
  readonly owner: string;
  /** Extends the expiry; false when the lock was lost (expired and taken by another process). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export type LockAttempt = { acquired: true; lock: IndexLock } | { acquired: false; owner: string; expiresAt: number };

export type StoreKind = "sqlite" | "chroma";

/** A version-1 index moved to the units layout, keeping every unit's id and vector. */
export interface IndexMigration {
  /** The version-1 units: `verses` (the Bible) or `chunks` (a document collection). */
  from: "verses" | "chunks";
  sources: number;
  units: number;
}

/**
 * The index of one collection of units, the Bible (`biblia`: verses of USFX files) or a
 * document collection (chunks of documents), on SQLite (one file per collection) or on Chroma
 * (shared by every replica): its sources and units, the manifest, the trained dense model,
 * vectors per model key, and the indexing lock. One interface, one schema, one write loop
 * (src/app/index/write-sources.ts); what a verse or a chunk is lives in the views
 * (`bible-units.ts`, `document-units.ts`).
 */
export interface UnitStore {
  readonly kind: StoreKind;
  /** The collection's name (`biblia` for the Bible). */
  readonly name: string;
  /** Where the data lives, for logs and /api/status (a file path or a server URL). */
  readonly location: string;
  /** What was moved from the version-1 layout (verses or chunks) when this store was first used, if anything. */
  readonly migrated?: IndexMigration | undefined;
  /** True when several processes may share the store (then indexing takes the lock and bumps the generation replicas poll). */
  readonly shared: boolean;
  close(): Awaitable<void>;

  getManifest(key: string): Awaitable<string | undefined>;
  setManifest(key: string, value: string): Awaitable<void>;

  /** Every source, ordered by id. */
  listSources(): Awaitable<SourceRecord[]>;
  /** Starts (or restarts) sources: drops whatever they had (units and vectors) and records them as partial. */
  beginSources(sources: readonly SourceStart[]): Awaitable<void>;
  /** Appends units to sources already started (one transaction in SQLite; in order, whole requests, in Chroma). */
  insertUnits(units: readonly UnitWrite[]): Awaitable<void>;
  /** Marks sources complete, with their unit count. */
  completeSources(ids: readonly string[]): Awaitable<void>;
  /** Writes whole sources: started, units, completed (one transaction in SQLite: a source is never half there). */
  writeSources(sources: readonly SourceWrite[]): Awaitable<void>;
  /** Drops a source with its units and their vectors; whether it existed. */
  removeSource(id: string): Awaitable<boolean>;
  /** Units of a source already committed (a resumed run continues from this ord). */
  committedUnitCount(id: string): Awaitable<number>;

  unitCount(): Awaitable<number>;
  /** Every unit, ordered by source, then position (one read: what the search is built from). */
  loadUnits(): Awaitable<StoredUnit[]>;
  /** Rewrites the analysed terms of every unit (after an analyzer change), in batches; how many. */
  rewriteTerms(analyzeText: (text: string) => string, batchSize: number): Awaitable<number>;
  /** Changes some fields of some units (the others stay), e.g. the Bible's windows after CONTEXT_WINDOW changes. */
  updateFields(rows: readonly { id: number; fields: UnitFields }[]): Awaitable<void>;

  /** Keeps one trained model (the others go). */
  saveModel(id: string, data: Buffer): Awaitable<void>;
  loadModel(id: string): Awaitable<Buffer | undefined>;
  /** Stores vectors under a model key; a unit keeps one model's vector (writing a new key drops the others). */
  saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): Awaitable<void>;
  loadVectors(model: string): Awaitable<Map<number, Float32Array>>;
  vectorCount(model: string): Awaitable<number>;
  /** Units with text and without a vector of `model`, ordered by source, then position. */
  unitsMissingVectors(model: string): Awaitable<StoredUnit[]>;
  /** Deletes the vectors of every model but `model`; how many went. */
  deleteVectorsExcept(model: string): Awaitable<number>;

  /**
   * Keeps the serving snapshot `name` (what the search builds at start, saved in the form it
   * reads: `core/retrieval/engine-snapshot.ts`), replacing the one before, with `key` (what it
   * was built from) and a checksum of its bytes.
   */
  saveSnapshot(name: string, key: string, data: Uint8Array): Awaitable<void>;
  /** The snapshot `name`, or undefined when none was saved; a damaged one says so instead of its bytes. */
  loadSnapshot(name: string): Awaitable<StoredSnapshot | undefined>;
  /** Only the key of snapshot `name` (a cheap look: is it current?). */
  snapshotKey(name: string): Awaitable<string | undefined>;

  /** Takes the indexing lock for `ttlMs` (renewed by the holder), or says who holds it (always taken on a local file). */
  tryLockIndexing(owner: string, ttlMs: number): Awaitable<LockAttempt>;
}

export type StoreErrorCode = "store_unavailable" | "store_failed" | "store_not_installed" | "index_locked";

/** A storage failure with a stable code and a Portuguese message (never a crash of the server). */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "StoreError";
  }
}

/** Orders strings as the SQLite store does (code unit by code unit): Chroma's reads are sorted alike, so ties break the same way. */
export function inSqliteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A unit's or a source's fields as both stores keep them (JSON text; `{}` or no text: none). */
export function parseFields(json: unknown): UnitFields {
  return typeof json === "string" && json !== "{}" ? (JSON.parse(json) as UnitFields) : {};
}

/** The manifest key a shared store's indexer bumps when it commits something new (replicas poll it). */
export const GENERATION_KEY = "generation";
