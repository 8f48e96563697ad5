import { copyFileSync, rmSync, unlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadIndexedVerses, loadVerses } from "../src/adapters/index/bible-units.js";
import type { UnitStore } from "../src/adapters/index/store.js";
import { indexCorpus, type IndexOptions } from "../src/app/index/indexer.js";
import { ANALYZER_VERSION } from "../src/core/analysis/index.js";
import { openTestStore } from "./support/store.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

const opened: UnitStore[] = [];
const dirs: string[] = [];

async function setup() {
  const corpusDir = tempDir();
  const dataDir = tempDir();
  dirs.push(corpusDir, dataDir);
  const store = await openTestStore(dataDir);
  opened.push(store);
  const run = (extra: Partial<IndexOptions> = {}) =>
    indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 2, dense: { kind: "none", reason: "teste" }, ...extra });
  return { corpusDir, dataDir, store, run };
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const genesis = makeUsfx({
  GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia."], ["Assim foram acabados os céus."]] },
});
const john = makeUsfx({ JHN: { name: "João", chapters: [["No princípio era a Palavra.", "Ela estava no princípio com Deus."]] } });

describe("indexing the corpus folder", () => {
  it("indexes every USFX file with terms and context windows", async () => {
    const { corpusDir, store, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    writeFile(corpusDir, "b.usfx.xml", john);
    writeFile(corpusDir, "notes.txt", "não é USFX");
    const summary = await run();
    expect(summary.versesTotal).toBe(5);
    expect(summary.sources.map((s) => [s.file, s.action])).toEqual([
      ["a.usfx.xml", "indexed"],
      ["b.usfx.xml", "indexed"],
    ]);
    const verses = await loadVerses(store);
    const gen12 = verses.find((v) => v.book === "GEN" && v.chapter === 1 && v.verse === 2)!;
    expect(gen12.text).toBe("A terra era sem forma e vazia.");
    expect(gen12.contextBefore).toBe("No princípio criou Deus os céus e a terra.");
    expect(gen12.contextAfter).toBe("Assim foram acabados os céus."); // crosses the chapter
    const terms = new Map((await loadIndexedVerses(store)).map((v) => [v.id, v.terms]));
    expect(terms.get(gen12.id)).toBe("terr form vaz");
    expect(await store.getManifest("analyzer_version")).toBe(ANALYZER_VERSION);
  });

  it("costs nothing when nothing changed", async () => {
    const { corpusDir, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    await run();
    const again = await run();
    expect(again.versesIndexed).toBe(0);
    expect(again.sources[0]!.action).toBe("unchanged");
  });

  it("re-indexes a changed file alone and drops a removed file's verses", async () => {
    const { corpusDir, store, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    const b = writeFile(corpusDir, "b.usfx.xml", john);
    await run();
    const idsOfA = (await loadVerses(store)).filter((v) => v.source === "a.usfx.xml").map((v) => v.id);
    writeFile(corpusDir, "b.usfx.xml", john.replace("era a Palavra", "era o Verbo"));
    const changed = await run();
    expect(changed.sources.map((s) => s.action)).toEqual(["unchanged", "indexed"]);
    expect(changed.versesIndexed).toBe(2);
    expect((await loadVerses(store)).filter((v) => v.source === "a.usfx.xml").map((v) => v.id)).toEqual(idsOfA);
    expect((await loadVerses(store)).find((v) => v.book === "JHN")!.text).toBe("No princípio era o Verbo.");

    unlinkSync(b);
    const removed = await run();
    expect(removed.removedSources).toEqual(["b.usfx.xml"]);
    expect((await loadVerses(store)).every((v) => v.source === "a.usfx.xml")).toBe(true);
    expect(await store.unitCount()).toBe(3);
  });

  it("keeps what was indexed when a changed file is broken, and names the file and line", async () => {
    const { corpusDir, store, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    await run();
    writeFile(corpusDir, "a.usfx.xml", genesis.replace("</book>", "</livro>"));
    const summary = await run();
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]!.message).toMatch(/a\.usfx\.xml:\d+:\d+/);
    expect(summary.sources[0]!.action).toBe("failed");
    expect(await store.unitCount()).toBe(3);
    expect((await loadVerses(store))[0]!.text).toBe("No princípio criou Deus os céus e a terra.");
  });

  it("rewrites only the lexical terms when the analyzer changes", async () => {
    const { corpusDir, store, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    await run();
    const ids = (await loadVerses(store)).map((v) => v.id);
    await store.rewriteTerms(() => "stale", 10);
    await store.setManifest("analyzer_version", "old-analyzer");
    const summary = await run();
    expect(summary.termsRewritten).toBe(3);
    expect(summary.versesIndexed).toBe(0);
    expect((await loadVerses(store)).map((v) => v.id)).toEqual(ids);
    expect((await loadIndexedVerses(store)).map((v) => v.terms)).not.toContain("stale");
  });

  it("rewrites context windows when CONTEXT_WINDOW changes, without re-indexing verses", async () => {
    const { corpusDir, store, run } = await setup();
    writeFile(corpusDir, "a.usfx.xml", genesis);
    await run();
    const summary = await run({ contextWindow: 0 });
    expect(summary.versesIndexed).toBe(0);
    expect((await loadVerses(store)).every((v) => v.contextBefore === "" && v.contextAfter === "")).toBe(true);
  });

  it("reads gzipped USFX files too", async () => {
    const { corpusDir, store, run } = await setup();
    copyFileSync(path.resolve("test/fixtures/usfx/spaRV1909_usfx.xml.gz"), path.join(corpusDir, "spaRV1909_usfx.xml.gz"));
    const summary = await run({ batchSize: 4096 });
    expect(summary.sources[0]!.file).toBe("spaRV1909_usfx.xml");
    expect(await store.unitCount()).toBeGreaterThan(31_000);
  });
});
