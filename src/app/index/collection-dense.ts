/**
 * A document collection's side of the one dense updater (./dense.ts): what its corpus LSA
 * learns from and how a chunk is embedded.
 *
 * - The LSA model is trained on the collection's own chunks, from their stored analysed terms
 *   (the same `analyze(chunk.text)` BM25 uses). Its fingerprint covers the sorted (source id,
 *   document SHA-256) pairs, the analyzer version, the chunk settings and the training
 *   version. Fewer than 2 chunks, or a vocabulary too small to train on: dense off, with the
 *   reason.
 * - A transformers model embeds each chunk's `text`.
 * - Vectors are stored under the embedder's id.
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { chunksMissingVectors, listDocuments, loadChunks, type StoredChunk } from "../../adapters/index/document-units.js";
import { ANALYZER_VERSION } from "../../core/analysis/index.js";
import { termBag, trainLsaFromTerms, type LsaModel } from "../../core/index/lsa.js";
import { fingerprint, type DenseUnits } from "./dense.js";

/** Largest LSA dimension count for a collection (the Bible's default). */
export const COLLECTION_LSA_MAX_DIMENSIONS = 256;
/** Fewest chunks an LSA model is trained on. */
export const COLLECTION_LSA_MIN_CHUNKS = 2;
/** Bumped when how a collection's LSA model is trained changes; part of the fingerprint. */
const COLLECTION_LSA_VERSION = "collection-lsa/v1";

/**
 * The chunks of collection `store.name` as the dense updater and loader see them.
 *
 * @param chunkSettings the chunk settings key (words, overlap, format), part of the LSA fingerprint
 */
export function collectionDenseUnits(store: UnitStore, chunkSettings: string): DenseUnits<StoredChunk> {
  return {
    counts: "chunks",
    batchSize: { lsa: 512, transformers: 16 },
    ...collectionDenseServing(store.name),
    lsaFingerprint: async () => {
      const documents = (await listDocuments(store)).map((document) => `${document.sourceId}\t${document.sha256}`).sort();
      return fingerprint([...documents, `analyzer=${ANALYZER_VERSION}`, `chunks=${chunkSettings}`, `lsa=${COLLECTION_LSA_VERSION}`]);
    },
    trainLsa: async (starting) => {
      const rows = await loadChunks(store);
      if (rows.length < COLLECTION_LSA_MIN_CHUNKS) {
        return {
          reason: `a coleção "${store.name}" tem ${rows.length} trecho(s); o modelo LSA precisa de pelo menos ${COLLECTION_LSA_MIN_CHUNKS} (busca só léxica)`,
        };
      }
      starting();
      return (
        trainCollectionLsa(rows.map((row) => row.terms)) ?? {
          reason: `a coleção "${store.name}" não tem vocabulário suficiente para treinar o modelo LSA (busca só léxica)`,
        }
      );
    },
    missing: (key) => chunksMissingVectors(store, key),
    lsaVectorizer: (model) => Promise.resolve((rows) => model.embedBags(rows.map((row) => termBag(row.terms)))),
    documentText: (row) => row.text,
  };
}

/** What serving collection `name` needs of its dense units: the stale reason and the vector key. */
export function collectionDenseServing(name: string): Pick<DenseUnits<StoredChunk>, "staleReason" | "vectorKey"> {
  return {
    staleReason: `a coleção "${name}" não tem vetores para EMBEDDING_MODEL atual; recarregue-a (busca só léxica)`,
    vectorKey: (embedderId) => embedderId,
  };
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
