/**
 * Search over a document collection: lexical silos per discipline merged by rank, dense side
 * and hybrid fusion with the lexical-only quota, degraded modes, the metadata block in chunk 0.
 * Chunks are built with the production pipeline (splitMetaBlock → chunkDocument → analyze).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyze, foldAccents, splitWords } from "../src/core/analysis/index.js";
import type { EmbedKind, Embedder } from "../src/core/index/embedder.js";
import { chunkDocument, type ChunkOptions } from "../src/core/sources/chunker.js";
import { formatDocumentCitation } from "../src/core/documents/citation.js";
import { splitMetaBlock } from "../src/core/sources/meta-block.js";
import {
  DEFAULT_DOCUMENT_SEARCH_SETTINGS,
  DocumentSearch,
  type DocumentSearchSettings,
} from "../src/core/retrieval/document-search.js";
import type { IndexedChunk } from "../src/core/documents/types.js";
import { Bm25Index } from "../src/core/retrieval/bm25.js";

const COLLECTION = "curso";
const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
const END = "====== FIM DOS METADADOS ======";

interface LessonSpec {
  discipline: string;
  slug: string;
  content: string;
  title?: string;
}

/** A document's chunks as the search core holds them, built like the indexer does. */
function indexDocument(spec: LessonSpec, options: ChunkOptions = { chunkWords: 500, overlap: 50 }): IndexedChunk[] {
  const split = splitMetaBlock(spec.content);
  const sourceId = `${spec.discipline}/${spec.slug}.md`;
  return chunkDocument({ sourceId, slug: spec.slug, title: spec.title ?? spec.slug, split }, options).map((chunk) => {
    const indexed: IndexedChunk = {
      ...chunk,
      collection: COLLECTION,
      discipline: spec.discipline,
      slug: spec.slug,
      terms: analyze(chunk.text),
    };
    if (split.metaText !== undefined) indexed.metaText = split.metaText;
    return indexed;
  });
}

function collection(specs: readonly LessonSpec[]): IndexedChunk[] {
  return specs.flatMap((spec) => indexDocument(spec));
}

/** Term of a word, as the analyser sees it. */
function term(word: string): string {
  const [analysed] = analyze(word);
  if (analysed === undefined) throw new Error(`"${word}" has no term`);
  return analysed;
}

/**
 * Test double of the Embedder interface: each text maps to a fixed small vector (normalised);
 * unknown texts embed to zero. Counts its calls.
 */
class TableEmbedder implements Embedder {
  readonly id = "test-table";
  calls = 0;
  readonly kinds: EmbedKind[] = [];
  constructor(
    readonly dimensions: number,
    private readonly table: ReadonlyMap<string, readonly number[]>,
  ) {}

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    this.calls++;
    this.kinds.push(kind);
    return texts.map((text) => unit(this.table.get(text) ?? new Array<number>(this.dimensions).fill(0)));
  }
}

function unit(values: readonly number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => (norm === 0 ? 0 : v / norm));
}

/** Row i = the unit vector of chunk i (keyed by slug here: one chunk per fixture document). */
function matrixOf(chunks: readonly IndexedChunk[], vectors: Record<string, readonly number[]>, dims: number): Float32Array {
  const matrix = new Float32Array(chunks.length * dims);
  chunks.forEach((chunk, row) => matrix.set(unit(vectors[chunk.slug] ?? new Array<number>(dims).fill(0)), row * dims));
  return matrix;
}

function settings(overrides: Partial<DocumentSearchSettings>): DocumentSearchSettings {
  return { ...DEFAULT_DOCUMENT_SEARCH_SETTINGS, ...overrides };
}

/**
 * "Teologia": every lesson says "graça", three times. "História": one lesson in five says it,
 * once. Teologia's lessons come first in the collection.
 */
function siloFixture(): IndexedChunk[] {
  const teologia = Array.from({ length: 5 }, (_, i) => ({
    discipline: "teologia",
    slug: `teo-${i}`,
    content: `A graça salva. A graça sustenta. A graça ensina a doutrina ${["da fé", "da esperança", "do amor", "da igreja", "do reino"][i]}.`,
  }));
  const historia = [
    { discipline: "historia", slug: "his-0", content: "Os concílios e a graça segundo Agostinho contra Pelágio, em longos debates sobre liberdade." },
    { discipline: "historia", slug: "his-1", content: "A reforma protestante na Alemanha e as noventa e cinco teses." },
    { discipline: "historia", slug: "his-2", content: "Os pais apostólicos e as primeiras comunidades cristãs." },
    { discipline: "historia", slug: "his-3", content: "O império romano e as perseguições aos cristãos." },
    { discipline: "historia", slug: "his-4", content: "Os mosteiros medievais e a cópia das escrituras." },
  ];
  return collection([...teologia, ...historia]);
}

describe("DocumentSearch: lexical silos", () => {
  it("scores a term higher where it is rare, and keeps the rare discipline's chunk from drowning", async () => {
    const chunks = siloFixture();
    const search = new DocumentSearch(COLLECTION, chunks, undefined);
    const all = await search.search("graça", { k: 2, mode: "lexical" });
    const hist = all.results.find((hit) => hit.discipline === "historia");
    const teo = all.results.find((hit) => hit.discipline === "teologia");
    expect(hist?.slug).toBe("his-0");
    expect(teo).toBeDefined();
    // Same term, its own silo's IDF: rare in história, everywhere in teologia.
    expect(hist!.lexicalScore!).toBeGreaterThan(teo!.lexicalScore! * 3);

    // One index for the whole collection would have buried the história chunk under teologia's.
    const global = new Bm25Index(chunks.map((chunk) => chunk.terms));
    const globalTop = global.search([{ term: term("graça"), weight: 1 }], 2).map((hit) => chunks[hit.doc]!.discipline);
    expect(globalTop).toEqual(["teologia", "teologia"]);
  });

  it("merges silo rankings by rank, not by raw score, ties going to the earlier chunk", async () => {
    const search = new DocumentSearch(COLLECTION, siloFixture(), undefined);
    const { results } = await search.search("graça", { k: 3, mode: "lexical" });
    // Rank 1 of each silo first (teologia's chunks come first in the collection), then rank 2.
    expect(results.map((hit) => hit.discipline)).toEqual(["teologia", "historia", "teologia"]);
    expect(results[0]!.lexicalScore!).toBeLessThan(results[1]!.lexicalScore!);
    expect(results.map((hit) => hit.rank)).toEqual([1, 2, 3]);
  });

  it("searches only the given discipline", async () => {
    const search = new DocumentSearch(COLLECTION, siloFixture(), undefined);
    const { results } = await search.search("graça", { k: 10, mode: "lexical", discipline: "historia" });
    expect(results.map((hit) => hit.slug)).toEqual(["his-0"]);
    const loose = await search.search("graça", { k: 10, mode: "lexical", discipline: "História" });
    expect(loose.results.map((hit) => hit.slug)).toEqual(["his-0"]);
  });

  it("answers an unknown discipline with no results and a notice naming it", async () => {
    const search = new DocumentSearch(COLLECTION, siloFixture(), undefined);
    const response = await search.search("graça", { mode: "lexical", discipline: "liturgia" });
    expect(response.results).toEqual([]);
    expect(response.notices).toHaveLength(1);
    expect(response.notices[0]).toContain('Disciplina "liturgia" não encontrada na coleção "curso"');
    expect(response.notices[0]).toContain("historia, teologia");
  });

  it("lists disciplines sorted, its size and chunks by coordinate", () => {
    const chunks = siloFixture();
    const search = new DocumentSearch(COLLECTION, chunks, undefined);
    expect(search.disciplines()).toEqual(["historia", "teologia"]);
    expect(search.size).toBe(10);
    expect(search.chunkAt("historia/his-2.md", 0)).toBe(chunks[7]);
    expect(search.chunkAt("historia/his-2.md", 1)).toBeUndefined();
  });
});

/** The sample collection shipped in collections/exemplo, as lesson specs (discipline = sub-folder, "geral" at the top). */
function sampleCollection(): LessonSpec[] {
  const root = path.join(import.meta.dirname, "..", "collections", "exemplo");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => ({
      discipline: path.dirname(file) === "." ? "geral" : path.dirname(file),
      slug: path.basename(file, ".md"),
      content: readFileSync(path.join(root, file), "utf8"),
    }));
}

describe("DocumentSearch: words typed without accents", () => {
  it("finds, for every accented word of the sample collection, what the word with its accents finds", async () => {
    const chunks = collection(sampleCollection());
    const search = new DocumentSearch(COLLECTION, chunks, undefined);
    const words = [...new Set(chunks.flatMap((chunk) => splitWords(chunk.text)))].filter((word) => foldAccents(word) !== word);
    // The words Snowball stems apart once the accents are gone ("interpretação" / "interpretacao").
    const apart = words.filter((word) => analyze(word).join(" ") !== analyze(foldAccents(word)).join(" "));
    expect(apart.length).toBeGreaterThanOrEqual(10);
    const different: string[] = [];
    for (const word of apart) {
      const slugs = async (query: string) => (await search.search(query, { k: 5, mode: "lexical" })).results.map((hit) => `${hit.slug}#${hit.chunk}`);
      const accented = await slugs(word);
      expect(accented.length).toBeGreaterThan(0);
      if ((await slugs(foldAccents(word))).join() !== accented.join()) different.push(word);
    }
    expect(different).toEqual([]);
    // The out-of-scope gate reads the question the same way.
    expect(search.vocabulary().analyze("interpretacao").map((token) => token.term)).toEqual(analyze("interpretação"));
  });
});

describe("DocumentSearch: lexical hits", () => {
  it("runs the Bible's lexical side in each silo: plain BM25 by default, the phrase signal when its settings turn it on", async () => {
    const chunks = collection([
      { discipline: "teologia", slug: "deserto", content: "No deserto a vida pedia pão; pão e vida dependiam do maná, e a vida seguia." },
      { discipline: "teologia", slug: "discurso", content: "Jesus disse em Cafarnaum: eu sou o pão da vida, quem vem a mim não terá fome." },
      { discipline: "teologia", slug: "outra", content: "A oração da manhã e a leitura dos salmos." },
    ]);
    const plain = await new DocumentSearch(COLLECTION, chunks, undefined).search("pão da vida", { k: 2, mode: "lexical" });
    expect(plain.results.map((hit) => hit.slug)).toEqual(["deserto", "discurso"]);
    // The Bible's phrase weight: the chunk that says "pão da vida" in that order goes first.
    const phrased = new DocumentSearch(COLLECTION, chunks, undefined, {}, settings({ phraseWeight: 0.5 }));
    const { results } = await phrased.search("pão da vida", { k: 2, mode: "lexical" });
    expect(results.map((hit) => hit.slug)).toEqual(["discurso", "deserto"]);
    expect(results[0]!.lexicalScore!).toBeGreaterThan(plain.results[1]!.lexicalScore!);
  });

  it("gives the gate the whole collection's vocabulary, every silo counted", () => {
    const search = new DocumentSearch(COLLECTION, siloFixture(), undefined);
    const vocabulary = search.vocabulary();
    expect(vocabulary.documentCount).toBe(10);
    expect(vocabulary.termFrequency(term("graça"))).toBe(6); // five in teologia, one in historia
    expect(vocabulary.wordFrequency("graca")).toBe(6);
    expect(vocabulary.termFrequency(term("concílios"))).toBe(1);
    expect(vocabulary.wordsOfTerm(term("graça"))).toEqual(["graca"]);
  });

  it("lists in matchedTerms only the query terms found in the chunk, in query order", async () => {
    const search = new DocumentSearch(
      COLLECTION,
      collection([
        { discipline: "teologia", slug: "a", content: "O perdão das ofensas e a graça de Deus." },
        { discipline: "teologia", slug: "b", content: "A graça de Deus." },
        { discipline: "teologia", slug: "c", content: "A criação do mundo." },
      ]),
      undefined,
    );
    const { results } = await search.search("graça perdão milagre", { mode: "lexical" });
    expect(results.map((hit) => hit.slug)).toEqual(["a", "b"]);
    expect(results[0]!.matchedTerms).toEqual([term("graça"), term("perdão")]);
    expect(results[1]!.matchedTerms).toEqual([term("graça")]);
    for (const hit of results) {
      expect(hit.lexicalScore!).toBeGreaterThan(0);
      expect(hit.via).toEqual(["lexical"]);
      expect(hit.score).toBe(hit.lexicalScore);
      expect(hit.similarity).toBeUndefined();
      expect(hit.citation).toBe(formatDocumentCitation(hit));
      expect(hit.citation).toBe(`${hit.slug} (teologia/${hit.slug}.md, trecho 1)`);
    }
  });

  it("finds a keyword that is only in the lesson's metadata block, in chunk 0", async () => {
    const content = [
      HEADER,
      "Disciplina: teologia",
      "Título: A Trindade",
      "Keywords: trindade, pericorese",
      END,
      "",
      Array.from({ length: 30 }, (_, i) => `palavra${i} sobre Deus Pai Filho Espírito`).join(" "),
    ].join("\n");
    const chunks = [
      ...indexDocument({ discipline: "teologia", slug: "a-trindade", content }, { chunkWords: 40, overlap: 5 }),
      ...indexDocument({ discipline: "teologia", slug: "outra", content: "Deus Pai e a criação." }),
    ];
    expect(chunks.filter((chunk) => chunk.slug === "a-trindade").length).toBeGreaterThan(2);
    const search = new DocumentSearch(COLLECTION, chunks, undefined);
    const { results } = await search.search("pericorese", { mode: "lexical" });
    expect(results).toHaveLength(1);
    const [hit] = results;
    expect(hit!.sourceId).toBe("teologia/a-trindade.md");
    expect(hit!.chunk).toBe(0);
    expect(hit!.title).toBe("A Trindade");
    expect(hit!.metaText).toContain("pericorese");
    expect(hit!.lexicalScore!).toBeGreaterThan(0);
    expect(hit!.matchedTerms).toEqual([term("pericorese")]);
  });

  it("returns nothing for an empty or stopword-only query, without calling the embedder", async () => {
    const chunks = siloFixture();
    const embedder = new TableEmbedder(2, new Map());
    const search = new DocumentSearch(COLLECTION, chunks, matrixOf(chunks, {}, 2), { embedder });
    for (const query of ["", "   ", "o que é isso?", "?!"]) {
      for (const mode of ["hybrid", "lexical", "dense"] as const) {
        const response = await search.search(query, { mode });
        expect(response.results).toEqual([]);
        expect(response.notices).toEqual([]);
      }
    }
    expect(embedder.calls).toBe(0);
  });

  it("breaks ties deterministically by chunk order", async () => {
    const same = "A oração do Senhor.";
    const chunks = collection(["x", "y", "z"].map((slug) => ({ discipline: "teologia", slug, content: same })));
    const search = new DocumentSearch(COLLECTION, chunks, undefined);
    const first = await search.search("oração", { mode: "lexical" });
    expect(first.results.map((hit) => hit.slug)).toEqual(["x", "y", "z"]);
    expect(new Set(first.results.map((hit) => hit.lexicalScore)).size).toBe(1);
    expect((await search.search("oração", { mode: "lexical" })).results).toEqual(first.results);
  });
});

/**
 * A: "perdão" many times (the best BM25), no semantic link. B: "perdão" once in a longer text
 * (weakly matched) but its vector is the query's. C: no query word, vector close to the query.
 */
function semanticFixture(): IndexedChunk[] {
  return collection([
    { discipline: "teologia", slug: "a", content: "Perdão, perdão, perdão: a palavra perdão repetida." },
    {
      discipline: "teologia",
      slug: "b",
      content: "Reconciliação entre irmãos depois da ofensa, com restituição, humildade e paciência; o perdão vem no fim.",
    },
    { discipline: "teologia", slug: "c", content: "Reconciliar-se com o irmão antes de levar a oferta ao altar." },
    { discipline: "historia", slug: "d", content: "A cronologia dos reis de Israel." },
  ]);
}

const QUERY = "como pedir perdão";
const SEMANTIC_VECTORS = { a: [0, 1, 0], b: [1, 0, 0], c: [0.9, 0, 0.436], d: [0.02, 0, 1] };

function semanticSearch(overrides: Partial<DocumentSearchSettings> = {}): { search: DocumentSearch; embedder: TableEmbedder } {
  const chunks = semanticFixture();
  const embedder = new TableEmbedder(3, new Map([[QUERY, [1, 0, 0]]]));
  const search = new DocumentSearch(COLLECTION, chunks, matrixOf(chunks, SEMANTIC_VECTORS, 3), { embedder }, settings(overrides));
  return { search, embedder };
}

describe("DocumentSearch: dense side and fusion", () => {
  it("lets a semantic match rise above a higher lexical score", async () => {
    const { search, embedder } = semanticSearch();
    expect(search.denseAvailable).toBe(true);

    const lexical = await search.search(QUERY, { mode: "lexical" });
    expect(lexical.results.map((hit) => hit.slug)).toEqual(["a", "b"]);
    expect(lexical.results[0]!.lexicalScore!).toBeGreaterThan(lexical.results[1]!.lexicalScore!);
    expect(embedder.calls).toBe(0);

    const hybrid = await search.search(QUERY);
    expect(hybrid.mode).toBe("hybrid");
    expect(hybrid.notices).toEqual([]);
    expect(embedder.calls).toBe(1);
    expect(embedder.kinds).toEqual(["query"]);
    const slugs = hybrid.results.map((hit) => hit.slug);
    expect(slugs[0]).toBe("b");
    expect(slugs.indexOf("b")).toBeLessThan(slugs.indexOf("a"));
    const b = hybrid.results[0]!;
    expect(b.via).toEqual(["lexical", "dense"]);
    expect(b.similarity).toBeCloseTo(1, 5);
    expect(b.matchedTerms).toEqual([term("perdão")]);
    expect(b.lexicalScore!).toBeGreaterThan(0);
    expect(b.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(b.rank).toBe(1);
    // C has no query word: found by the dense side alone; D (cosine 0.02) is below the floor.
    const c = hybrid.results.find((hit) => hit.slug === "c");
    expect(c?.via).toEqual(["dense"]);
    expect(c?.matchedTerms).toEqual([]);
    expect(c?.lexicalScore).toBeUndefined();
    expect(slugs).not.toContain("d");
    expect(hybrid.results.map((hit) => hit.rank)).toEqual(hybrid.results.map((_, i) => i + 1));
  });

  it("ranks by similarity alone in dense mode", async () => {
    const { search } = semanticSearch();
    const dense = await search.search(QUERY, { mode: "dense" });
    expect(dense.mode).toBe("dense");
    expect(dense.results.map((hit) => hit.slug)).toEqual(["b", "c"]);
    for (const hit of dense.results) {
      expect(hit.via).toEqual(["dense"]);
      expect(hit.score).toBe(hit.similarity);
      expect(hit.lexicalScore).toBeUndefined();
    }
  });

  it("restricts the dense side to the discipline asked for", async () => {
    const { search } = semanticSearch();
    const response = await search.search(QUERY, { mode: "dense", discipline: "historia" });
    expect(response.results).toEqual([]);
  });

  it("caps lexical-only hits at maxKeywordOnly; hits both sides confirm do not count", async () => {
    const chunks = collection(
      Array.from({ length: 6 }, (_, i) => ({ discipline: "teologia", slug: `l${i}`, content: `Sobre a oração, lição ${i}.` })),
    );
    // Only l5 is also a dense hit.
    const embedder = new TableEmbedder(2, new Map([["oração", [1, 0]]]));
    const matrix = matrixOf(chunks, { l5: [1, 0] }, 2);
    const search = new DocumentSearch(COLLECTION, chunks, matrix, { embedder }, settings({ maxKeywordOnly: 2 }));
    const { results } = await search.search("oração", { k: 6 });
    expect(results.map((hit) => hit.slug)).toEqual(["l5", "l0", "l1"]);
    expect(results.filter((hit) => hit.via.length === 1 && hit.via[0] === "lexical")).toHaveLength(2);
    expect(results[0]!.via).toEqual(["lexical", "dense"]);
  });
});

describe("DocumentSearch: degraded mode", () => {
  it("falls back to lexical order with a notice when there is no embedder", async () => {
    const chunks = semanticFixture();
    const search = new DocumentSearch(COLLECTION, chunks, matrixOf(chunks, SEMANTIC_VECTORS, 3));
    expect(search.denseAvailable).toBe(false);
    const response = await search.search(QUERY);
    expect(response.mode).toBe("lexical");
    expect(response.results.map((hit) => hit.slug)).toEqual(["a", "b"]);
    expect(response.notices).toEqual(["Busca semântica indisponível: resultados por palavras-chave apenas."]);
  });

  it("gives the reason, and degrades dense mode the same way", async () => {
    const search = new DocumentSearch(COLLECTION, semanticFixture(), undefined, { denseUnavailableReason: "modelo não carregado" });
    const response = await search.search(QUERY, { mode: "dense" });
    expect(response.mode).toBe("lexical");
    expect(response.results.map((hit) => hit.slug)).toEqual(["a", "b"]);
    expect(response.notices).toEqual([
      "Busca semântica indisponível (modelo não carregado): resultados por palavras-chave apenas.",
    ]);
  });

  it("degrades when there is an embedder but no vectors, or vectors for other chunks", async () => {
    const chunks = semanticFixture();
    const embedder = new TableEmbedder(3, new Map([[QUERY, [1, 0, 0]]]));
    const noMatrix = new DocumentSearch(COLLECTION, chunks, undefined, { embedder });
    expect((await noMatrix.search(QUERY)).mode).toBe("lexical");
    const stale = new DocumentSearch(COLLECTION, chunks, new Float32Array(3 * (chunks.length - 1)), { embedder });
    const response = await stale.search(QUERY);
    expect(response.mode).toBe("lexical");
    expect(response.notices[0]).toContain("os vetores não correspondem aos trechos da coleção");
    expect(embedder.calls).toBe(0);
  });
});
