/**
 * Memory of a serving process: a fresh Node process (plain JavaScript, no TypeScript loader)
 * loads the engine from an existing index (DATA_DIR) with the compiled modules of `dist/` —
 * what `pastor serve` runs; `npm install` builds them — answers the dev queries once, and
 * prints its RSS as JSON: right after the load, and once the garbage of the load (the vectors
 * read from SQLite before they are packed into the search kernel) is collected. Run by
 * bench/retrieval.ts as `node --expose-gc bench/serve-rss.mjs`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const load = (module) => import(pathToFileURL(path.join(root, "dist", module)).href);
const { SqliteUnitStore } = await load("adapters/index/sqlite-unit-store.js");
const { loadEngine } = await load("app/retrieval/load-engine.js");
const { loadRetrievalAids } = await load("app/retrieval/retrieval-aids.js");
const { readSettings } = await load("config/settings.js");
const { parseEvalFile } = await load("core/retrieval/eval.js");

const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const settings = readSettings({ DATA_DIR: process.env.DATA_DIR ?? "./data" });
const store = SqliteUnitStore.bible(settings.DATA_DIR);
const { engine } = await loadEngine(store, settings, await loadRetrievalAids({ store }));
const rssAfterLoadMb = mb();
const queries = parseEvalFile(readFileSync(path.join(root, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");
for (const query of queries) await engine.search(query.query, { k: 10 });
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc?.();
console.log(JSON.stringify({ rssAfterLoadMb, rssSteadyMb: mb(), verses: engine.size }));
store.close();
