import { createHash } from "node:crypto";
import {
  loadChromaModule,
  type ChromaClientLike,
  type ChromaCollection,
  type ChromaGetResult,
  type ChromaInclude,
  type ChromaMetadata,
} from "./chroma-client.js";
import {
  StoreError,
  type IndexedVerse,
  type IndexLock,
  type IndexStore,
  type LockAttempt,
  type MissingVector,
  type SourceRecord,
  type StoredVerse,
  type VerseInsert,
} from "./store.js";

/**
 * The shared index on a ChromaDB server, for several stateless API replicas. Collections,
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

const SLOT_SPAN = 2 ** 32;
/** Chroma requires an embedding per record; verses and meta records carry this constant one. */
const PLACEHOLDER = [1];
const PAGE = 5000;
const MODEL_PART_CHARS = 1 << 20;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Small reads (manifest, sources, counts) that health checks and /api/status wait on. */
const QUICK_TIMEOUT_MS = 10_000;

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

class RequestTimeout extends Error {}

export class ChromaStore implements IndexStore {
  readonly kind = "chroma" as const;
  readonly shared = true;
  readonly location: string;
  private readonly timeoutMs: number;
  private readonly collections = new Map<string, Promise<ChromaCollection>>();
  private maxBatch: number | undefined;
  private readonly vectorKeysWritten = new Set<string>();

  private constructor(
    private readonly client: ChromaClientLike,
    private readonly options: ChromaStoreOptions,
  ) {
    this.location = options.url;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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

  close(): void {
    this.collections.clear();
  }

  /** The server's heartbeat, with a short timeout (for health checks). */
  async ping(timeoutMs = 2000): Promise<void> {
    await this.call("responder ao heartbeat", () => this.client.heartbeat(), timeoutMs);
  }

  // --- naming and plumbing ------------------------------------------------------------

  private get versesName(): string {
    return `${this.options.prefix}_verses`;
  }

  private get metaName(): string {
    return `${this.options.prefix}_meta`;
  }

  private get lockName(): string {
    return `${this.options.prefix}_lock`;
  }

  private get vectorPrefix(): string {
    return `${this.options.prefix}_vec_`;
  }

  private vectorsName(key: string): string {
    return this.vectorPrefix + createHash("sha256").update(key).digest("hex").slice(0, 16);
  }

  /** Runs one request with a deadline; failures become StoreError (unavailable or failed). */
  private async call<T>(what: string, op: () => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const pending = op();
    pending.catch(() => undefined);
    try {
      return await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RequestTimeout()), timeoutMs);
        }),
      ]);
    } catch (error) {
      throw this.translate(error, what);
    } finally {
      clearTimeout(timer);
    }
  }

  private translate(error: unknown, what: string): Error {
    if (error instanceof StoreError) return error;
    const name = error instanceof Error ? error.name : "";
    if (error instanceof RequestTimeout || name === "ChromaConnectionError" || isNetworkError(error)) {
      return new StoreError(
        "store_unavailable",
        `O ChromaDB em ${this.location} não responde (ao ${what}). Verifique se o servidor está no ar e a variável CHROMA_URL.`,
        { cause: error },
      );
    }
    if (name === "ChromaNotFoundError" || name === "ChromaUniqueError") return error as Error;
    const detail = error instanceof Error ? error.message : String(error);
    return new StoreError("store_failed", `O ChromaDB em ${this.location} falhou ao ${what}: ${detail}`, { cause: error });
  }

  private collection(name: string, metadata?: ChromaMetadata): Promise<ChromaCollection> {
    let found = this.collections.get(name);
    if (!found) {
      found = this.call(
        `abrir a coleção ${name}`,
        () => this.client.getOrCreateCollection({ name, metadata, configuration: { hnsw: { space: "cosine" } }, embeddingFunction: null }),
        Math.min(this.timeoutMs, QUICK_TIMEOUT_MS),
      );
      found.catch(() => this.collections.delete(name));
      this.collections.set(name, found);
    }
    return found;
  }

  /** Runs `work` on a collection (created if absent); a collection deleted meanwhile is reopened once. */
  private async on<T>(
    name: string,
    what: string,
    work: (c: ChromaCollection) => Promise<T>,
    options: { metadata?: ChromaMetadata; quick?: boolean } = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const c = await this.collection(name, options.metadata);
      try {
        return await this.call(what, () => work(c), options.quick ? Math.min(this.timeoutMs, QUICK_TIMEOUT_MS) : this.timeoutMs);
      } catch (error) {
        if (attempt === 0 && error instanceof Error && error.name === "ChromaNotFoundError") {
          this.collections.delete(name);
          continue;
        }
        throw error instanceof Error && error.name === "ChromaNotFoundError" ? this.failed(what, error) : error;
      }
    }
  }

  /**
   * Runs `work` on a collection that may not exist (the vectors of a model never computed):
   * undefined then, also when it was deleted since it was opened.
   */
  private async onExisting<T>(name: string, what: string, work: (c: ChromaCollection) => Promise<T>): Promise<T | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let c = await this.collections.get(name);
      try {
        if (!c) {
          c = await this.call(`abrir a coleção ${name}`, () => this.client.getCollection({ name }));
          this.collections.set(name, Promise.resolve(c));
        }
        const found = c;
        return await this.call(what, () => work(found));
      } catch (error) {
        if (!(error instanceof Error && error.name === "ChromaNotFoundError")) throw error;
        this.collections.delete(name);
      }
    }
    return undefined;
  }

  private failed(what: string, error: Error): StoreError {
    return new StoreError("store_failed", `O ChromaDB em ${this.location} falhou ao ${what}: ${error.message}`, { cause: error });
  }

  private async batchSize(): Promise<number> {
    this.maxBatch ??= Math.max(1, Math.min(PAGE, await this.call("ler o tamanho máximo de lote", () => this.client.getMaxBatchSize())));
    return this.maxBatch;
  }

  /** Writes records in requests of at most the server's batch size, in order. */
  private async write(name: string, what: string, mode: "upsert" | "update", records: ChromaRecordsIn, metadata?: ChromaMetadata): Promise<void> {
    const size = await this.batchSize();
    for (let start = 0; start < records.ids.length; start += size) {
      const slice = (values: unknown[] | undefined) => values?.slice(start, start + size);
      const part = {
        ids: records.ids.slice(start, start + size),
        embeddings: slice(records.embeddings) as number[][] | undefined,
        metadatas: slice(records.metadatas) as ChromaMetadata[] | undefined,
        documents: slice(records.documents) as string[] | undefined,
      };
      await this.on(name, what, (c) => (mode === "upsert" ? c.upsert(part) : c.update(part)), { metadata });
    }
  }

  /**
   * Every record of a collection, paged (a record moved by a concurrent write is kept once);
   * undefined when `mustExist` is false and the collection does not exist.
   */
  private async readAll(name: string, include: ChromaInclude[], what: string, mustExist = true): Promise<ChromaGetResult | undefined> {
    const all: ChromaGetResult = { ids: [], documents: [], metadatas: [], embeddings: [] };
    const seen = new Set<string>();
    for (let offset = 0; ; offset += PAGE) {
      const get = (c: ChromaCollection) => c.get({ include, limit: PAGE, offset });
      const page = mustExist ? await this.on(name, what, get) : await this.onExisting(name, what, get);
      if (!page) return undefined;
      page.ids.forEach((id, i) => {
        if (seen.has(id)) return;
        seen.add(id);
        all.ids.push(id);
        if (include.includes("documents")) all.documents.push(page.documents[i] ?? null);
        if (include.includes("metadatas")) all.metadatas.push(page.metadatas[i] ?? null);
        if (include.includes("embeddings")) all.embeddings.push(page.embeddings[i]!);
      });
      if (page.ids.length < PAGE) return all;
    }
  }

  // --- manifest and sources -----------------------------------------------------------

  async getManifest(key: string): Promise<string | undefined> {
    const got = await this.on(this.metaName, "ler o manifesto", (c) => c.get({ ids: [`manifest:${key}`], include: ["metadatas"] }), { quick: true });
    const value = got.metadatas[0]?.value;
    return typeof value === "string" ? value : undefined;
  }

  async setManifest(key: string, value: string): Promise<void> {
    await this.write(this.metaName, "gravar o manifesto", "upsert", { ids: [`manifest:${key}`], embeddings: [PLACEHOLDER], metadatas: [{ kind: "manifest", key, value }] });
  }

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
    for (const c of await this.vectorCollections()) {
      await this.onExisting(c.name, "apagar vetores", (coll) => coll.delete({ where: { slot } }));
    }
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

  // --- dense side ---------------------------------------------------------------------

  async saveModel(id: string, data: Buffer): Promise<void> {
    const text = data.toString("base64");
    const parts: string[] = [];
    for (let start = 0; start < text.length; start += MODEL_PART_CHARS) parts.push(text.slice(start, start + MODEL_PART_CHARS));
    await this.on(this.metaName, "apagar o modelo anterior", (c) => c.delete({ where: { kind: { $in: ["model", "model-part"] } } }));
    // Pieces first, header last: a header on the store means every piece is there.
    await this.write(this.metaName, "gravar o modelo", "upsert", {
      ids: parts.map((_, n) => `model-part:${id}:${n}`),
      embeddings: parts.map(() => PLACEHOLDER),
      metadatas: parts.map((part, n) => ({ kind: "model-part", model: id, part: n, data: part })),
    });
    await this.write(this.metaName, "gravar o modelo", "upsert", {
      ids: [`model:${id}`],
      embeddings: [PLACEHOLDER],
      metadatas: [{ kind: "model", model: id, parts: parts.length, bytes: data.length, createdAt: new Date().toISOString() }],
    });
  }

  async loadModel(id: string): Promise<Buffer | undefined> {
    const header = await this.on(this.metaName, "ler o modelo", (c) => c.get({ ids: [`model:${id}`], include: ["metadatas"] }));
    const meta = header.metadatas[0];
    if (!meta) return undefined;
    const count = Number(meta.parts);
    const ids = Array.from({ length: count }, (_, n) => `model-part:${id}:${n}`);
    const got = await this.on(this.metaName, "ler o modelo", (c) => c.get({ ids, include: ["metadatas"] }));
    const byId = new Map(got.ids.map((partId, i) => [partId, got.metadatas[i]?.data]));
    const pieces = ids.map((partId) => byId.get(partId));
    if (pieces.some((piece) => typeof piece !== "string")) return undefined;
    const data = Buffer.from(pieces.join(""), "base64");
    return data.length === Number(meta.bytes) ? data : undefined;
  }

  private async vectorCollections(): Promise<ChromaCollection[]> {
    const found: ChromaCollection[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.call("listar as coleções", () => this.client.listCollections({ limit: 100, offset }));
      found.push(...page.filter((c) => c.name.startsWith(this.vectorPrefix)));
      if (page.length < 100) return found;
    }
  }

  async versesMissingVectors(model: string): Promise<MissingVector[]> {
    const verses = await this.loadIndexedVerses();
    const have = new Set((await this.readAll(this.vectorsName(model), [], "ler os vetores", false))?.ids ?? []);
    return verses
      .filter((v) => v.text !== "" && !have.has(String(v.id)))
      .map((v) => ({ id: v.id, text: v.text, contextBefore: v.contextBefore, contextAfter: v.contextAfter }));
  }

  async saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): Promise<void> {
    const name = this.vectorsName(model);
    if (!this.vectorKeysWritten.has(model)) {
      // One model's vectors at a time, as in SQLite (a verse has one vector): the others go.
      for (const other of await this.vectorCollections()) {
        if (other.name !== name) {
          await this.call("apagar vetores de outro modelo", () => this.client.deleteCollection({ name: other.name }));
          this.collections.delete(other.name);
        }
      }
      this.vectorKeysWritten.add(model);
    }
    await this.write(
      name,
      "gravar vetores",
      "upsert",
      {
        ids: rows.map((row) => String(row.id)),
        embeddings: rows.map((row) => Array.from(row.vector)),
        metadatas: rows.map((row) => ({ slot: Math.floor(row.id / SLOT_SPAN) })),
      },
      { vector_key: model },
    );
  }

  async loadVectors(model: string): Promise<Map<number, Float32Array>> {
    const vectors = new Map<number, Float32Array>();
    const got = await this.readAll(this.vectorsName(model), ["embeddings"], "ler os vetores", false);
    got?.ids.forEach((id, i) => vectors.set(Number(id), Float32Array.from(got.embeddings[i]!)));
    return vectors;
  }

  /**
   * Chroma's own nearest-neighbour search (HNSW, cosine) over a model's vectors. The engine
   * does not use it: it searches its in-memory copy exactly (bench/chroma.ts measures both).
   */
  async nearestVectors(model: string, vector: Float32Array, k: number): Promise<{ id: number; similarity: number }[]> {
    const found = await this.onExisting(this.vectorsName(model), "buscar vetores", (c) =>
      c.query({ queryEmbeddings: [Array.from(vector)], nResults: k, include: ["distances"] }),
    );
    if (!found) return [];
    const ids = found.ids[0] ?? [];
    const distances = found.distances?.[0] ?? [];
    return ids.map((id, i) => ({ id: Number(id), similarity: 1 - (distances[i] ?? 1) }));
  }

  async vectorCount(model: string): Promise<number> {
    return (await this.onExisting(this.vectorsName(model), "contar vetores", (c) => c.count())) ?? 0;
  }

  // --- the indexing lock --------------------------------------------------------------

  async tryLockIndexing(owner: string, ttlMs: number): Promise<LockAttempt> {
    const name = this.lockName;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const c = await this.call("criar a trava de indexação", () =>
          this.client.createCollection({ name, metadata: { owner, expiresAt: Date.now() + ttlMs }, embeddingFunction: null }),
        );
        return { acquired: true, lock: this.lockHandle(c, owner, ttlMs) };
      } catch (error) {
        if (!(error instanceof Error && error.name === "ChromaUniqueError")) throw error;
      }
      const held = await this.currentLock();
      if (!held) continue; // released meanwhile: try again
      const expiresAt = Number(held.metadata?.expiresAt ?? 0);
      if (expiresAt > Date.now()) return { acquired: false, owner: String(held.metadata?.owner ?? "?"), expiresAt };
      // Expired (its holder died): remove it, if it is still that same lock, and try again.
      const again = await this.currentLock();
      if (again?.id === held.id) {
        await this.call("remover uma trava vencida", () => this.client.deleteCollection({ name })).catch((error: unknown) => {
          if (!(error instanceof Error && error.name === "ChromaNotFoundError")) throw error;
        });
      }
    }
    const held = await this.currentLock();
    return { acquired: false, owner: String(held?.metadata?.owner ?? "?"), expiresAt: Number(held?.metadata?.expiresAt ?? 0) };
  }

  private async currentLock(): Promise<ChromaCollection | undefined> {
    try {
      return await this.call("ler a trava de indexação", () => this.client.getCollection({ name: this.lockName }));
    } catch (error) {
      if (error instanceof Error && error.name === "ChromaNotFoundError") return undefined;
      throw error;
    }
  }

  private lockHandle(c: ChromaCollection, owner: string, ttlMs: number): IndexLock {
    return {
      owner,
      renew: async () => {
        try {
          await this.call("renovar a trava de indexação", () => c.modify({ metadata: { owner, expiresAt: Date.now() + ttlMs } }));
          return true;
        } catch (error) {
          // Gone: it expired and another process took it over.
          if (error instanceof Error && error.name === "ChromaNotFoundError") return false;
          throw error;
        }
      },
      release: async () => {
        const current = await this.currentLock().catch(() => undefined);
        if (current?.id === c.id) await this.call("liberar a trava de indexação", () => this.client.deleteCollection({ name: this.lockName })).catch(() => undefined);
      },
    };
  }
}

type ChromaRecordsIn = { ids: string[]; embeddings?: number[][]; metadatas?: ChromaMetadata[]; documents?: string[] };

function isNetworkError(error: unknown): boolean {
  const codes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && codes.has(code)) return true;
    if (current instanceof TypeError && current.message === "fetch failed") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
