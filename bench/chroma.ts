/**
 * The Chroma store beside SQLite, in one run, on the real Bible: cold index build and no-op
 * re-index, the boot rebuild of the engine (full read of verses + terms, then vectors), query
 * latency p50/p95 of the engine loaded from each store, Chroma's own HNSW search for the
 * dense side beside our in-memory exact search, and the top-10 agreement on the dev queries.
 * Needs `npm run setup:chroma`; without it, prints a note and skips.
 *
 *   npx tsx bench/chroma.ts        (or `npm run bench`, which runs every benchmark)
 */
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ChromaUnitStore } from "../src/adapters/index/chroma-unit-store.js";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { loadIndexedVerses, loadVerses } from "../src/adapters/index/bible-units.js";
import type { UnitStore } from "../src/adapters/index/store.js";
import { indexCorpus } from "../src/app/index/indexer.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { loadRetrievalAids, type RetrievalAids } from "../src/app/retrieval/retrieval-aids.js";
import { readSettings } from "../src/config/settings.js";
import type { SearchEngine } from "../src/core/retrieval/engine.js";
import { parseEvalFile, type EvalQuery } from "../src/core/retrieval/eval.js";
import { chromaInstalled, startChromaServer } from "../test/support/chroma.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REPEAT = 15;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const ms = (started: number) => Math.round(performance.now() - started);

async function latency(engine: SearchEngine, queries: readonly EvalQuery[]) {
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    for (const query of queries) {
      const started = performance.now();
      await engine.search(query.query, { k: 10 });
      samples.push(performance.now() - started);
    }
  }
  return stats(samples);
}

async function buildAndLoad(store: UnitStore, aids: RetrievalAids, env: Record<string, string>) {
  const options = { store, corpusDir: path.join(ROOT, "corpus"), contextWindow: 2, batchSize: 512, dense: { kind: "lsa" as const } };
  const cold = await indexCorpus(options);
  const noop = await indexCorpus(options);
  // The boot of a replica: the full read the BM25 index is rebuilt from, then the vectors.
  let started = performance.now();
  await loadIndexedVerses(store);
  const readVersesMs = ms(started);
  started = performance.now();
  await store.loadVectors(cold.denseModel!);
  const readVectorsMs = ms(started);
  started = performance.now();
  const { engine, embedder } = await loadEngine(store, readSettings(env), aids);
  const loadEngineMs = ms(started);
  return { engine, embedder: embedder!, vectorKey: cold.denseModel!, figures: { coldBuildMs: cold.ms, noopReindexMs: noop.ms, readVersesMs, readVectorsMs, loadEngineMs } };
}

export async function runChromaBench(): Promise<Record<string, unknown>> {
  if (!chromaInstalled()) {
    const note = "ChromaDB não instalado (npm run setup:chroma): benchmark do Chroma pulado";
    console.log(`nota: ${note}`);
    return { skipped: note };
  }
  const queries = parseEvalFile(readFileSync(path.join(ROOT, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");
  const aids = await loadRetrievalAids();
  const dataDir = path.join(tmpdir(), `pastor-bench-chroma-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startChromaServer();
  const sqliteStore = SqliteUnitStore.bible(dataDir);
  const chromaStore = await ChromaUnitStore.open({ url: server.url, prefix: "bench" });
  try {
    const sqlite = await buildAndLoad(sqliteStore, aids, { DATA_DIR: dataDir });
    const chroma = await buildAndLoad(chromaStore, aids, { VECTOR_STORE: "chroma", CHROMA_URL: server.url, CHROMA_COLLECTION_PREFIX: "bench" });
    const sqliteLatency = await latency(sqlite.engine, queries);
    const chromaLatency = await latency(chroma.engine, queries);

    // The dense side through Chroma's HNSW index (one HTTP round trip a query) beside our
    // exact in-memory search: latency and how much of the exact top-24 it returns.
    const key = chroma.vectorKey;
    const topN = 24;
    const nativeSamples: number[] = [];
    const exactSamples: number[] = [];
    let overlap = 0;
    let asked = 0;
    const verses = await loadVerses(chromaStore);
    const refOf = new Map(verses.map((v) => [v.id, `${v.book} ${v.chapter}:${v.verse}`]));
    for (const query of queries.filter((q) => q.type !== "reference")) {
      const [vector] = await chroma.embedder.embed([query.query], "query");
      let started = performance.now();
      const native = await chromaStore.nearestVectors(key, vector!, topN);
      nativeSamples.push(performance.now() - started);
      started = performance.now();
      const exact = await chroma.engine.search(query.query, { k: topN, mode: "dense" });
      exactSamples.push(performance.now() - started);
      const exactRefs = new Set(exact.results.map((r) => r.ref));
      overlap += native.filter((hit) => exactRefs.has(refOf.get(hit.id) ?? "")).length;
      asked += Math.min(topN, exact.results.length);
    }

    let identical = 0;
    for (const { query } of queries) {
      const a = (await sqlite.engine.search(query, { k: 10 })).results.map((r) => r.ref).join("|");
      const b = (await chroma.engine.search(query, { k: 10 })).results.map((r) => r.ref).join("|");
      if (a === b) identical++;
    }

    return {
      verses: chroma.engine.size,
      sqlite: { ...sqlite.figures, hybridLatencyMs: sqliteLatency },
      chroma: { ...chroma.figures, hybridLatencyMs: chromaLatency },
      ratios: {
        "chroma/sqlite cold build": round2(chroma.figures.coldBuildMs / sqlite.figures.coldBuildMs),
        "chroma/sqlite no-op reindex": round2(chroma.figures.noopReindexMs / Math.max(1, sqlite.figures.noopReindexMs)),
        "chroma/sqlite engine load (boot)": round2(chroma.figures.loadEngineMs / sqlite.figures.loadEngineMs),
        "chroma/sqlite hybrid p50": round2(chromaLatency.p50 / Math.max(sqliteLatency.p50, 1e-9)),
        "chroma/sqlite hybrid p95": round2(chromaLatency.p95 / Math.max(sqliteLatency.p95, 1e-9)),
      },
      denseSide: {
        inMemoryExactMs: stats(exactSamples),
        chromaHnswQueryMs: stats(nativeSamples),
        chromaHnswRecallOfExactTop24: round2(overlap / Math.max(1, asked)),
      },
      top10Identical: `${identical}/${queries.length}`,
    };
  } finally {
    sqliteStore.close();
    chromaStore.close();
    await server.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runChromaBench(), null, 2));
}
