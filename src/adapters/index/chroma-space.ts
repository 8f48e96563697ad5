import { createHash } from "node:crypto";
import type { ChromaClientLike, ChromaCollection, ChromaGetResult, ChromaInclude, ChromaMetadata, ChromaRecords } from "./chroma-client.js";
import { crc32 } from "node:zlib";
import { StoreError, type IndexLock, type LockAttempt, type StoredSnapshot } from "./store.js";

/**
 * What every index kept on a Chroma server shares, whatever its units are (the Bible's verses,
 * a document collection's chunks: ChromaUnitStore): requests
 * with deadlines and typed failures, batched writes and paged reads, a manifest, one trained
 * model in base64 pieces, one model's dense vectors at a time, and the indexing lock.
 *
 * A space owns the Chroma collections `name(suffix)` gives: `<space>_meta` (manifest and
 * model), `<space>_lock` (the lock: its existence is the lock, since creating a collection is
 * the one atomic create-if-absent Chroma offers) and `<space>_vec_<hash of the vector key>`
 * (cosine space; record ids are the owner's, metadata `slot` = id ÷ 2³², the source or
 * document the record belongs to, so a slot's vectors can be dropped with it).
 */

export interface ChromaSpaceOptions {
  /** http://host:port of the Chroma server (for messages). */
  url: string;
  /** Longest wait for one request before the store counts as unavailable. */
  timeoutMs?: number;
}

/** Record ids are slot·2³² + position: stable, so a resumed batch rewrites the same records. */
export const SLOT_SPAN = 2 ** 32;
/** Chroma requires an embedding per record; records that are not vectors carry this constant one. */
export const PLACEHOLDER = [1];
export const PAGE = 5000;
const MODEL_PART_CHARS = 1 << 20;
/** Bytes of a snapshot per piece: 1 MiB of base64, as the model's pieces. */
const SNAPSHOT_PIECE_BYTES = (MODEL_PART_CHARS / 4) * 3;
/** Pieces of a snapshot per request (16 MiB of base64). */
const SNAPSHOT_PIECES_PER_REQUEST = 16;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Small reads (manifest, sources, counts) that health checks and /api/status wait on. */
export const QUICK_TIMEOUT_MS = 10_000;

class RequestTimeout extends Error {}

export abstract class ChromaSpace {
  readonly shared = true;
  readonly location: string;
  protected readonly timeoutMs: number;
  private readonly collections = new Map<string, Promise<ChromaCollection>>();
  private maxBatch: number | undefined;
  private readonly vectorKeysWritten = new Set<string>();

  protected constructor(
    protected readonly client: ChromaClientLike,
    options: ChromaSpaceOptions,
  ) {
    this.location = options.url;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The Chroma collection name of one part of this space (`meta`, `lock`, `vec_…`, …). */
  protected abstract spaceName(suffix: string): string;

  close(): void {
    this.collections.clear();
  }

  /** The server's heartbeat, with a short timeout (for health checks). */
  async ping(timeoutMs = 2000): Promise<void> {
    await this.call("responder ao heartbeat", () => this.client.heartbeat(), timeoutMs);
  }

  // --- plumbing -------------------------------------------------------------------------

  /** Runs one request with a deadline; failures become StoreError (unavailable or failed). */
  protected async call<T>(what: string, op: () => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
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
    return this.failed(what, error);
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
  protected async on<T>(
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
        if (!isNotFound(error)) throw error;
        if (attempt > 0) throw this.failed(what, error);
        this.collections.delete(name);
      }
    }
  }

  /**
   * Runs `work` on a collection that may not exist (the vectors of a model never computed):
   * undefined then, also when it was deleted since it was opened.
   */
  protected async onExisting<T>(name: string, what: string, work: (c: ChromaCollection) => Promise<T>): Promise<T | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const cached = await this.collections.get(name);
      try {
        const c = cached ?? (await this.call(`abrir a coleção ${name}`, () => this.client.getCollection({ name })));
        if (!cached) this.collections.set(name, Promise.resolve(c));
        return await this.call(what, () => work(c));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        this.collections.delete(name);
      }
    }
    return undefined;
  }

  private failed(what: string, error: unknown): StoreError {
    const detail = error instanceof Error ? error.message : String(error);
    return new StoreError("store_failed", `O ChromaDB em ${this.location} falhou ao ${what}: ${detail}`, { cause: error });
  }

  private async batchSize(): Promise<number> {
    this.maxBatch ??= Math.max(1, Math.min(PAGE, await this.call("ler o tamanho máximo de lote", () => this.client.getMaxBatchSize())));
    return this.maxBatch;
  }

  /** Writes records in requests of at most the server's batch size, in order. */
  protected async write(name: string, what: string, mode: "upsert" | "update", records: ChromaRecords, metadata?: ChromaMetadata): Promise<void> {
    const size = await this.batchSize();
    for (let start = 0; start < records.ids.length; start += size) {
      const slice = <T>(values: T[] | undefined) => values?.slice(start, start + size);
      const part = {
        ids: records.ids.slice(start, start + size),
        embeddings: slice(records.embeddings),
        metadatas: slice(records.metadatas),
        documents: slice(records.documents),
      };
      await this.on(name, what, (c) => (mode === "upsert" ? c.upsert(part) : c.update(part)), { metadata });
    }
  }

  /**
   * Every record of a collection, paged (a record moved by a concurrent write is kept once);
   * undefined when `mustExist` is false and the collection does not exist.
   */
  protected async readAll(name: string, include: ChromaInclude[], what: string, mustExist = true): Promise<ChromaGetResult | undefined> {
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

  /** Every collection on the server whose name starts with `prefix`. */
  protected async collectionsNamed(prefix: string): Promise<ChromaCollection[]> {
    const found: ChromaCollection[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.call("listar as coleções", () => this.client.listCollections({ limit: 100, offset }));
      found.push(...page.filter((c) => c.name.startsWith(prefix)));
      if (page.length < 100) return found;
    }
  }

  protected async deleteCollection(name: string, what: string): Promise<void> {
    this.collections.delete(name);
    await this.call(what, () => this.client.deleteCollection({ name })).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }

  // --- manifest ---------------------------------------------------------------------------

  protected get metaName(): string {
    return this.spaceName("meta");
  }

  async getManifest(key: string): Promise<string | undefined> {
    const got = await this.on(this.metaName, "ler o manifesto", (c) => c.get({ ids: [`manifest:${key}`], include: ["metadatas"] }), { quick: true });
    const value = got.metadatas[0]?.value;
    return typeof value === "string" ? value : undefined;
  }

  async setManifest(key: string, value: string): Promise<void> {
    await this.write(this.metaName, "gravar o manifesto", "upsert", { ids: [`manifest:${key}`], embeddings: [PLACEHOLDER], metadatas: [{ kind: "manifest", key, value }] });
  }

  // --- the trained model ------------------------------------------------------------------

  /** Keeps one trained model (the others go): pieces first, header last. */
  async saveModel(id: string, data: Buffer): Promise<void> {
    const text = data.toString("base64");
    const parts: string[] = [];
    for (let start = 0; start < text.length; start += MODEL_PART_CHARS) parts.push(text.slice(start, start + MODEL_PART_CHARS));
    await this.on(this.metaName, "apagar o modelo anterior", (c) => c.delete({ where: { kind: { $in: ["model", "model-part"] } } }));
    // A header on the store means every piece is there.
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

  // --- serving snapshots ------------------------------------------------------------------

  /** `<space>_snapshot`: each snapshot's base64 pieces (metadata strings, as the model's), then its header. */
  private get snapshotName(): string {
    return this.spaceName("snapshot");
  }

  /**
   * Pieces first under a new id, the header (`snapshot:<name>`: id, pieces, bytes, checksum,
   * key) last, then the pieces of the one before go: a replica reading meanwhile finds either
   * the old snapshot whole or the new one whole (or, if the old pieces went under it, a
   * snapshot it cannot read, which it rebuilds).
   */
  async saveSnapshot(name: string, key: string, data: Uint8Array): Promise<void> {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const id = `${name}:${createHash("sha256").update(key).update(String(Date.now())).update(String(Math.random())).digest("hex").slice(0, 16)}`;
    // Each piece is the base64 of its own bytes (a multiple of 3: pieces join into the one base64), so no string holds the whole snapshot.
    const pieces = Math.ceil(bytes.length / SNAPSHOT_PIECE_BYTES);
    const before = await this.snapshotHeader(name);
    for (let from = 0; from < pieces; from += SNAPSHOT_PIECES_PER_REQUEST) {
      const numbers = Array.from({ length: Math.min(SNAPSHOT_PIECES_PER_REQUEST, pieces - from) }, (_, i) => from + i);
      await this.write(this.snapshotName, "gravar o retrato do índice", "upsert", {
        ids: numbers.map((n) => `snapshot-part:${id}:${n}`),
        embeddings: numbers.map(() => PLACEHOLDER),
        metadatas: numbers.map((n) => ({ kind: "snapshot-part", snapshot: id, part: n, data: bytes.toString("base64", n * SNAPSHOT_PIECE_BYTES, (n + 1) * SNAPSHOT_PIECE_BYTES) })),
      });
    }
    await this.write(this.snapshotName, "gravar o retrato do índice", "upsert", {
      ids: [`snapshot:${name}`],
      embeddings: [PLACEHOLDER],
      metadatas: [{ kind: "snapshot", snapshot: id, key, parts: pieces, bytes: bytes.length, crc32: crc32(bytes), createdAt: new Date().toISOString() }],
    });
    if (before) await this.on(this.snapshotName, "apagar o retrato anterior", (c) => c.delete({ where: { snapshot: before.snapshot } }));
  }

  private async snapshotHeader(name: string): Promise<{ snapshot: string; key: string; parts: number; bytes: number; crc32: number } | undefined> {
    const got = await this.onExisting(this.snapshotName, "ler o retrato do índice", (c) => c.get({ ids: [`snapshot:${name}`], include: ["metadatas"] }));
    const meta = got?.metadatas[0];
    if (!meta || typeof meta.snapshot !== "string" || typeof meta.key !== "string") return undefined;
    return { snapshot: meta.snapshot, key: meta.key, parts: Number(meta.parts), bytes: Number(meta.bytes), crc32: Number(meta.crc32) };
  }

  async snapshotKey(name: string): Promise<string | undefined> {
    return (await this.snapshotHeader(name))?.key;
  }

  async loadSnapshot(name: string): Promise<StoredSnapshot | undefined> {
    const header = await this.snapshotHeader(name);
    if (!header) return undefined;
    if (!(Number.isSafeInteger(header.bytes) && header.bytes >= 0 && header.parts === Math.ceil(header.bytes / SNAPSHOT_PIECE_BYTES))) {
      return { key: header.key, damaged: "cabeçalho inválido" };
    }
    // Decoded piece by piece into one buffer: no string ever holds the whole snapshot.
    const data = Buffer.allocUnsafe(header.bytes);
    for (let from = 0; from < header.parts; from += SNAPSHOT_PIECES_PER_REQUEST) {
      const ids = Array.from({ length: Math.min(SNAPSHOT_PIECES_PER_REQUEST, header.parts - from) }, (_, i) => `snapshot-part:${header.snapshot}:${from + i}`);
      const got = await this.on(this.snapshotName, "ler o retrato do índice", (c) => c.get({ ids, include: ["metadatas"] }));
      const byId = new Map(got.ids.map((partId, i) => [partId, got.metadatas[i]?.data]));
      for (const [i, partId] of ids.entries()) {
        const piece = byId.get(partId);
        if (typeof piece !== "string") return { key: header.key, damaged: "faltam partes (outra réplica o substituiu durante a leitura?)" };
        const at = (from + i) * SNAPSHOT_PIECE_BYTES;
        const expected = Math.min(SNAPSHOT_PIECE_BYTES, header.bytes - at);
        if (data.write(piece, at, expected, "base64") !== expected) return { key: header.key, damaged: "uma parte tem o tamanho errado" };
      }
    }
    if (crc32(data) !== header.crc32) return { key: header.key, damaged: "a soma de verificação não confere" };
    return { key: header.key, data };
  }

  // --- dense vectors ----------------------------------------------------------------------

  private get vectorPrefix(): string {
    return this.spaceName("vec_");
  }

  protected vectorsName(key: string): string {
    return this.vectorPrefix + createHash("sha256").update(key).digest("hex").slice(0, 16);
  }

  protected vectorCollections(): Promise<ChromaCollection[]> {
    return this.collectionsNamed(this.vectorPrefix);
  }

  /** Ids (as Chroma strings) of the records that have a vector under `model`. */
  protected async vectorIds(model: string): Promise<Set<string>> {
    return new Set((await this.readAll(this.vectorsName(model), [], "ler os vetores", false))?.ids ?? []);
  }

  /** Deletes the vectors whose metadata matches `where` (a slot, or slots) under every model. */
  protected async dropVectorsWhere(where: Record<string, unknown>): Promise<void> {
    for (const c of await this.vectorCollections()) {
      await this.onExisting(c.name, "apagar vetores", (coll) => coll.delete({ where }));
    }
  }

  /** Deletes the vectors of every model but `model`; how many went. */
  async deleteVectorsExcept(model: string): Promise<number> {
    const keep = this.vectorsName(model);
    let removed = 0;
    for (const other of await this.vectorCollections()) {
      if (other.name === keep) continue;
      removed += (await this.onExisting(other.name, "contar vetores", (c) => c.count())) ?? 0;
      await this.deleteCollection(other.name, "apagar vetores de outro modelo");
    }
    return removed;
  }

  async saveVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): Promise<void> {
    if (!this.vectorKeysWritten.has(model)) {
      // One model's vectors at a time, as in SQLite (a record has one vector): the others go.
      await this.deleteVectorsExcept(model);
      this.vectorKeysWritten.add(model);
    }
    await this.write(
      this.vectorsName(model),
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
   * Chroma's own nearest-neighbour search (HNSW, cosine) over a model's vectors. The engines
   * do not use it: they search their in-memory copy exactly (bench/chroma.ts measures both).
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

  // --- the indexing lock ------------------------------------------------------------------

  /** Takes the indexing lock for `ttlMs` (renewed by the holder), or says who holds it. */
  async tryLockIndexing(owner: string, ttlMs: number): Promise<LockAttempt> {
    const name = this.spaceName("lock");
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
      if (again?.id === held.id) await this.deleteCollection(name, "remover uma trava vencida");
    }
    const held = await this.currentLock();
    return { acquired: false, owner: String(held?.metadata?.owner ?? "?"), expiresAt: Number(held?.metadata?.expiresAt ?? 0) };
  }

  private currentLock(): Promise<ChromaCollection | undefined> {
    const name = this.spaceName("lock");
    return this.call("ler a trava de indexação", () => this.client.getCollection({ name })).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
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
          if (isNotFound(error)) return false;
          throw error;
        }
      },
      release: async () => {
        const current = await this.currentLock().catch(() => undefined);
        if (current?.id === c.id) await this.call("liberar a trava de indexação", () => this.client.deleteCollection({ name: this.spaceName("lock") })).catch(() => undefined);
      },
    };
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === "ChromaNotFoundError";
}

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
