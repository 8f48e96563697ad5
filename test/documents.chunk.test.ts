/**
 * Chunking of documents (windows, overlap, title, metadata block in chunk 0 only, pages) and
 * how chunks are cited.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CHUNK_OPTIONS,
  DocumentChunkError,
  MAX_CONTENT_CHARS,
  chunkDocument,
  isOversized,
  type ChunkInput,
} from "../src/core/sources/chunker.js";
import { documentKey, formatDocumentCitation } from "../src/core/documents/citation.js";
import { splitMetaBlock } from "../src/core/sources/meta-block.js";
import type { DocumentChunk, DocumentPage } from "../src/core/documents/types.js";

const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
const END = "====== FIM DOS METADADOS ======";

/** `n` distinct words `w0 w1 …`, some on new lines to exercise whitespace handling. */
function wordList(n: number, prefix = "w"): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`);
}

function prose(list: readonly string[]): string {
  return list.map((w, i) => (i % 17 === 16 ? `${w}\n\n` : `${w} `)).join("");
}

function input(content: string, extra: Partial<ChunkInput> = {}): ChunkInput {
  return { sourceId: "teologia/aula-1.md", slug: "aula-1", split: splitMetaBlock(content), ...extra };
}

function lesson(bodyWords: number, keyword = "pericorese"): string {
  return [
    HEADER,
    "Disciplina: Teologia Sistemática",
    "Título: A Trindade",
    `Keywords: trindade, ${keyword}`,
    END,
    "",
    prose(wordList(bodyWords)),
  ].join("\n");
}

/** Body words of a chunk, as numbers (`w12` → 12). */
function indices(chunk: DocumentChunk): number[] {
  return chunk.body.split(" ").map((w) => Number(w.slice(1)));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

describe("chunkDocument: windows and overlap", () => {
  it("cuts 1,200 words into windows starting at 0, 450 and 900 with 500/50", () => {
    const chunks = chunkDocument(input(prose(wordList(1200))), { chunkWords: 500, overlap: 50 });
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.chunk)).toEqual([0, 1, 2]);
    expect(indices(chunks[0]!)).toEqual(range(0, 499));
    expect(indices(chunks[1]!)).toEqual(range(450, 949));
    expect(indices(chunks[2]!)).toEqual(range(900, 1199));
  });

  it("does not emit a tail chunk made only of overlap", () => {
    const exact = chunkDocument(input(prose(wordList(950))), { chunkWords: 500, overlap: 50 });
    expect(exact.map(indices).map((ix) => [ix[0], ix[ix.length - 1]])).toEqual([
      [0, 499],
      [450, 949],
    ]);
    const single = chunkDocument(input(prose(wordList(500))), { chunkWords: 500, overlap: 50 });
    expect(single).toHaveLength(1);
    expect(indices(single[0]!)).toEqual(range(0, 499));
    const small = chunkDocument(input(prose(wordList(7))), { chunkWords: 3, overlap: 1 });
    expect(small.map(indices)).toEqual([
      [0, 1, 2],
      [2, 3, 4],
      [4, 5, 6],
    ]);
  });

  it("covers every word, and no chunk is contained in the previous one", () => {
    for (const [n, chunkWords, overlap] of [
      [1, 1, 0],
      [10, 1, 0],
      [10, 4, 3],
      [101, 10, 9],
      [1000, 500, 0],
      [1001, 500, 499],
    ] as const) {
      const chunks = chunkDocument(input(prose(wordList(n))), { chunkWords, overlap });
      const seen = new Set<number>();
      let previousEnd = -1;
      for (const chunk of chunks) {
        const ix = indices(chunk);
        expect(ix.length).toBeLessThanOrEqual(chunkWords);
        expect(ix[ix.length - 1]!).toBeGreaterThan(previousEnd);
        previousEnd = ix[ix.length - 1]!;
        ix.forEach((i) => seen.add(i));
      }
      expect(seen.size).toBe(n);
      expect(previousEnd).toBe(n - 1);
    }
  });

  it("joins a chunk's words by single spaces, keeping markdown punctuation", () => {
    const content = "# Título\n\n**Deus**   é\tamor  (1Jo 4:8).\r\n- item";
    const [chunk] = chunkDocument(input(content), DEFAULT_CHUNK_OPTIONS);
    expect(chunk!.body).toBe("# Título **Deus** é amor (1Jo 4:8). - item");
  });

  it("uses 500/50 words and 6,000 characters by default", () => {
    expect(DEFAULT_CHUNK_OPTIONS).toEqual({ chunkWords: 500, overlap: 50, chunkChars: 6000 });
    const chunks = chunkDocument(input(prose(wordList(1200))));
    expect(chunks.map((c) => indices(c)[0])).toEqual([0, 450, 900]);
  });

  it("throws a typed error for unusable options", () => {
    const bad = [
      { chunkWords: 0, overlap: 0 },
      { chunkWords: -5, overlap: 0 },
      { chunkWords: 2.5, overlap: 0 },
      { chunkWords: Number.NaN, overlap: 0 },
      { chunkWords: 10, overlap: 10 },
      { chunkWords: 10, overlap: 11 },
      { chunkWords: 10, overlap: -1 },
      { chunkWords: 10, overlap: 1.5 },
      { chunkWords: 10, overlap: 1, chunkChars: 0 },
      { chunkWords: 10, overlap: 1, chunkChars: 20_001 },
      { chunkWords: 10, overlap: 1, chunkChars: 2.5 },
    ];
    for (const options of bad) {
      let error: unknown;
      try {
        chunkDocument(input("a b c"), options);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(options)).toBeInstanceOf(DocumentChunkError);
      expect((error as DocumentChunkError).code).toBe("invalid_chunk_options");
    }
    // Even an empty document validates its options.
    expect(() => chunkDocument(input(""), { chunkWords: 1, overlap: 1 })).toThrow(DocumentChunkError);
    expect(() => chunkDocument(input("a"), { chunkWords: 1, overlap: 0 })).not.toThrow();
  });
});

describe("chunkDocument: characters per chunk (issue 43)", () => {
  it("cuts a run without spaces longer than a chunk into pieces, one chunk each, the pieces whole again", () => {
    const run = "x".repeat(25_000);
    const chunks = chunkDocument(input(`antes ${run} depois`), { chunkWords: 500, overlap: 50, chunkChars: 6000 });
    // "antes" does not fit beside a 6,000-character piece: it has the first chunk; the last piece (1,000) shares its chunk with "depois".
    expect(chunks.map((c) => c.body.length)).toEqual([5, 6000, 6000, 6000, 6000, 1007]);
    expect(chunks[0]!.body).toBe("antes");
    expect(chunks[5]!.body).toBe(`${"x".repeat(1000)} depois`);
    expect(chunks.slice(1).map((c) => c.body).join("")).toBe(`${run} depois`);
  });

  it("ends a window of long words early, sharing the same share of words, so a document is not repeated", () => {
    const long = Array.from({ length: 1000 }, (_, i) => `w${i}${"a".repeat(95)}`); // about 100 characters each
    const chunks = chunkDocument(input(long.join(" ")), { chunkWords: 500, overlap: 50, chunkChars: 6000 });
    for (const chunk of chunks) expect(chunk.body.length).toBeLessThanOrEqual(6000);
    const starts = chunks.map((c) => Number(/^w(\d+)/.exec(c.body)![1]));
    // About 59 words a window, 5 of them shared (⌊59·50/500⌋): ≈ 54 new words a chunk.
    const taken = chunks[0]!.body.split(" ").length;
    expect(starts[1]).toBe(taken - Math.floor((taken * 50) / 500));
    expect(chunks.length).toBeLessThan(Math.ceil(1000 / (taken - Math.floor((taken * 50) / 500))) + 2);
    const covered = new Set(chunks.flatMap((c) => c.body.split(" ")));
    expect(covered.size).toBe(1000);
  });

  it("leaves ordinary prose cut by words only", () => {
    const bounded = chunkDocument(input(prose(wordList(1200))), { chunkWords: 500, overlap: 50, chunkChars: 6000 });
    const byWords = chunkDocument(input(prose(wordList(1200))), { chunkWords: 500, overlap: 50, chunkChars: 20_000 });
    expect(bounded).toEqual(byWords);
    expect(bounded.map((c) => indices(c)[0])).toEqual([0, 450, 900]);
  });

  it("never cuts a surrogate pair, and keeps page numbers through the cut", () => {
    const run = "😀".repeat(5000); // 10,000 UTF-16 units
    const pages: DocumentPage[] = [
      { page: 1, text: "início" },
      { page: 2, text: run },
    ];
    const chunks = chunkDocument(input(pages.map((p) => p.text).join("\n\n"), { pages }), { chunkWords: 500, overlap: 50, chunkChars: 3001 });
    for (const chunk of chunks) {
      expect(chunk.body.length).toBeLessThanOrEqual(3001);
      expect(chunk.body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(chunks.slice(1).map((c) => c.body).join("")).toBe(run);
    expect(chunks.map((c) => c.page)).toEqual([1, 2, 2, 2, 2]);
  });

  it("cuts a title past 300 characters, and reads a metadata block past 8,000 as plain body", () => {
    const title = "Título ".repeat(100);
    const [chunk] = chunkDocument(input("texto", { title }));
    expect(chunk!.title.length).toBe(300);
    expect(chunk!.title.endsWith("…")).toBe(true);
    const block = [HEADER, "Título: Grande", `Keywords: ${"palavra ".repeat(1200)}`, END, "", "corpo"].join("\n");
    const split = splitMetaBlock(block);
    expect(split.problem?.code).toBe("meta_block_too_large");
    const chunks = chunkDocument(input(block));
    expect(chunks.every((c) => c.body.length <= 6000)).toBe(true);
    expect(chunks[0]!.text.startsWith("Título: aula-1\n\n[CONCEITOS")).toBe(true);
  });
});

describe("chunkDocument: title and metadata block", () => {
  it("starts every chunk's text with the title line", () => {
    const chunks = chunkDocument(input(lesson(1200)), { chunkWords: 500, overlap: 50 });
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith("Título: A Trindade\n")).toBe(true);
      expect(chunk.title).toBe("A Trindade");
      expect(chunk.sourceId).toBe("teologia/aula-1.md");
      expect(chunk.text.endsWith(chunk.body)).toBe(true);
    }
  });

  it("indexes the metadata block in chunk 0 only", () => {
    const chunks = chunkDocument(input(lesson(1200, "homoousios")), { chunkWords: 500, overlap: 50 });
    const split = splitMetaBlock(lesson(1200, "homoousios"));
    expect(chunks[0]!.text).toContain("homoousios");
    expect(chunks[0]!.text).toContain(split.metaText);
    expect(chunks[0]!.text).toBe(`Título: A Trindade\n\n${split.metaText}\n\n${chunks[0]!.body}`);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text).not.toContain("homoousios");
      expect(chunk.text).not.toContain("Disciplina:");
      expect(chunk.text).toBe(`Título: A Trindade\n\n${chunk.body}`);
    }
    // The block is not part of any chunk's body, nor are the markers.
    for (const chunk of chunks) {
      expect(chunk.body).not.toContain("homoousios");
      expect(chunk.body).not.toContain("METADADOS");
    }
    expect(indices(chunks[0]!)[0]).toBe(0);
  });

  it("yields chunk 0 (title and block) for a block without body", () => {
    const content = `${HEADER}\nTítulo: Só metadados\nKeywords: kenosis\n${END}\n\n`;
    const chunks = chunkDocument(input(content), DEFAULT_CHUNK_OPTIONS);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toEqual({
      sourceId: "teologia/aula-1.md",
      chunk: 0,
      title: "Só metadados",
      text: "Título: Só metadados\n\nTítulo: Só metadados\nKeywords: kenosis",
      body: "",
    });
  });

  it("yields no chunk for an empty or blank document", () => {
    expect(chunkDocument(input(""), DEFAULT_CHUNK_OPTIONS)).toEqual([]);
    expect(chunkDocument(input(" \n\t\r\n "), DEFAULT_CHUNK_OPTIONS)).toEqual([]);
    expect(chunkDocument(input("\uFEFF\u00A0"), DEFAULT_CHUNK_OPTIONS)).toEqual([]);
  });

  it("falls back from the block's title to the document's title to the slug", () => {
    const withBlock = chunkDocument(input(lesson(3), { title: "Arquivo" }), DEFAULT_CHUNK_OPTIONS);
    expect(withBlock[0]!.title).toBe("A Trindade");

    const noTitleInBlock = `${HEADER}\nKeywords: x\n${END}\ncorpo`;
    const fromDocument = chunkDocument(input(noTitleInBlock, { title: "Apostila de Cristologia" }), DEFAULT_CHUNK_OPTIONS);
    expect(fromDocument[0]!.title).toBe("Apostila de Cristologia");
    expect(fromDocument[0]!.text.startsWith("Título: Apostila de Cristologia\n")).toBe(true);

    const legacy = chunkDocument(input("corpo sem bloco", { title: "  " }), DEFAULT_CHUNK_OPTIONS);
    expect(legacy[0]!.title).toBe("aula-1");
    expect(legacy[0]!.text).toBe("Título: aula-1\n\ncorpo sem bloco");
  });

  it("keeps the title on one line", () => {
    const [chunk] = chunkDocument(input("corpo", { title: "Uma\n  apostila " }), DEFAULT_CHUNK_OPTIONS);
    expect(chunk!.title).toBe("Uma apostila");
    expect(chunk!.text.split("\n")[0]).toBe("Título: Uma apostila");
  });

  it("indexes a malformed block's text as plain body, without metaText", () => {
    const content = `${HEADER}\nTítulo: Sem fim\nKeywords: kenosis\n\ncorpo`;
    const chunks = chunkDocument(input(content, { title: "Arquivo" }), DEFAULT_CHUNK_OPTIONS);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.title).toBe("Arquivo");
    expect(chunks[0]!.body).toContain("kenosis");
  });
});

describe("chunkDocument: pages", () => {
  function pagesOf(perPage: readonly number[], firstPage = 1): DocumentPage[] {
    let next = 0;
    return perPage.map((count, i) => {
      const list = wordList(count).map((_, j) => `w${next + j}`);
      next += count;
      return { page: firstPage + i, text: prose(list) };
    });
  }

  function pdf(pages: DocumentPage[], extra: Partial<ChunkInput> = {}): ChunkInput {
    const content = pages.map((p) => p.text).join("\n\n");
    return { sourceId: "apostila.pdf", slug: "apostila", split: splitMetaBlock(content), pages, ...extra };
  }

  it("gives each chunk the page of its first word, and pageEnd when it ends elsewhere", () => {
    // Pages 1..4 hold words 0–299, 300–599, 600–899, 900–1199.
    const chunks = chunkDocument(pdf(pagesOf([300, 300, 300, 300])), { chunkWords: 500, overlap: 50 });
    expect(chunks.map((c) => [c.page, c.pageEnd])).toEqual([
      [1, 2], // 0–499
      [2, 4], // 450–949
      [4, undefined], // 900–1199
    ]);
    expect(chunks[2]).not.toHaveProperty("pageEnd");
  });

  it("skips blank pages and keeps the source's page numbers", () => {
    const pages = pagesOf([3, 0, 3], 10);
    pages[1] = { page: 11, text: "  \n " };
    const chunks = chunkDocument(pdf(pages), { chunkWords: 3, overlap: 0 });
    expect(chunks.map((c) => [c.page, c.pageEnd])).toEqual([
      [10, undefined],
      [12, undefined],
    ]);
    const spanning = chunkDocument(pdf(pages), { chunkWords: 4, overlap: 0 });
    expect(spanning.map((c) => [c.page, c.pageEnd])).toEqual([
      [10, 12],
      [12, undefined],
    ]);
  });

  it("leaves page unset for documents without pages", () => {
    const [chunk] = chunkDocument(input("a b c"), DEFAULT_CHUNK_OPTIONS);
    expect(chunk).not.toHaveProperty("page");
    expect(chunk).not.toHaveProperty("pageEnd");
  });

  it("drops a block on page 1 from the page words and indexes it in chunk 0 only", () => {
    const pages = pagesOf([4, 4]);
    pages[0] = { page: 1, text: `${HEADER}\nTítulo: Apostila\nKeywords: kenosis\n${END}\n\n${pages[0]!.text}` };
    const chunks = chunkDocument(pdf(pages), { chunkWords: 4, overlap: 0 });
    expect(chunks.map(indices)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(chunks.map((c) => c.page)).toEqual([1, 2]);
    expect(chunks[0]!.title).toBe("Apostila");
    expect(chunks[0]!.text).toContain("kenosis");
    expect(chunks[1]!.text).not.toContain("kenosis");
  });

  it("handles a block that fills page 1 and spills onto page 2", () => {
    const pages: DocumentPage[] = [
      { page: 1, text: `${HEADER}\nTítulo: Longa\nConceitos: muitos` },
      { page: 2, text: `Keywords: kenosis\n${END}\n\nw0 w1 w2` },
      { page: 3, text: "w3 w4" },
    ];
    const chunks = chunkDocument(pdf(pages), { chunkWords: 4, overlap: 0 });
    expect(chunks.map((c) => [indices(c), c.page, c.pageEnd])).toEqual([
      [[0, 1, 2, 3], 2, 3],
      [[4], 3, undefined],
    ]);
  });

  it("gives a block-only paginated document chunk 0 on the block's page", () => {
    const pages: DocumentPage[] = [
      { page: 1, text: "" },
      { page: 2, text: `${HEADER}\nTítulo: Só bloco\n${END}` },
    ];
    const chunks = chunkDocument(pdf(pages), DEFAULT_CHUNK_OPTIONS);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.page).toBe(2);
    expect(chunks[0]!.body).toBe("");
  });

  it("throws pages_mismatch when the pages are not the split's document", () => {
    const pages = pagesOf([3, 3]);
    const wrong: ChunkInput = { sourceId: "x.pdf", slug: "x", split: splitMetaBlock("outro texto"), pages };
    expect(() => chunkDocument(wrong, DEFAULT_CHUNK_OPTIONS)).toThrow(
      expect.objectContaining({ code: "pages_mismatch" }),
    );
    // Extra leading page words are only accepted when they are a metadata block.
    const extra: ChunkInput = { sourceId: "x.pdf", slug: "x", split: splitMetaBlock("w3 w4 w5"), pages };
    expect(() => chunkDocument(extra, DEFAULT_CHUNK_OPTIONS)).toThrow(DocumentChunkError);
  });
});

describe("isOversized", () => {
  it("flags content longer than the limit only", () => {
    expect(MAX_CONTENT_CHARS).toBe(4_000_000);
    expect(isOversized("abc", 3)).toBe(false);
    expect(isOversized("abcd", 3)).toBe(true);
    expect(isOversized("x".repeat(MAX_CONTENT_CHARS))).toBe(false);
    expect(isOversized("x".repeat(MAX_CONTENT_CHARS + 1))).toBe(true);
  });
});

describe("formatDocumentCitation and documentKey", () => {
  it("cites a paginated chunk by page or page range", () => {
    expect(formatDocumentCitation({ title: "Apostila X", sourceId: "a.pdf", chunk: 4, page: 12 })).toBe(
      "Apostila X, p. 12",
    );
    expect(
      formatDocumentCitation({ title: "Apostila X", sourceId: "a.pdf", chunk: 4, page: 12, pageEnd: 13 }),
    ).toBe("Apostila X, pp. 12–13");
    expect(
      formatDocumentCitation({ title: "Apostila X", sourceId: "a.pdf", chunk: 4, page: 12, pageEnd: 12 }),
    ).toBe("Apostila X, p. 12");
  });

  it("cites other chunks by source id and 1-based piece number", () => {
    expect(formatDocumentCitation({ title: "A Trindade", sourceId: "db:teologia/aula-1", chunk: 2 })).toBe(
      "A Trindade (db:teologia/aula-1, trecho 3)",
    );
    expect(formatDocumentCitation({ title: " ", sourceId: "db:teologia/aula-1", chunk: 0 })).toBe(
      "db:teologia/aula-1 (trecho 1)",
    );
  });

  it("keys a chunk as sourceId#chunk (0-based)", () => {
    expect(documentKey("db:teologia/aula-1", 0)).toBe("db:teologia/aula-1#0");
    expect(documentKey("teologia/aula 2.md", 7)).toBe("teologia/aula 2.md#7");
  });
});
