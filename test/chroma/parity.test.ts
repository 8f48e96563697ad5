import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../../src/adapters/index/sqlite-unit-store.js";
import { loadEngine } from "../../src/app/retrieval/load-engine.js";
import { loadRetrievalAids } from "../../src/app/retrieval/retrieval-aids.js";
import { readSettings } from "../../src/config/settings.js";
import type { SearchEngine, SearchMode } from "../../src/core/retrieval/engine.js";
import { parseEvalFile } from "../../src/core/retrieval/eval.js";
import { buildSqliteBibleIndex, openBibleEngine, ROOT } from "../support/bible-index.js";

/**
 * Acceptance: VECTOR_STORE=chroma serves the same top-10 as SQLite for every dev query.
 * The same corpus indexed into each store, both engines loaded from their store, every
 * query of eval/dev.jsonl asked in each mode; the figures go to test-artifacts/.
 */
let sqlite: SearchEngine;
let chroma: Awaited<ReturnType<typeof openBibleEngine>>;
let sqliteDir: string;

beforeAll(async () => {
  const [built, fromChroma] = await Promise.all([buildSqliteBibleIndex(), openBibleEngine()]);
  sqliteDir = built.dataDir;
  chroma = fromChroma;
  const store = SqliteUnitStore.bible(sqliteDir);
  sqlite = (await loadEngine(store, readSettings({ DATA_DIR: sqliteDir }), await loadRetrievalAids())).engine;
  store.close();
}, 300_000);

afterAll(async () => {
  await chroma?.close();
  if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
});

const queries = parseEvalFile(readFileSync(path.join(ROOT, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl");

async function top10(engine: SearchEngine, query: string, mode: SearchMode): Promise<string[]> {
  return (await engine.search(query, { k: 10, mode })).results.map((r) => r.ref);
}

describe("top-10 parity between the SQLite and Chroma stores", () => {
  it("gives identical top-10 lists for every dev query, in every mode", async () => {
    expect(chroma.engine.size).toBe(sqlite.size);
    const figures: Record<string, { queries: number; identical: number; differing: { query: string; sqlite: string[]; chroma: string[] }[] }> = {};
    for (const mode of ["hybrid", "lexical", "dense"] as const) {
      const differing = [];
      for (const { query } of queries) {
        const [a, b] = [await top10(sqlite, query, mode), await top10(chroma.engine, query, mode)];
        if (a.join("|") !== b.join("|")) differing.push({ query, sqlite: a, chroma: b });
      }
      figures[mode] = { queries: queries.length, identical: queries.length - differing.length, differing };
    }
    mkdirSync(path.join(ROOT, "test-artifacts"), { recursive: true });
    writeFileSync(path.join(ROOT, "test-artifacts", "chroma-parity.json"), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`[parity] identical top-10: ${Object.entries(figures).map(([mode, f]) => `${mode} ${f.identical}/${f.queries}`).join(", ")}`);
    for (const mode of Object.keys(figures)) expect(figures[mode]!.differing).toEqual([]);
  });
});
