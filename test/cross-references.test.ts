import { findProjectRoot } from "../src/project-root.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CrossReferenceIndex,
  decodeVerseKey,
  formatCrossReferences,
  parseCrossReferenceColumns,
  parseCrossReferences,
  verseKey,
} from "../src/core/bible/cross-references.js";
import { CROSS_REFERENCES_FILE, loadCrossReferences } from "../src/adapters/sources/cross-references-file.js";
import { OSIS_BOOKS, USFX_BOOKS, bookIndexOf, osisToUsfx, usfxToOsis } from "../src/core/bible/osis.js";
import { CANON_BOOK_CODES } from "../src/core/sources/canon.js";

/** Rows copied verbatim from OpenBible.info's cross_references.txt (2026-03-02). */
const OSIS_SAMPLE = [
  "From Verse\tTo Verse\tVotes\t#www.openbible.info CC-BY 2026-03-02",
  "Gen.1.1\tPs.96.5\t58",
  "Gen.1.1\tPs.89.11-Ps.89.12\t60",
  "Gen.1.1\tHeb.11.3\t264",
  "Gen.1.1\tExod.31.18\t-38",
  "Gen.1.7\tGen.1.15\t0",
  "Gen.11.31\tGen.11.32-Gen.12.1\t5",
  "Num.3.1\tLev.27.34-Num.1.1\t2",
  "John.3.16\tRom.5.8\t952",
  "John.3.16\t1John.4.9-1John.4.10\t676",
  "John.3.16\tRom.8.32\t488",
].join("\n");

describe("OSIS ↔ USFX book names", () => {
  it("covers the 66 books in canonical order, matching the corpus canon", () => {
    expect(OSIS_BOOKS).toHaveLength(66);
    expect(USFX_BOOKS).toEqual(CANON_BOOK_CODES);
    expect(new Set(OSIS_BOOKS).size).toBe(66);
  });

  it("uses exactly the OSIS names of OpenBible.info's README", () => {
    const readme =
      "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov Eccl Song " +
      "Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal Matt Mark Luke John Acts Rom " +
      "1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet 1John 2John 3John Jude Rev";
    expect(OSIS_BOOKS).toEqual(readme.split(" "));
  });

  it("maps the irregular names and round-trips every book", () => {
    const expected: Record<string, string> = {
      Gen: "GEN", Exod: "EXO", Ps: "PSA", Song: "SNG", Ezek: "EZK", Joel: "JOL", Nah: "NAM",
      Mark: "MRK", John: "JHN", Phil: "PHP", Jas: "JAS", "1John": "1JN", Jude: "JUD", Phlm: "PHM",
    };
    for (const [osis, usfx] of Object.entries(expected)) expect(osisToUsfx(osis)).toBe(usfx);
    OSIS_BOOKS.forEach((osis, i) => {
      const usfx = osisToUsfx(osis);
      expect(usfx).toBe(USFX_BOOKS[i]);
      expect(usfxToOsis(usfx ?? "")).toBe(osis);
      expect(bookIndexOf(osis)).toBe(i);
      expect(bookIndexOf(usfx ?? "")).toBe(i);
    });
    expect(osisToUsfx("Tob")).toBeUndefined();
    expect(usfxToOsis("TOB")).toBeUndefined();
    expect(bookIndexOf("XYZ")).toBe(-1);
  });
});

describe("verse keys", () => {
  it("encode and decode", () => {
    const key = verseKey(bookIndexOf("PSA"), 119, 176);
    expect(key).toBe(18_119_176);
    expect(decodeVerseKey(key)).toEqual({ bookIndex: 18, chapter: 119, verse: 176 });
  });
});

describe("parseCrossReferences (literal rows)", () => {
  it("parses OSIS rows, drops zero/negative votes and ranges spanning two books", () => {
    const { stats } = parseCrossReferenceColumns(OSIS_SAMPLE);
    expect(stats).toEqual({ kept: 7, lowVotes: 2, crossBook: 1, malformed: 0 });
    const index = parseCrossReferences(OSIS_SAMPLE);
    expect(index.size).toBe(7);
    expect(index.linksFrom("GEN", 1, 1).map((link) => `${link.book} ${link.chapter}:${link.verse}`)).toEqual([
      "HEB 11:3",
      "PSA 89:11",
      "PSA 96:5",
    ]);
    expect(index.linksFrom("GEN", 1, 7)).toEqual([]);
    expect(index.linksFrom("NUM", 3, 1)).toEqual([]);
  });

  it("keeps negative votes when asked (minVotes)", () => {
    expect(parseCrossReferences(OSIS_SAMPLE, { minVotes: -100 }).linksFrom("GEN", 1, 1).at(-1)).toMatchObject({
      book: "EXO",
      chapter: 31,
      verse: 18,
      votes: -38,
    });
  });

  it("parses ranges within a chapter and across chapters", () => {
    const index = parseCrossReferences(OSIS_SAMPLE);
    expect(index.linksFrom("GEN", 1, 1)[1]).toEqual({ book: "PSA", chapter: 89, verse: 11, endChapter: 89, endVerse: 12, votes: 60 });
    expect(index.linksFrom("GEN", 11, 31)).toEqual([{ book: "GEN", chapter: 11, verse: 32, endChapter: 12, endVerse: 1, votes: 5 }]);
    expect(index.linksFrom("JHN", 3, 16)[1]).toEqual({ book: "1JN", chapter: 4, verse: 9, endChapter: 4, endVerse: 10, votes: 676 });
  });

  it("accepts the compact format, OSIS names in queries, comments, CRLF and bad rows", () => {
    const text = "# comment\r\nJHN 3:16\tROM 5:8\t952\r\nJHN 3:16\t1JN 4:9-10\t676\r\nXYZ 1:1\tGEN 1:1\t3\r\nJHN 3:16\tnonsense\r\n";
    const { columns, stats } = parseCrossReferenceColumns(text);
    expect(stats).toEqual({ kept: 2, lowVotes: 0, crossBook: 0, malformed: 2 });
    const index = parseCrossReferences(text);
    expect(index.linksFrom("John", 3, 16)).toEqual(index.linksFrom("JHN", 3, 16));
    expect(index.strongest("JHN", 3, 16, 1)).toEqual([{ book: "ROM", chapter: 5, verse: 8, endChapter: 5, endVerse: 8, votes: 952 }]);
    expect(Array.from(columns.sources)).toEqual([verseKey(42, 3, 16)]);
  });

  it("round-trips through the compact format", () => {
    const index = parseCrossReferences(OSIS_SAMPLE);
    const text = formatCrossReferences(index, ["header"]);
    expect(text.split("\n").slice(0, 3)).toEqual(["# header", "GEN 1:1\tHEB 11:3\t264", "GEN 1:1\tPSA 89:11-12\t60"]);
    expect(text).toContain("GEN 11:31\tGEN 11:32-12:1\t5\n");
    const again = parseCrossReferences(text);
    expect(again.columns).toEqual(index.columns);
  });

  it("splits a range's votes over its verses in inboundVotes", () => {
    const index = parseCrossReferences(["Gen.1.1\tJohn.1.1-John.1.3\t30", "Gen.1.2\tJohn.1.2\t4", "Gen.1.3\tJohn.2.1\t1"].join("\n"));
    expect(index.inboundVotes("JHN", 1, 1)).toBe(10);
    expect(index.inboundVotes("JHN", 1, 2)).toBe(14);
    expect(index.inboundVotes("JHN", 1, 4)).toBe(0);
    expect(index.maxInboundVotes).toBe(14);
    // Cross-chapter range: GEN 11 is 32 verses long as far as this data shows → 2 verses.
    const sample = parseCrossReferences(OSIS_SAMPLE);
    expect(sample.inboundVotes("GEN", 11, 32)).toBe(2.5);
    expect(sample.inboundVotes("GEN", 12, 1)).toBe(2.5);
  });
});

describe("shipped OpenBible.info data", () => {
  let index: CrossReferenceIndex;
  beforeAll(async () => {
    index = await loadCrossReferences();
  });

  it("resolves the project root and ships the file", () => {
    const root = findProjectRoot(import.meta.url);
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name).toBe("pastor-online");
    expect(existsSync(join(root, CROSS_REFERENCES_FILE))).toBe(true);
    expect(existsSync(join(root, "resources/openbible/README.md"))).toBe(true);
  });

  it("holds every link with votes ≥ 1 (344,799 rows − 3,484 with votes ≤ 0 − 18 cross-book)", () => {
    expect(index.size).toBe(341_297);
    expect(index.sourceCount).toBeGreaterThan(29_000);
  });

  it("links JHN 3:16 to ROM 5:8 (952 votes) first, then 1JN 4:9-10 (676), sorted by votes", () => {
    const links = index.linksFrom("JHN", 3, 16);
    expect(links).toHaveLength(23);
    expect(links[0]).toEqual({ book: "ROM", chapter: 5, verse: 8, endChapter: 5, endVerse: 8, votes: 952 });
    expect(links[1]).toEqual({ book: "1JN", chapter: 4, verse: 9, endChapter: 4, endVerse: 10, votes: 676 });
    expect(links).toContainEqual({ book: "ROM", chapter: 8, verse: 32, endChapter: 8, endVerse: 32, votes: 488 });
    for (let i = 1; i < links.length; i++) expect(links[i - 1]!.votes).toBeGreaterThanOrEqual(links[i]!.votes);
    expect(index.strongest("JHN", 3, 16, 3).map((link) => link.votes)).toEqual([952, 676, 488]);
  });

  it("drops links with votes ≤ 0 (Gen.1.1 → Exod.31.18 has −38)", () => {
    expect(index.linksFrom("GEN", 1, 1).some((link) => link.book === "EXO" && link.chapter === 31)).toBe(false);
    expect(index.linksFrom("GEN", 1, 1).every((link) => link.votes >= 1)).toBe(true);
  });

  it("gives JHN 3:16 a far larger inbound prior than a genealogy verse", () => {
    const famous = index.inboundVotes("JHN", 3, 16);
    const obscure = index.inboundVotes("1CH", 1, 13);
    expect(famous).toBeGreaterThan(1000);
    expect(obscure).toBeGreaterThan(0);
    expect(obscure).toBeLessThan(10);
    expect(index.maxInboundVotes).toBeGreaterThanOrEqual(famous);
    expect(index.inboundVotes("XYZ", 1, 1)).toBe(0);
  });
});
