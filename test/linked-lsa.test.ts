import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { analyze } from "../src/core/analysis/analyze.js";
import { loadCrossReferences } from "../src/adapters/sources/cross-references-file.js";
import { parseCrossReferences } from "../src/core/bible/cross-references.js";
import { buildContextWindows } from "../src/core/sources/context.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { LsaModel, trainLsaFromBags, type TermBag } from "../src/core/index/lsa.js";
import {
  LINKED_DOCUMENT_WEIGHTS,
  collectVerseLinks,
  documentBag,
  linkNeighbours,
  trainingBags,
  type VerseLink,
} from "../src/core/index/linked-documents.js";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

describe("linkNeighbours", () => {
  it("joins both directions, keeps a pair once with its best vote, orders by votes then index", () => {
    const links: VerseLink[] = [
      { from: 0, to: 2, votes: 5 },
      { from: 2, to: 0, votes: 9 },
      { from: 0, to: 1, votes: 9 },
      { from: 3, to: 0, votes: 20 },
      { from: 0, to: 0, votes: 100 },
      { from: 1, to: 3, votes: 0 },
      { from: 1, to: 2, votes: -4 },
    ];
    expect(linkNeighbours(4, links, 10)).toEqual([[3, 1, 2], [0], [0], [0]]);
    expect(linkNeighbours(4, links, 2)[0]).toEqual([3, 1]);
    expect(linkNeighbours(4, links, 0)).toEqual([[], [], [], []]);
  });

  it("refuses indices outside the verse array", () => {
    expect(() => linkNeighbours(2, [{ from: 0, to: 2, votes: 1 }], 3)).toThrow(RangeError);
    expect(() => linkNeighbours(2, [{ from: -1, to: 1, votes: 1 }], 3)).toThrow(RangeError);
  });
});

describe("collectVerseLinks", () => {
  it("maps OpenBible links to verse indices, expanding short ranges and skipping absent verses", () => {
    const index = parseCrossReferences(
      "GEN 1:1\tJHN 1:1-4\t12\nGEN 1:1\tJHN 1:2\t40\nGEN 1:2\tPSA 1:1\t3\nJHN 1:3\tGEN 1:1\t0\nJHN 1:4\tGEN 1:1-2:3\t7\n",
      { minVotes: 0 },
    );
    const verses = [
      { book: "GEN", chapter: 1, verse: 1 },
      { book: "GEN", chapter: 1, verse: 2 },
      { book: "JHN", chapter: 1, verse: 1 },
      { book: "JHN", chapter: 1, verse: 2 },
      { book: "JHN", chapter: 1, verse: 3 },
      { book: "JHN", chapter: 1, verse: 4 },
    ];
    expect(collectVerseLinks(verses, index)).toEqual([
      { from: 0, to: 3, votes: 40 },
      { from: 0, to: 2, votes: 12 },
      { from: 0, to: 3, votes: 12 },
      { from: 0, to: 4, votes: 12 },
      { from: 5, to: 0, votes: 7 },
    ]);
    expect(collectVerseLinks(verses, index, { maxRangeVerses: 1, minVotes: 10 })).toEqual([
      { from: 0, to: 3, votes: 40 },
      { from: 0, to: 2, votes: 12 },
    ]);
  });

  it("keeps each translation's links inside it", () => {
    const index = parseCrossReferences("GEN 1:1\tJHN 1:1\t9\n");
    const verses = [
      { source: "a.xml", book: "GEN", chapter: 1, verse: 1 },
      { source: "b.xml", book: "JHN", chapter: 1, verse: 1 },
      { source: "b.xml", book: "GEN", chapter: 1, verse: 1 },
      { source: "a.xml", book: "JHN", chapter: 1, verse: 1 },
    ];
    expect(collectVerseLinks(verses, index)).toEqual([
      { from: 0, to: 3, votes: 9 },
      { from: 2, to: 1, votes: 9 },
    ]);
  });
});

// A toy corpus: three verses about fear, of which the first never says "medo"; readers link it
// to the other two. The other topics share no word with the fear verses.
const TOY_VERSES = [
  "Não temas, porque eu sou teu Deus; eu te fortaleço e te ajudo.",
  "Esforçai-vos e tende ânimo; não tenhais medo deles.",
  "Pois o Espírito não nos deu medo, mas poder e amor.",
  "O pastor apascenta as ovelhas no campo verde.",
  "As ovelhas ouvem a voz do pastor e o seguem.",
  "O pastor busca a ovelha perdida no deserto.",
  "O rei edificou uma casa de cedro em Jerusalém.",
  "O rei reinou quarenta anos em Jerusalém.",
  "Os reis da terra trouxeram ouro para a casa do rei.",
  "Comeram o pão e beberam o vinho à mesa.",
  "Ele partiu o pão e deu o vinho aos discípulos.",
  "O vinho alegra o coração e o pão sustenta.",
  "Os peixes do mar nadam nas águas profundas.",
  "Lançaram as redes ao mar e apanharam peixes.",
];
const TOY_LINKS: VerseLink[] = [
  { from: 0, to: 1, votes: 50 },
  { from: 2, to: 0, votes: 30 },
  { from: 3, to: 4, votes: 10 },
  { from: 9, to: 10, votes: 5 },
];

describe("linked bags and LSA on a toy corpus", () => {
  const terms = TOY_VERSES.map((verse) => analyze(verse));
  const neighbours = linkNeighbours(terms.length, TOY_LINKS, LINKED_DOCUMENT_WEIGHTS.linksPerVerse);
  const indexed = (model: LsaModel, links: readonly (readonly number[])[]) =>
    terms.map((verse, i) => model.embedBag(documentBag({ verse, context: [], links: (links[i] ?? []).map((j) => terms[j]!) })));

  it("weighs a verse's own words, its links and its context as the weights say", () => {
    const bag = trainingBags(terms, neighbours)[0]!;
    for (const term of terms[0]!) expect(bag.get(term)).toBeGreaterThanOrEqual(LINKED_DOCUMENT_WEIGHTS.trainingVerse);
    expect(bag.get(analyze("medo")[0]!)).toBe(2 * LINKED_DOCUMENT_WEIGHTS.trainingLink);
    const document = documentBag({ verse: ["a"], context: ["b", "b"], links: [["c"], ["c", "d"]] });
    expect(Object.fromEntries(document)).toEqual({ a: 2, b: 1, c: 0.5, d: 0.25 });
    expect(Object.fromEntries(documentBag({ verse: ["a"], context: ["b"], links: [] }, { ...LINKED_DOCUMENT_WEIGHTS, documentContext: 0 }))).toEqual({ a: 2 });
  });

  it("bridges the asker's word to a linked verse that never uses it", () => {
    const model = trainLsaFromBags(trainingBags(terms, neighbours), { dimensions: 6 });
    const query = model.embedText("tenho medo");
    const documents = indexed(model, neighbours);
    const order = [...documents.keys()].sort((a, b) => dot(query, documents[b]!) - dot(query, documents[a]!) || a - b);
    expect(order.slice(0, 3).sort()).toEqual([0, 1, 2]);
    // Without the links, "Não temas …" shares nothing with "medo".
    const plain = trainLsaFromBags(trainingBags(terms, terms.map(() => [])), { dimensions: 6 });
    const unlinked = dot(plain.embedText("tenho medo"), plain.embedBag(documentBag({ verse: terms[0]!, context: [], links: [] })));
    expect(Math.abs(unlinked)).toBeLessThan(0.1);
    expect(dot(query, documents[0]!)).toBeGreaterThan(0.5);
  });

  it("is deterministic, and the id changes with the bags", () => {
    const a = trainLsaFromBags(trainingBags(terms, neighbours), { dimensions: 6 });
    const b = trainLsaFromBags(trainingBags(terms, neighbours), { dimensions: 6 });
    expect(a.id).toBe(b.id);
    expect(Array.from(a.embedText("o pastor"))).toEqual(Array.from(b.embedText("o pastor")));
    const other = trainLsaFromBags(trainingBags(terms, terms.map(() => [])), { dimensions: 6 });
    expect(other.id).not.toBe(a.id);
    const bags: TermBag[] = trainingBags(terms, neighbours);
    expect(LsaModel.deserialize(a.serialize()).embedBag(bags[3]!)).toEqual(a.embedBag(bags[3]!));
  });
});

describe("linked LSA on the real corpus with the shipped cross references", () => {
  let model: LsaModel;
  let keys: string[];
  let vectors: Float32Array[];

  beforeAll(async () => {
    const verses = (await loadUsfxFile(fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url)))).filter((v) => v.text !== "");
    const links = collectVerseLinks(verses, await loadCrossReferences());
    const terms = verses.map((verse) => analyze(verse.text));
    const neighbours = linkNeighbours(verses.length, links, LINKED_DOCUMENT_WEIGHTS.linksPerVerse);
    const started = performance.now();
    model = trainLsaFromBags(trainingBags(terms, neighbours));
    const windows = buildContextWindows(verses, 2);
    keys = verses.map((verse) => `${verse.book} ${verse.chapter}:${verse.verse}`);
    vectors = windows.map((window, i) =>
      model.embedBag(
        documentBag({
          verse: terms[i]!,
          context: analyze(`${window.contextBefore} ${window.contextAfter}`),
          links: neighbours[i]!.map((j) => terms[j]!),
        }),
      ),
    );
    console.log(`linked LSA ${model.id}: trained and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 240_000);

  function rankOf(query: string, targets: readonly string[]): number {
    const q = model.embedText(query);
    const scores = vectors.map((v) => dot(q, v));
    const order = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b);
    return order.findIndex((index) => targets.includes(keys[index]!));
  }

  it("reaches comfort for fear and for anxiety in the top 20 (words the verses do not use)", () => {
    const fear = ["ISA 41:10", "JOS 1:9", "DEU 31:6", "PSA 23:4", "PSA 27:1", "PSA 56:3", "2TI 1:7", "ISA 43:1", "PSA 46:1", "JHN 14:27"];
    expect(rankOf("não tenha medo, Deus está contigo", fear)).toBeLessThan(20);
    const anxiety = ["PHP 4:6", "PHP 4:7", "1PE 5:7", "MAT 6:25", "MAT 6:34", "PSA 55:22", "MAT 6:27"];
    expect(rankOf("ando muito ansioso com tudo", anxiety)).toBeLessThan(20);
  });

  it("keeps a quotation near the top", () => {
    expect(rankOf("amai os vossos inimigos", ["MAT 5:44", "LUK 6:27", "LUK 6:35"])).toBeLessThan(10);
  });
});
