import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { indexCorpus, type IndexOptions, type IndexProgress } from "../src/app/index/indexer.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { readSettings } from "../src/config/settings.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

/**
 * The Bible's dense side through the one updater the collections use (src/app/index/dense.ts):
 * the corpus LSA trained once and reused, retrained when the corpus changes, vectors
 * recomputed when what they embed changes, and an index written with the Bible's manifest keys
 * of before read in the shared ones without retraining.
 */
const CORPUS = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

/** Chapters of the Bíblia Livre as makeUsfx takes them (each book's chapters numbered from 1). */
let chapters: (book: string, ...numbers: number[]) => string[][];
beforeAll(async () => {
  const verses = await loadUsfxFile(CORPUS);
  chapters = (book, ...numbers) => numbers.map((chapter) => verses.filter((v) => v.book === book && v.chapter === chapter).map((v) => v.text));
});

const opened: SqliteUnitStore[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const corpusDir = tempDir();
  const dataDir = tempDir();
  dirs.push(corpusDir, dataDir);
  writeFile(corpusDir, "a.usfx.xml", makeUsfx({ GEN: { name: "Gênesis", chapters: chapters("GEN", 1, 2) }, PSA: { name: "Salmos", chapters: chapters("PSA", 23) }, MAT: { name: "Mateus", chapters: chapters("MAT", 5) } }));
  writeFile(corpusDir, "b.usfx.xml", makeUsfx({ JHN: { name: "João", chapters: chapters("JHN", 3) } }));
  const store = SqliteUnitStore.bible(dataDir);
  opened.push(store);
  const progress: IndexProgress[] = [];
  const run = (extra: Partial<IndexOptions> = {}) => {
    progress.length = 0;
    return indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 40, dense: { kind: "lsa" }, onProgress: (p) => progress.push(p), ...extra });
  };
  const phases = () => [...new Set(progress.map((p) => p.phase))];
  return { corpusDir, dataDir, store, run, phases, progress };
}

const top = async (dataDir: string, store: SqliteUnitStore, query: string) => {
  const { engine, denseOffReason } = await loadEngine(store, readSettings({ DATA_DIR: dataDir }));
  const response = await engine.search(query, { k: 5 });
  return { denseOffReason, mode: response.mode, refs: response.results.map((r) => r.ref) };
};

describe("the Bible's dense side, through the one dense updater", () => {
  it("trains the corpus LSA once, reuses it while nothing changes, and retrains when a file changes", async () => {
    const { corpusDir, store, run, phases, progress } = await setup();
    const first = await run();
    const verses = first.versesTotal;
    expect(first.embedder).toMatch(/^lsa:/);
    expect(first.vectorsComputed).toBe(verses);
    expect(phases()).toContain("training");
    expect(store.getManifest("dense")).toBe("lsa");
    expect(store.getManifest("dense_model")).toBe(first.denseModel);
    expect(store.getManifest("lsa_model")).toBe(first.embedder);

    const again = await run();
    expect(again).toMatchObject({ embedder: first.embedder, denseModel: first.denseModel, vectorsComputed: 0 });
    expect(phases()).not.toContain("training");
    // Every vector already there: the dense phase starts and ends at its total.
    expect(progress.filter((p) => p.phase === "dense")).toEqual([{ phase: "dense", done: verses, total: verses }]);

    writeFile(corpusDir, "b.usfx.xml", makeUsfx({ JHN: { name: "João", chapters: chapters("JHN", 3, 4) } }));
    const changed = await run();
    expect(phases()).toContain("training");
    expect(changed.embedder).not.toBe(first.embedder);
    expect(changed.vectorsComputed).toBe(changed.versesTotal); // a new model: every vector again
    expect(store.vectorCount(first.denseModel!)).toBe(0);
  });

  it("recomputes every vector when CONTEXT_WINDOW changes (a verse's dense document reads its window)", async () => {
    const { store, run } = await setup();
    const first = await run();
    const before = store.loadVectors(first.denseModel!);
    const wider = await run({ contextWindow: 3 });
    expect(wider.vectorsComputed).toBe(wider.versesTotal);
    const after = store.loadVectors(wider.denseModel!);
    expect([...after.keys()].filter((id) => after.get(id)!.some((x, i) => x !== before.get(id)?.[i])).length).toBeGreaterThan(0);
  });

  it("turns the dense side off with EMBEDDING_MODEL=none, and back to LSA reuses the stored model and vectors", async () => {
    const { dataDir, store, run, phases } = await setup();
    const first = await run();
    const off = await run({ dense: { kind: "none", reason: "EMBEDDING_MODEL=none" } });
    expect(off).toMatchObject({ embedder: null, denseModel: null, vectorsComputed: 0 });
    expect(store.getManifest("dense")).toBe("off");
    // Served with EMBEDDING_MODEL=lsa, an index built without vectors says so, and how to fix it.
    const served = await top(dataDir, store, "o Senhor é o meu pastor");
    expect(served.mode).toBe("lexical");
    expect(served.denseOffReason).toMatch(/não foi calculado para o EMBEDDING_MODEL atual \(rode a indexação\)/);
    const back = await run();
    expect(back).toMatchObject({ embedder: first.embedder, vectorsComputed: 0 });
    expect(phases()).not.toContain("training");
  });

  it("serves an index written with the Bible's keys of before, and its next indexing says them in the shared keys without retraining", async () => {
    const { dataDir, store, run, phases } = await setup();
    const first = await run();
    const query = "Deus amou o mundo e deu o seu Filho";
    const expected = await top(dataDir, store, query);
    expect(expected.mode).toBe("hybrid");

    // The manifest and model key the Bible's indexer wrote before the shared dense updater.
    const fingerprint = store.getManifest("lsa_fingerprint")!;
    store.saveModel(`lsa-for:${fingerprint}`, store.loadModel(first.embedder!)!);
    store.db.prepare("DELETE FROM manifest WHERE key IN ('dense', 'dense_model', 'dense_off_reason', 'lsa_fingerprint', 'lsa_model', 'lsa_off_reason')").run();
    store.setManifest("corpus_fingerprint", fingerprint);
    store.setManifest("embedder", first.embedder!);

    expect(await top(dataDir, store, query)).toEqual(expected);
    const next = await run();
    expect(next).toMatchObject({ embedder: first.embedder, denseModel: first.denseModel, vectorsComputed: 0 });
    expect(phases()).not.toContain("training");
    expect(store.getManifest("dense")).toBe("lsa");
    expect(store.getManifest("lsa_model")).toBe(`lsa-for:${fingerprint}`);
    expect(store.getManifest("corpus_fingerprint")).toBe("");
    expect(await top(dataDir, store, query)).toEqual(expected);
  });
});
