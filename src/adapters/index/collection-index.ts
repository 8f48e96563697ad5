import type { DocumentChunk, IndexedChunk } from "../../core/documents/types.js";
import type { Awaitable, CollectionStoreBase } from "./store.js";

/**
 * The storage interface of one document collection, implemented by its SQLite file
 * (`CollectionStore`, the default, synchronous) and by a shared ChromaDB server
 * (`ChromaCollectionStore`). Every method may answer directly or with a promise; callers
 * always `await`. Same contract as the Bible's IndexStore: a document is written whole (its
 * old chunks and their vectors go), one dense model and one model's vectors at a time, and
 * on a shared store the indexing lock and a generation replicas poll.
 */
export interface CollectionIndexStore extends CollectionStoreBase {
  /** The collection's name. */
  readonly name: string;

  /** Every document (with its SHA-256 and status), ordered by source id. */
  listDocuments(): Awaitable<StoredDocument[]>;
  /** Writes a document whole: its old chunks (and their vectors) go, the new ones are written, status complete. */
  upsertDocument(document: DocumentWrite): Awaitable<unknown>;
  /** The same for several documents at once (what a reload writes: few requests on a server). */
  upsertDocuments(documents: readonly DocumentWrite[]): Awaitable<void>;
  /** Removes a document with its chunks and vectors; whether it existed. */
  removeDocument(sourceId: string): Awaitable<boolean>;
  documentCount(): Awaitable<number>;
  chunkCount(): Awaitable<number>;
  /** Every chunk of a complete document, as the search core holds it, ordered by discipline, source id, position. */
  loadChunks(): Awaitable<StoredChunk[]>;
  /** Chunk ids of one document, by position (empty when the document is unknown). */
  chunkIdsOf(sourceId: string): Awaitable<number[]>;
  /** Id, text and analysed terms of every chunk, in the same order (for training). */
  chunkTerms(): Awaitable<{ id: number; text: string; terms: string[] }[]>;

  /** Chunks without a vector of `model`, in the chunk order. */
  chunksMissingVectors(model: string): Awaitable<{ id: number; text: string; terms: string[] }[]>;
  /** Deletes the vectors of every model but `model`; how many went. */
  deleteVectorsExcept(model: string): Awaitable<number>;
}

/** What a document is, whichever way it goes (written, stored). */
export interface DocumentFields {
  sourceId: string;
  discipline: string;
  slug: string;
  title: string;
  sha256: string;
  metaText?: string;
}

export interface StoredDocument extends DocumentFields {
  id: number;
  chunkCount: number;
  status: "partial" | "complete";
  indexedAt: string | null;
}

/** One chunk to write (a DocumentChunk of the document); `terms` is `analyze(text).join(" ")`. */
export interface ChunkWrite extends Omit<DocumentChunk, "sourceId"> {
  terms: string;
}

/** A whole document to write: replaces any previous version with the same `sourceId`. */
export interface DocumentWrite extends DocumentFields {
  chunks: readonly ChunkWrite[];
}

/** A stored chunk as the search core holds it, plus its row id (the key of its vector). */
export interface StoredChunk extends IndexedChunk {
  id: number;
}

