import { describe, expect, it } from "vitest";
import { bestPositions, firstSorted } from "../src/core/retrieval/first-sorted.js";

/** Higher score first, then lower id: a total order, as the rankings use. */
const byScore = (a: { id: number; score: number }, b: { id: number; score: number }) => b.score - a.score || a.id - b.id;

describe("firstSorted and bestPositions", () => {
  it("give exactly the head of a full sort, ties broken by the order (small scores: many ties)", () => {
    // A seeded generator (mulberry32): the same 500 cases at every run.
    let seed = 45;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    for (let run = 0; run < 500; run++) {
      const items = Array.from({ length: Math.floor(random() * 200) }, (_, id) => ({ id, score: Math.floor(random() * 6) }));
      const limit = Math.floor(random() * 60);
      const expected = [...items].sort(byScore).slice(0, limit);
      expect(firstSorted(items, limit, byScore)).toEqual(expected);
      const worse = (a: number, b: number) => byScore(items[a]!, items[b]!) > 0;
      const positions = bestPositions(items.length, limit, worse).sort((a, b) => byScore(items[a]!, items[b]!));
      expect(positions.map((at) => items[at]!)).toEqual(expected);
    }
  });

  it("keep nothing for a limit of zero and everything for a limit past the length", () => {
    const items = [3, 1, 2].map((score, id) => ({ id, score }));
    expect(firstSorted(items, 0, byScore)).toEqual([]);
    expect(firstSorted(items, 10, byScore).map((item) => item.id)).toEqual([0, 2, 1]);
  });
});
