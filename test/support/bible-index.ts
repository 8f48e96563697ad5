import path from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { SqliteUnitStore } from "../../src/adapters/index/sqlite-unit-store.js";
import type { UnitStore } from "../../src/adapters/index/store.js";
import { indexCorpus, type IndexSummary } from "../../src/app/index/indexer.js";
import { loadEngine, type LoadedEngine } from "../../src/app/retrieval/load-engine.js";
import { loadRetrievalAids } from "../../src/app/retrieval/retrieval-aids.js";
import { indexSnapshots } from "../../src/app/retrieval/engine-snapshot.js";
import { readSettings } from "../../src/config/settings.js";
import type { SearchEngine, SearchSettings } from "../../src/core/retrieval/engine.js";
import type { TopicalIndex } from "../../src/core/retrieval/topical-index.js";
import { openTestStore, storeEnvFor } from "./store.js";
import { tempDir } from "./usfx.js";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The real Bible index (Bíblia Livre, lexical + the corpus-trained LSA model), built once per
 * run by the global setup (`bible-global-setup.ts` on SQLite, `chroma-global-setup.ts` on the
 * Chroma test server) and shared read-only by every test that needs it; a run without that
 * setup (a single file under another config) builds it once in its own process.
 */
let building: Promise<{ dataDir: string }> | undefined;

export function realBibleIndex(): Promise<{ dataDir: string }> {
  const shared = inject("bibleDataDir");
  if (shared) return Promise.resolve({ dataDir: shared });
  building ??= buildSqliteBibleIndex();
  return building;
}

/** The SQLite Bible index in a new temporary DATA_DIR (whatever store the run is on), with its snapshots, as `pastor index` leaves it. */
export async function buildSqliteBibleIndex(): Promise<{ dataDir: string }> {
  const dataDir = tempDir("pastor-bible-");
  const store = SqliteUnitStore.bible(dataDir);
  try {
    await indexBibleInto(store);
  } finally {
    store.close();
  }
  return { dataDir };
}

/** The repository's Bible indexed into `store` as `pastor index` does it (LSA, window 2), snapshots saved. */
export function indexBibleInto(store: UnitStore): Promise<IndexSummary> {
  return indexCorpus({
    store,
    corpusDir: path.join(ROOT, "corpus"),
    contextWindow: 2,
    batchSize: 4096,
    dense: { kind: "lsa" },
    ...indexSnapshots(store),
  });
}

export async function openBibleEngine(
  env: Record<string, string> = {},
  searchSettings: Partial<SearchSettings> = {},
): Promise<LoadedEngine & { close: () => Promise<void> }> {
  const { dataDir } = await realBibleIndex();
  const store = await openTestStore(dataDir);
  const settings = readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir), ...env });
  const loaded = await loadEngine(store, settings, { ...(await loadRetrievalAids({ store })), searchSettings });
  return { ...loaded, close: async () => store.close() };
}

/**
 * Every entry of an index of topics or stories has at least `minPhrasings` phrasings and
 * `minVerses` verses, and every verse is in the Bíblia Livre with its text.
 */
export function expectEntriesInCorpus(
  index: TopicalIndex,
  engine: SearchEngine,
  sizes: { minEntries: number; minPhrasings: number; minVerses: number },
): void {
  expect(index.size).toBeGreaterThanOrEqual(sizes.minEntries);
  for (const entry of index.topics) {
    expect(entry.phrasings.length, entry.id).toBeGreaterThanOrEqual(sizes.minPhrasings);
    expect(entry.verses.length, entry.id).toBeGreaterThanOrEqual(sizes.minVerses);
    for (const verse of entry.verses) {
      const found = engine.verseAt(verse.book, verse.chapter, verse.verse);
      expect(found?.text, `${entry.id}: ${verse.book} ${verse.chapter}:${verse.verse}`).toBeTruthy();
    }
  }
}

/**
 * The real Bible engine for one `describe` block: opened before its tests, closed after them.
 * Call it inside the block; read the engine through the getter, in the tests.
 */
export function useBibleEngine(env: Record<string, string> = {}, searchSettings: Partial<SearchSettings> = {}): () => Awaited<ReturnType<typeof openBibleEngine>> {
  let opened: Awaited<ReturnType<typeof openBibleEngine>> | undefined;
  beforeAll(async () => {
    opened = await openBibleEngine(env, searchSettings);
  }, 240_000);
  afterAll(async () => {
    await opened?.close();
  });
  return () => {
    if (!opened) throw new Error("the Bible engine is not open yet");
    return opened;
  };
}
