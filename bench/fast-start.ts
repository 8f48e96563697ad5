/**
 * Issue 45, before and after side by side in one run: the code before it (a git commit, built
 * into a temporary folder: BENCH_BEFORE, default main as merged into this work) and this
 * checkout, on the real Bible, alternating wherever a figure is taken more than once, so the
 * machine's load falls on both alike:
 *
 * - cold build (`pastor index` into an empty DATA_DIR) and no-op reindex, wall time;
 * - CLI search wall (`node bin/pastor.js search`), p50 of 5 questions;
 * - engine load and serving RSS (a fresh process loading the aids and the engine: start-probe.mjs);
 * - hybrid search p50/p95 of the dev questions (k = 10), each engine beside SQLite FTS5 in the
 *   same loop;
 * - replica start on Chroma (skipped without `npm run setup:chroma`): the same probe against a
 *   shared store, on the Bible and on BENCH_REPLICA_UNITS generated verses (e.g. 100000; more
 *   in several files of at most 100,000); BENCH_ONLY=replicas measures only these.
 *
 *   npx tsx bench/fast-start.ts        (or `npm run bench`, which runs every benchmark)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { verseOfUnit } from "../src/adapters/index/bible-units.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { loadRetrievalAids } from "../src/app/retrieval/retrieval-aids.js";
import { readSettings } from "../src/config/settings.js";
import { analyze } from "../src/core/analysis/index.js";
import { BOOKS } from "../src/core/bible/books.js";
import { USFX_LIMITS } from "../src/core/sources/usfx.js";
import type { SearchEngine } from "../src/core/retrieval/engine.js";
import { parseEvalFile } from "../src/core/retrieval/eval.js";
import { chromaInstalled, startChromaServer } from "../test/support/chroma.js";
import { ensureBuilt } from "../test/support/cli.js";
import { makeUsfx, tempDir, writeFile } from "../test/support/usfx.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The code before issue 45: main as it was merged into this work (62272f6 when the work started). */
const BEFORE = process.env.BENCH_BEFORE ?? "009302d";
const QUESTIONS = [
  "o que a Bíblia diz sobre o perdão?",
  "estou com medo do futuro",
  "quem foi Melquisedeque?",
  "a parábola do filho pródigo",
  "como lidar com a ansiedade",
];
const REPEAT = 15;

const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const side = (before: number, after: number, digits = 0) => ({ before: round(before, digits), after: round(after, digits), "after/before": round(after / before, 2) });

/** The code of `commit`, with its dist/ built, in a temporary folder (kept between runs). */
function beforeCheckout(commit: string): string {
  const dir = path.join(tmpdir(), `pastor-bench-before-${commit}`);
  const bundler = path.join(dir, "scripts/bundle-cli.mjs");
  if (existsSync(path.join(dir, "dist/cli/main.js")) && (!existsSync(bundler) || existsSync(path.join(dir, "dist/bundle/main.js")))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // scripts/: a commit whose bin/ starts the bundle (scripts/bundle-cli.mjs) needs it built too.
  const archive = execFileSync("git", ["archive", commit, "src", "bin", "scripts", "package.json", "tsconfig.json", "tsconfig.build.json", "resources", "eval", "corpus"], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  // The optional Chroma client is found under the project root's chroma/ (npm run setup:chroma).
  mkdirSync(path.join(dir, "chroma"));
  if (existsSync(path.join(ROOT, "chroma/node_modules"))) symlinkSync(path.join(ROOT, "chroma/node_modules"), path.join(dir, "chroma/node_modules"));
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(dir, "tsconfig.build.json")], { cwd: dir });
  if (existsSync(bundler)) execFileSync(process.execPath, [bundler], { cwd: dir });
  return dir;
}

/** Runs a command to its end; its wall time and output. */
function timed(args: string[], env: Record<string, string>, cwd = ROOT): { ms: number; stdout: string; stderr: string; status: number | null } {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 1 << 26 });
  return { ms: performance.now() - started, stdout: child.stdout, stderr: child.stderr, status: child.status };
}

function must<T extends { status: number | null; stderr: string }>(run: T, what: string): T {
  if (run.status !== 0) throw new Error(`${what} falhou (${run.status}): ${run.stderr.slice(-800)}`);
  return run;
}

interface Probe {
  importMs: number;
  loadMs: number;
  firstSearchMs: number;
  rssAfterLoadMb: number;
  rssSteadyMb: number;
  snapshot: string;
}

function probe(dist: string, env: Record<string, string>): Probe {
  const run = must(timed(["--expose-gc", path.join(ROOT, "bench/start-probe.mjs"), dist], env), `start-probe ${dist}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Probe;
}

/** `times` probes of each side, alternating; the medians. */
function probes(before: string, after: string, envBefore: Record<string, string>, envAfter: Record<string, string>, times = 3) {
  const runs: { before: Probe[]; after: Probe[] } = { before: [], after: [] };
  for (let i = 0; i < times; i++) {
    runs.before.push(probe(path.join(before, "dist"), envBefore));
    runs.after.push(probe(path.join(ROOT, "dist"), envAfter));
  }
  const of = (which: Probe[], key: keyof Probe) => median(which.map((p) => p[key] as number));
  return {
    loadMs: side(of(runs.before, "loadMs"), of(runs.after, "loadMs")),
    importMs: side(of(runs.before, "importMs"), of(runs.after, "importMs")),
    firstSearchMs: side(of(runs.before, "firstSearchMs"), of(runs.after, "firstSearchMs")),
    rssAfterLoadMb: side(of(runs.before, "rssAfterLoadMb"), of(runs.after, "rssAfterLoadMb")),
    rssSteadyMb: side(of(runs.before, "rssSteadyMb"), of(runs.after, "rssSteadyMb")),
    afterSnapshot: runs.after.map((p) => p.snapshot).join(","),
  };
}

/** Hybrid latency of both engines and of FTS5 over the same analysed tokens, in one loop. */
async function latency(beforeDir: string, dataBefore: string, dataAfter: string) {
  const queries = parseEvalFile(readFileSync(path.join(ROOT, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");
  const src = (module: string) => import(pathToFileURL(path.join(beforeDir, "src", module)).href);
  const [oldLoad, oldAids, oldStore] = await Promise.all([src("app/retrieval/load-engine.ts"), src("app/retrieval/retrieval-aids.ts"), src("adapters/index/sqlite-unit-store.ts")]);
  const storeBefore = oldStore.SqliteUnitStore.bible(dataBefore);
  const storeAfter = SqliteUnitStore.bible(dataAfter);
  const before = (await oldLoad.loadEngine(storeBefore, readSettings({ DATA_DIR: dataBefore }), await oldAids.loadRetrievalAids())).engine as SearchEngine;
  const after = (await loadEngine(storeAfter, readSettings({ DATA_DIR: dataAfter }), await loadRetrievalAids({ store: storeAfter }))).engine;
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 0')");
  const insert = db.prepare("INSERT INTO fts (rowid, terms) VALUES (?, ?)");
  db.transaction(() => {
    for (const verse of storeAfter.loadUnits().map(verseOfUnit)) insert.run(verse.id, verse.terms);
  })();
  const select = db.prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10");
  const fts = (text: string) => {
    const match = [...new Set(analyze(text))].map((term) => `"${term}"`).join(" OR ");
    return match === "" ? [] : select.all(match);
  };
  let differing = 0;
  for (const query of queries) {
    const [a, b] = [await before.search(query.query, { k: 10 }), await after.search(query.query, { k: 10 })];
    if (JSON.stringify(a) !== JSON.stringify(b)) differing++;
    fts(query.query);
  }
  const samples = { before: [] as number[], after: [] as number[], fts5: [] as number[] };
  for (let pass = 0; pass < REPEAT; pass++) {
    for (const query of queries) {
      let started = performance.now();
      await before.search(query.query, { k: 10 });
      samples.before.push(performance.now() - started);
      started = performance.now();
      await after.search(query.query, { k: 10 });
      samples.after.push(performance.now() - started);
      started = performance.now();
      fts(query.query);
      samples.fts5.push(performance.now() - started);
    }
  }
  storeBefore.close();
  storeAfter.close();
  db.close();
  const stats = (values: number[]) => ({ p50: round(percentile(values, 50), 2), p95: round(percentile(values, 95), 2) });
  const [b, a, f] = [stats(samples.before), stats(samples.after), stats(samples.fts5)];
  return {
    queries: queries.length,
    samplesEach: samples.after.length,
    responsesDiffering: differing,
    hybridMs: { before: b, after: a },
    fts5Ms: f,
    "p95 hybrid/fts5": { before: round(b.p95 / f.p95, 2), after: round(a.p95 / f.p95, 2) },
  };
}

/** The most verses one generated file holds: what the parser accepts of one file, within the Bible's 66 books of 150 chapters of 50 verses. */
const VERSES_PER_FILE = Math.min(USFX_LIMITS.versesPerFile, BOOKS.length * 150 * 50);

/**
 * A generated corpus of `verses` verses (the Bible's books, its words shuffled), for the replica
 * at scale: as many files (translations, to the index) as the size needs, each at most
 * VERSES_PER_FILE verses, filled book by book.
 */
function generatedCorpus(verses: number): string {
  const words = readFileSync(path.join(ROOT, "corpus/por-blivre.usfx.xml"), "utf8")
    .replace(/<[^>]+>/g, " ")
    .split(/\s+/u)
    .filter((word) => /^\p{L}+$/u.test(word));
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const dir = tempDir("pastor-bench-generated-");
  const perChapter = 50;
  for (let file = 0, left = verses; left > 0; file++) {
    const inFile = Math.min(left, VERSES_PER_FILE);
    const books: Record<string, { name: string; chapters: string[][] }> = {};
    const chaptersPerBook = Math.min(150, Math.ceil(inFile / perChapter / BOOKS.length));
    let fileLeft = inFile;
    for (const book of BOOKS) {
      const chapters: string[][] = [];
      for (let c = 0; c < chaptersPerBook && fileLeft > 0; c++, fileLeft -= perChapter) {
        chapters.push(Array.from({ length: Math.min(perChapter, fileLeft) }, () => Array.from({ length: 12 + Math.floor(next() * 20) }, () => words[Math.floor(next() * words.length)]).join(" ") + "."));
      }
      if (chapters.length > 0) books[book.code] = { name: book.name, chapters };
    }
    writeFile(dir, `generated-${file + 1}.usfx.xml`, makeUsfx(books));
    left -= inFile;
  }
  return dir;
}

async function replicas(beforeDir: string) {
  if (!chromaInstalled()) return { skipped: "ChromaDB não instalado (npm run setup:chroma)" };
  const server = await startChromaServer();
  try {
    const out: Record<string, unknown> = {};
    const sizes: [string, string][] = [["bible", path.join(ROOT, "corpus")]];
    const generated = Number(process.env.BENCH_REPLICA_UNITS ?? "0");
    if (generated > 0) sizes.push([`generated ${generated}`, generatedCorpus(generated)]);
    for (const [name, corpusDir] of sizes) {
      const env = { VECTOR_STORE: "chroma", CHROMA_URL: server.url, CHROMA_COLLECTION_PREFIX: `bench${Date.now().toString(36)}`, CORPUS_DIR: corpusDir, DATA_DIR: tempDir("pastor-bench-replica-") };
      // The indexing replica (this checkout: it saves the snapshot); then replicas starting against the store it filled.
      const indexed = must(timed([path.join(ROOT, "bin/pastor.js"), "index"], env), "pastor index (Chroma)");
      out[name] = { indexMs: round(indexed.ms), ...probes(beforeDir, ROOT, env, env, 2) };
    }
    return out;
  } finally {
    await server.dispose();
  }
}

export async function runFastStartBench(): Promise<Record<string, unknown>> {
  ensureBuilt();
  let beforeDir: string;
  try {
    beforeDir = beforeCheckout(BEFORE);
  } catch (error) {
    return { skipped: `o código de antes (${BEFORE}) não pôde ser montado: ${error instanceof Error ? error.message : String(error)}` };
  }
  const dataBefore = tempDir("pastor-bench-before-");
  const dataAfter = tempDir("pastor-bench-after-");
  const env = (dataDir: string) => ({ DATA_DIR: dataDir, CORPUS_DIR: path.join(ROOT, "corpus") });
  const binBefore = path.join(beforeDir, "bin/pastor.js");
  const binAfter = path.join(ROOT, "bin/pastor.js");
  try {
    const coldBefore = must(timed([binBefore, "index"], env(dataBefore)), "pastor index (antes)");
    const coldAfter = must(timed([binAfter, "index"], env(dataAfter)), "pastor index (depois)");
    const noopBefore = must(timed([binBefore, "index"], env(dataBefore)), "pastor index sem mudanças (antes)");
    const noopAfter = must(timed([binAfter, "index"], env(dataAfter)), "pastor index sem mudanças (depois)");
    const cli = { before: [] as number[], after: [] as number[] };
    for (const question of QUESTIONS) {
      cli.before.push(must(timed([binBefore, "search", question], env(dataBefore)), "pastor search (antes)").ms);
      cli.after.push(must(timed([binAfter, "search", question], env(dataAfter)), "pastor search (depois)").ms);
    }
    const start = probes(beforeDir, ROOT, env(dataBefore), env(dataAfter));
    const search = await latency(beforeDir, dataBefore, dataAfter);
    const replica = await replicas(beforeDir).catch((error: unknown) => ({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) }));
    return {
      before: BEFORE,
      coldBuildMs: side(coldBefore.ms, coldAfter.ms),
      noopReindexMs: side(noopBefore.ms, noopAfter.ms),
      cliSearchWallMs: { questions: QUESTIONS.length, p50: side(median(cli.before), median(cli.after)) },
      engineLoad: start,
      search,
      replicaStart: replica,
    };
  } finally {
    rmSync(dataBefore, { recursive: true, force: true });
    rmSync(dataAfter, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // BENCH_ONLY=replicas: only the replica starts (at 1M generated verses the indexing alone takes an hour).
  const only = process.env.BENCH_ONLY === "replicas";
  if (only) ensureBuilt();
  console.log(JSON.stringify(only ? { before: BEFORE, replicaStart: await replicas(beforeCheckout(BEFORE)) } : await runFastStartBench(), null, 2));
}
