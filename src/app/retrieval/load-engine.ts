import type { UnitStore } from "../../adapters/index/store.js";
import { loadIndexedVerses } from "../../adapters/index/bible-units.js";
import { withinVerseBounds } from "../../core/bible/bounds.js";
import type { Embedder } from "../../core/index/embedder.js";
import { SearchEngine, DEFAULT_SEARCH_SETTINGS, type EngineDependencies, type EngineVerse, type SearchSettings } from "../../core/retrieval/engine.js";
import type { Settings } from "../../config/settings.js";
import type { HybridSearchSettings } from "../../core/retrieval/fusion.js";
import { loadDenseSide, parseDenseChoice } from "../index/dense.js";
import { BIBLE_DENSE_SERVING } from "../index/bible-dense.js";

export interface LoadedEngine {
  engine: SearchEngine;
  embedder: Embedder | undefined;
  /** Why the dense side is off, when it is. */
  denseOffReason: string | undefined;
  /** True when the lexical index holds every stored verse (it is rebuilt from the store). */
  lexicalReady: boolean;
}

export const PRIMARY_SOURCE = "por-blivre.usfx.xml";

/** What every collection's search reads from the environment (the Bible's and each document collection's). */
export function retrievalSettingsFrom(
  settings: Pick<Settings, "TOP_K" | "CANDIDATE_MULTIPLIER" | "MAX_KEYWORD_ONLY" | "MIN_SIMILARITY">,
): Pick<HybridSearchSettings, "topK" | "candidateMultiplier" | "maxKeywordOnly" | "minSimilarity"> {
  return {
    topK: settings.TOP_K,
    candidateMultiplier: settings.CANDIDATE_MULTIPLIER,
    maxKeywordOnly: settings.MAX_KEYWORD_ONLY,
    minSimilarity: settings.MIN_SIMILARITY,
  };
}

/**
 * Builds the search engine from the store: verses and their persisted terms (the BM25
 * index is rebuilt from them, so it exists whenever the verses do) and the vectors of the
 * embedder the index was built with. A stored verse whose numbers are beyond the bounds
 * (core/bible/bounds.ts; only an index built before the USFX parser refused such files can
 * hold one) is left out, so no array is ever sized by it.
 */
export async function loadEngine(
  store: UnitStore,
  settings: Settings,
  extra: Pick<EngineDependencies, "expander" | "crossLinks" | "scope" | "topics" | "stories" | "knowledge"> & { searchSettings?: Partial<SearchSettings> } = {},
): Promise<LoadedEngine> {
  const stored = (await loadIndexedVerses(store)).filter(withinVerseBounds);
  // One string per distinct term: split() makes a copy of each occurrence (≈ 10 MB a worker).
  const interned = new Map<string, string>();
  const intern = (term: string) => interned.get(term) ?? (interned.set(term, term), term);
  const verses: EngineVerse[] = stored.map(({ id: _id, ord: _ord, canonical: _canonical, terms, ...verse }) => ({
    ...verse,
    terms: terms.split(" ").filter(Boolean).map(intern),
  }));
  interned.clear();

  const dense = await loadDenseSide(store, BIBLE_DENSE_SERVING, stored, parseDenseChoice(settings.EMBEDDING_MODEL));
  const embedder = "embedder" in dense ? dense.embedder : undefined;
  const denseOffReason = "reason" in dense ? dense.reason : undefined;
  const engine = new SearchEngine(
    verses,
    "matrix" in dense ? dense.matrix : undefined,
    {
      embedder,
      denseUnavailableReason: denseOffReason,
      primarySource: stored.some((verse) => verse.source === PRIMARY_SOURCE) ? PRIMARY_SOURCE : stored[0]?.source,
      ...extra,
    },
    { ...DEFAULT_SEARCH_SETTINGS, ...retrievalSettingsFrom(settings), ...extra.searchSettings },
  );
  return { engine, embedder, denseOffReason, lexicalReady: true };
}
