/**
 * Loads one collection's index for serving: its chunks, the vectors matching the configured
 * dense side and the embedder they were computed with, as a ready DocumentSearch. Reads only:
 * nothing is trained or embedded here (that is reloadCollection's job).
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { loadChunks } from "../../adapters/index/document-units.js";
import type { Settings } from "../../config/settings.js";
import { DEFAULT_DOCUMENT_SEARCH_SETTINGS, DocumentSearch } from "../../core/retrieval/document-search.js";
import type { Embedder } from "../../core/index/embedder.js";
import { loadDenseSide, parseDenseChoice, type DenseKind } from "../index/dense.js";
import { retrievalSettingsFrom } from "./load-engine.js";
import { loadScopeResources } from "./scope.js";
import { collectionDenseServing } from "../index/collection-dense.js";

export interface LoadedCollection {
  name: string;
  search: DocumentSearch;
  /** Documents and chunks in the index. */
  documents: number;
  chunks: number;
  /** The dense side it is served with. */
  dense: DenseKind;
  /** Why the collection has no dense side (Portuguese), when it has none. */
  denseOffReason?: string;
}

/** Settings a load reads. */
export type CollectionLoadSettings = Pick<
  Settings,
  "EMBEDDING_MODEL" | "TOP_K" | "CANDIDATE_MULTIPLIER" | "MAX_KEYWORD_ONLY" | "MIN_SIMILARITY"
>;

/**
 * Builds the search of collection `name` from its store. A chunk without a vector gets a zero
 * row (no dense signal for it); a collection without vectors for the configured model is
 * served lexically, with the reason.
 *
 * @param embedder an already loaded transformers embedder to reuse (optional).
 */
export async function loadCollection(
  name: string,
  store: UnitStore,
  settings: CollectionLoadSettings,
  embedder?: Embedder,
): Promise<LoadedCollection> {
  const chunks = await loadChunks(store);
  const choice = parseDenseChoice(settings.EMBEDDING_MODEL);
  const dense = await loadDenseSide(store, collectionDenseServing(name), chunks, choice, embedder);
  // The gate's data (≈ 60 MB, read once per thread) only for a collection with something to
  // search; in a search worker it is the copy the Bible's engine already uses.
  const scope = chunks.length > 0 ? await loadScopeResources() : undefined;
  const search = new DocumentSearch(
    name,
    chunks,
    "matrix" in dense ? dense.matrix : undefined,
    {
      ...("embedder" in dense ? { embedder: dense.embedder } : { denseUnavailableReason: dense.reason }),
      ...(scope ? { scope: { lexicons: scope.lexicons, model: scope.model } } : {}),
    },
    // The same TOP_K… as the Bible, from the environment; BM25 and weights keep their defaults.
    { ...DEFAULT_DOCUMENT_SEARCH_SETTINGS, ...retrievalSettingsFrom(settings) },
  );
  return {
    name,
    search,
    documents: (await store.listSources()).length,
    chunks: chunks.length,
    dense: "reason" in dense ? "off" : choice.kind === "transformers" ? "transformers" : "lsa",
    ...("reason" in dense ? { denseOffReason: dense.reason } : {}),
  };
}
