import { loadChromaModule, type ChromaClientLike, type ChromaMetadata } from "./chroma-client.js";
import { ChromaCollectionStore } from "./chroma-collection-store.js";
import { ChromaSpace, PLACEHOLDER, SLOT_SPAN } from "./chroma-space.js";
import { StoreError, type IndexedVerse, type IndexStore, type MissingVector, type SourceRecord, type StoredVerse, type VerseInsert } from "./store.js";

/**
 * The shared index of the Bible on a ChromaDB server, for several stateless API replicas
 * (the plumbing, manifest, model, vectors and lock are ChromaSpace's). Collections,
 * named after CHROMA_COLLECTION_PREFIX (`pastor` below):
 *
 * - `pastor_verses`: one record per verse. id = slot·2³² + ord (the slot is the source's
 *   number, so ids are stable and a resumed batch rewrites the same records); document =
 *   the verse text; metadata = source, slot, ord, book, bookName, canonical, chapter,
 *   verse, verseEnd, contextBefore, contextAfter and the analysed `terms` the BM25 index is
 *   rebuilt from. Chroma needs an embedding per record: a constant one-dimensional `[1]`.
 * - `pastor_vec_<hash of the vector key>`: the dense vectors of one embedder (model id +
 *   document format; dimensions differ per model), cosine space, same ids, metadata slot.
 * - `pastor_meta`: the manifest (`manifest:<key>`, among them the generation replicas
 *   poll), the sources (`source:<file>`: hash, status, count, slot) and the trained LSA
 *   model (`model:<id>` header written last, `model-part:<id>:<n>` base64 pieces of 1 MiB).
 * - `pastor_lock`: the indexing lock. Its existence is the lock (creating a collection is
 *   the one atomic create-if-absent Chroma offers); its metadata holds owner and expiry.
 * - Document collections live beside it (ChromaCollectionStore: `pastor.<name>.…`), each
 *   registered in `pastor_meta` (`collection:<name>`) so replicas without its source list it.
 *
 * Chroma has no transactions: batches are written in order, in requests of at most the
 * server's max batch size, so the verses of a source are always a prefix (resume counts
 * them), and a source restarts with an empty hash until its old records are gone.
 */

export interface ChromaStoreOptions {
  /** http://host:port of the Chroma server. */
  url: string;
  /** Collection name prefix (letters, digits, _ or -). */
  prefix: string;
  /** Longest wait for one request before the store counts as unavailable. */
  timeoutMs?: number;
}

type VerseMetadata = {
  source: string;
  slot: number;
  ord: number;
  book: string;
  bookName: string;
  canonical: boolean;
  chapter: number;
  verse: number;
  verseEnd: number;
  contextBefore: string;
  contextAfter: string;
  terms: string;
};

interface SourceMetadata {
  kind: "source";
  file: string;
  sha256: string;
  slot: number;
  status: "partial" | "complete";
  verseCount: number;
  indexedAt: string;
}

export class ChromaStore extends ChromaSpace implements IndexStore {
  readonly kind = "chroma" as const;

  private constructor(
    client: ChromaClientLike,
    private readonly options: ChromaStoreOptions,
  ) {
    super(client, options);
  }

  /** Loads the client (no request is made: a server that is down is found at the first call). */
  static async open(options: ChromaStoreOptions): Promise<ChromaStore> {
    const { ChromaClient } = await loadChromaModule();
    let url: URL;
    try {
      url = new URL(options.url);
    } catch (error) {
      throw new StoreError("store_failed", `CHROMA_URL inválida: ${options.url}`, { cause: error });
    }
    const ssl = url.protocol === "https:";
    const port = url.port ? Number(url.port) : ssl ? 443 : 8000;
    return new ChromaStore(new ChromaClient({ host: url.hostname, port, ssl }), options);
  }

  protected spaceName(suffix: string): string {
    return `${this.options.prefix}_${suffix}`;
  }

  private get versesName(): string {
    return this.spaceName("verses");
  }

  /** The index of document collection `collection` on the same server (see ChromaCollectionStore). */
  collectionStore(collection: string): ChromaCollectionStore {
    const { url, prefix, timeoutMs } = this.options;
    return new ChromaCollectionStore(this.client, { url, prefix, collection, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }

  /** The document collections some replica indexed here, with the kind of their source, by name. */
  async indexedCollections(): Promise<{ name: string; kind: string }[]> {
    const got = await this.on(this.metaName, "listar as coleções indexadas", (c) => c.get({ where: { kind: "collection" }, include: ["metadatas"] }), { quick: true });
    return got.metadatas
      .filter((m): m is ChromaMetadata => m !== null && typeof m.name === "string")
      .map((m) => ({ name: String(m.name), kind: String(m.sourceKind) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Records that collection `name` is indexed here (replicas without its source then serve it). */
  async registerCollection(name: string, sourceKind: string): Promise<void> {
    await this.write(this.metaName, "registrar uma coleção", "upsert", {
      ids: [`collection:${name}`],
      embeddings: [PLACEHOLDER],
      metadatas: [{ kind: "collection", name, sourceKind }],
    });
  }

  // --- sources -----------------------------------------------------------

  private async sourceRecords(): Promise<SourceMetadata[]> {
    const got = await this.on(this.metaName, "listar as fontes", (c) => c.get({ where: { kind: "source" }, include: ["metadatas"] }), { quick: true });
    return (got.metadatas.filter(Boolean) as unknown as SourceMetadata[]).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  private async sourceRecord(file: string): Promise<SourceMetadata | undefined> {
    const got = await this.on(this.metaName, "ler uma fonte", (c) => c.get({ ids: [`source:${file}`], include: ["metadatas"] }), { quick: true });
    return (got.metadatas[0] ?? undefined) as SourceMetadata | undefined;
  }

  private async putSource(record: SourceMetadata): Promise<void> {
    await this.write(this.metaName, "gravar uma fonte", "upsert", {
      ids: [`source:${record.file}`],
      embeddings: [PLACEHOLDER],
      metadatas: [record as unknown as ChromaMetadata],
    });
  }

  async listSources(): Promise<SourceRecord[]> {
    return (await this.sourceRecords()).map((s) => ({
      file: s.file,
      sha256: s.sha256,
      verseCount: s.verseCount,
      status: s.status,
      indexedAt: s.indexedAt === "" ? null : s.indexedAt,
    }));
  }

  async beginSource(file: string, sha256: string): Promise<void> {
    const existing = await this.sourceRecord(file);
    const slot = existing?.slot ?? Math.max(0, ...(await this.sourceRecords()).map((s) => s.slot)) + 1;
    const record: SourceMetadata = { kind: "source", file, sha256: "", slot, status: "partial", verseCount: 0, indexedAt: "" };
    // An empty hash until the old records are gone: a crash in between starts the source over.
    await this.putSource(record);
    await this.dropSlot(slot);
    await this.putSource({ ...record, sha256 });
  }

  async completeSource(file: string): Promise<void> {
    const record = await this.sourceRecord(file);
    if (!record) return;
    const verseCount = await this.countSlot(record.slot);
    await this.putSource({ ...record, status: "complete", verseCount, indexedAt: new Date().toISOString() });
  }

  async removeSource(file: string): Promise<number> {
    const record = await this.sourceRecord(file);
    if (!record) return 0;
    const removed = await this.countSlot(record.slot);
    await this.dropSlot(record.slot);
    await this.on(this.metaName, "remover uma fonte", (c) => c.delete({ ids: [`source:${file}`] }));
    return removed;
  }

  async committedVerseCount(file: string): Promise<number> {
    const record = await this.sourceRecord(file);
    return record ? this.countSlot(record.slot) : 0;
  }

  private async countSlot(slot: number): Promise<number> {
    const got = await this.on(this.versesName, "contar versículos", (c) => c.get({ where: { slot }, include: [] }));
    return got.ids.length;
  }

  /** Deletes a source's verses and their vectors under every model. */
  private async dropSlot(slot: number): Promise<void> {
    await this.on(this.versesName, "apagar versículos", (c) => c.delete({ where: { slot } }));
    await this.dropVectorsWhere({ slot });
  }

  // --- verses -------------------------------------------------------------------------

  async insertVerses(batch: readonly VerseInsert[]): Promise<void> {
    if (batch.length === 0) return;
    const slots = new Map<string, number>();
    for (const row of batch) {
      if (slots.has(row.verse.source)) continue;
      const record = await this.sourceRecord(row.verse.source);
      if (!record) throw new StoreError("store_failed", `fonte não iniciada no índice: ${row.verse.source}`);
      slots.set(row.verse.source, record.slot);
    }
    const ids: string[] = [];
    const metadatas: ChromaMetadata[] = [];
    const documents: string[] = [];
    for (const row of batch) {
      const slot = slots.get(row.verse.source)!;
      const metadata: VerseMetadata = {
        source: row.verse.source,
        slot,
        ord: row.ord,
        book: row.verse.book,
        bookName: row.verse.bookName,
        canonical: row.verse.canonical,
        chapter: row.verse.chapter,
        verse: row.verse.verse,
        verseEnd: row.verse.verseEnd,
        contextBefore: row.contextBefore,
        contextAfter: row.contextAfter,
        terms: row.terms,
      };
      ids.push(String(slot * SLOT_SPAN + row.ord));
      metadatas.push(metadata);
      documents.push(row.verse.text);
    }
    await this.write(this.versesName, "gravar versículos", "upsert", { ids, embeddings: ids.map(() => PLACEHOLDER), metadatas, documents });
  }

  async verseCount(): Promise<number> {
    return this.on(this.versesName, "contar versículos", (c) => c.count(), { quick: true });
  }

  async loadIndexedVerses(): Promise<IndexedVerse[]> {
    const got = (await this.readAll(this.versesName, ["documents", "metadatas"], "ler os versículos"))!;
    const verses: IndexedVerse[] = [];
    got.ids.forEach((id, i) => {
      const m = got.metadatas[i] as unknown as VerseMetadata | null;
      if (!m) return;
      verses.push({
        id: Number(id),
        source: m.source,
        ord: m.ord,
        book: m.book,
        bookName: m.bookName,
        canonical: m.canonical === true,
        chapter: m.chapter,
        verse: m.verse,
        verseEnd: m.verseEnd,
        text: got.documents[i] ?? "",
        contextBefore: m.contextBefore,
        contextAfter: m.contextAfter,
        terms: m.terms,
      });
    });
    // The order SQLite gives (ORDER BY source, ord): the engine's ties break by position.
    return verses.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.ord - b.ord));
  }

  async loadVerses(): Promise<StoredVerse[]> {
    return (await this.loadIndexedVerses()).map(({ terms: _terms, ...verse }) => verse);
  }

  async loadTerms(): Promise<Map<number, string>> {
    return new Map((await this.loadIndexedVerses()).map((verse) => [verse.id, verse.terms]));
  }

  async rewriteTerms(analyzeText: (text: string) => string, batchSize: number): Promise<number> {
    const verses = await this.loadIndexedVerses();
    for (let start = 0; start < verses.length; start += batchSize) {
      const batch = verses.slice(start, start + batchSize);
      await this.write(this.versesName, "regravar termos", "update", {
        ids: batch.map((v) => String(v.id)),
        metadatas: batch.map((v) => ({ terms: analyzeText(v.text) })),
      });
    }
    return verses.length;
  }

  async updateContexts(rows: readonly { id: number; contextBefore: string; contextAfter: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.write(this.versesName, "regravar janelas de contexto", "update", {
      ids: rows.map((row) => String(row.id)),
      metadatas: rows.map((row) => ({ contextBefore: row.contextBefore, contextAfter: row.contextAfter })),
    });
  }

  // --- dense side

  async versesMissingVectors(model: string): Promise<MissingVector[]> {
    const verses = await this.loadIndexedVerses();
    const have = await this.vectorIds(model);
    return verses
      .filter((v) => v.text !== "" && !have.has(String(v.id)))
      .map((v) => ({ id: v.id, text: v.text, contextBefore: v.contextBefore, contextAfter: v.contextAfter }));
  }
}
