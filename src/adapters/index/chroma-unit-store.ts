import { BIBLE_COLLECTION } from "../../core/types.js";
import { loadChromaModule, type ChromaClientLike, type ChromaMetadata, type ChromaWhere } from "./chroma-client.js";
import { migrateLegacyChroma } from "./chroma-legacy.js";
import { ChromaSpace, PLACEHOLDER, SLOT_SPAN, type ChromaSpaceOptions } from "./chroma-space.js";
import { inSqliteOrder, parseFields, StoreError, type SourceRecord, type SourceStart, type SourceWrite, type IndexMigration, type StoredUnit, type UnitFields, type UnitStore, type UnitWrite } from "./store.js";

/**
 * The index of one collection on a shared ChromaDB server (VECTOR_STORE=chroma), for several
 * stateless API replicas: the Bible's, and each document collection's, so every replica serves
 * them without reading their sources (the plumbing, manifest, model, vectors and lock are
 * ChromaSpace's). Chroma collections, under CHROMA_COLLECTION_PREFIX (`pastor` below): the
 * Bible's space is `pastor_…`, a document collection's `pastor.<name>.…` (a name never holds a
 * dot, so one space's names never start another's):
 *
 * - `…units`: one record per unit. id = slot·2³² + ord (the slot is its source's number, kept
 *   across versions, so ids are stable and a resumed batch rewrites the same records);
 *   document = the unit's text; metadata = slot, ord, source, the analysed `terms` BM25 is
 *   rebuilt from, and the unit's fields as JSON. Chroma needs an embedding per record: a
 *   constant one-dimensional `[1]`.
 * - `…meta`: the manifest (among them the generation replicas poll), the trained model, one
 *   `unit-source:<id>` record per source (slot, SHA-256, status, count, fields as JSON), and in
 *   the Bible's space the registry of document collections (`collection:<name>`), so replicas
 *   without a collection's source list it.
 * - `…vec_<hash of the vector key>`: one model's vectors; `…lock`: the indexing lock.
 *
 * No transactions: sources are started as partial with an empty hash, their old units and
 * vectors deleted, the new units written in order (in requests of at most the server's max
 * batch size, so a source's units are always a prefix and a resumed run counts them), then the
 * records completed. A crash in between leaves a partial source: the next run rewrites it (or
 * resumes it, when its hash was written).
 *
 * A space in the version-1 layout (`pastor_verses`, `pastor.<name>.chunks`) is moved to this
 * one before its first read or write (chroma-legacy.ts), keeping every record id and vector.
 */
export interface ChromaUnitStoreOptions extends ChromaSpaceOptions {
  /** CHROMA_COLLECTION_PREFIX (letters, digits, _ or -). */
  prefix: string;
  /** The collection's name: `biblia`, or a document collection's (see COLLECTION_NAME: no dot). */
  collection?: string;
}

/** A source's record: "" for "not indexed yet" (Chroma stores no null). */
export interface ChromaSourceMetadata {
  kind: "unit-source";
  id: string;
  sha256: string;
  slot: number;
  status: "partial" | "complete";
  unitCount: number;
  indexedAt: string;
  fields: string;
}

export interface ChromaUnitMetadata {
  slot: number;
  ord: number;
  source: string;
  terms: string;
  fields: string;
}

export const SOURCE_RECORD = "unit-source:";

export class ChromaUnitStore extends ChromaSpace implements UnitStore {
  readonly kind = "chroma" as const;
  readonly name: string;
  /** Highest source slot in use, read once per lock (the lock holder is the only writer). */
  private highestSlot: number | undefined;
  private layout: Promise<void> | undefined;
  /** What the move from the version-1 layout carried (set once it ran; undefined when there was nothing to move). */
  migrated: IndexMigration | undefined;

  constructor(
    client: ChromaClientLike,
    private readonly options: ChromaUnitStoreOptions,
  ) {
    super(client, options);
    this.name = options.collection ?? BIBLE_COLLECTION;
  }

  /** Loads the client (no request is made: a server that is down is found at the first call). */
  static async open(options: ChromaUnitStoreOptions): Promise<ChromaUnitStore> {
    const { ChromaClient } = await loadChromaModule();
    let url: URL;
    try {
      url = new URL(options.url);
    } catch (error) {
      throw new StoreError("store_failed", `CHROMA_URL inválida: ${options.url}`, { cause: error });
    }
    const ssl = url.protocol === "https:";
    const port = url.port ? Number(url.port) : ssl ? 443 : 8000;
    return new ChromaUnitStore(new ChromaClient({ host: url.hostname, port, ssl }), options);
  }

  private get isBible(): boolean {
    return this.name === BIBLE_COLLECTION;
  }

  protected spaceName(suffix: string): string {
    return this.isBible ? `${this.options.prefix}_${suffix}` : `${this.options.prefix}.${this.name}.${suffix}`;
  }

  private get unitsName(): string {
    return this.spaceName("units");
  }

  /** The index of document collection `collection` on the same server. */
  collectionStore(collection: string): ChromaUnitStore {
    return new ChromaUnitStore(this.client, { ...this.options, collection });
  }

  override async tryLockIndexing(owner: string, ttlMs: number): ReturnType<ChromaSpace["tryLockIndexing"]> {
    this.highestSlot = undefined; // another replica may have written since
    return super.tryLockIndexing(owner, ttlMs);
  }

  /** The version-1 layout moved to this one, once (a failed move is tried again at the next call). */
  private ready(): Promise<void> {
    const legacyUnits = this.isBible ? "verses" : "chunks";
    const legacyName = this.spaceName(legacyUnits);
    this.layout ??= migrateLegacyChroma({
      legacyUnits,
      readLegacyUnits: () => this.readAll(legacyName, ["documents", "metadatas"], "ler o índice no formato antigo", false),
      metaRecords: (kind) => this.metaRecords("ler o índice no formato antigo", { where: { kind } }, false),
      putSources: (records) => this.putSources(records as unknown as ChromaSourceMetadata[]),
      writeUnits: (records) => this.write(this.unitsName, "migrar unidades", "upsert", records),
      dropLegacy: async (kind) => {
        await this.on(this.metaName, "apagar o índice no formato antigo", (c) => c.delete({ where: { kind } }));
        await this.deleteCollection(legacyName, "apagar o índice no formato antigo");
      },
    }).then(
      (migrated) => {
        if (migrated) this.migrated = migrated;
      },
      (error: unknown) => {
        this.layout = undefined;
        throw error;
      },
    );
    return this.layout;
  }

  /** The manifest is read after the move too: what a replica reads first (the generation) finds the space moved. */
  override async getManifest(key: string): Promise<string | undefined> {
    await this.ready();
    return super.getManifest(key);
  }

  // --- the registry of document collections (in the Bible's space) --------------------------

  /** The document collections some replica indexed here, with the kind of their source, by name. */
  async indexedCollections(): Promise<{ name: string; kind: string }[]> {
    return (await this.metaRecords("listar as coleções indexadas", { where: { kind: "collection" } }))
      .filter((m) => typeof m.name === "string")
      .map((m) => ({ name: String(m.name), kind: String(m.sourceKind) }))
      .sort((a, b) => inSqliteOrder(a.name, b.name));
  }

  /** Records that collection `name` is indexed here (replicas without its source then serve it). */
  async registerCollection(name: string, sourceKind: string): Promise<void> {
    await this.write(this.metaName, "registrar uma coleção", "upsert", {
      ids: [`collection:${name}`],
      embeddings: [PLACEHOLDER],
      metadatas: [{ kind: "collection", name, sourceKind }],
    });
  }

  // --- sources ------------------------------------------------------------------------------

  /** The metadata of the meta records `select` picks (those without any left out). */
  private async metaRecords(what: string, select: { ids?: string[]; where?: ChromaWhere }, quick = true): Promise<ChromaMetadata[]> {
    const got = await this.on(this.metaName, what, (c) => c.get({ ...select, include: ["metadatas"] }), { quick });
    return got.metadatas.filter((m): m is ChromaMetadata => m !== null);
  }

  private async sourceRecords(): Promise<ChromaSourceMetadata[]> {
    await this.ready();
    const records = await this.metaRecords("listar as fontes", { where: { kind: "unit-source" } });
    return (records as unknown as ChromaSourceMetadata[]).sort((a, b) => inSqliteOrder(a.id, b.id));
  }

  private async sourceRecordsOf(ids: readonly string[]): Promise<Map<string, ChromaSourceMetadata>> {
    await this.ready();
    const records = await this.metaRecords("ler fontes", { ids: ids.map((id) => SOURCE_RECORD + id) });
    return new Map((records as unknown as ChromaSourceMetadata[]).map((record) => [record.id, record]));
  }

  private async putSources(records: readonly ChromaSourceMetadata[]): Promise<void> {
    if (records.length === 0) return;
    await this.write(this.metaName, "gravar fontes", "upsert", {
      ids: records.map((record) => SOURCE_RECORD + record.id),
      embeddings: records.map(() => PLACEHOLDER),
      metadatas: records.map((record) => record as unknown as ChromaMetadata),
    });
  }

  async listSources(): Promise<SourceRecord[]> {
    return (await this.sourceRecords()).map((record) => ({
      id: record.id,
      sha256: record.sha256,
      unitCount: record.unitCount,
      status: record.status,
      indexedAt: record.indexedAt === "" ? null : record.indexedAt,
      fields: parseFields(record.fields),
    }));
  }

  /**
   * Records sources partial with an empty hash (a crash from here on starts them over) and drops
   * the old units and vectors of those already known; their records (slots kept, new ones next).
   */
  private async startSources(sources: readonly SourceStart[]): Promise<ChromaSourceMetadata[]> {
    if (new Set(sources.map((source) => source.id)).size !== sources.length) {
      throw new StoreError("store_failed", "a mesma fonte duas vezes num lote; nada foi gravado.");
    }
    const existing = await this.sourceRecordsOf(sources.map((source) => source.id));
    this.highestSlot ??= Math.max(0, ...(await this.sourceRecords()).map((record) => record.slot));
    const records = sources.map((source): ChromaSourceMetadata => ({
      kind: "unit-source",
      id: source.id,
      sha256: "",
      slot: existing.get(source.id)?.slot ?? ++this.highestSlot!,
      status: "partial",
      unitCount: 0,
      indexedAt: "",
      fields: JSON.stringify(source.fields ?? {}),
    }));
    await this.putSources(records);
    const known = records.filter((record) => existing.has(record.id)).map((record) => record.slot);
    if (known.length > 0) await this.dropSlots(known);
    return records;
  }

  /** Then the hash: a crash after this resumes the source from the units already written. */
  async beginSources(sources: readonly SourceStart[]): Promise<void> {
    if (sources.length === 0) return;
    const records = await this.startSources(sources);
    await this.putSources(records.map((record, i) => ({ ...record, sha256: sources[i]!.sha256 })));
  }

  async insertUnits(units: readonly UnitWrite[]): Promise<void> {
    if (units.length === 0) return;
    assertDistinctPositions(units);
    await this.writeUnits(await this.sourceRecordsOf([...new Set(units.map((unit) => unit.source))]), units);
  }

  private async writeUnits(records: ReadonlyMap<string, ChromaSourceMetadata>, units: readonly UnitWrite[]): Promise<void> {
    const ids: string[] = [];
    const metadatas: ChromaMetadata[] = [];
    const documents: string[] = [];
    for (const unit of units) {
      const record = records.get(unit.source);
      if (!record) throw new StoreError("store_failed", `fonte não iniciada no índice: ${unit.source}`);
      const metadata: ChromaUnitMetadata = { slot: record.slot, ord: unit.ord, source: unit.source, terms: unit.terms, fields: JSON.stringify(unit.fields) };
      ids.push(String(record.slot * SLOT_SPAN + unit.ord));
      metadatas.push(metadata as unknown as ChromaMetadata);
      documents.push(unit.text);
    }
    await this.write(this.unitsName, "gravar unidades", "upsert", { ids, embeddings: ids.map(() => PLACEHOLDER), metadatas, documents });
  }

  async completeSources(ids: readonly string[]): Promise<void> {
    const records = await this.sourceRecordsOf(ids);
    const indexedAt = new Date().toISOString();
    const completed: ChromaSourceMetadata[] = [];
    for (const record of records.values()) completed.push({ ...record, status: "complete", unitCount: await this.countSlot(record.slot), indexedAt });
    await this.putSources(completed);
  }

  /** In a few requests whatever the number of sources: records partial, old units dropped, every unit, records complete. */
  async writeSources(sources: readonly SourceWrite[]): Promise<void> {
    if (sources.length === 0) return;
    const units = sources.flatMap((source) => source.units.map((unit) => ({ ...unit, source: source.id })));
    assertDistinctPositions(units);
    const records = await this.startSources(sources);
    await this.writeUnits(new Map(records.map((record) => [record.id, record])), units);
    const indexedAt = new Date().toISOString();
    await this.putSources(records.map((record, i) => ({ ...record, sha256: sources[i]!.sha256, status: "complete", unitCount: sources[i]!.units.length, indexedAt })));
  }

  async removeSource(id: string): Promise<boolean> {
    const record = (await this.sourceRecordsOf([id])).get(id);
    if (!record) return false;
    await this.dropSlots([record.slot]);
    await this.on(this.metaName, "remover uma fonte", (c) => c.delete({ ids: [SOURCE_RECORD + id] }));
    return true;
  }

  async committedUnitCount(id: string): Promise<number> {
    const record = (await this.sourceRecordsOf([id])).get(id);
    return record ? this.countSlot(record.slot) : 0;
  }

  private async countSlot(slot: number): Promise<number> {
    const got = await this.on(this.unitsName, "contar unidades", (c) => c.get({ where: { slot }, include: [] }));
    return got.ids.length;
  }

  /** Deletes some sources' units and their vectors under every model. */
  private async dropSlots(slots: readonly number[]): Promise<void> {
    const where = slots.length === 1 ? { slot: slots[0]! } : { slot: { $in: [...slots] } };
    await this.on(this.unitsName, "apagar unidades", (c) => c.delete({ where }));
    await this.dropVectorsWhere(where);
  }

  // --- units --------------------------------------------------------------------------------

  async unitCount(): Promise<number> {
    await this.ready();
    return this.on(this.unitsName, "contar unidades", (c) => c.count(), { quick: true });
  }

  async loadUnits(): Promise<StoredUnit[]> {
    await this.ready();
    const got = (await this.readAll(this.unitsName, ["documents", "metadatas"], "ler as unidades"))!;
    const units = got.ids.flatMap((id, i): StoredUnit[] => {
      const m = got.metadatas[i] as unknown as ChromaUnitMetadata | null;
      if (!m) return [];
      return [{ id: Number(id), source: m.source, ord: m.ord, text: got.documents[i] ?? "", terms: m.terms, fields: parseFields(m.fields) }];
    });
    // The order SQLite gives (source, then position): the search's ties break by it.
    return units.sort((a, b) => inSqliteOrder(a.source, b.source) || a.ord - b.ord);
  }

  async rewriteTerms(analyzeText: (text: string) => string, batchSize: number): Promise<number> {
    const units = await this.loadUnits();
    for (let start = 0; start < units.length; start += batchSize) {
      const batch = units.slice(start, start + batchSize);
      await this.write(this.unitsName, "regravar termos", "update", {
        ids: batch.map((unit) => String(unit.id)),
        metadatas: batch.map((unit) => ({ terms: analyzeText(unit.text) })),
      });
    }
    return units.length;
  }

  async updateFields(rows: readonly { id: number; fields: UnitFields }[]): Promise<void> {
    if (rows.length === 0) return;
    const current = new Map((await this.loadUnits()).map((unit) => [unit.id, unit.fields]));
    const known = rows.filter((row) => current.has(row.id));
    await this.write(this.unitsName, "regravar campos", "update", {
      ids: known.map((row) => String(row.id)),
      metadatas: known.map((row) => ({ fields: JSON.stringify({ ...current.get(row.id), ...row.fields }) })),
    });
  }

  async unitsMissingVectors(model: string): Promise<StoredUnit[]> {
    const units = await this.loadUnits();
    const have = await this.vectorIds(model);
    return units.filter((unit) => unit.text !== "" && !have.has(String(unit.id)));
  }
}

/** Two units at one position of a source would share a record id: refused before anything is written. */
function assertDistinctPositions(units: readonly UnitWrite[]): void {
  const seen = new Set<string>();
  for (const unit of units) {
    const key = `${unit.source}\u0000${unit.ord}`;
    if (seen.has(key)) throw new StoreError("store_failed", `${unit.source}: duas unidades com a mesma posição; nada foi gravado.`);
    seen.add(key);
  }
}
