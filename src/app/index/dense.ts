/**
 * The dense side of every collection, the Bible's and each document collection's: one updater
 * (`updateDense`, at index time) and one loader (`loadDenseSide`, for serving) over the one
 * store. What differs between verses and chunks (what the corpus LSA learns from, what a
 * unit's dense document is, the key its vectors are stored under) is a `DenseUnits`:
 * ./bible-dense.ts and ./collection-dense.ts.
 *
 * EMBEDDING_MODEL chooses the side (parseDenseChoice):
 * - "lsa" (default): Latent Semantic Analysis learned from the collection itself at index
 *   time, persisted in the store and retrained only when its fingerprint (what the training
 *   depends on) changes; then every vector is recomputed. Unchanged fingerprint: the stored
 *   model is reused and only units without a vector are embedded. A corpus it cannot be
 *   trained on: dense off, with the reason.
 * - "none" / "off": no dense side; search is lexical and says so.
 * - anything else: a transformers.js model id (downloaded on a machine with internet) or a
 *   local folder; only units without a vector of that model are embedded.
 *
 * Manifest keys: `dense` (lsa | transformers | off), `dense_model` (the key the vectors in use
 * are stored under), `dense_off_reason`; for LSA also `lsa_fingerprint`, `lsa_model` (the key
 * the model is stored under) and `lsa_off_reason` (the outcome for that fingerprint, so an
 * unchanged collection is not retrained even when it was too small). A Bible index written
 * before these keys (`corpus_fingerprint`, `embedder`) is read in their terms and rewritten
 * on its next indexing, without retraining or re-embedding (`readDenseManifest`).
 */
import { createHash } from "node:crypto";
import type { Awaitable, UnitStore } from "../../adapters/index/store.js";
import { createTransformersEmbedder, EmbedderLoadError } from "../../adapters/index/transformers-embedder.js";
import type { Embedder } from "../../core/index/embedder.js";
import { createLsaEmbedder, deserializeLsa, type LsaModel } from "../../core/index/lsa.js";
import { yieldToEventLoop } from "./event-loop.js";
import type { IndexProgress } from "./progress.js";

export type DenseChoice = { kind: "lsa" } | { kind: "none"; reason: string } | { kind: "transformers"; model: string };

export function parseDenseChoice(embeddingModel: string): DenseChoice {
  const value = embeddingModel.trim();
  if (value === "" || value.toLowerCase() === "lsa") return { kind: "lsa" };
  if (["none", "off", "false", "0"].includes(value.toLowerCase())) {
    return { kind: "none", reason: "EMBEDDING_MODEL=none: o lado denso foi desligado na configuração" };
  }
  return { kind: "transformers", model: value };
}

/**
 * What the one dense updater and loader need to know about a collection's units (verses or
 * chunks). `Row` is a unit without a vector, with what the embedders read.
 */
export interface DenseUnits<Row extends { id: number }> {
  /** What progress counts: verses (absent) or chunks. */
  readonly counts?: "chunks";
  /** Units embedded (and written) per batch, by the corpus LSA and by a transformers model. */
  readonly batchSize: { lsa: number; transformers: number };
  /** Why a collection is served lexically when its vectors do not match EMBEDDING_MODEL (Portuguese). */
  readonly staleReason: string;
  /** Fingerprint of everything the corpus LSA depends on. */
  lsaFingerprint(): Promise<string>;
  /**
   * Trains the corpus LSA (after `starting`, once it knows it can), or says why it cannot
   * (Portuguese). `whileTraining`, when given, may run on this thread while the training's
   * heavy part runs on another (see {@link UpdateDenseOptions.whileTraining}).
   */
  trainLsa(starting: () => void, whileTraining?: () => Promise<void>): Promise<LsaModel | { reason: string }>;
  /** Units with text and without a vector under `key`, in store order. */
  missing(key: string): Promise<Row[]>;
  /** How `model` embeds rows: the Bible's linked documents, a collection's analysed terms. */
  lsaVectorizer(model: LsaModel): Promise<(rows: readonly Row[]) => Float32Array[]>;
  /** The text a transformers model embeds for a row. */
  documentText(row: Row): string;
  /** The key the vectors of the embedder `embedderId` are stored under. */
  vectorKey(embedderId: string): string;
}

export type DenseKind = "lsa" | "transformers" | "off";

export interface DenseResult {
  dense: DenseKind;
  /** The embedder the vectors were computed with (absent when dense is off). */
  embedder?: Embedder;
  /** The key the vectors in use are stored under. */
  model?: string;
  /** Why the dense side is off (Portuguese). */
  reason?: string;
  /** Whether an LSA model was trained in this call. */
  trained: boolean;
  vectorsComputed: number;
  /** Whether what a server would load changed (another model, a retrained one, new vectors): replicas reload. */
  changed: boolean;
}

export interface UpdateDenseOptions {
  /** An already loaded embedder for a transformers choice (skips loading the model again). */
  embedder?: Embedder | undefined;
  signal?: AbortSignal | undefined;
  /** Training, then vectors stored / total. */
  onProgress?: ((progress: IndexProgress) => void) | undefined;
  /**
   * Work that only needs what is already written (an index run prepares the engine snapshot's
   * lexical part), run on this thread while a corpus LSA trains on another. Only then: it may
   * not run at all, and the caller does without it.
   */
  whileTraining?: (() => Promise<void>) | undefined;
}

/** The dense state a store's manifest records (see the module doc). */
interface DenseManifest {
  dense: DenseKind | undefined;
  model: string;
  offReason: string;
  lsaFingerprint: string | undefined;
  lsaModel: string;
  lsaOffReason: string;
  /** Read from the Bible's keys of before (`corpus_fingerprint`, `embedder`). */
  legacy: boolean;
}

/**
 * The store's dense manifest. A Bible index from before the shared keys recorded its
 * fingerprint (`corpus_fingerprint`, its model stored under `lsa-for:<fingerprint>`) and its
 * embedder (`embedder`, vectors under `<embedder>|<format>`, the key `vectorKey` gives): read
 * in the shared terms, so it is served as it is and its next indexing reuses the model.
 */
async function readDenseManifest(store: UnitStore, vectorKey: (embedderId: string) => string): Promise<DenseManifest> {
  const dense = await store.getManifest("dense");
  if (dense === undefined) {
    const legacyFingerprint = await store.getManifest("corpus_fingerprint");
    if (legacyFingerprint !== undefined) {
      const embedder = (await store.getManifest("embedder")) ?? "";
      return {
        dense: embedder === "" ? "off" : embedder.startsWith("lsa:") ? "lsa" : "transformers",
        model: embedder === "" ? "" : vectorKey(embedder),
        offReason: "",
        lsaFingerprint: legacyFingerprint,
        lsaModel: `lsa-for:${legacyFingerprint}`,
        lsaOffReason: "",
        legacy: true,
      };
    }
  }
  return {
    dense: dense as DenseKind | undefined,
    model: (await store.getManifest("dense_model")) ?? "",
    offReason: (await store.getManifest("dense_off_reason")) ?? "",
    lsaFingerprint: await store.getManifest("lsa_fingerprint"),
    lsaModel: (await store.getManifest("lsa_model")) ?? "",
    lsaOffReason: (await store.getManifest("lsa_off_reason")) ?? "",
    legacy: false,
  };
}

/** Says a manifest read from the Bible's keys of before in the shared ones, and clears the old. */
async function rewriteLegacyManifest(store: UnitStore, manifest: DenseManifest): Promise<void> {
  await writeLsaOutcome(store, { fingerprint: manifest.lsaFingerprint ?? "", model: manifest.lsaModel, offReason: manifest.lsaOffReason });
  await writeDenseState(store, { dense: manifest.dense ?? "off", model: manifest.model, offReason: manifest.offReason });
  await store.setManifest("corpus_fingerprint", "");
  await store.setManifest("embedder", "");
}

/** The dense side in use: its kind, the key its vectors are stored under, why it is off. */
async function writeDenseState(store: UnitStore, state: { dense: DenseKind; model: string; offReason: string }): Promise<void> {
  await store.setManifest("dense", state.dense);
  await store.setManifest("dense_model", state.model);
  await store.setManifest("dense_off_reason", state.offReason);
}

/**
 * The LSA's outcome for a fingerprint: the key its model is stored under, or why it could not
 * be trained. The fingerprint is written last: a run stopped before it trains again.
 */
async function writeLsaOutcome(store: UnitStore, outcome: { fingerprint: string; model: string; offReason: string }): Promise<void> {
  await store.setManifest("lsa_model", outcome.model);
  await store.setManifest("lsa_off_reason", outcome.offReason);
  await store.setManifest("lsa_fingerprint", outcome.fingerprint);
}

/** Brings the collection's vectors in line with `choice` (see the module doc). Never throws for a model that fails to load: dense is then off, with the reason. */
export async function updateDense<Row extends { id: number }>(
  store: UnitStore,
  units: DenseUnits<Row>,
  choice: DenseChoice,
  options: UpdateDenseOptions = {},
): Promise<DenseResult> {
  const before = await readDenseManifest(store, (id) => units.vectorKey(id));
  if (before.legacy) await rewriteLegacyManifest(store, before);
  let result: Omit<DenseResult, "changed">;
  switch (choice.kind) {
    case "none":
      result = { dense: "off", reason: choice.reason, trained: false, vectorsComputed: 0 };
      break;
    case "lsa":
      result = await updateLsa(store, units, before, options);
      break;
    case "transformers":
      result = await updateTransformers(store, units, choice, options);
      break;
  }
  // Off by configuration is not a property of the index: a server configured otherwise says the index is stale.
  await writeDenseState(store, { dense: result.dense, model: result.model ?? "", offReason: choice.kind === "none" ? "" : (result.reason ?? "") });
  const changed = result.trained || result.vectorsComputed > 0 || before.dense !== result.dense || before.model !== (result.model ?? "");
  return { ...result, changed };
}

async function updateLsa<Row extends { id: number }>(
  store: UnitStore,
  units: DenseUnits<Row>,
  before: DenseManifest,
  options: UpdateDenseOptions,
): Promise<Omit<DenseResult, "changed">> {
  const current = await units.lsaFingerprint();
  if (before.lsaFingerprint === current) {
    if (before.lsaOffReason !== "") return { dense: "off", reason: before.lsaOffReason, trained: false, vectorsComputed: 0 };
    const stored = await loadLsa(store, before.lsaModel);
    if (stored) return { ...(await embedMissingLsa(store, units, stored, options)), trained: false };
  }

  const progress = (done: number) => options.onProgress?.({ phase: "training", done, total: 1, ...counts(units) });
  const trained = await units.trainLsa(() => progress(0), options.whileTraining);
  if ("reason" in trained) {
    await store.deleteVectorsExcept("");
    await writeLsaOutcome(store, { fingerprint: current, model: "", offReason: trained.reason });
    return { dense: "off", reason: trained.reason, trained: false, vectorsComputed: 0 };
  }
  progress(1);
  await store.saveModel(trained.id, trained.serialize());
  await store.deleteVectorsExcept(units.vectorKey(trained.id));
  const embedded = await embedMissingLsa(store, units, trained, options);
  // Written last: a crash before this point retrains (deterministically, same id) and embeds what is missing.
  await writeLsaOutcome(store, { fingerprint: current, model: trained.id, offReason: "" });
  return { ...embedded, trained: true };
}

function counts(units: Pick<DenseUnits<never>, "counts">): Pick<IndexProgress, "counts"> {
  return units.counts ? { counts: units.counts } : {};
}

async function loadLsa(store: UnitStore, key: string): Promise<LsaModel | undefined> {
  if (key === "") return undefined;
  const data = await store.loadModel(key);
  if (!data) return undefined;
  try {
    return deserializeLsa(data);
  } catch {
    return undefined; // a damaged model is retrained
  }
}

async function embedMissingLsa<Row extends { id: number }>(
  store: UnitStore,
  units: DenseUnits<Row>,
  model: LsaModel,
  options: UpdateDenseOptions,
): Promise<Omit<DenseResult, "changed" | "trained">> {
  const key = units.vectorKey(model.id);
  const missing = await units.missing(key);
  const vectors = missing.length > 0 ? await units.lsaVectorizer(model) : undefined;
  const vectorsComputed = await embedMissing(store, units, key, missing, options, {
    batchSize: units.batchSize.lsa,
    embed: (batch) => vectors!(batch),
  });
  return { dense: "lsa", embedder: createLsaEmbedder(model), model: key, vectorsComputed };
}

async function updateTransformers<Row extends { id: number }>(
  store: UnitStore,
  units: DenseUnits<Row>,
  choice: Extract<DenseChoice, { kind: "transformers" }>,
  options: UpdateDenseOptions,
): Promise<Omit<DenseResult, "changed">> {
  const loaded = await transformersOrReason(choice.model, options.embedder);
  if ("reason" in loaded) return { dense: "off", reason: loaded.reason, trained: false, vectorsComputed: 0 };
  const { embedder } = loaded;
  const key = units.vectorKey(embedder.id);
  await store.deleteVectorsExcept(key);
  const vectorsComputed = await embedMissing(store, units, key, await units.missing(key), options, {
    batchSize: units.batchSize.transformers,
    embed: (batch) => embedder.embed(batch.map((row) => units.documentText(row)), "document"),
  });
  return { dense: "transformers", embedder, model: key, trained: false, vectorsComputed };
}

/** Embeds `missing` under `key`, its progress counted over every unit's vector (those stored already included). */
async function embedMissing<Row extends { id: number }>(
  store: UnitStore,
  units: DenseUnits<Row>,
  key: string,
  missing: readonly Row[],
  options: UpdateDenseOptions,
  batches: Pick<EmbedBatchesOptions<Row>, "batchSize" | "embed">,
): Promise<number> {
  const stored = await store.vectorCount(key);
  const total = stored + missing.length;
  const progress = (done: number) => options.onProgress?.({ phase: "dense", done: stored + done, total, ...counts(units) });
  progress(0);
  return embedInBatches(missing, { ...batches, save: (rows) => store.saveVectors(key, rows), signal: options.signal, onBatch: progress });
}

/** What serving a collection gets from its dense side: the embedder and the vectors matrix, or why there are none. */
export type DenseSide = { embedder: Embedder; matrix: Float32Array } | { reason: string };

/**
 * The dense side a collection is served with, reading only (nothing is trained or embedded
 * here): the embedder that matches the stored vectors for `choice` (the stored LSA model, or
 * the transformers model the vectors were computed with, `preloaded` when given) and the
 * vectors of `rows` as one matrix; otherwise why the collection is served lexically.
 */
export async function loadDenseSide(
  store: UnitStore,
  units: Pick<DenseUnits<{ id: number }>, "staleReason" | "vectorKey">,
  rows: readonly { id: number }[],
  choice: DenseChoice,
  preloaded?: Embedder,
): Promise<DenseSide> {
  const serving = await resolveDenseServing(store, units, choice, preloaded);
  if ("reason" in serving) return serving;
  const vectors = await store.loadVectors(serving.model);
  if (vectors.size === 0 && rows.length > 0) return { reason: units.staleReason };
  return { embedder: serving.embedder, matrix: vectorMatrix(rows, vectors, serving.embedder.dimensions) };
}

/**
 * What serving would load, before reading any vector: the embedder matching the stored
 * vectors and the key they are stored under, or why the collection is served lexically. The
 * vectors themselves come from the store (`loadDenseSide`) or from a snapshot that holds that
 * key's matrix.
 */
export async function resolveDenseServing(
  store: UnitStore,
  units: Pick<DenseUnits<{ id: number }>, "staleReason" | "vectorKey">,
  choice: DenseChoice,
  preloaded?: Embedder,
): Promise<{ embedder: Embedder; model: string } | { reason: string }> {
  if (choice.kind === "none") return { reason: choice.reason };
  // A configured model that cannot be loaded is the first thing to fix, whatever the index holds.
  const transformers = choice.kind === "transformers" ? await transformersOrReason(choice.model, preloaded) : undefined;
  if (transformers && "reason" in transformers) return transformers;
  const stale = { reason: units.staleReason };
  const state = await readDenseManifest(store, (id) => units.vectorKey(id));
  if (state.dense === "off") return state.offReason === "" ? stale : { reason: state.offReason };
  if (state.dense !== choice.kind || state.model === "") return stale;
  const lsa = transformers ? undefined : await loadLsa(store, state.lsaModel);
  const embedder = transformers?.embedder ?? (lsa && createLsaEmbedder(lsa));
  if (!embedder || units.vectorKey(embedder.id) !== state.model) return stale;
  return { embedder, model: state.model };
}

/** The key the vectors in use are stored under (the manifest's `dense_model`, or a legacy Bible index's), or undefined when the dense side is off. */
export async function storedDenseModel(store: UnitStore, vectorKey: (embedderId: string) => string): Promise<string | undefined> {
  const state = await readDenseManifest(store, vectorKey);
  return state.dense === "off" || state.dense === undefined || state.model === "" ? undefined : state.model;
}

/**
 * The transformers.js model (or `preloaded`), or why it could not be loaded (Portuguese), for
 * a caller that then serves lexical search.
 */
export async function transformersOrReason(model: string, preloaded?: Embedder): Promise<{ embedder: Embedder } | { reason: string }> {
  if (preloaded) return { embedder: preloaded };
  try {
    return { embedder: await createTransformersEmbedder({ model }) };
  } catch (error) {
    // The adapter's own errors already name the model ("Não foi possível carregar o modelo de embeddings '…': …").
    const detail = error instanceof Error ? error.message : String(error);
    const reason = error instanceof EmbedderLoadError ? detail : `o modelo de embeddings "${model}" não pôde ser carregado: ${detail}`;
    return { reason: `${reason} (busca só léxica)` };
  }
}

/**
 * The vectors of `units` as one matrix in their order (row i: unit i), what the search core
 * scans; a unit without a vector of `dimensions` gets a zero row (no dense signal for it).
 */
export function vectorMatrix(units: readonly { id: number }[], vectors: ReadonlyMap<number, Float32Array>, dimensions: number): Float32Array {
  const matrix = new Float32Array(units.length * dimensions);
  units.forEach((unit, row) => {
    const vector = vectors.get(unit.id);
    if (vector && vector.length === dimensions) matrix.set(vector, row * dimensions);
  });
  return matrix;
}

export interface EmbedBatchesOptions<Row> {
  batchSize: number;
  /** The vectors of one batch, in its order. */
  embed(batch: readonly Row[]): Awaitable<Float32Array[]>;
  /** Stores one batch's vectors (before the next batch is embedded). */
  save(rows: { id: number; vector: Float32Array }[]): Awaitable<void>;
  /** Rows done so far, after each batch. */
  onBatch?(done: number): void;
  signal?: AbortSignal | undefined;
}

/**
 * Embeds rows batch by batch, each batch saved before the next (an interrupted run keeps what
 * it saved, and the next run embeds only what is still missing); the signal is checked before
 * each batch, and the event loop runs after each. How many rows were embedded.
 */
export async function embedInBatches<Row extends { id: number }>(rows: readonly Row[], options: EmbedBatchesOptions<Row>): Promise<number> {
  for (let start = 0; start < rows.length; start += options.batchSize) {
    options.signal?.throwIfAborted();
    const batch = rows.slice(start, start + options.batchSize);
    const vectors = await options.embed(batch);
    await options.save(batch.map((row, i) => ({ id: row.id, vector: vectors[i]! })));
    options.onBatch?.(start + batch.length);
    await yieldToEventLoop();
  }
  return rows.length;
}

export function fingerprint(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\u0000");
  return hash.digest("hex").slice(0, 16);
}
