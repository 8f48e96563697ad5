import type { IndexStore } from "../adapters/store/store.js";
import { sha256File } from "../app/indexer.js";
import { usfxSourceName } from "../adapters/sources/usfx-file.js";

/** The corpus files against the stored index: which are indexed as they are now, which are behind (and why), which left. */
export interface CorpusComparison {
  fresh: string[];
  stale: { file: string; reason: string }[];
  removed: string[];
}

export async function compareWithCorpus(store: IndexStore, corpusFiles: readonly string[]): Promise<CorpusComparison> {
  const sources = new Map((await store.listSources()).map((source) => [source.file, source]));
  const comparison: CorpusComparison = { fresh: [], stale: [], removed: [] };
  for (const file of corpusFiles) {
    const name = usfxSourceName(file);
    const record = sources.get(name);
    sources.delete(name);
    if (!record || record.status !== "complete") comparison.stale.push({ file, reason: `${name} ainda não foi indexado por inteiro` });
    else if (record.sha256 !== (await sha256File(file))) comparison.stale.push({ file, reason: `${name} mudou desde a última indexação` });
    else comparison.fresh.push(file);
  }
  comparison.removed = [...sources.keys()];
  return comparison;
}

/** How the stored index compares with the corpus as a whole: empty, matching it, or behind it (and why). */
export type IndexState = { kind: "empty" } | { kind: "fresh" } | { kind: "stale"; reason: string };

export async function indexState(store: IndexStore, corpusFiles: readonly string[]): Promise<IndexState> {
  if ((await store.verseCount()) === 0) return { kind: "empty" };
  const { stale, removed } = await compareWithCorpus(store, corpusFiles);
  const reason = stale[0]?.reason ?? (removed[0] === undefined ? undefined : `${removed[0]} saiu do corpus`);
  return reason === undefined ? { kind: "fresh" } : { kind: "stale", reason };
}
