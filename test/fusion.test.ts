import { describe, expect, it } from "vitest";
import { applyKeywordOnlyQuota, belowTheirSeeds } from "../src/core/retrieval/fusion.js";
import { reciprocalRankFusion } from "../src/core/retrieval/rrf.js";

interface Hit {
  ref: string;
  score: number;
}
const key = (hit: Hit) => hit.ref;
const hits = (...refs: string[]) => refs.map((ref, i) => ({ ref, score: 100 - i }));

describe("reciprocal rank fusion", () => {
  it("prefers items present in both rankings", () => {
    const fused = reciprocalRankFusion(
      [
        { name: "lexical", items: hits("A", "B", "C") },
        { name: "dense", items: hits("D", "C", "E") },
      ],
      key,
    );
    expect(fused[0]!.key).toBe("C");
    expect(fused[0]!.via).toEqual(["lexical", "dense"]);
  });

  it("scores rank 1 in either list as 1/61", () => {
    const fused = reciprocalRankFusion([{ name: "dense", items: hits("X") }], key);
    expect(fused[0]!.score).toBeCloseTo(1 / 61, 12);
    const both = reciprocalRankFusion(
      [
        { name: "lexical", items: hits("X") },
        { name: "dense", items: hits("X") },
      ],
      key,
    );
    expect(both[0]!.score).toBeCloseTo(2 / 61, 12);
  });

  it("keeps the order within one list", () => {
    const fused = reciprocalRankFusion([{ name: "lexical", items: hits("A", "B", "C", "D") }], key);
    expect(fused.map((f) => f.key)).toEqual(["A", "B", "C", "D"]);
  });

  it("fuses by identity, not by object: the same verse from both sides is one result", () => {
    const lexical = [{ ref: "MAT 5:44", score: 17.3 }];
    const dense = [{ ref: "MAT 5:44", score: 0.61 }];
    const fused = reciprocalRankFusion(
      [
        { name: "lexical", items: lexical },
        { name: "dense", items: dense },
      ],
      key,
    );
    expect(fused).toHaveLength(1);
    expect(fused[0]!.ranks).toEqual({ lexical: 1, dense: 1 });
  });

  it("ignores raw scores: a huge BM25 score does not outweigh rank", () => {
    const lexical = [
      { ref: "A", score: 1e9 },
      { ref: "B", score: 1 },
    ];
    const dense = [
      { ref: "B", score: 0.2 },
      { ref: "A", score: 0.1 },
    ];
    const fused = reciprocalRankFusion(
      [
        { name: "lexical", items: lexical },
        { name: "dense", items: dense },
      ],
      key,
    );
    expect(fused[0]!.score).toBeCloseTo(fused[1]!.score, 12);
    expect(fused.map((f) => f.key)).toEqual(["A", "B"]); // tie broken by first appearance
  });

  it("respects the limit and gives nothing for empty rankings", () => {
    expect(reciprocalRankFusion([{ name: "lexical", items: hits("A", "B", "C") }], key, { limit: 2 })).toHaveLength(2);
    expect(reciprocalRankFusion<Hit>([{ name: "lexical", items: [] }, { name: "dense", items: [] }], key)).toEqual([]);
    expect(reciprocalRankFusion<Hit>([], key)).toEqual([]);
  });

  it("breaks ties deterministically, by first appearance", () => {
    const run = () =>
      reciprocalRankFusion(
        [
          { name: "lexical", items: hits("A", "B") },
          { name: "dense", items: hits("B", "A") },
        ],
        key,
      ).map((f) => f.key);
    expect(run()).toEqual(["A", "B"]);
    for (let i = 0; i < 5; i++) expect(run()).toEqual(["A", "B"]);
  });
});

describe("hybrid fusion with the lexical-only quota", () => {
  // What UnitSearch.rank composes for every collection: RRF of the two sides, then the quota.
  const fuseHybrid = (lexical: Hit[], dense: Hit[], key: (item: Hit) => string, options: { limit: number; maxKeywordOnly: number }) =>
    applyKeywordOnlyQuota(reciprocalRankFusion([{ name: "lexical", items: lexical }, { name: "dense", items: dense }], key), options.maxKeywordOnly, options.limit);

  it("lets at most MAX_KEYWORD_ONLY lexical-only hits in", () => {
    const fused = fuseHybrid(hits("L1", "L2", "L3", "L4"), hits("D1", "D2", "D3", "D4"), key, {
      limit: 6,
      maxKeywordOnly: 2,
    });
    const keywordOnly = fused.filter((f) => f.via.length === 1 && f.via[0] === "lexical");
    expect(keywordOnly.map((f) => f.key)).toEqual(["L1", "L2"]);
    expect(fused).toHaveLength(6);
  });

  it("never counts hits confirmed by both sides against the quota", () => {
    const fused = fuseHybrid(hits("A", "B", "C", "L4"), hits("C", "B", "A"), key, { limit: 6, maxKeywordOnly: 1 });
    expect(fused.map((f) => f.key)).toEqual(["A", "C", "B", "L4"]);
  });

  it("a quota of zero keeps lexical-only hits out entirely", () => {
    const fused = fuseHybrid(hits("L1"), hits("D1"), key, { limit: 5, maxKeywordOnly: 0 });
    expect(fused.map((f) => f.key)).toEqual(["D1"]);
  });

  it("quota applies to any ranked list", () => {
    const ranked = [{ via: ["lexical"] }, { via: ["lexical", "dense"] }, { via: ["lexical"] }, { via: ["dense"] }];
    expect(applyKeywordOnlyQuota(ranked, 1, 10)).toEqual([ranked[0], ranked[1], ranked[3]]);
  });
});

describe("what a first hit brought in ranks below it (belowTheirSeeds)", () => {
  const item = (key: string, via: string[] = ["lexical", "dense"]) => ({ key, via });
  const keys = (items: readonly { key: string }[]) => items.map((i) => i.key);
  const linked = (i: { via: string[] }) => i.via.includes("crossref");

  it("moves a linked item that came before its seed to just after it, the rest in order", () => {
    const ranked = [item("linked", ["lexical", "dense", "crossref"]), item("a"), item("seed"), item("b")];
    expect(keys(belowTheirSeeds(ranked, new Map([["linked", "seed"]]), linked))).toEqual(["a", "seed", "linked", "b"]);
  });

  it("keeps several items of one seed in their order, and an item already below its seed where it is", () => {
    const ranked = [item("x", ["crossref"]), item("y", ["crossref"]), item("seed"), item("c"), item("z", ["crossref"])];
    const seeds = new Map([["x", "seed"], ["y", "seed"], ["z", "seed"]]);
    expect(keys(belowTheirSeeds(ranked, seeds, linked))).toEqual(["seed", "x", "y", "c", "z"]);
  });

  it("leaves an item alone when it was not brought in by the list, or when its seed is not ranked", () => {
    const ranked = [item("plain"), item("orphan", ["crossref"]), item("seed")];
    const seeds = new Map([["plain", "seed"], ["orphan", "gone"]]);
    expect(keys(belowTheirSeeds(ranked, seeds, linked))).toEqual(["plain", "orphan", "seed"]);
  });
});
