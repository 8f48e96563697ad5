import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { analyze } from "../src/core/analysis/analyze.js";
import { loadCrossReferences, parseCrossReferences } from "../src/core/bible/cross-references.js";
import { buildContextWindows } from "../src/core/corpus/context.js";
import { loadUsfxFile } from "../src/core/corpus/usfx.js";
import {
  XREF_LSA_DEFAULTS,
  XrefLsaModel,
  collectXrefLinks,
  createXrefLsaEmbedder,
  decodeXrefDocument,
  deserializeXrefLsa,
  encodeXrefDocument,
  encodeXrefDocuments,
  linkNeighbours,
  trainXrefLsa,
  trainXrefLsaFromTerms,
} from "../src/core/embedding/xref-lsa.js";
import type { XrefLink, XrefLsaOptions } from "../src/core/embedding/xref-lsa.js";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}

// ---------------------------------------------------------------------------------------------
// Toy corpus: three verses about fear, of which the first never says "medo"; readers link it
// to the other two. Four more topics share no word with the fear verses.
// ---------------------------------------------------------------------------------------------

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
const TOY_LINKS: XrefLink[] = [
  { from: 0, to: 1, votes: 50 },
  { from: 2, to: 0, votes: 30 },
  { from: 3, to: 4, votes: 10 },
  { from: 9, to: 10, votes: 5 },
];
const TOY_OPTIONS: XrefLsaOptions = { dimensions: 6 };

describe("linkNeighbours", () => {
  it("joins both directions, keeps a pair once with its best vote, orders by votes then index", () => {
    const links: XrefLink[] = [
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

describe("collectXrefLinks", () => {
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
    const links = collectXrefLinks(verses, index);
    expect(links).toEqual([
      { from: 0, to: 3, votes: 40 },
      { from: 0, to: 2, votes: 12 },
      { from: 0, to: 3, votes: 12 },
      { from: 0, to: 4, votes: 12 },
      { from: 5, to: 0, votes: 7 },
    ]);
    expect(collectXrefLinks(verses, index, { maxRangeVerses: 1, minVotes: 10 })).toEqual([
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
    expect(collectXrefLinks(verses, index)).toEqual([
      { from: 0, to: 3, votes: 9 },
      { from: 2, to: 1, votes: 9 },
    ]);
  });
});

describe("encodeXrefDocument / decodeXrefDocument", () => {
  it("round-trips the parts and neutralises separators inside them", () => {
    const text = encodeXrefDocument({ verse: "a\u001db", context: "c d", links: ["e", "f\u001eg h"] });
    expect(decodeXrefDocument(text)).toEqual({ verse: "a b", context: "c d", links: ["e", "f g h"] });
    expect(decodeXrefDocument(encodeXrefDocument({ verse: "só o verso" }))).toEqual({ verse: "só o verso", context: "", links: [] });
    expect(decodeXrefDocument("texto simples")).toBeUndefined();
    // Any other embedder reading the string sees the words.
    expect(analyze(text)).toEqual(analyze("a b c d e f g h"));
  });

  it("encodes a whole verse array with its context windows and linked verses", () => {
    const verses = [
      { text: "um", contextBefore: "", contextAfter: "dois" },
      { text: "dois", contextBefore: "um", contextAfter: "três" },
      { text: "três", contextBefore: "dois", contextAfter: "" },
    ];
    expect(encodeXrefDocuments(verses, [[2], [], [0, 1]])).toEqual([
      encodeXrefDocument({ verse: "um", context: "dois", links: ["três"] }),
      encodeXrefDocument({ verse: "dois", context: "um três", links: [] }),
      encodeXrefDocument({ verse: "três", context: "dois", links: ["um", "dois"] }),
    ]);
  });
});

describe("trainXrefLsa on a toy corpus", () => {
  const model = trainXrefLsa(TOY_VERSES, TOY_LINKS, TOY_OPTIONS);

  it("is deterministic and equals training from analysed terms", () => {
    const again = trainXrefLsa([...TOY_VERSES], [...TOY_LINKS], { ...TOY_OPTIONS });
    expect(again.id).toBe(model.id);
    expect(again.serialize().equals(model.serialize())).toBe(true);
    const fromTerms = trainXrefLsaFromTerms(TOY_VERSES.map((text) => analyze(text)), TOY_LINKS, TOY_OPTIONS);
    expect(fromTerms.serialize().equals(model.serialize())).toBe(true);
  });

  it("changes id with the verses, the links or the options", () => {
    expect(model.id).toMatch(/^xlsa:v1:d6:[0-9a-f]{16}$/);
    expect(trainXrefLsa(TOY_VERSES.slice(1), [], TOY_OPTIONS).id).not.toBe(model.id);
    expect(trainXrefLsa(TOY_VERSES, TOY_LINKS.slice(1), TOY_OPTIONS).id).not.toBe(model.id);
    expect(trainXrefLsa(TOY_VERSES, TOY_LINKS, { ...TOY_OPTIONS, linkWeight: 1 }).id).not.toBe(model.id);
  });

  it("round-trips through serialize/deserialize with identical embeddings", () => {
    const bytes = model.serialize();
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("PXLS");
    const copy = deserializeXrefLsa(new Uint8Array(bytes));
    expect(copy).toBeInstanceOf(XrefLsaModel);
    expect(copy.id).toBe(model.id);
    expect(copy.options).toEqual({ ...XREF_LSA_DEFAULTS, ...TOY_OPTIONS });
    expect(copy.terms).toEqual(model.terms);
    for (const text of ["tenho medo", TOY_VERSES[6] as string]) {
      expect(Array.from(copy.embedText(text))).toEqual(Array.from(model.embedText(text)));
    }
    const parts = { verse: TOY_VERSES[0] as string, context: TOY_VERSES[3], links: [TOY_VERSES[1] as string] };
    expect(Array.from(copy.embedDocument(parts))).toEqual(Array.from(model.embedDocument(parts)));
  });

  it("rejects bytes that are not a model", () => {
    expect(() => XrefLsaModel.deserialize(new Uint8Array([1, 2, 3]))).toThrow(/PXLS/);
    const bytes = model.serialize();
    expect(() => XrefLsaModel.deserialize(new Uint8Array(bytes.subarray(0, bytes.length - 4)))).toThrow(/expected/);
  });

  it("gives unit vectors, or all-zero when no word is known", () => {
    const vector = model.embedText("o pastor e as ovelhas");
    expect(vector).toHaveLength(6);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(norm(model.embedText("xyzzy plugh"))).toBe(0);
    expect(norm(model.embedText(""))).toBe(0);
  });

  it("bridges the asker's word to a linked verse that never uses it", () => {
    const query = model.embedText("tenho medo");
    const documents = TOY_VERSES.map((verse) => model.embedDocument({ verse }));
    const order = Array.from(documents.keys()).sort((a, b) => dot(query, documents[b] as Float32Array) - dot(query, documents[a] as Float32Array));
    expect(order.slice(0, 3).sort()).toEqual([0, 1, 2]);
    // Without the links, "Não temas …" shares nothing with "medo".
    const unlinked = trainXrefLsa(TOY_VERSES, [], TOY_OPTIONS);
    const plain = dot(unlinked.embedText("tenho medo"), unlinked.embedDocument({ verse: TOY_VERSES[0] as string }));
    const linked = dot(query, documents[0] as Float32Array);
    expect(Math.abs(plain)).toBeLessThan(0.1);
    expect(linked).toBeGreaterThan(0.5);
  });

  it("weights document parts by the options", () => {
    const noContext = trainXrefLsa(TOY_VERSES, TOY_LINKS, { ...TOY_OPTIONS, contextWeight: 0 });
    const verse = TOY_VERSES[3] as string;
    expect(Array.from(noContext.embedDocument({ verse, context: TOY_VERSES[6] }))).toEqual(Array.from(noContext.embedDocument({ verse })));
    expect(Array.from(model.embedDocument({ verse, context: TOY_VERSES[6] }))).not.toEqual(Array.from(model.embedDocument({ verse })));
  });

  it("validates options and refuses a corpus with no usable term", () => {
    expect(() => trainXrefLsa(TOY_VERSES, [], { dimensions: 0 })).toThrow(RangeError);
    expect(() => trainXrefLsa(TOY_VERSES, [], { maxDocFreqRatio: 0 })).toThrow(RangeError);
    expect(() => trainXrefLsa(TOY_VERSES, [], { verseWeight: 0 })).toThrow(RangeError);
    expect(() => trainXrefLsa(TOY_VERSES, [], { linkWeight: -1 })).toThrow(RangeError);
    expect(() => trainXrefLsa(TOY_VERSES, [], { linksPerVerse: 1.5 })).toThrow(RangeError);
    expect(() => trainXrefLsa(["pastor", "ovelha"], [])).toThrow(/no term/);
  });

  it("createXrefLsaEmbedder folds in queries and plain strings, and encoded documents by parts", async () => {
    const embedder = createXrefLsaEmbedder(model);
    expect(embedder.id).toBe(model.id);
    expect(embedder.dimensions).toBe(6);
    const parts = { verse: TOY_VERSES[0] as string, context: TOY_VERSES[12], links: [TOY_VERSES[1] as string, TOY_VERSES[2] as string] };
    const [document, plain] = await embedder.embed([encodeXrefDocument(parts), "o rei"], "document");
    expect(Array.from(document as Float32Array)).toEqual(Array.from(model.embedDocument(parts)));
    expect(Array.from(plain as Float32Array)).toEqual(Array.from(model.embedText("o rei")));
    const [query] = await embedder.embed(["tenho medo"], "query");
    expect(Array.from(query as Float32Array)).toEqual(Array.from(model.embedText("tenho medo")));
  });
});

// ---------------------------------------------------------------------------------------------
// The real corpus and the shipped OpenBible.info links
// ---------------------------------------------------------------------------------------------

const CORPUS = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

describe("trainXrefLsa on the real corpus with the shipped cross references", () => {
  let model: XrefLsaModel;
  let keys: string[];
  let vectors: Float32Array[];

  beforeAll(async () => {
    const verses = (await loadUsfxFile(CORPUS)).filter((verse) => verse.text !== "");
    const links = collectXrefLinks(verses, await loadCrossReferences());
    const terms = verses.map((verse) => analyze(verse.text));
    const started = performance.now();
    model = trainXrefLsaFromTerms(terms, links, {}, (stats) => {
      console.log(
        `xref-LSA training on ${stats.documents} verses + ${stats.links} links: ${(stats.totalMs / 1000).toFixed(1)} s ` +
          `(SVD ${(stats.svdMs / 1000).toFixed(1)} s), ${stats.vocabulary} terms, ${stats.nonZeros} non-zeros`,
      );
    });
    const neighbours = linkNeighbours(verses.length, links, model.options.linksPerVerse);
    const windows = buildContextWindows(verses, 2);
    keys = verses.map((verse) => `${verse.book} ${verse.chapter}:${verse.verse}`);
    vectors = windows.map((window, i) =>
      model.embedDocumentTerms({
        verse: terms[i] as string[],
        context: analyze(`${window.contextBefore} ${window.contextAfter}`),
        links: (neighbours[i] ?? []).map((j) => terms[j] as string[]),
      }),
    );
    console.log(`xref-LSA ${model.id}: trained and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 180_000);

  function rankOf(query: string, targets: readonly string[]): number {
    const q = model.embedText(query);
    const scores = vectors.map((v) => dot(q, v));
    const order = Array.from(scores.keys()).sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
    return order.findIndex((index) => targets.includes(keys[index] as string));
  }

  it("has the default shape", () => {
    expect(model.dimensions).toBe(256);
    expect(model.id).toMatch(/^xlsa:v1:d256:[0-9a-f]{16}$/);
    expect(model.terms.length).toBeGreaterThan(5_000);
  });

  it("reaches comfort for fear and for anxiety in the top 20", () => {
    const fear = ["ISA 41:10", "JOS 1:9", "DEU 31:6", "PSA 23:4", "PSA 27:1", "PSA 56:3", "2TI 1:7", "ISA 43:1", "PSA 46:1", "JHN 14:27"];
    expect(rankOf("não tenha medo, Deus está contigo", fear)).toBeLessThan(20);
    const anxiety = ["PHP 4:6", "PHP 4:7", "1PE 5:7", "MAT 6:25", "MAT 6:34", "PSA 55:22", "MAT 6:27"];
    expect(rankOf("ando muito ansioso com tudo", anxiety)).toBeLessThan(20);
  });

  it("keeps a quotation near the top", () => {
    expect(rankOf("amai os vossos inimigos", ["MAT 5:44", "LUK 6:27", "LUK 6:35"])).toBeLessThan(10);
  });
});
