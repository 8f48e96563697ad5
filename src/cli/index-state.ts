import type { UnitStore } from "../adapters/index/store.js";
import { indexedVersion, sha256File } from "../app/index/indexer.js";
import { usfxSourceName } from "../adapters/sources/usfx-file.js";
import { planSync } from "../core/index/sync-plan.js";

/** The corpus files against the stored index: which are indexed as they are now, which are behind (and why), which left. */
export interface CorpusComparison {
  fresh: string[];
  /** `indexed`: the index holds an earlier version of the file whole (what `pastor verses` reads rather than a file that may be broken). */
  stale: { file: string; reason: string; indexed: boolean }[];
  removed: string[];
}

export async function compareWithCorpus(store: UnitStore, corpusFiles: readonly string[]): Promise<CorpusComparison> {
  const offered = await Promise.all(corpusFiles.map(async (file) => ({ id: usfxSourceName(file), sha256: await sha256File(file), file })));
  const plan = planSync(
    (await store.listSources()).map(indexedVersion),
    offered,
  );
  const comparison: CorpusComparison = { fresh: [], stale: [], removed: plan.removed };
  plan.steps.forEach(({ id: name, action, indexed }, i) => {
    const { file } = offered[i]!;
    if (action === "keep") comparison.fresh.push(file);
    else if (indexed?.complete) comparison.stale.push({ file, reason: `${name} mudou desde a última indexação`, indexed: true });
    else comparison.stale.push({ file, reason: `${name} ainda não foi indexado por inteiro`, indexed: false });
  });
  return comparison;
}

/** How the stored index compares with the corpus as a whole: empty, matching it, or behind it (and why). */
export type IndexState = { kind: "empty" } | { kind: "fresh" } | { kind: "stale"; reason: string };

export async function indexState(store: UnitStore, corpusFiles: readonly string[]): Promise<IndexState> {
  if ((await store.unitCount()) === 0) return { kind: "empty" };
  const { stale, removed } = await compareWithCorpus(store, corpusFiles);
  const reason = stale[0]?.reason ?? (removed[0] === undefined ? undefined : `${removed[0]} saiu do corpus`);
  return reason === undefined ? { kind: "fresh" } : { kind: "stale", reason };
}
