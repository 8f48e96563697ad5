import type { ContextText, Verse } from "../../core/types.js";

/**
 * The storage interface the application uses (indexer, engine loading, dense model,
 * search service), implemented by the embedded SQLite file (`SqliteStore`, the default,
 * synchronous) and by a shared ChromaDB server (`ChromaStore`, over HTTP). Every method
 * may answer directly or with a promise; callers always `await`.
 */
export type Awaitable<T> = T | Promise<T>;

export interface StoredVerse extends Verse, ContextText {
  id: number;
  /** Position of the verse inside its source file (0-based). */
  ord: number;
}

/** A stored verse with the analysed terms the BM25 index is rebuilt from (space-separated). */
export interface IndexedVerse extends StoredVerse {
  terms: string;
}

export interface SourceRecord {
  file: string;
  sha256: string;
  verseCount: number;
  status: "partial" | "complete";
  indexedAt: string | null;
}

export interface VerseInsert extends ContextText {
  verse: Verse;
  ord: number;
  terms: string;
}

export interface MissingVector {
  id: number;
  text: string;
  contextBefore: string;
  contextAfter: string;
}

/** The indexing lock, held by one process at a time (only meaningful for a shared store). */
export interface IndexLock {
  readonly owner: string;
  /** Extends the expiry; false when the lock was lost (expired and taken by another process). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export type LockAttempt = { acquired: true; lock: IndexLock } | { acquired: false; owner: string; expiresAt: number };

export type StoreKind = "sqlite" | "chroma";

/**
 * What the index of every collection holds beside its units (the Bible's verses, a document
 * collection's chunks): where it lives, its manifest, the trained dense model, vectors per
 * model key, and the indexing lock. `IndexStore` (the Bible) and `CollectionIndexStore` (one
 * document collection) are one each, on SQLite or on Chroma.
 */
export interface CollectionStoreBase {
  /** Where the data lives, for logs and /api/status (a file path or a server URL). */
  readonly location: string;
  /** True when several processes may share the store (then indexing takes the lock and bumps the generation replicas poll). */
  readonly shared: boolean;
  close(): Awaitable<void>;

  getManifest(key: string): Awaitable<string | undefined>;
  setManifest(key: string, value: string): Awaitable<void>;

  /** Keeps one trained model (the others go). */
  saveModel(id: string, data: Buffer): Awaitable<void>;
  loadModel(id: string): Awaitable<Buffer | undefined>;
  saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): Awaitable<void>;
  loadVectors(model: string): Awaitable<Map<number, Float32Array>>;
  vectorCount(model: string): Awaitable<number>;

  /** Takes the indexing lock for `ttlMs` (renewed by the holder), or says who holds it (always taken on a local file). */
  tryLockIndexing(owner: string, ttlMs: number): Awaitable<LockAttempt>;
}

export interface IndexStore extends CollectionStoreBase {
  readonly kind: StoreKind;

  listSources(): Awaitable<SourceRecord[]>;
  /** Starts (or restarts) a source: drops whatever it had and records it as partial. */
  beginSource(file: string, sha256: string): Awaitable<void>;
  completeSource(file: string): Awaitable<void>;
  /** Drops a source and its verses (and their vectors); returns how many verses went. */
  removeSource(file: string): Awaitable<number>;
  /** Verses of a source already committed (a resumed run continues from this ord). */
  committedVerseCount(file: string): Awaitable<number>;
  /** Writes one batch (one transaction in SQLite; in order, whole requests, in Chroma). */
  insertVerses(batch: readonly VerseInsert[]): Awaitable<void>;

  verseCount(): Awaitable<number>;
  /** Every verse, ordered by source, then position in the file. */
  loadVerses(): Awaitable<StoredVerse[]>;
  /** Every verse with its analysed terms, in the same order (one read: what the engine is built from). */
  loadIndexedVerses(): Awaitable<IndexedVerse[]>;
  /** Analysed terms per verse id. */
  loadTerms(): Awaitable<Map<number, string>>;
  /** Rewrites the analysed terms of every verse (after an analyzer change), in batches. */
  rewriteTerms(analyzeText: (text: string) => string, batchSize: number): Awaitable<number>;
  /** Rewrites the context windows of some verses (after CONTEXT_WINDOW changes). */
  updateContexts(rows: readonly { id: number; contextBefore: string; contextAfter: string }[]): Awaitable<void>;

  /** Non-empty verses without a vector under `model`, ordered by source, then position. */
  versesMissingVectors(model: string): Awaitable<MissingVector[]>;
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

/** The manifest key a shared store's indexer bumps when it commits something new (replicas poll it). */
export const GENERATION_KEY = "generation";
