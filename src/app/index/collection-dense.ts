/**
 * The dense side of one document collection, chosen by EMBEDDING_MODEL (see parseDenseChoice):
 *
 * - "lsa" (default): an LSA model trained on the collection's own chunks, from their stored
 *   analysed terms (the same `analyze(chunk.text)` BM25 uses). Retrained only when the set of
 *   chunks changed — fingerprint of the sorted (source id, document SHA-256) pairs, the
 *   analyzer version and the chunk settings — and then every chunk's vector is recomputed
 *   (vectors are stored under the model id). Unchanged fingerprint: the stored model is reused
 *   and only chunks without a vector are embedded. Fewer than 2 chunks, or a vocabulary too
 *   small to train on: dense off, with the reason.
 * - "none": dense off.
 * - a transformers.js model id or folder (see transformersOrReason); only chunks without
 *   a vector of that model are embedded (each chunk's `text`).
 *
 * Manifest keys: `dense` (lsa | transformers | off), `dense_model` (the key the vectors in use
 * are stored under), `dense_off_reason`; for LSA also `lsa_fingerprint`, `lsa_model` and
 * `lsa_off_reason` (the outcome for that fingerprint, so an unchanged collection is not
 * retrained even when it was too small).
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { chunksMissingVectors, listDocuments, loadChunks } from "../../adapters/index/document-units.js";
import { ANALYZER_VERSION } from "../../core/analysis/index.js";
import type { Embedder } from "../../core/index/embedder.js";
import { createLsaEmbedder, deserializeLsa, trainLsaFromTerms, type LsaModel } from "../../core/index/lsa.js";
import { embedInBatches, fingerprint, transformersOrReason, type DenseChoice, type EmbedBatchesOptions } from "./dense.js";
import type { IndexProgress } from "./indexer.js";

export type CollectionDenseKind = "lsa" | "transformers" | "off";

export interface CollectionDenseResult {
  dense: CollectionDenseKind;
  /** The model id the vectors are stored under (LSA model id, or the transformers embedder id). */
  model?: string;
  /** Why the dense side is off (Portuguese). */
  reason?: string;
  /** Whether an LSA model was trained in this call. */
  trained: boolean;
  vectorsComputed: number;
}

/** Largest LSA dimension count for a collection (the Bible's default). */
export const COLLECTION_LSA_MAX_DIMENSIONS = 256;
/** Fewest chunks an LSA model is trained on. */
export const COLLECTION_LSA_MIN_CHUNKS = 2;
/** Bumped when how a collection's LSA model is trained changes; part of the fingerprint. */
const COLLECTION_LSA_VERSION = "collection-lsa/v1";
/** Chunks embedded (and written) per batch. */
const LSA_BATCH = 512;
const TRANSFORMERS_BATCH = 16;

/**
 * What the collection's LSA model depends on: the (source id, SHA-256) pairs of its documents,
 * sorted, the analyzer version, the chunk settings and the training version.
 */
export async function collectionLsaFingerprint(store: UnitStore, chunkSettings: string): Promise<string> {
  const documents = (await listDocuments(store))
    .map((document) => `${document.sourceId}\t${document.sha256}`)
    .sort();
  return fingerprint([...documents, `analyzer=${ANALYZER_VERSION}`, `chunks=${chunkSettings}`, `lsa=${COLLECTION_LSA_VERSION}`]);
}

export interface UpdateDenseOptions {
  /** The chunk settings key (words, overlap, format), part of the LSA fingerprint. */
  chunkSettings: string;
  /** An already loaded embedder for a transformers choice (skips loading the model again). */
  embedder?: Embedder;
  signal?: AbortSignal;
  /** Training, then vectors done / total (counted in chunks). */
  onProgress?: (progress: IndexProgress) => void;
}

/** Brings the collection's vectors in line with `choice` (see the module doc). Never throws for a model that fails to load: dense is then off, with the reason. */
export async function updateCollectionDense(
  store: UnitStore,
  choice: DenseChoice,
  options: UpdateDenseOptions,
): Promise<CollectionDenseResult> {
  let result: CollectionDenseResult;
  switch (choice.kind) {
    case "none":
      result = { dense: "off", reason: choice.reason, trained: false, vectorsComputed: 0 };
      break;
    case "lsa":
      result = await updateLsa(store, options);
      break;
    case "transformers":
      result = await updateTransformers(store, choice, options);
      break;
  }
  await store.setManifest("dense", result.dense);
  await store.setManifest("dense_model", result.model ?? "");
  await store.setManifest("dense_off_reason", result.reason ?? "");
  return result;
}

async function updateLsa(store: UnitStore, options: UpdateDenseOptions): Promise<CollectionDenseResult> {
  const current = await collectionLsaFingerprint(store, options.chunkSettings);
  if (await store.getManifest("lsa_fingerprint") === current) {
    const offReason = await store.getManifest("lsa_off_reason") ?? "";
    if (offReason !== "") return { dense: "off", reason: offReason, trained: false, vectorsComputed: 0 };
    const stored = await loadLsa(store, await store.getManifest("lsa_model") ?? "");
    if (stored) {
      const vectorsComputed = await embedMissingLsa(store, stored, options);
      return { dense: "lsa", model: stored.id, trained: false, vectorsComputed };
    }
  }

  const rows = await loadChunks(store);
  const off = async (reason: string): Promise<CollectionDenseResult> => {
    await store.deleteVectorsExcept("");
    await store.setManifest("lsa_fingerprint", current);
    await store.setManifest("lsa_model", "");
    await store.setManifest("lsa_off_reason", reason);
    return { dense: "off", reason, trained: false, vectorsComputed: 0 };
  };
  if (rows.length < COLLECTION_LSA_MIN_CHUNKS) {
    return off(
      `a coleção "${store.name}" tem ${rows.length} trecho(s); o modelo LSA precisa de pelo menos ${COLLECTION_LSA_MIN_CHUNKS} (busca só léxica)`,
    );
  }
  options.onProgress?.({ phase: "training", done: 0, total: 1, counts: "chunks" });
  const model = trainCollectionLsa(rows.map((row) => row.terms));
  options.onProgress?.({ phase: "training", done: 1, total: 1, counts: "chunks" });
  if (!model) {
    return off(`a coleção "${store.name}" não tem vocabulário suficiente para treinar o modelo LSA (busca só léxica)`);
  }
  await store.saveModel(model.id, model.serialize());
  await store.deleteVectorsExcept(model.id);
  const vectorsComputed = await embedMissingLsa(store, model, options);
  // Written last: a crash before this point retrains (deterministically, same id) and embeds what is missing.
  await store.setManifest("lsa_model", model.id);
  await store.setManifest("lsa_off_reason", "");
  await store.setManifest("lsa_fingerprint", current);
  return { dense: "lsa", model: model.id, trained: true, vectorsComputed };
}

/**
 * Trains on the chunks' analysed terms with dimensions ≤ chunks − 1. The default document
 * frequency filters (a term in ≥ 2 chunks and ≤ half of them) leave nothing in a very small
 * collection; then they are relaxed (every term). Undefined when even that leaves no term.
 */
export function trainCollectionLsa(documentTerms: readonly (readonly string[])[]): LsaModel | undefined {
  const dimensions = Math.max(1, Math.min(COLLECTION_LSA_MAX_DIMENSIONS, documentTerms.length - 1));
  for (const filters of [{}, { minDocFreq: 1, maxDocFreqRatio: 1 }]) {
    try {
      const model = trainLsaFromTerms(documentTerms, { dimensions, ...filters });
      if (model.dimensions > 0) return model;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return undefined;
}

async function loadLsa(store: UnitStore, id: string): Promise<LsaModel | undefined> {
  if (id === "") return undefined;
  const data = await store.loadModel(id);
  if (!data) return undefined;
  try {
    return deserializeLsa(data);
  } catch {
    return undefined; // a damaged model is retrained
  }
}

async function embedMissingLsa(store: UnitStore, model: LsaModel, options: UpdateDenseOptions): Promise<number> {
  return embedChunks(await chunksMissingVectors(store, model.id), options, {
    batchSize: LSA_BATCH,
    embed: (batch) => batch.map((row) => model.embedTerms(row.terms)),
    save: (rows) => store.saveVectors(model.id, rows),
  });
}

/** `embedInBatches` over a collection's chunks, its progress counted in chunks. */
function embedChunks<Row extends { id: number }>(
  rows: readonly Row[],
  options: UpdateDenseOptions,
  batches: Omit<EmbedBatchesOptions<Row>, "signal" | "onBatch">,
): Promise<number> {
  const progress = (done: number) => options.onProgress?.({ phase: "dense", done, total: rows.length, counts: "chunks" });
  progress(0);
  return embedInBatches(rows, { ...batches, signal: options.signal, onBatch: progress });
}

async function updateTransformers(
  store: UnitStore,
  choice: Extract<DenseChoice, { kind: "transformers" }>,
  options: UpdateDenseOptions,
): Promise<CollectionDenseResult> {
  const loaded = await transformersOrReason(choice.model, options.embedder);
  if ("reason" in loaded) return { dense: "off", reason: loaded.reason, trained: false, vectorsComputed: 0 };
  const { embedder } = loaded;
  const key = embedder.id;
  await store.deleteVectorsExcept(key);
  const vectorsComputed = await embedChunks(await chunksMissingVectors(store, key), options, {
    batchSize: TRANSFORMERS_BATCH,
    embed: (batch) => embedder.embed(batch.map((row) => row.text), "document"),
    save: (rows) => store.saveVectors(key, rows),
  });
  return { dense: "transformers", model: key, trained: false, vectorsComputed };
}

/** What serving a collection needs from its dense side. */
export interface CollectionEmbedder {
  embedder?: Embedder;
  /** The key the collection's vectors are stored under, when `embedder` is set. */
  model?: string;
  /** Why the dense side is off (Portuguese), when `embedder` is not set. */
  reason?: string;
}

/**
 * The embedder that matches the collection's stored vectors for `choice`, without training
 * or embedding anything: the stored LSA model, or the transformers model the vectors were
 * computed with. Otherwise the reason the dense side is off.
 */
export async function loadCollectionEmbedder(
  store: UnitStore,
  choice: DenseChoice,
  preloaded?: Embedder,
): Promise<CollectionEmbedder> {
  if (choice.kind === "none") return { reason: choice.reason };
  const stale = `a coleção "${store.name}" não tem vetores para EMBEDDING_MODEL atual; recarregue-a (busca só léxica)`;
  const dense = await store.getManifest("dense");
  const model = await store.getManifest("dense_model") ?? "";
  if (dense === "off") return { reason: await store.getManifest("dense_off_reason") || stale };
  if (dense !== choice.kind || model === "") return { reason: stale };
  if (choice.kind === "lsa") {
    const lsa = await loadLsa(store, model);
    return lsa ? { embedder: createLsaEmbedder(lsa), model } : { reason: stale };
  }
  const loaded = await transformersOrReason(choice.model, preloaded);
  if ("reason" in loaded) return loaded;
  return loaded.embedder.id === model ? { embedder: loaded.embedder, model } : { reason: stale };
}
