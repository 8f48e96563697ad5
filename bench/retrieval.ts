import { spawnSync } from "node:child_process";
/**
 * Retrieval benchmark on the real Bible: cold index build (lexical + corpus-trained LSA),
 * no-op re-index, query latency per mode over the dev queries, RSS after load, and, in the
 * same run, the plain FTS5 BM25 baseline's quality and latency beside ours, as ratios.
 *
 *   npx tsx bench/retrieval.ts        (or `npm run bench`, which runs every benchmark)
 */
import Database from "better-sqlite3";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { verseOfUnit } from "../src/adapters/index/bible-units.js";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { indexCorpus } from "../src/app/index/indexer.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { loadRetrievalAids, type RetrievalAids } from "../src/app/retrieval/retrieval-aids.js";
import { decideScope } from "../src/core/retrieval/scope/gate.js";
import { readSettings, type Settings } from "../src/config/settings.js";
import { analyze } from "../src/core/analysis/index.js";
import { type SearchEngine, type SearchMode, type SearchSettings } from "../src/core/retrieval/engine.js";
import { evaluateRankings, parseEvalFile, type EvalQuery, type EvalReport } from "../src/core/retrieval/eval.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REPEAT = 15;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function latencyStats(samples: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)) };
}

async function measureMode(engine: SearchEngine, queries: readonly EvalQuery[], mode: SearchMode, repeat = REPEAT) {
  const samples: number[] = [];
  const rankings: string[][] = [];
  for (const query of queries) {
    const response = await engine.search(query.query, { k: 10, mode });
    rankings.push(response.results.map((r) => `${r.book} ${r.chapter}:${r.verse}`));
  }
  for (let i = 0; i < repeat; i++) {
    for (const query of queries) {
      const started = performance.now();
      await engine.search(query.query, { k: 10, mode });
      samples.push(performance.now() - started);
    }
  }
  return { latency: latencyStats(samples), report: evaluateRankings(queries, rankings, 10, mode) };
}

/** The plain baseline: SQLite FTS5 bm25() over the same analysed tokens, verse text only. */
function fts5Baseline(store: SqliteUnitStore, queries: readonly EvalQuery[]) {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 0')");
  const insert = db.prepare("INSERT INTO fts (rowid, terms) VALUES (?, ?)");
  const verses = store.loadUnits().map(verseOfUnit);
  const terms = new Map(verses.map((verse) => [verse.id, verse.terms]));
  const byRow = new Map<number, string>();
  db.transaction(() => {
    for (const verse of verses) {
      insert.run(verse.id, terms.get(verse.id) ?? "");
      byRow.set(verse.id, `${verse.book} ${verse.chapter}:${verse.verse}`);
    }
  })();
  const select = db.prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10");
  const search = (text: string): string[] => {
    const query = [...new Set(analyze(text))].map((term) => `"${term}"`).join(" OR ");
    if (query === "") return [];
    return (select.all(query) as { rowid: number }[]).map((row) => byRow.get(row.rowid)!);
  };
  const rankings = queries.map((query) => search(query.query));
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    for (const query of queries) {
      const started = performance.now();
      search(query.query);
      samples.push(performance.now() - started);
    }
  }
  db.close();
  return { latency: latencyStats(samples), report: evaluateRankings(queries, rankings, 10, "fts5-baseline") };
}

/** Off-topic questions of our own (the dev file has only three). */
const OWN_OFFTOPIC = [
  "qual é a capital da França?",
  "como configurar meu roteador wifi",
  "receita de bolo de cenoura",
  "quem ganhou a copa do mundo de 2002?",
  "qual o preço do bitcoin hoje",
  "me ensine a programar em python",
  "como trocar o pneu do carro",
  "qual a previsão do tempo para amanhã",
  "melhores filmes de ação de 2020",
];

/**
 * How many off-topic questions the system refuses on its own (retrieval finds no evidence,
 * so the fixed message answers and the model is not called), against how many real ones it
 * would wrongly refuse; and whether a dense similarity floor could separate them: the best
 * floor that keeps every on-topic question, and how many off-topic ones it would block.
 */
async function offTopicRefusals(engine: SearchEngine, queries: readonly EvalQuery[]) {
  const offTopic = [...queries.filter((q) => q.type === "offtopic").map((q) => q.query), ...OWN_OFFTOPIC];
  const onTopic = queries.filter((q) => q.type !== "offtopic").map((q) => q.query);
  // Reference queries ("Rm 8:28") are answered by metadata and carry no dense signal.
  const onTopicWords = queries.filter((q) => q.type !== "offtopic" && q.type !== "reference").map((q) => q.query);
  const refused = async (list: readonly string[]) => {
    let n = 0;
    for (const query of list) if ((await engine.search(query, { k: 6 })).results.length === 0) n++;
    return n;
  };
  const topSimilarity = async (query: string) => (await engine.search(query, { k: 1, mode: "dense" })).results[0]?.similarity ?? 0;
  const onSims = await Promise.all(onTopicWords.map(topSimilarity));
  const offSims = await Promise.all(offTopic.map(topSimilarity));
  const floor = Math.min(...onSims);
  return {
    offTopic: offTopic.length,
    offTopicRefused: await refused(offTopic),
    onTopic: onTopic.length,
    onTopicRefused: await refused(onTopic),
    similarityFloorKeepingAllOnTopic: Math.round(floor * 1000) / 1000,
    offTopicBlockedByThatFloor: offSims.filter((s) => s < floor).length,
  };
}

/**
 * The out-of-scope gate (issue 11) on a few evaluation sets: off-topic questions refused, real
 * ones refused wrongly, by type, and the questions kept with a doubt; and what the gate costs per question on its own (the
 * decision over a search response already computed), p50/p95/p99 over several passes.
 */
async function scopeGateFigures(engine: SearchEngine, aids: RetrievalAids) {
  const sets: Record<string, Record<string, unknown>> = {};
  const timings: number[] = [];
  const scope = aids.scope!;
  const vocabulary = engine.vocabulary();
  for (const file of ["eval/dev.jsonl", "eval/semantic-own.jsonl", "eval/offtopic-own.jsonl", "eval/pastoral-worldly.jsonl"]) {
    const queries = parseEvalFile(readFileSync(path.join(ROOT, file), "utf8"), file);
    const refused: boolean[] = [];
    let doubted = 0;
    for (const query of queries) {
      const response = await engine.search(query.query, { k: 6 });
      refused.push(response.scope?.inScope === false);
      if (response.scope?.doubtful) doubted++;
      const hasReference = response.references.some((reference) => reference.ok);
      for (let pass = 0; pass < 5; pass++) {
        const started = performance.now();
        decideScope({ ...scope, vocabulary }, { question: query.query, hasReference, results: response.results });
        timings.push(performance.now() - started);
      }
    }
    const tally = evaluateRankings(queries, queries.map(() => []), 10, "hybrid", refused).refusals!;
    sets[file] = {
      offTopicRefused: `${tally.offtopic.refused}/${tally.offtopic.n}`,
      wronglyRefused: Object.fromEntries(Object.entries(tally.wronglyRefused).map(([type, t]) => [type, `${t.refused}/${t.n}`])),
      // Kept, but answered with the gate's doubt (ScopeModel.doubtThreshold).
      keptWithDoubt: `${doubted}/${queries.length - refused.filter(Boolean).length}`,
    };
  }
  const own = await Promise.all(OWN_OFFTOPIC.map(async (query) => (await engine.search(query, { k: 6 })).scope?.inScope === false));
  sets["bench OWN_OFFTOPIC"] = { offTopicRefused: `${own.filter(Boolean).length}/${own.length}` };
  return { sets, gateMsPerQuestion: latencyStats(timings) };
}

/** Search settings with issue 14's theme lever turned off: the engine as it was before it. */
export const WITHOUT_THEMES = { off: ["theme"] };

/** Search settings with the topical index turned off: the engine as it was before it. */
export const WITHOUT_TOPICS = { topicWeight: 0 };

/**
 * One lever off and on, side by side in one run: hybrid latency over the given sets' questions
 * together, and quality per set. `without` turns the lever off; the engine with every default
 * is the "after".
 */
async function leverFigures(store: SqliteUnitStore, settings: Settings, aids: RetrievalAids, engine: SearchEngine, without: Partial<SearchSettings>, files: readonly string[]) {
  const { engine: before } = await loadEngine(store, settings, { ...aids, searchSettings: without });
  const sets = files.map((file) => ({
    file,
    queries: parseEvalFile(readFileSync(path.join(ROOT, file), "utf8"), file),
  }));
  const all = sets.flatMap((set) => set.queries);
  const quality = async (which: SearchEngine) =>
    Object.fromEntries(await Promise.all(sets.map(async (set) => [set.file, qualityLine((await measureMode(which, set.queries, "hybrid", 0)).report)])));
  // Timed in alternation, query by query, so warm-up and machine noise fall on both alike.
  const samples: { before: number[]; after: number[] } = { before: [], after: [] };
  for (let pass = 0; pass < REPEAT; pass++) {
    for (const query of all) {
      for (const [name, which] of [["before", before], ["after", engine]] as const) {
        const started = performance.now();
        await which.search(query.query, { k: 10 });
        samples[name].push(performance.now() - started);
      }
    }
  }
  const [beforeLatency, afterLatency] = [latencyStats(samples.before), latencyStats(samples.after)];
  return {
    queries: all.length,
    before: { latencyMs: beforeLatency, quality: await quality(before) },
    after: { latencyMs: afterLatency, quality: await quality(engine) },
    "p95 after/before": round2(afterLatency.p95 / Math.max(beforeLatency.p95, 1e-9)),
  };
}

const FEELINGS_AND_THEMES = ["eval/dev.jsonl", "eval/topical-own.jsonl", "eval/feelings-own.jsonl", "eval/semantic-own.jsonl"];

function qualityLine(report: EvalReport): Record<string, number> {
  const line: Record<string, number> = { "hit@10": report.overall["hit@10"]!, "ndcg@10": report.overall["ndcg@10"]! };
  for (const [type, metrics] of Object.entries(report.byType)) line[`ndcg@10 ${type}`] = metrics["ndcg@10"]!;
  return line;
}

export async function runRetrievalBench(): Promise<Record<string, unknown>> {
  const dataDir = path.join(tmpdir(), `pastor-bench-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const store = SqliteUnitStore.bible(dataDir);
  const settings = readSettings({ DATA_DIR: dataDir });
  const options = { store, corpusDir: path.join(ROOT, "corpus"), contextWindow: 2, batchSize: 512, dense: { kind: "lsa" as const } };

  const cold = await indexCorpus(options);
  const noop = await indexCorpus(options);

  const loadStarted = performance.now();
  const aids = await loadRetrievalAids();
  const { engine } = await loadEngine(store, settings, aids);
  const loadMs = performance.now() - loadStarted;
  const rssInBenchProcessMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  const serving = servingProcessRss(dataDir);

  const queries = parseEvalFile(readFileSync(path.join(ROOT, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");
  const modes: Record<string, Awaited<ReturnType<typeof measureMode>>> = {};
  for (const mode of ["hybrid", "lexical", "dense"] as const) modes[mode] = await measureMode(engine, queries, mode);
  const baseline = fts5Baseline(store, queries);
  const themes = await leverFigures(store, settings, aids, engine, WITHOUT_THEMES, FEELINGS_AND_THEMES);
  const topics = await leverFigures(store, settings, aids, engine, WITHOUT_TOPICS, [...FEELINGS_AND_THEMES, "eval/feelings-themes-blind.jsonl", "eval/sayings-own.jsonl"]);
  const offTopic = await offTopicRefusals(engine, queries);
  const scopeGate = await scopeGateFigures(engine, aids);
  store.close();
  rmSync(dataDir, { recursive: true, force: true });

  const hybrid = modes.hybrid!;
  return {
    index: { coldBuildMs: cold.ms, noopReindexMs: noop.ms, verses: cold.versesTotal, embedder: cold.embedder },
    loadEngineMs: Math.round(loadMs),
    // The serving figure: a fresh process that loads the index and answers the dev queries.
    servingProcess: serving,
    // This process also ran the cold build (and earlier bench sections): its high-water mark.
    rssInBenchProcessMb,
    latencyMs: Object.fromEntries([...Object.entries(modes).map(([mode, m]) => [mode, m.latency]), ["fts5-baseline", baseline.latency]]),
    quality: Object.fromEntries([...Object.entries(modes).map(([mode, m]) => [mode, qualityLine(m.report)]), ["fts5-baseline", qualityLine(baseline.report)]]),
    offTopic,
    scopeGate,
    // Issue 14: the theme lever off (before) and on (after), same process, same queries.
    themes,
    // The topical index off (before) and on (after), likewise.
    topics,
    ratios: {
      "hybrid/fts5 ndcg@10": round2(hybrid.report.overall["ndcg@10"]! / Math.max(baseline.report.overall["ndcg@10"]!, 1e-9)),
      "hybrid/fts5 hit@10": round2(hybrid.report.overall["hit@10"]! / Math.max(baseline.report.overall["hit@10"]!, 1e-9)),
      "hybrid/fts5 p95 latency": round2(hybrid.latency.p95 / Math.max(baseline.latency.p95, 1e-9)),
    },
  };
}

function servingProcessRss(dataDir: string): Record<string, number> | { error: string } {
  const child = spawnSync(process.execPath, ["--expose-gc", path.join(ROOT, "bench/serve-rss.mjs")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (child.status !== 0) return { error: child.stderr.slice(-500) };
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runRetrievalBench(), null, 2));
}
