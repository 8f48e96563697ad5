import { mkdirSync } from "node:fs";
import path from "node:path";
import { CollectionError } from "../../core/documents/errors.js";
import type { CollectionIndexStore, DocumentWrite, StoredChunk, StoredDocument } from "./collection-index.js";
import { SqliteIndexFile } from "./sqlite-index-file.js";

/**
 * The index of one document collection: ONE SQLite file per collection,
 * `${DATA_DIR}/collections/${name}.sqlite`, holding its documents (with the SHA-256 that makes
 * an unchanged document cost nothing on reload), their chunks with the analysed terms BM25 is
 * built from, one vector per chunk, the collection's dense model and a manifest.
 *
 * Same style as SqliteStore: better-sqlite3 (synchronous), WAL, foreign keys on. A document is
 * written in ONE transaction (old chunks deleted, new chunks inserted, status `complete`), so a
 * crash never leaves half a document: either the old version or the new one is there.
 */
export const COLLECTION_SCHEMA_VERSION = 1;

const TABLES = `
  CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id TEXT NOT NULL UNIQUE,
    discipline TEXT NOT NULL,
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    meta_text TEXT,
    chunk_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('partial', 'complete')),
    indexed_at TEXT
  );
  CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    chunk INTEGER NOT NULL,
    page INTEGER,
    page_end INTEGER,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    body TEXT NOT NULL,
    terms TEXT NOT NULL,
    UNIQUE (document_id, chunk)
  );
`;

/** Collection names: ASCII letters, digits, `_` and `-`, starting with a letter or digit, 1–64 characters. */
export const COLLECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export type CollectionStoreErrorCode = "invalid_collection_name";

/** Error raised by the collection store; its message is user-facing (Portuguese). */
export class CollectionStoreError extends CollectionError<CollectionStoreErrorCode> {}

/** @throws {CollectionStoreError} `invalid_collection_name` when `name` is not a valid collection name. */
export function assertCollectionName(name: string): void {
  if (typeof name !== "string" || !COLLECTION_NAME.test(name)) {
    throw new CollectionStoreError(
      "invalid_collection_name",
      String(name),
      `Nome de coleção inválido: ${JSON.stringify(name)} (use letras sem acento, números, _ e -, começando por letra ou número, até 64 caracteres).`,
    );
  }
}

/** Path of a collection's index file: `${dataDir}/collections/${name}.sqlite`. */
export function collectionStoreFile(dataDir: string, name: string): string {
  assertCollectionName(name);
  return path.join(dataDir, "collections", `${name}.sqlite`);
}

interface DocumentRow {
  id: number;
  source_id: string;
  discipline: string;
  slug: string;
  title: string;
  sha256: string;
  meta_text: string | null;
  chunk_count: number;
  status: "partial" | "complete";
  indexed_at: string | null;
}

interface ChunkRow {
  id: number;
  source_id: string;
  discipline: string;
  slug: string;
  meta_text: string | null;
  chunk: number;
  page: number | null;
  page_end: number | null;
  title: string;
  text: string;
  body: string;
  terms: string;
}

/** Stable order of chunks everywhere (loading, training, embedding): discipline, source id, position. */
const CHUNK_ORDER = "d.discipline, d.source_id, c.chunk";

export class CollectionStore extends SqliteIndexFile implements CollectionIndexStore {
  private constructor(
    readonly name: string,
    file: string,
  ) {
    super(file, { tables: TABLES, version: COLLECTION_SCHEMA_VERSION, vectorUnit: "chunk_id", unitTable: "chunks", modelsStamped: false });
  }

  /**
   * Opens (creating if needed) the index of collection `name` under `dataDir`.
   * @throws {CollectionStoreError} `invalid_collection_name`.
   */
  static open(dataDir: string, name: string): CollectionStore {
    const file = collectionStoreFile(dataDir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    return new CollectionStore(name, file);
  }

  // --- documents and chunks ---------------------------------------------------------

  /** Every document (with its SHA-256 and status), ordered by source id. */
  listDocuments(): StoredDocument[] {
    const rows = this.db
      .prepare(
        "SELECT id, source_id, discipline, slug, title, sha256, meta_text, chunk_count, status, indexed_at FROM documents ORDER BY source_id",
      )
      .all() as DocumentRow[];
    return rows.map((row) => {
      const document: StoredDocument = {
        id: row.id,
        sourceId: row.source_id,
        discipline: row.discipline,
        slug: row.slug,
        title: row.title,
        sha256: row.sha256,
        chunkCount: row.chunk_count,
        status: row.status,
        indexedAt: row.indexed_at,
      };
      if (row.meta_text !== null) document.metaText = row.meta_text;
      return document;
    });
  }

  /**
   * Writes a document and its chunks in ONE transaction: the document row is inserted or
   * updated in place (its id is kept), its old chunks are deleted (their vectors go by
   * cascade), the new ones inserted, and the status set to `complete`.
   */
  upsertDocument(document: DocumentWrite): { documentId: number; chunkIds: number[] } {
    const upsert = this.db.prepare(`
      INSERT INTO documents (source_id, discipline, slug, title, sha256, meta_text, chunk_count, status)
      VALUES (@sourceId, @discipline, @slug, @title, @sha256, @metaText, 0, 'partial')
      ON CONFLICT(source_id) DO UPDATE SET discipline = excluded.discipline, slug = excluded.slug, title = excluded.title,
        sha256 = excluded.sha256, meta_text = excluded.meta_text, chunk_count = 0, status = 'partial', indexed_at = NULL
      RETURNING id`);
    const insertChunk = this.db.prepare(`
      INSERT INTO chunks (document_id, chunk, page, page_end, title, text, body, terms)
      VALUES (@documentId, @chunk, @page, @pageEnd, @title, @text, @body, @terms)`);
    return this.transaction(() => {
      const { id: documentId } = upsert.get({
        sourceId: document.sourceId,
        discipline: document.discipline,
        slug: document.slug,
        title: document.title,
        sha256: document.sha256,
        metaText: document.metaText ?? null,
      }) as { id: number };
      this.db.prepare("DELETE FROM chunks WHERE document_id = ?").run(documentId);
      const chunkIds: number[] = [];
      for (const chunk of document.chunks) {
        const result = insertChunk.run({
          documentId,
          chunk: chunk.chunk,
          page: chunk.page ?? null,
          pageEnd: chunk.pageEnd ?? null,
          title: chunk.title,
          text: chunk.text,
          body: chunk.body,
          terms: chunk.terms,
        });
        chunkIds.push(Number(result.lastInsertRowid));
      }
      this.db
        .prepare("UPDATE documents SET chunk_count = ?, status = 'complete', indexed_at = ? WHERE id = ?")
        .run(document.chunks.length, new Date().toISOString(), documentId);
      return { documentId, chunkIds };
    });
  }

  /** Several documents in one transaction. */
  upsertDocuments(documents: readonly DocumentWrite[]): void {
    this.transaction(() => {
      for (const document of documents) this.upsertDocument(document);
    });
  }

  /** Removes a document; its chunks and their vectors go by cascade. Whether it existed. */
  removeDocument(sourceId: string): boolean {
    return this.db.prepare("DELETE FROM documents WHERE source_id = ?").run(sourceId).changes > 0;
  }

  documentCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM documents").get() as { n: number }).n;
  }

  chunkCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM chunks").get() as { n: number }).n;
  }

  /**
   * Every chunk joined with its document, as the search core holds it, in a stable order
   * (discipline, source id, chunk position).
   */
  loadChunks(): StoredChunk[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, d.source_id, d.discipline, d.slug, d.meta_text, c.chunk, c.page, c.page_end, c.title, c.text, c.body, c.terms
         FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY ${CHUNK_ORDER}`,
      )
      .all() as ChunkRow[];
    return rows.map((row) => {
      const chunk: StoredChunk = {
        id: row.id,
        collection: this.name,
        sourceId: row.source_id,
        discipline: row.discipline,
        slug: row.slug,
        chunk: row.chunk,
        title: row.title,
        text: row.text,
        body: row.body,
        terms: splitTerms(row.terms),
      };
      if (row.page !== null) chunk.page = row.page;
      if (row.page_end !== null) chunk.pageEnd = row.page_end;
      if (row.meta_text !== null) chunk.metaText = row.meta_text;
      return chunk;
    });
  }

  /** Chunk ids of one document, by position (empty when the document is unknown). */
  chunkIdsOf(sourceId: string): number[] {
    const rows = this.db
      .prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = ? ORDER BY c.chunk")
      .all(sourceId) as { id: number }[];
    return rows.map((row) => row.id);
  }

  /** Id, text and analysed terms of every chunk, in the stable chunk order (for training). */
  chunkTerms(): { id: number; text: string; terms: string[] }[] {
    const rows = this.db
      .prepare(`SELECT c.id, c.text, c.terms FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY ${CHUNK_ORDER}`)
      .all() as { id: number; text: string; terms: string }[];
    return rows.map((row) => ({ id: row.id, text: row.text, terms: splitTerms(row.terms) }));
  }

  // --- dense side -------------------------------------------------------------------

  /** Chunks without a vector of `model` (none, or one of another model), in the stable chunk order. */
  chunksMissingVectors(model: string): { id: number; text: string; terms: string[] }[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.text, c.terms FROM chunks c JOIN documents d ON d.id = c.document_id
         LEFT JOIN vectors x ON x.chunk_id = c.id AND x.model = ?
         WHERE x.chunk_id IS NULL ORDER BY ${CHUNK_ORDER}`,
      )
      .all(model) as { id: number; text: string; terms: string }[];
    return rows.map((row) => ({ id: row.id, text: row.text, terms: splitTerms(row.terms) }));
  }

  /** Deletes the vectors of every model but `model`. How many went. */
  deleteVectorsExcept(model: string): number {
    return this.db.prepare("DELETE FROM vectors WHERE model <> ?").run(model).changes;
  }
}

function splitTerms(terms: string): string[] {
  return terms === "" ? [] : terms.split(" ");
}
