/**
 * Dense-only retrieval experiments for questions in the asker's own words.
 *
 *   npx tsx scripts/dense-experiments.ts [--queries eval/semantic-own.jsonl] [--only name,name] [--hybrid [--per-query]]
 *
 * Ranks all verse documents of the Bíblia Livre by cosine with the query vector (no BM25, no
 * fusion) and reports hit@10, nDCG@10, MRR@10 (src/core/search/metrics.ts) and hit@100 on the
 * two halves of the query file (odd ids = "tune", even ids = "held": settings were chosen on
 * "tune"; "held" is the figure to quote), plus a small narrative/quote set as a regression check
 * (the dense side also serves those queries). Also prints training, indexing and query times.
 * With --hybrid, each model is also put behind the full search engine (BM25, phrases, lexicon
 * expansions, cross-reference pull-in and prior, RRF; src/core/search/engine.ts defaults), as
 * the app would serve it, next to the engine without a dense side.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyze } from "../src/core/analysis/analyze.js";
import { loadCrossReferences } from "../src/core/bible/cross-references.js";
import { buildContextWindows } from "../src/core/corpus/context.js";
import { loadUsfxFile } from "../src/core/corpus/usfx.js";
import { trainLsa } from "../src/core/embedding/lsa.js";
import {
  collectXrefLinks,
  createXrefLsaEmbedder,
  encodeXrefDocument,
  linkNeighbours,
  trainXrefLsaFromTerms,
} from "../src/core/embedding/xref-lsa.js";
import type { XrefLsaOptions } from "../src/core/embedding/xref-lsa.js";
import { averageMetrics, scoreRanking } from "../src/core/search/metrics.js";
import { findProjectRoot } from "../src/project-root.js";
import { loadRetrievalAids } from "../src/app/retrieval-aids.js";
import { createLsaEmbedder } from "../src/core/embedding/lsa.js";
import type { Embedder } from "../src/core/embedding/embedder.js";
import { DEFAULT_SEARCH_SETTINGS, SearchEngine } from "../src/core/search/engine.js";
import type { EngineVerse } from "../src/core/search/engine.js";

interface Query {
  id: string;
  query: string;
  relevant: string[];
}

/** Regression check: narrative and quote queries (not tuned on). */
const NARRATIVE: readonly [string, string][] = [
  ["Davi e Golias", "1SA 17:49|1SA 17:50|1SA 17:45|1SA 17:4|1SA 17:32|1SA 17:48|1SA 17:51"],
  ["a mulher de Ló virou estátua de sal", "GEN 19:26|LUK 17:32"],
  ["Jesus andou sobre as águas", "MAT 14:25|MAT 14:26|MAT 14:29|MRK 6:48|MRK 6:49|JHN 6:19"],
  ["a torre de Babel", "GEN 11:4|GEN 11:5|GEN 11:7|GEN 11:9|GEN 11:6|GEN 11:8"],
  ["Daniel na cova dos leões", "DAN 6:16|DAN 6:22|DAN 6:23|DAN 6:20|DAN 6:24|DAN 6:7|DAN 6:12"],
  ["Jonas engolido pelo grande peixe", "JON 1:17|JON 2:10|JON 2:1|MAT 12:40"],
  ["Zaqueu subiu na árvore para ver Jesus", "LUK 19:2|LUK 19:3|LUK 19:4|LUK 19:5|LUK 19:8"],
  ["a multiplicação dos pães e peixes", "MAT 14:17|MAT 14:19|MAT 14:20|MAT 14:21|JHN 6:9|JHN 6:11|MRK 6:41|MRK 6:44|LUK 9:16|LUK 9:17"],
  ["Moisés abre o mar vermelho", "EXO 14:21|EXO 14:22|EXO 14:16|EXO 14:27|EXO 14:29"],
  ["Sansão e Dalila", "JDG 16:4|JDG 16:5|JDG 16:6|JDG 16:17|JDG 16:19|JDG 16:15"],
  ["Elias desafia os profetas de Baal", "1KI 18:21|1KI 18:24|1KI 18:38|1KI 18:39|1KI 18:22|1KI 18:36|1KI 18:40"],
  ["a conversão de Paulo no caminho de Damasco", "ACT 9:3|ACT 9:4|ACT 9:5|ACT 9:6|ACT 22:6|ACT 22:7|ACT 26:13|ACT 26:14"],
  ["Pedro negou Jesus três vezes", "MAT 26:34|MAT 26:70|MAT 26:72|MAT 26:74|MAT 26:75|LUK 22:57|LUK 22:61|JHN 18:17|JHN 18:25|JHN 18:27|MRK 14:72"],
  ["a ressurreição de Lázaro", "JHN 11:43|JHN 11:44|JHN 11:39|JHN 11:41|JHN 11:1|JHN 11:11"],
  ["o bom samaritano", "LUK 10:33|LUK 10:34|LUK 10:30|LUK 10:36|LUK 10:37"],
  ["Jesus transforma água em vinho nas bodas", "JHN 2:1|JHN 2:7|JHN 2:9|JHN 2:11|JHN 2:3|JHN 2:10"],
  ["Abraão oferece Isaque em sacrifício", "GEN 22:2|GEN 22:9|GEN 22:10|GEN 22:12|GEN 22:13|HEB 11:17"],
  ["Noé constrói a arca antes do dilúvio", "GEN 6:14|GEN 7:17|GEN 7:1|GEN 6:13|GEN 7:7|GEN 6:22|GEN 7:23"],
  ["José vendido pelos irmãos", "GEN 37:28|GEN 37:27|GEN 37:26|GEN 45:4|ACT 7:9|GEN 37:36"],
  ["amai os vossos inimigos", "MAT 5:44|LUK 6:27|LUK 6:35"],
  ["o Senhor é o meu pastor", "PSA 23:1"],
  ["no princípio era o Verbo", "JHN 1:1"],
  ["o salário do pecado é a morte", "ROM 6:23"],
  ["a fé sem obras é morta", "JAS 2:17|JAS 2:20|JAS 2:26"],
];

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const root = findProjectRoot();
const queryFile = argument("--queries") ?? join(root, "eval/semantic-own.jsonl");
const only = argument("--only")?.split(",");
const queries = readFileSync(queryFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Query);
const tune = queries.filter((q) => Number(q.id.replace(/\D/g, "")) % 2 === 1);
const held = queries.filter((q) => Number(q.id.replace(/\D/g, "")) % 2 === 0);
const narrative: Query[] = NARRATIVE.map(([query, relevant], i) => ({ id: `nar-${i + 1}`, query, relevant: relevant.split("|") }));

const verses = (await loadUsfxFile(join(root, "corpus/por-blivre.usfx.xml"))).filter((verse) => verse.text !== "");
const windows = buildContextWindows(verses, 2);
const ids = verses.map((v) => `${v.book} ${v.chapter}:${v.verse}`);
const xrefs = await loadCrossReferences();
const links = collectXrefLinks(verses, xrefs);
const verseTerms = verses.map((v) => analyze(v.text));
console.log(`${verses.length} verses, ${links.length} links, queries: ${tune.length} tune + ${held.length} held, ${narrative.length} narrative`);

type Ranker = {
  name: string;
  rank: (query: string) => number[];
  trainMs: number;
  indexMs: number;
  queryMs: () => number;
  embedder: Embedder;
  matrix: Float32Array;
};
const hybrid = process.argv.includes("--hybrid");
const perQuery = process.argv.includes("--per-query");
const aids = hybrid ? await loadRetrievalAids() : {};
const engineVerses: EngineVerse[] = windows.map(({ canonical: _canonical, window: _window, ...verse }, i) => ({ ...verse, terms: verseTerms[i] ?? [] }));

function sets(): (readonly [string, Query[]])[] {
  return [["tune", tune], ["held", held], ["narrative", narrative]];
}

async function reportHybrid(name: string, embedder: Embedder | undefined, matrix: Float32Array | undefined): Promise<void> {
  const engine = new SearchEngine(engineVerses, matrix, { embedder, ...aids }, DEFAULT_SEARCH_SETTINGS);
  for (const [label, set] of sets()) {
    const metrics = [];
    for (const q of set) {
      const response = await engine.search(q.query, { k: 10, mode: "hybrid" });
      const m = scoreRanking(response.results.map((r) => r.ref), new Set(q.relevant), 10);
      if (perQuery) console.log(`  ${q.id} nDCG@10 ${m.ndcg.toFixed(3)} RR ${m.reciprocalRank.toFixed(2)}  ${q.query}`);
      metrics.push(m);
    }
    const m = averageMetrics(metrics);
    console.log(
      `${`HYBRID ${name}`.padEnd(40)} ${label.padEnd(9)} n=${String(m.n).padStart(3)}  hit@10 ${m.hit.toFixed(3)}  nDCG@10 ${m.ndcg.toFixed(3)}  MRR@10 ${m.mrr.toFixed(3)}`,
    );
  }
}

function searchTop(matrix: Float32Array, k: number, query: Float32Array, n: number): number[] {
  const count = matrix.length / k;
  const scores = new Float32Array(count);
  for (let r = 0; r < count; r++) {
    let sum = 0;
    const base = r * k;
    for (let c = 0; c < k; c++) sum += (matrix[base + c] as number) * (query[c] as number);
    scores[r] = sum;
  }
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  return order.slice(0, n);
}

function report(ranker: Ranker): void {
  for (const [label, set] of sets()) {
    let hit100 = 0;
    const metrics = set.map((q) => {
      const ranked = ranker.rank(q.query).map((i) => ids[i] as string);
      const relevant = new Set(q.relevant);
      if (ranked.slice(0, 100).some((id) => relevant.has(id))) hit100++;
      return scoreRanking(ranked, relevant, 10);
    });
    const m = averageMetrics(metrics);
    console.log(
      `${ranker.name.padEnd(40)} ${label.padEnd(9)} n=${String(m.n).padStart(3)}  hit@10 ${m.hit.toFixed(3)}  nDCG@10 ${m.ndcg.toFixed(3)}  ` +
        `MRR@10 ${m.mrr.toFixed(3)}  hit@100 ${(hit100 / Math.max(1, set.length)).toFixed(3)}`,
    );
  }
  console.log(
    `${ranker.name.padEnd(40)} train ${(ranker.trainMs / 1000).toFixed(1)} s, index ${(ranker.indexMs / 1000).toFixed(1)} s, ` +
      `query embedding ${ranker.queryMs().toFixed(2)} ms`,
  );
}

function baselineLsa(): Ranker {
  // The app today: LSA trained and indexed on "window + verse again" (src/app/dense.ts).
  const documents = windows.map((w) => `${w.window} ${w.text}`);
  const started = performance.now();
  const model = trainLsa(documents);
  const trainMs = performance.now() - started;
  const indexStarted = performance.now();
  const k = model.dimensions;
  const matrix = new Float32Array(documents.length * k);
  documents.forEach((document, i) => matrix.set(model.embedText(document), i * k));
  const indexMs = performance.now() - indexStarted;
  let queryTime = 0;
  let queryCount = 0;
  return {
    name: "LSA (window + verse), current",
    embedder: createLsaEmbedder(model),
    matrix,
    trainMs,
    indexMs,
    queryMs: () => queryTime / Math.max(1, queryCount),
    rank: (query) => {
      const t = performance.now();
      const vector = model.embedText(query);
      queryTime += performance.now() - t;
      queryCount++;
      return searchTop(matrix, k, vector, 100);
    },
  };
}

async function xrefLsa(name: string, options: XrefLsaOptions, viaStrings = false): Promise<Ranker> {
  const started = performance.now();
  const model = trainXrefLsaFromTerms(verseTerms, links, options);
  const trainMs = performance.now() - started;
  const neighbours = linkNeighbours(verses.length, links, model.options.linksPerVerse);
  const indexStarted = performance.now();
  const k = model.dimensions;
  const matrix = new Float32Array(verses.length * k);
  if (viaStrings) {
    // The app's path: one encoded string per verse through the Embedder interface.
    const embedder = createXrefLsaEmbedder(model);
    const documents = windows.map((w, i) =>
      encodeXrefDocument({
        verse: w.text,
        context: [w.contextBefore, w.contextAfter].filter((part) => part !== "").join(" "),
        links: (neighbours[i] ?? []).map((j) => verses[j]?.text ?? ""),
      }),
    );
    const vectors = await embedder.embed(documents, "document");
    vectors.forEach((vector, i) => matrix.set(vector, i * k));
  } else {
    verses.forEach((verse, i) => {
      const context: string[] = [];
      for (let j = i - 2; j <= i + 2; j++) {
        if (j !== i && verses[j]?.book === verse.book) context.push(...(verseTerms[j] ?? []));
      }
      const vector = model.embedDocumentTerms({
        verse: verseTerms[i] ?? [],
        context,
        links: (neighbours[i] ?? []).map((j) => verseTerms[j] ?? []),
      });
      matrix.set(vector, i * k);
    });
  }
  const indexMs = performance.now() - indexStarted;
  let queryTime = 0;
  let queryCount = 0;
  return {
    name,
    embedder: createXrefLsaEmbedder(model),
    matrix,
    trainMs,
    indexMs,
    queryMs: () => queryTime / Math.max(1, queryCount),
    rank: (query) => {
      const t = performance.now();
      const vector = model.embedText(query);
      queryTime += performance.now() - t;
      queryCount++;
      return searchTop(matrix, k, vector, 100);
    },
  };
}

const variants: [string, () => Promise<Ranker>][] = [
  ["baseline", () => Promise.resolve(baselineLsa())],
  ["xref", () => xrefLsa("xref-LSA (defaults)", {}, true)],
  ["doclink05", () => xrefLsa("  documentLinkWeight 0.5 (= training weight)", { documentLinkWeight: 0.5 })],
  ["nolinks", () => xrefLsa("  no links (verse-only LSA, context 0.5)", { linksPerVerse: 0 })],
  ["nocontext", () => xrefLsa("  index without context (contextWeight 0)", { contextWeight: 0 })],
  ["context1", () => xrefLsa("  context weight 1", { contextWeight: 1 })],
  ["links5context1", () => xrefLsa("  5 links, context weight 1", { linksPerVerse: 5, contextWeight: 1 })],
  ["links5", () => xrefLsa("  5 links per verse", { linksPerVerse: 5 })],
  ["links20", () => xrefLsa("  20 links per verse, weight 0.3", { linksPerVerse: 20, linkWeight: 0.3 })],
  ["linkw1", () => xrefLsa("  link weight 1 (training)", { linkWeight: 1 })],
  ["power1", () => xrefLsa("  1 power iteration", { powerIterations: 1 })],
  ["d128", () => xrefLsa("  128 dimensions", { dimensions: 128 })],
];
if (hybrid && (!only || only.includes("lexical"))) await reportHybrid("no dense side", undefined, undefined);
for (const [key, make] of variants) {
  if (only && !only.includes(key)) continue;
  const ranker = await make();
  report(ranker);
  if (hybrid) await reportHybrid(ranker.name, ranker.embedder, ranker.matrix);
}
