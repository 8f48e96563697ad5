/**
 * One start of a serving process, measured: a fresh Node process (plain JavaScript) loads the
 * retrieval aids and the Bible's engine from an existing index with the compiled modules of a
 * `dist/` (this checkout's, or the "before" one bench/fast-start.ts builds), answers the dev
 * questions once, and prints JSON: how long the load took, and its RSS right after the load and
 * once the load's garbage is collected. The index comes from the environment (DATA_DIR, or
 * VECTOR_STORE=chroma with CHROMA_URL and CHROMA_COLLECTION_PREFIX: a replica's start).
 *
 *   node --expose-gc bench/start-probe.mjs <dist folder>
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const started = performance.now();
const dist = path.resolve(process.argv[2] ?? "dist");
const root = path.resolve(import.meta.dirname, "..");
const load = (module) => import(pathToFileURL(path.join(dist, module)).href);
const { openStore } = await load("app/runtime.js");
const { loadEngine } = await load("app/retrieval/load-engine.js");
const { loadRetrievalAids } = await load("app/retrieval/retrieval-aids.js");
const { readSettings } = await load("config/settings.js");
const { parseEvalFile } = await load("core/retrieval/eval.js");
const importedMs = performance.now() - started;

const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const settings = readSettings(process.env);
const store = await openStore(settings);
const loadStarted = performance.now();
// The "before" code takes no argument here; this checkout's reads the aids' snapshot from the store.
const aids = await loadRetrievalAids({ store });
const { engine, snapshot } = await loadEngine(store, settings, aids);
const loadMs = performance.now() - loadStarted;
const rssAfterLoadMb = mb();
const queries = parseEvalFile(readFileSync(path.join(root, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");
const firstStarted = performance.now();
await engine.search(queries[0].query, { k: 6 });
const firstSearchMs = performance.now() - firstStarted;
for (const query of queries) await engine.search(query.query, { k: 10 });
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc?.();
console.log(
  JSON.stringify({
    importMs: Math.round(importedMs),
    loadMs: Math.round(loadMs),
    firstSearchMs: Math.round(firstSearchMs),
    rssAfterLoadMb,
    rssSteadyMb: mb(),
    verses: engine.size,
    snapshot: snapshot?.state ?? "none",
  }),
);
await store.close();
