import { StoreError, type StoredSnapshot, type UnitStore } from "../../adapters/index/store.js";
import { loadIndexedVerses } from "../../adapters/index/bible-units.js";
import { withinVerseBounds } from "../../core/bible/bounds.js";
import type { Embedder } from "../../core/index/embedder.js";
import { SearchEngine, DEFAULT_SEARCH_SETTINGS, type EngineDependencies, type SearchSettings } from "../../core/retrieval/engine.js";
import type { Settings } from "../../config/settings.js";
import type { HybridSearchSettings } from "../../core/retrieval/fusion.js";
import { loadDenseSide, parseDenseChoice, resolveDenseServing } from "../index/dense.js";
import type { EngineSnapshot } from "../../core/retrieval/engine-snapshot.js";
import { SnapshotError } from "../../core/index/snapshot.js";
import type { UnitSearchPrebuilt } from "../../core/retrieval/unit-search.js";
import { engineVerses, readEngineSnapshot, saveEngineSnapshot, type SnapshotRead } from "./engine-snapshot.js";
import { unlessIndexing } from "../index/index-lock.js";
import { DEFAULT_LOCK_TTL_MS } from "../index/indexer.js";
import { BIBLE_DENSE_SERVING } from "../index/bible-dense.js";

export interface LoadedEngine {
  engine: SearchEngine;
  embedder: Embedder | undefined;
  /** Why the dense side is off, when it is. */
  denseOffReason: string | undefined;
  /** True when the lexical index holds every stored verse (it is rebuilt from the store). */
  lexicalReady: boolean;
  /** Whether the engine came from the index's snapshot, or was built from the index (and why, and whether the snapshot was saved then). */
  snapshot: SnapshotUse;
}

/** How a load used the snapshot: read it, or built the engine from the index because of `reason` (then saved a new one, or not). */
export type SnapshotUse = { state: "loaded"; ms: number } | { state: "rebuilt"; reason: string; saved: boolean; ms: number };

export interface LoadOptions {
  /**
   * What to do without a current snapshot: "save" builds one from the index, saves it and loads
   * from it (the CLI, the server's first search worker); "build" builds the engine from the
   * index as before snapshots (the other workers, a read-only store); "ignore" never reads one.
   */
  snapshot?: "save" | "build" | "ignore";
  /** The engine's stored snapshot, already being read (`snapshot-prefetch.ts`): used instead of reading it here, when it reads. */
  prefetched?: Promise<StoredSnapshot | undefined> | undefined;
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
 * The search engine of the store: read from the index's snapshot when it is current (bulk reads
 * of the structures in the form the search uses: nothing is built), else built from the verses
 * and their persisted terms (the BM25 index is rebuilt from them, so it exists whenever the
 * verses do) and the vectors of the embedder the index was built with — saving a new snapshot
 * first when `options.snapshot` is "save". Either way the engine is the same (test/snapshot.test.ts).
 * A stored verse whose numbers are beyond the bounds (core/bible/bounds.ts; only an index built
 * before the USFX parser refused such files can hold one) is left out, built or snapshotted,
 * so no array is ever sized by it.
 */
export async function loadEngine(
  store: UnitStore,
  settings: Settings,
  extra: Pick<EngineDependencies, "expander" | "crossLinks" | "scope" | "topics" | "stories" | "knowledge"> & { searchSettings?: Partial<SearchSettings> } = {},
  options: LoadOptions = {},
): Promise<LoadedEngine> {
  const started = performance.now();
  const mode = options.snapshot ?? "build";
  const searchSettings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, ...retrievalSettingsFrom(settings), ...extra.searchSettings };
  if (mode === "ignore") return { ...(await buildEngine(store, settings, extra, searchSettings)), snapshot: { state: "rebuilt", reason: "retrato ignorado", saved: false, ms: elapsed(started) } };
  let read: { snapshot: EngineSnapshot } | { reason: string } = await readEngineSnapshot(store, options.prefetched);
  if ("snapshot" in read) {
    const loaded = await fromSnapshot(store, settings, extra, searchSettings, read.snapshot);
    if ("engine" in loaded) return { ...loaded, snapshot: { state: "loaded", ms: elapsed(started) } };
    read = loaded;
  }
  let reason = read.reason;
  let saved = false;
  if (mode === "save" && (await store.unitCount()) > 0) {
    try {
      saved = await saveUnlessIndexing(store);
      if (!saved) reason = `${reason}; outra réplica está indexando e salvará o retrato`;
      const again: SnapshotRead = saved ? await readEngineSnapshot(store) : { reason };
      const loaded = "snapshot" in again ? await fromSnapshot(store, settings, extra, searchSettings, again.snapshot) : again;
      if ("engine" in loaded) return { ...loaded, snapshot: { state: "rebuilt", reason, saved, ms: elapsed(started) } };
    } catch (error) {
      // A store that cannot be written (a read-only file, a lock held long) still serves: built as before snapshots.
      if (error instanceof StoreError && error.code === "store_unavailable") throw error;
      reason = `${reason}; não foi possível salvar um novo (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return { ...(await buildEngine(store, settings, extra, searchSettings)), snapshot: { state: "rebuilt", reason, saved, ms: elapsed(started) } };
}

/**
 * Saves a new snapshot of the store. A shared store (Chroma) is written under the indexing
 * lock, as the indexer writes it: while another replica indexes, nothing is saved (it saves
 * its own at its end) and false is said.
 */
function saveUnlessIndexing(store: UnitStore): Promise<boolean> {
  return unlessIndexing(store, DEFAULT_LOCK_TTL_MS, async () => void (await saveEngineSnapshot(store)));
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

type Dependencies = Pick<EngineDependencies, "expander" | "crossLinks" | "scope" | "topics" | "stories" | "knowledge">;

/** The engine from a current snapshot, or why not: its structures do not hold together, or it lacks the vectors the configured dense side needs (another model's dimensions). */
async function fromSnapshot(
  store: UnitStore,
  settings: Settings,
  extra: Dependencies,
  searchSettings: SearchSettings,
  snapshot: EngineSnapshot,
): Promise<Omit<LoadedEngine, "snapshot"> | { reason: string }> {
  const serving = await resolveDenseServing(store, BIBLE_DENSE_SERVING, parseDenseChoice(settings.EMBEDDING_MODEL));
  let matrix: Float32Array | undefined;
  let reason = "reason" in serving ? serving.reason : undefined;
  if ("embedder" in serving) {
    const dense = snapshot.dense;
    // The snapshot is current, so its matrix is the manifest's model's; none means no vector is stored (loadDenseSide: stale).
    if (!dense) {
      if (snapshot.verses.length > 0) reason = BIBLE_DENSE_SERVING.staleReason;
      else matrix = new Float32Array(0);
    } else if (dense.model === serving.model && dense.dimensions === serving.embedder.dimensions) matrix = dense.matrix;
    else return { reason: "o retrato do índice não tem os vetores do modelo denso configurado" };
  }
  let prebuilt: UnitSearchPrebuilt;
  try {
    prebuilt = snapshot.prebuilt(searchSettings);
  } catch (error) {
    if (error instanceof SnapshotError) return { reason: `o retrato do índice não pôde ser lido (${error.message})` };
    throw error;
  }
  const embedder = "embedder" in serving && reason === undefined ? serving.embedder : undefined;
  const { verses } = snapshot;
  const engine = new SearchEngine(
    verses,
    matrix,
    {
      embedder,
      denseUnavailableReason: reason,
      primarySource: verses.some((verse) => verse.source === PRIMARY_SOURCE) ? PRIMARY_SOURCE : verses[0]?.source,
      prebuilt,
      ...extra,
    },
    searchSettings,
  );
  return { engine, embedder, denseOffReason: reason, lexicalReady: true };
}

/** The engine built from the verses and vectors of the store (what every start did before snapshots). */
async function buildEngine(store: UnitStore, settings: Settings, extra: Dependencies, searchSettings: SearchSettings): Promise<Omit<LoadedEngine, "snapshot">> {
  const stored = (await loadIndexedVerses(store)).filter(withinVerseBounds);
  const verses = engineVerses(stored);
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
    searchSettings,
  );
  return { engine, embedder, denseOffReason, lexicalReady: true };
}
