/**
 * Property test of the citation check (issue #16): generated Markdown answers with references
 * planted in every form (test/support/citation-generator.ts), checked batch and streamed in
 * tokens of 1-4 characters. No disallowed reference may survive in any form, every allowed one
 * must survive and be cited, and the stream must release exactly the batch result.
 * `npm run bench` runs many more (bench/citations.ts).
 */
import { describe, expect, it } from "vitest";
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
