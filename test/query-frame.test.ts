import { describe, expect, it } from "vitest";
import { frameWordsOf, withoutFrameWords } from "../src/core/reading/frames.js";
import { lsaTerms } from "../src/core/index/lsa.js";
import { analyze } from "../src/core/analysis/index.js";

describe("question frames", () => {
  it("finds frame words, accented or not", () => {
    expect([...frameWordsOf("a parábola do bom samaritano")]).toEqual(["parabola"]);
    expect([...frameWordsOf("um versiculo sobre perdao")]).toEqual(["versiculo"]);
    expect([...frameWordsOf("o amor de Deus")]).toEqual([]);
  });

  it("takes who spoke as frame in 'o que <quem> disse sobre <assunto>'", () => {
    expect([...frameWordsOf("o que Jesus disse sobre amar os inimigos?")]).toEqual(["jesus"]);
    expect([...frameWordsOf("O que Paulo ensinou a respeito de a graça")]).toEqual(["paulo"]);
    expect([...frameWordsOf("o que a Bíblia diz sobre o dízimo?")].sort()).toEqual(["a", "biblia"]);
    // Not a speech frame: nothing is taken from it.
    expect([...frameWordsOf("o que fazer quando Jesus disse não")]).toEqual([]);
  });

  it("leaves the frame out of the dense query, unless nothing else would be left", () => {
    expect(withoutFrameWords("a parábola do filho pródigo")).toBe("a do filho pródigo");
    expect(withoutFrameWords("o que Jesus disse sobre amar os inimigos?")).toBe("o que disse sobre amar os inimigos?");
    expect(withoutFrameWords("parábolas")).toBe("parábolas");
  });
});

describe("LSA terms for collision-prone short stems", () => {
  it("keeps the listed words apart from their stem's other family", () => {
    expect(analyze("medo mediu")).toEqual(["med", "med"]);
    expect(lsaTerms("medo mediu", new Set(["medo"]))).toEqual(["medo", "med"]);
    expect(lsaTerms("medo mediu", new Set())).toEqual(["med", "med"]);
  });
});
