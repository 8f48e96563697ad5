import type { ChromaClientLike, ChromaMetadata } from "./chroma-client.js";
import type { CollectionIndexStore, DocumentFields, DocumentWrite, StoredChunk, StoredDocument } from "./collection-index.js";
import { ChromaSpace, PLACEHOLDER, SLOT_SPAN, type ChromaSpaceOptions } from "./chroma-space.js";
import { StoreError } from "./store.js";

/**
 * The index of one document collection on the shared ChromaDB server (VECTOR_STORE=chroma), so
 * every replica serves it without reading its source. Chroma collections, under
 * CHROMA_COLLECTION_PREFIX (`pastor` below) and the collection's name (`licoes`); a name never
 * holds a dot, so one collection's names never start another's:
 *
 * - `pastor.licoes.chunks`: one record per chunk. id = slot·2³² + chunk position (the slot is
 *   the document's number, kept across versions); document = the chunk text; metadata = slot,
 *   chunk, page, pageEnd, title, body and the analysed `terms` BM25 is rebuilt from.
 * - `pastor.licoes.meta`: the manifest (among them the generation replicas poll), the trained
 *   model, and one `doc:<source id>` record per document (slot, discipline, slug, title,
 *   SHA-256, metadata block, chunk count, status).
 * - `pastor.licoes.vec_<hash>`: one model's chunk vectors; `pastor.licoes.lock`: the lock.
 *
 * No transactions: documents are written in batches, as partial with an empty hash, their old
 * chunks and vectors deleted, the new chunks written, then the records completed. A crash in between leaves
 * a partial document, which loading skips and the next reload rewrites.
 */
export interface ChromaCollectionStoreOptions extends ChromaSpaceOptions {
  /** CHROMA_COLLECTION_PREFIX. */
  prefix: string;
  /** The collection's name (see COLLECTION_NAME: no dot). */
  collection: string;
}

/** A document's record: its fields, its slot, and "" for "not indexed yet" (Chroma stores no null). */
interface DocumentMetadata extends DocumentFields, Pick<StoredDocument, "chunkCount" | "status"> {
  kind: "document";
  slot: number;
  indexedAt: string;
}

interface ChunkMetadata {
  slot: number;
  chunk: number;
  page?: number;
  pageEnd?: number;
  title: string;
  body: string;
  terms: string;
}

export class ChromaCollectionStore extends ChromaSpace implements CollectionIndexStore {
  readonly name: string;
  private readonly prefix: string;
  /** Highest document slot in use, read once per lock (the lock holder is the only writer). */
  private highestSlot: number | undefined;

  constructor(client: ChromaClientLike, options: ChromaCollectionStoreOptions) {
    super(client, options);
    this.name = options.collection;
    this.prefix = options.prefix;
  }

  protected override spaceName(suffix: string): string {
    return `${this.prefix}.${this.name}.${suffix}`;
  }

  override async tryLockIndexing(owner: string, ttlMs: number): ReturnType<ChromaSpace["tryLockIndexing"]> {
    this.highestSlot = undefined; // another replica may have written since
    return super.tryLockIndexing(owner, ttlMs);
  }

  private get chunksName(): string {
    return this.spaceName("chunks");
  }

  // --- documents --------------------------------------------------------------------------

  private async documentRecords(): Promise<DocumentMetadata[]> {
    const got = await this.on(this.metaName, "listar os documentos", (c) => c.get({ where: { kind: "document" }, include: ["metadatas"] }), { quick: true });
    return (got.metadatas.filter(Boolean) as unknown as DocumentMetadata[]).sort((a, b) => compare(a.sourceId, b.sourceId));
  }

  private async documentRecord(sourceId: string): Promise<DocumentMetadata | undefined> {
    const got = await this.on(this.metaName, "ler um documento", (c) => c.get({ ids: [`doc:${sourceId}`], include: ["metadatas"] }), { quick: true });
    return (got.metadatas[0] ?? undefined) as DocumentMetadata | undefined;
  }

  private async putDocuments(records: readonly DocumentMetadata[]): Promise<void> {
    await this.write(this.metaName, "gravar documentos", "upsert", {
      ids: records.map((record) => `doc:${record.sourceId}`),
      embeddings: records.map(() => PLACEHOLDER),
      metadatas: records.map((record) => record as unknown as ChromaMetadata),
    });
  }

  async listDocuments(): Promise<StoredDocument[]> {
    return (await this.documentRecords()).map((record) => {
      const document: StoredDocument = {
        id: record.slot,
        sourceId: record.sourceId,
        discipline: record.discipline,
        slug: record.slug,
        title: record.title,
        sha256: record.sha256,
        chunkCount: record.chunkCount,
        status: record.status,
        indexedAt: record.indexedAt === "" ? null : record.indexedAt,
      };
      if (typeof record.metaText === "string") document.metaText = record.metaText;
      return document;
    });
  }

  async upsertDocument(document: DocumentWrite): Promise<void> {
    await this.upsertDocuments([document]);
  }

  /**
   * Writes documents in a few requests whatever their number: records partial (empty hash),
   * old chunks and vectors of those already known dropped, every new chunk, records complete.
   */
  async upsertDocuments(documents: readonly DocumentWrite[]): Promise<void> {
    if (documents.length === 0) return;
    for (const document of documents) {
      if (new Set(document.chunks.map((chunk) => chunk.chunk)).size !== document.chunks.length) {
        throw new StoreError("store_failed", `${document.sourceId}: dois trechos com a mesma posição; nada foi gravado.`);
      }
    }
    if (new Set(documents.map((document) => document.sourceId)).size !== documents.length) {
      throw new StoreError("store_failed", "o mesmo documento duas vezes num lote; nada foi gravado.");
    }
    const ids = documents.map((document) => `doc:${document.sourceId}`);
    const got = await this.on(this.metaName, "ler documentos", (c) => c.get({ ids, include: ["metadatas"] }));
    const existing = new Map((got.metadatas.filter(Boolean) as unknown as DocumentMetadata[]).map((record) => [record.sourceId, record]));
    this.highestSlot ??= Math.max(0, ...(await this.documentRecords()).map((record) => record.slot));
    const records = documents.map((document): DocumentMetadata => ({
      kind: "document",
      sourceId: document.sourceId,
      slot: existing.get(document.sourceId)?.slot ?? ++this.highestSlot!,
      discipline: document.discipline,
      slug: document.slug,
      title: document.title,
      sha256: "",
      ...(document.metaText === undefined ? {} : { metaText: document.metaText }),
      chunkCount: 0,
      status: "partial",
      indexedAt: "",
    }));
    // An empty hash until the new chunks are all there: a crash in between rewrites the document.
    await this.putDocuments(records);
    const known = records.filter((record) => existing.has(record.sourceId)).map((record) => record.slot);
    if (known.length > 0) await this.dropSlots(known);
    const ids2: string[] = [];
    const texts: string[] = [];
    const metadatas: ChromaMetadata[] = [];
    documents.forEach((document, i) => {
      const slot = records[i]!.slot;
      for (const chunk of document.chunks) {
        const metadata: ChunkMetadata = { slot, chunk: chunk.chunk, title: chunk.title, body: chunk.body, terms: chunk.terms };
        if (chunk.page !== undefined) metadata.page = chunk.page;
        if (chunk.pageEnd !== undefined) metadata.pageEnd = chunk.pageEnd;
        ids2.push(String(slot * SLOT_SPAN + chunk.chunk));
        texts.push(chunk.text);
        metadatas.push(metadata as unknown as ChromaMetadata);
      }
    });
    await this.write(this.chunksName, "gravar trechos", "upsert", { ids: ids2, embeddings: ids2.map(() => PLACEHOLDER), documents: texts, metadatas });
    const indexedAt = new Date().toISOString();
    await this.putDocuments(
      records.map((record, i) => ({ ...record, sha256: documents[i]!.sha256, chunkCount: documents[i]!.chunks.length, status: "complete", indexedAt })),
    );
  }

  async removeDocument(sourceId: string): Promise<boolean> {
    const record = await this.documentRecord(sourceId);
    if (!record) return false;
    await this.dropSlots([record.slot]);
    await this.on(this.metaName, "remover um documento", (c) => c.delete({ ids: [`doc:${sourceId}`] }));
    return true;
  }

  /** Deletes some documents' chunks and their vectors under every model. */
  private async dropSlots(slots: readonly number[]): Promise<void> {
    const where = { slot: { $in: [...slots] } };
    await this.on(this.chunksName, "apagar trechos", (c) => c.delete({ where }));
    await this.dropVectorsWhere(where);
  }

  async documentCount(): Promise<number> {
    return (await this.documentRecords()).length;
  }

  async chunkCount(): Promise<number> {
    return this.on(this.chunksName, "contar trechos", (c) => c.count(), { quick: true });
  }

  async loadChunks(): Promise<StoredChunk[]> {
    const documents = new Map((await this.documentRecords()).filter((d) => d.status === "complete").map((d) => [d.slot, d]));
    const got = (await this.readAll(this.chunksName, ["documents", "metadatas"], "ler os trechos"))!;
    const chunks: StoredChunk[] = [];
    got.ids.forEach((id, i) => {
      const m = got.metadatas[i] as unknown as ChunkMetadata | null;
      const document = m ? documents.get(m.slot) : undefined;
      if (!m || !document) return;
      const chunk: StoredChunk = {
        id: Number(id),
        collection: this.name,
        sourceId: document.sourceId,
        discipline: document.discipline,
        slug: document.slug,
        chunk: m.chunk,
        title: m.title,
        text: got.documents[i] ?? "",
        body: m.body,
        terms: m.terms === "" ? [] : m.terms.split(" "),
      };
      if (typeof m.page === "number") chunk.page = m.page;
      if (typeof m.pageEnd === "number") chunk.pageEnd = m.pageEnd;
      if (typeof document.metaText === "string") chunk.metaText = document.metaText;
      chunks.push(chunk);
    });
    // The SQLite store's order (discipline, source id, position): the search's ties break by it.
    return chunks.sort((a, b) => compare(a.discipline, b.discipline) || compare(a.sourceId, b.sourceId) || a.chunk - b.chunk);
  }

  async chunkIdsOf(sourceId: string): Promise<number[]> {
    const record = await this.documentRecord(sourceId);
    if (!record) return [];
    const got = await this.on(this.chunksName, "ler trechos", (c) => c.get({ where: { slot: record.slot }, include: [] }));
    return got.ids.map(Number).sort((a, b) => a - b);
  }

  async chunkTerms(): Promise<{ id: number; text: string; terms: string[] }[]> {
    return (await this.loadChunks()).map((chunk) => ({ id: chunk.id, text: chunk.text, terms: [...chunk.terms] }));
  }

  async chunksMissingVectors(model: string): Promise<{ id: number; text: string; terms: string[] }[]> {
    const have = await this.vectorIds(model);
    return (await this.chunkTerms()).filter((row) => !have.has(String(row.id)));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
