import type { DocumentChunk, IndexedChunk } from "../../core/documents/types.js";
import { inSqliteOrder, type SourceRecord, type SourceWrite, type StoredUnit, type UnitStore } from "./store.js";

/**
 * A document collection's view of its units: a source is a document (its fields: discipline,
 * slug, title and metadata block), a unit one of its chunks (its `ord` the chunk's position;
 * its fields the pages and the lesson title). The store knows nothing of documents; this module
 * is the one place that maps them.
 */

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

/** A document as the whole source to write. */
export function documentSource(document: DocumentWrite): SourceWrite {
  return {
    id: document.sourceId,
    sha256: document.sha256,
    fields: {
      discipline: document.discipline,
      slug: document.slug,
      title: document.title,
      ...(document.metaText === undefined ? {} : { metaText: document.metaText }),
    },
    units: document.chunks.map((chunk) => ({
      ord: chunk.chunk,
      text: chunk.text,
      terms: chunk.terms,
      fields: {
        title: chunk.title,
        body: chunk.body,
        ...(chunk.page === undefined ? {} : { page: chunk.page }),
        ...(chunk.pageEnd === undefined ? {} : { pageEnd: chunk.pageEnd }),
      },
    })),
  };
}

/** A stored source as the document it is. */
export function documentOfSource(source: SourceRecord): StoredDocument {
  const f = source.fields;
  const document: StoredDocument = {
    sourceId: source.id,
    discipline: String(f.discipline ?? ""),
    slug: String(f.slug ?? ""),
    title: String(f.title ?? ""),
    sha256: source.sha256,
    chunkCount: source.unitCount,
    status: source.status,
    indexedAt: source.indexedAt,
  };
  if (typeof f.metaText === "string") document.metaText = f.metaText;
  return document;
}

/** Every document (with its SHA-256 and status), ordered by source id. */
export async function listDocuments(store: Pick<UnitStore, "listSources">): Promise<StoredDocument[]> {
  return (await store.listSources()).map(documentOfSource);
}

/** A stored unit of a complete document as the chunk the search core holds. */
function chunkOfUnit(unit: StoredUnit, document: StoredDocument, collection: string): StoredChunk {
  const f = unit.fields;
  const chunk: StoredChunk = {
    id: unit.id,
    collection,
    sourceId: document.sourceId,
    discipline: document.discipline,
    slug: document.slug,
    chunk: unit.ord,
    title: String(f.title ?? ""),
    text: unit.text,
    body: String(f.body ?? ""),
    terms: unit.terms === "" ? [] : unit.terms.split(" "),
  };
  if (typeof f.page === "number") chunk.page = f.page;
  if (typeof f.pageEnd === "number") chunk.pageEnd = f.pageEnd;
  if (document.metaText !== undefined) chunk.metaText = document.metaText;
  return chunk;
}

/** Orders chunks everywhere alike (loading, training, embedding): discipline, source id, position. */
function inChunkOrder(chunks: StoredChunk[]): StoredChunk[] {
  return chunks.sort((a, b) => inSqliteOrder(a.discipline, b.discipline) || inSqliteOrder(a.sourceId, b.sourceId) || a.chunk - b.chunk);
}

async function chunksOf(store: Pick<UnitStore, "listSources" | "name">, units: readonly StoredUnit[]): Promise<StoredChunk[]> {
  if (units.length === 0) return [];
  const documents = new Map((await listDocuments(store)).filter((d) => d.status === "complete").map((d) => [d.sourceId, d]));
  const chunks: StoredChunk[] = [];
  for (const unit of units) {
    const document = documents.get(unit.source);
    if (document) chunks.push(chunkOfUnit(unit, document, store.name));
  }
  return inChunkOrder(chunks);
}

/** Every chunk of a complete document, as the search core holds it, ordered by discipline, source id, position. */
export async function loadChunks(store: Pick<UnitStore, "listSources" | "loadUnits" | "name">): Promise<StoredChunk[]> {
  return chunksOf(store, await store.loadUnits());
}

/** Chunks of complete documents without a vector of `model`, in the chunk order. */
export async function chunksMissingVectors(store: Pick<UnitStore, "listSources" | "unitsMissingVectors" | "name">, model: string): Promise<StoredChunk[]> {
  return chunksOf(store, await store.unitsMissingVectors(model));
}

/** Chunk ids of one document, by position (empty when the document is unknown). */
export async function chunkIdsOf(store: Pick<UnitStore, "loadUnits">, sourceId: string): Promise<number[]> {
  return (await store.loadUnits()).filter((unit) => unit.source === sourceId).map((unit) => unit.id);
}
