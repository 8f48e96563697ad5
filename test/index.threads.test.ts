/**
 * A cold build on both cores (issue 45): the LSA's SVD on a worker thread, the Bible's documents
 * folded in from column lists, the digest from ranked terms, the snapshot's lexical part made
 * while the model trains. Each gives what the one-thread path gave, to the bit.
 */
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { loadVerses } from "../src/adapters/index/bible-units.js";
import { loadCrossReferences } from "../src/adapters/sources/cross-references-file.js";
import { BIBLE_DENSE_SERVING, joinWindow } from "../src/app/index/bible-dense.js";
import { svdOnWorker } from "../src/app/index/svd-thread.js";
import { ENGINE_SNAPSHOT, prepareEngineSnapshot, saveEngineSnapshot } from "../src/app/retrieval/engine-snapshot.js";
import { randomizedSvd, SeededRandom, type CsrMatrix } from "../src/core/index/linalg.js";
import { LSA_KERNEL } from "../src/core/index/lsa-kernel.js";
import { deserializeLsa, lsaTerms, trainLsaFromBags, trainLsaFromBagsWith, weightedBag, type TermBag } from "../src/core/index/lsa.js";
import { collectVerseLinks, documentBag, LINKED_DOCUMENT_WEIGHTS, linkNeighbours } from "../src/core/index/linked-documents.js";
import { realBibleIndex } from "./support/bible-index.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";
import { indexCorpus } from "../src/app/index/indexer.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A random sparse matrix (about `density` of its entries set). */
function randomCsr(rows: number, cols: number, density: number, seed: number): CsrMatrix {
  const random = new SeededRandom(seed);
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (random.next() < density) {
        indices.push(c);
        values.push(random.next());
      }
    }
    indptr[r + 1] = indices.length;
  }
  return { rows, cols, indptr, indices: Int32Array.from(indices), values: Float64Array.from(values) };
}

const WORDS = ["pastor", "ovelha", "rebanho", "luz", "trevas", "vida", "amor", "graça", "fé", "medo", "paz", "rio", "jardim", "rei", "reino"];

/** Sixty small weighted bags over fifteen words (fixed: their model's id is pinned below). */
function smallBags(): TermBag[] {
  return Array.from({ length: 60 }, (_, i) =>
    weightedBag([
      { terms: [WORDS[i % 15]!, WORDS[(i * 7) % 15]!, WORDS[(i * 3 + 1) % 15]!], weight: 2 },
      { terms: [WORDS[(i + 5) % 15]!, WORDS[(i * 11) % 15]!], weight: 0.5 },
    ]),
  );
}

describe("the LSA's SVD on a worker thread", () => {
  it("is the SVD this thread computes, to the bit", async () => {
    const matrix = randomCsr(300, 120, 0.05, 7);
    const options = { oversample: 8, powerIterations: 2, seed: 0x5eed };
    const here = randomizedSvd(matrix, 20, options);
    const there = await svdOnWorker(matrix, 20, options);
    expect(there.rank).toBe(20);
    expect(Buffer.from(there.singularValues.buffer).equals(Buffer.from(here.singularValues.buffer))).toBe(true);
    expect(Buffer.from(there.rightVectors.buffer).equals(Buffer.from(here.rightVectors.buffer))).toBe(true);
  });

  it("trains the model the one-thread path trains: the same id (its digest as before) and the same bytes", async () => {
    const bags = smallBags();
    const alone = trainLsaFromBags(bags, { dimensions: 6 });
    const shared = await trainLsaFromBagsWith(bags, { dimensions: 6 }, svdOnWorker);
    // The id the code before the ranked digest gave these bags.
    expect(alone.id).toBe("lsa:v1:d6:bcf57dc63c8adbbe");
    expect(shared.id).toBe(alone.id);
    expect(shared.serialize().equals(alone.serialize())).toBe(true);
  });
});

describe("folding in from column lists", () => {
  it.each(["auto", "js"] as const)("gives embedBags' vectors of the same weighted parts, to the bit (%s loops)", (kernel) => {
    const before = LSA_KERNEL.use;
    LSA_KERNEL.use = kernel;
    try {
      const model = trainLsaFromBags(smallBags(), { dimensions: 6 });
      const documents = Array.from({ length: 40 }, (_, i) => [
        { terms: [WORDS[i % 15]!, "desconhecida", WORDS[(i * 2) % 15]!], weight: 2 },
        { terms: [WORDS[(i + 4) % 15]!, WORDS[i % 15]!, WORDS[(i * 5) % 15]!], weight: 0.5 },
        { terms: [], weight: 0.25 },
        { terms: [WORDS[(i * 13) % 15]!], weight: 0.25 },
      ]);
      const fromBags = model.embedBags(documents.map((parts) => weightedBag(parts)));
      const fromColumns = model.embedColumnBags(documents.map((parts) => parts.map(({ terms, weight }) => ({ columns: model.columnsOf(terms), weight }))));
      expect(fromColumns.map((v) => Buffer.from(v.buffer).toString("hex"))).toEqual(fromBags.map((v) => Buffer.from(v.buffer).toString("hex")));
    } finally {
      LSA_KERNEL.use = before;
    }
  });
});

describe("the real Bible index, built on both cores", () => {
  it("stores for each verse the fold-in of its verse, its window's text and its links, to the bit", async () => {
    const store = SqliteUnitStore.bible((await realBibleIndex()).dataDir);
    try {
      const modelKey = (await store.getManifest("lsa_model"))!;
      const model = deserializeLsa((await store.loadModel(modelKey))!);
      const vectors = await store.loadVectors(BIBLE_DENSE_SERVING.vectorKey(model.id));
      const verses = (await loadVerses(store)).filter((verse) => verse.text !== "");
      const terms = verses.map((verse) => lsaTerms(verse.text, model.wordTerms));
      const neighbours = linkNeighbours(verses.length, collectVerseLinks(verses, await loadCrossReferences()), LINKED_DOCUMENT_WEIGHTS.linksPerVerse);
      // Every 97th verse, and the first and last verses of the books (windows cut short).
      const sample = verses.flatMap((verse, i) => (i % 97 === 0 || verses[i - 1]?.book !== verse.book || verses[i + 1]?.book !== verse.book ? [i] : []));
      expect(sample.length).toBeGreaterThan(400);
      for (const i of sample) {
        const verse = verses[i]!;
        const bag = documentBag({
          verse: terms[i]!,
          context: lsaTerms(joinWindow(verse.contextBefore, "", verse.contextAfter), model.wordTerms),
          links: neighbours[i]!.map((j) => terms[j]!),
        });
        const expected = model.embedBags([bag])[0]!;
        expect(Buffer.from(vectors.get(verse.id)!.buffer).equals(Buffer.from(expected.buffer)), `${verse.book} ${verse.chapter}:${verse.verse}`).toBe(true);
      }
    } finally {
      store.close();
    }
  });
});

describe("the engine snapshot's lexical part made ahead", () => {
  it("gives the bytes of a snapshot made at once, and is not used once the verses changed", async () => {
    const corpusDir = tempDir("pastor-threads-corpus-");
    const dataDir = tempDir("pastor-threads-data-");
    dirs.push(corpusDir, dataDir);
    const books = (last: string) => ({
      GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia.", last]] },
      JHN: { name: "João", chapters: [["No princípio era o Verbo.", "Nele estava a vida, e a vida era a luz dos homens.", "A luz resplandece nas trevas."]] },
    });
    writeFile(corpusDir, "a.usfx.xml", makeUsfx(books("Disse Deus: haja luz; e houve luz.")));
    const store = SqliteUnitStore.bible(dataDir);
    const index = () => indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 64, dense: { kind: "lsa" } });
    const stored = async () => (await store.loadSnapshot(ENGINE_SNAPSHOT)) as { key: string; data: Buffer };
    try {
      await index();
      await saveEngineSnapshot(store);
      const atOnce = await stored();
      await saveEngineSnapshot(store, await prepareEngineSnapshot(store));
      const ahead = await stored();
      expect(ahead.key).toBe(atOnce.key);
      expect(ahead.data.equals(atOnce.data)).toBe(true);

      // Prepared, then the verses change: the snapshot saved is the new verses', as one made at once.
      const prepared = await prepareEngineSnapshot(store);
      writeFile(corpusDir, "a.usfx.xml", makeUsfx(books("E viu Deus que a luz era boa.")));
      await index();
      await saveEngineSnapshot(store, prepared);
      const late = await stored();
      await saveEngineSnapshot(store);
      const fresh = await stored();
      expect(late.key).not.toBe(atOnce.key);
      expect(late.data.equals(fresh.data)).toBe(true);
      expect(late.data.includes(Buffer.from("E viu Deus que a luz era boa."))).toBe(true);
    } finally {
      store.close();
    }
  });
});
