/**
 * LSA benchmark on the real corpus: training time, vocabulary size, model size and query
 * embedding latency. Run with `npx tsx bench/lsa.ts [dimensions]`.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildContextWindows } from "../src/core/sources/context.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { LsaModel, trainLsa } from "../src/core/index/lsa.js";
import type { LsaOptions, LsaTrainingStats } from "../src/core/index/lsa.js";

export const CORPUS_PATH = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

export interface LsaBenchResult {
  windows: number;
  dimensions: number;
  vocabulary: number;
  nonZeros: number;
  loadMs: number;
  trainMs: number;
  analyzeMs: number;
  svdMs: number;
  modelBytes: number;
  serializeMs: number;
  deserializeMs: number;
  documentEmbedMs: number;
  queries: number;
  queryP50Ms: number;
  queryP95Ms: number;
  queryMaxMs: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** Deterministic query-like strings: 2–7 consecutive words taken from spread-out verses. */
function sampleQueries(texts: readonly string[], count: number): string[] {
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = texts[Math.floor(((i + 0.5) * texts.length) / count)] ?? "";
    const words = text.split(/\s+/u).filter((word) => word !== "");
    const length = 2 + (i % 6);
    const start = words.length > length ? (i * 7) % (words.length - length) : 0;
    queries.push(words.slice(start, start + length).join(" "));
  }
  return queries;
}

export async function runLsaBench(options: LsaOptions = {}, log: (line: string) => void = console.log): Promise<LsaBenchResult> {
  let started = performance.now();
  const verses = await loadUsfxFile(CORPUS_PATH);
  const windows = buildContextWindows(verses, 2).map((entry) => entry.window);
  const loadMs = performance.now() - started;

  let stats: LsaTrainingStats | undefined;
  const model = trainLsa(windows, options, (s) => {
    stats = s;
  });
  if (stats === undefined) throw new Error("trainLsa reported no statistics");

  started = performance.now();
  const bytes = model.serialize();
  const serializeMs = performance.now() - started;
  started = performance.now();
  LsaModel.deserialize(bytes);
  const deserializeMs = performance.now() - started;

  started = performance.now();
  for (const window of windows) model.embedText(window);
  const documentEmbedMs = performance.now() - started;

  const queries = sampleQueries(
    verses.map((verse) => verse.text),
    1000,
  );
  for (const query of queries.slice(0, 100)) model.embedText(query); // warm-up
  const latencies: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    model.embedText(query);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);

  const result: LsaBenchResult = {
    windows: windows.length,
    dimensions: model.dimensions,
    vocabulary: model.terms.length,
    nonZeros: stats.nonZeros,
    loadMs,
    trainMs: stats.totalMs,
    analyzeMs: stats.analyzeMs,
    svdMs: stats.svdMs,
    modelBytes: bytes.length,
    serializeMs,
    deserializeMs,
    documentEmbedMs,
    queries: latencies.length,
    queryP50Ms: percentile(latencies, 50),
    queryP95Ms: percentile(latencies, 95),
    queryMaxMs: latencies[latencies.length - 1] ?? 0,
  };
  const f = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  log(`LSA ${model.id}`);
  log(`corpus: ${result.windows} context windows (load + parse ${f(loadMs)})`);
  log(`training: ${f(result.trainMs)} (analysis + matrix ${f(result.analyzeMs)}, randomized SVD ${f(result.svdMs)})`);
  log(`vocabulary: ${result.vocabulary} terms, ${result.nonZeros} non-zeros, ${result.dimensions} dimensions`);
  log(`model: ${result.modelBytes} bytes (${(result.modelBytes / 2 ** 20).toFixed(1)} MiB), serialize ${serializeMs.toFixed(0)} ms, deserialize ${deserializeMs.toFixed(0)} ms`);
  log(`document fold-in: ${f(documentEmbedMs)} for ${result.windows} windows`);
  log(
    `query embedding over ${result.queries} queries: p50 ${result.queryP50Ms.toFixed(3)} ms, p95 ${result.queryP95Ms.toFixed(3)} ms, max ${result.queryMaxMs.toFixed(3)} ms`,
  );
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dimensions = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  await runLsaBench(dimensions === undefined ? {} : { dimensions });
}
