import path from "node:path";
import { SqliteStore } from "../../src/adapters/store/sqlite-store.js";
import { indexCorpus } from "../../src/app/indexer.js";
import { loadEngine, type LoadedEngine } from "../../src/app/load-engine.js";
import { loadRetrievalAids } from "../../src/app/retrieval-aids.js";
import { readSettings } from "../../src/config/settings.js";
import { tempDir } from "./usfx.js";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The real Bible index (Bíblia Livre, lexical + the corpus-trained LSA model), built once
 * per test process into a temporary DATA_DIR and shared by the tests that need it.
 */
let building: Promise<{ dataDir: string }> | undefined;

export function realBibleIndex(): Promise<{ dataDir: string }> {
  building ??= (async () => {
    const dataDir = tempDir("pastor-bible-");
    const store = SqliteStore.open(dataDir);
    try {
      await indexCorpus({
        store,
        corpusDir: path.join(ROOT, "corpus"),
        contextWindow: 2,
        batchSize: 4096,
        dense: { kind: "lsa" },
      });
    } finally {
      store.close();
    }
    return { dataDir };
  })();
  return building;
}

export async function openBibleEngine(env: Record<string, string> = {}): Promise<LoadedEngine & { close: () => void }> {
  const { dataDir } = await realBibleIndex();
  const store = SqliteStore.open(dataDir);
  const settings = readSettings({ DATA_DIR: dataDir, ...env });
  const loaded = await loadEngine(store, settings, await loadRetrievalAids());
  return { ...loaded, close: () => store.close() };
}
