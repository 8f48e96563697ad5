import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKS } from "../src/core/bible/books.js";
import {
  type BibleReference,
  type Versification,
  buildVersification,
  expandReference,
  findReferences,
  formatReference,
  parseReference,
  validateReference,
} from "../src/core/bible/references.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import type { Verse } from "../src/core/types.js";

const CORPUS = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

let verses: Verse[] = [];
let v: Versification = new Map();

beforeAll(async () => {
  verses = (await loadUsfxFile(CORPUS)).filter((verse) => verse.canonical);
  v = buildVersification(verses);
});

/** Order-independent identity of a list of spans. */
function ids(refs: readonly BibleReference[]): string {
  return refs.map((r) => `${r.book} ${r.chapterStart}:${r.verseStart}-${r.chapterEnd}:${r.verseEnd}`).join("; ");
}

function one(text: string): BibleReference {
  const result = parseReference(text);
  if (!result.ok) throw new Error(`${text}: ${result.message}`);
  expect(result.references).toHaveLength(1);
  return result.references[0] as BibleReference;
}

describe("round trip over the whole corpus", () => {
  it("has the 31,102 verses of the 66 books", () => {
    expect(verses).toHaveLength(31_102);
    expect(new Set(verses.map((verse) => verse.book)).size).toBe(66);
  });

  it("formats every verse and parses it back to the same coordinate (parseReference and findReferences)", () => {
    const failures: string[] = [];
    for (const verse of verses) {
      const span: BibleReference = {
        book: verse.book,
        chapterStart: verse.chapter,
        verseStart: verse.verse,
        chapterEnd: verse.chapter,
        verseEnd: verse.verseEnd,
      };
      const text = formatReference(span);
      const parsed = parseReference(text);
      if (!parsed.ok || ids(parsed.references) !== ids([span])) {
        failures.push(`parse ${text}: ${JSON.stringify(parsed)}`);
      }
      const sentence = `Como está escrito em ${text}, amém.`;
      const found = findReferences(sentence);
      if (
        found.length !== 1 ||
        found[0]?.text !== text ||
        found[0].start !== 21 ||
        ids(found[0].references) !== ids([span])
      ) {
        failures.push(`find ${text}: ${JSON.stringify(found)}`);
      }
      if (!validateReference(span, v).ok) failures.push(`validate ${text}`);
      if (failures.length > 20) break;
    }
    expect(failures).toEqual([]);
  });

  it("formats every chapter and parses it back", () => {
    const failures: string[] = [];
    for (const [book, chapters] of v) {
      chapters.forEach((_, i) => {
        const span: BibleReference = { book, chapterStart: i + 1, chapterEnd: i + 1 };
        const text = formatReference(span);
        const parsed = parseReference(text);
        if (!parsed.ok || ids(parsed.references) !== ids([span])) failures.push(text);
        if (!validateReference(span, v).ok) failures.push(`validate ${text}`);
      });
    }
    expect(failures).toEqual([]);
  });
});

describe("versification built from the corpus", () => {
  it("agrees with the chapter counts of the book table", () => {
    const mismatches = BOOKS.filter((book) => v.get(book.code)?.length !== book.chapters).map(
      (book) => `${book.code}: ${v.get(book.code)?.length} ≠ ${book.chapters}`,
    );
    expect(mismatches).toEqual([]);
  });

  it("has Sl 117 with 2 verses, Sl 119 with 176, João with 21 chapters", () => {
    expect(v.get("PSA")?.[116]).toBe(2);
    expect(v.get("PSA")?.[118]).toBe(176);
    expect(v.get("JHN")).toHaveLength(21);
    expect(v.get("JUD")).toEqual([25]);
  });

  it("validates real and unreal references", () => {
    expect(validateReference(one("Sl 117:2"), v)).toEqual({ ok: true });
    expect(validateReference(one("Sl 119:176"), v)).toEqual({ ok: true });
    expect(validateReference(one("Jo 21:25"), v)).toEqual({ ok: true });
    expect(validateReference(one("Ap 22:21"), v)).toEqual({ ok: true });
    expect(validateReference(one("Judas 25"), v)).toEqual({ ok: true });

    const cases: Array<[string, string, RegExp]> = [
      ["João 30:1", "unknown_chapter", /^João não tem capítulo 30 \(o livro tem 21 capítulos\)/],
      ["Jo 22", "unknown_chapter", /João não tem capítulo 22/],
      ["Sl 151", "unknown_chapter", /Salmos não tem capítulo 151 \(o livro tem 150 capítulos\)/],
      ["Sl 23:99", "unknown_verse", /^Salmos 23 não tem versículo 99 \(o capítulo tem 6 versículos\)/],
      ["Sl 117:3", "unknown_verse", /Salmos 117 não tem versículo 3 \(o capítulo tem 2 versículos\)/],
      ["Sl 119:177", "unknown_verse", /o capítulo tem 176 versículos/],
      ["Judas 26", "unknown_verse", /Judas 1 não tem versículo 26/],
      ["Jo 3:18-16", "inverted_range", /Intervalo invertido em João 3:18-16/],
      ["Gn 3-1", "inverted_range", /Intervalo invertido em Gênesis 3-1/],
    ];
    for (const [text, code, message] of cases) {
      const result = validateReference(one(text), v);
      expect(result, text).toMatchObject({ ok: false, code });
      if (!result.ok) expect(result.message, text).toMatch(message);
      expect(() => expandReference(one(text), v), text).toThrow(message);
    }
  });

  it("expands spans to the verses of the corpus", () => {
    const coords = (text: string) => expandReference(one(text), v).map((x) => `${x.book} ${x.chapter}:${x.verse}`);
    expect(coords("Sl 117")).toEqual(["PSA 117:1", "PSA 117:2"]);
    expect(coords("Sl 119")).toHaveLength(176);
    expect(coords("Gn 1:31-2:3")).toEqual(["GEN 1:31", "GEN 2:1", "GEN 2:2", "GEN 2:3"]);
    expect(coords("1 Co 13:4-7")).toEqual(["1CO 13:4", "1CO 13:5", "1CO 13:6", "1CO 13:7"]);
    expect(coords("Jd 24-25")).toEqual(["JUD 1:24", "JUD 1:25"]);
    const genesis = v.get("GEN") ?? [];
    expect(coords("Gn 1-2")).toHaveLength((genesis[0] ?? 0) + (genesis[1] ?? 0));
    expect(coords("João 1-21")).toHaveLength(verses.filter((x) => x.book === "JHN").length);
    expect(coords("Ob 1")).toHaveLength(21);
  });
});
