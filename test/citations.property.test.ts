/**
 * Property test of the citation check (issue #16): generated Markdown answers with references
 * planted in every form (test/support/citation-generator.ts), checked batch and streamed in
 * tokens of 1-4 characters. No disallowed reference may survive in any form, every allowed one
 * must survive and be cited, and the stream must release exactly the batch result.
 * `npm run bench` runs many more (bench/citations.ts).
 */
import { describe, expect, it } from "vitest";
import { CitationStreamFilter, checkCitations } from "../src/core/grounding/citations.js";
import { ShownVerses } from "../src/core/grounding/passages.js";
import { generateCase, judge, readerText, seeded, tokenisations, inWords } from "./support/citation-generator.js";

describe("citation check: generated answers (seeded)", () => {
  it("the oracle sees what it must see", () => {
    // the oracle is independent of the checker: plain token search in a reader's normalisation
    expect(readerText("**Jo\u200bão** 3：１４７")).toBe("joao 3:147");
    expect(inWords(147)).toBe("cento e quarenta e sete");
    expect(inWords(23)).toBe("vinte e três");
  });

  it("leaks nothing, blocks nothing allowed, and streams what it checks", () => {
    const random = seeded(16);
    const leaks: string[] = [];
    const overBlocks: string[] = [];
    const mismatches: string[] = [];
    let planted = 0;
    for (let n = 0; n < 30; n++) {
      const c = generateCase(random);
      planted += c.planted.length;
      const v = judge(c, tokenisations(random, 3));
      leaks.push(...v.leaks.map((l) => `${l}\n  in ${JSON.stringify(c.answer)}`));
      overBlocks.push(...v.overBlocks.map((l) => `${l}\n  in ${JSON.stringify(c.answer)}`));
      mismatches.push(...v.mismatches.map((l) => `${l}\n  in ${JSON.stringify(c.answer)}`));
    }
    expect(planted).toBeGreaterThan(80);
    expect(leaks).toEqual([]);
    expect(overBlocks).toEqual([]);
    expect(mismatches).toEqual([]);
  });
});

describe("citation stream: the held-back tail stays bounded", () => {
  it("holds back at most a reference in progress, with the new continuations too", () => {
    // "e seguintes" claims the two verses after 3:16: the window shows them
    const shown = new ShownVerses([
      { book: "JHN", chapter: 3, verse: 16, verseEnd: 16, windowRefs: [{ book: "JHN", chapter: 3, verse: 17 }, { book: "JHN", chapter: 3, verse: 18 }] },
    ]);
    // nothing here is removed, so what is released is a prefix of what was pushed
    const prose =
      "Deus amou o mundo (João 3:16 e 17). Veja Jo 3:16, v. 17, e também John 3:16.17; leia **João** 3:16 e seguintes " +
      "não, mas João 3:16ss sim? [veja](https://example.com/a) e https://example.com/b. No versículo 17 lemos mais.\n";
    const text = prose.repeat(30);
    const filter = new CitationStreamFilter(shown);
    let pushed = 0;
    let released = "";
    let maxHeld = 0;
    for (let i = 0; i < text.length; i += 3) {
      const chunk = text.slice(i, i + 3);
      pushed += chunk.length;
      released += filter.push(chunk);
      maxHeld = Math.max(maxHeld, pushed - released.length);
    }
    released += filter.end();
    expect(released).toBe(checkCitations(text, shown).text);
    expect(maxHeld).toBeLessThanOrEqual(64);
    // a long unclosed bracket is held up to the link bound only (200 characters), then released
    const open = new CitationStreamFilter(shown);
    const bracket = `[${"palavra ".repeat(40)}`;
    let out = "";
    for (let i = 0; i < bracket.length; i += 5) out += open.push(bracket.slice(i, i + 5));
    expect(bracket.length - out.length).toBeLessThanOrEqual(16);
  });
});
