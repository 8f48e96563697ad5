import { describe, expect, it } from "vitest";
import { Bm25Index } from "../src/core/retrieval/bm25.js";
import { TermDictionary } from "../src/core/retrieval/term-dictionary.js";

/** The scoring as written before the flat index: every hit scored, sorted, cut. */
function reference(documents: string[][], query: { term: string; weight: number }[], limit: number) {
  const k1 = 1.2;
  const b = 0.75;
  const average = documents.reduce((sum, d) => sum + d.length, 0) / documents.length;
  const df = (term: string) => documents.filter((d) => d.includes(term)).length;
  const merged = new Map<string, number>();
  for (const { term, weight } of query) merged.set(term, Math.max(weight, merged.get(term) ?? 0));
  const hits = documents.map((terms, doc) => {
    let score = 0;
    const matchedTerms: string[] = [];
    for (const [term, weight] of merged) {
      const freq = terms.filter((t) => t === term).length;
      if (freq === 0 || weight <= 0) continue;
      const idf = Math.log(1 + (documents.length - df(term) + 0.5) / (df(term) + 0.5)) * weight;
      score += (idf * freq * (k1 + 1)) / (freq + k1 * (1 - b + (b * terms.length) / average));
      matchedTerms.push(term);
    }
    return { doc, score, matchedTerms };
  });
  return hits
    .filter((hit) => hit.score > 0)
    .sort((x, y) => y.score - x.score || x.doc - y.doc)
    .slice(0, limit);
}

describe("TermDictionary", () => {
  it("finds every term it holds, and none it does not, accents and two-byte characters included", () => {
    const terms = ["amor", "amar", "ama", "coração", "fé", "pai nosso", "—", "a", "amor"];
    const { dictionary, sorted } = TermDictionary.fromTerms(terms);
    expect(dictionary.size).toBe(8);
    expect(sorted).toEqual([...new Set(terms)].sort());
    sorted.forEach((term, id) => expect(dictionary.idOf(term)).toBe(id));
    for (const absent of ["", "am", "amores", "coracao", "pai", "z"]) expect(dictionary.has(absent)).toBe(false);
  });
});

describe("Bm25Index", () => {
  it("ranks, scores and reports matched terms as the plain scoring does, to the bit", () => {
    const words = ["deus", "amor", "fe", "paz", "luz", "pai", "filho", "espirito", "graca", "vida"];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    const documents = Array.from({ length: 300 }, () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]!));
    documents.push([]);
    const index = new Bm25Index(documents);
    for (let q = 0; q < 50; q++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ term: random() < 0.1 ? "ausente" : words[Math.floor(random() * words.length)]!, weight: Math.round(random() * 3) / 2 }));
      for (const limit of [1, 5, 40, 1000]) expect(index.search(query, limit)).toEqual(reference(documents, query, limit));
    }
  });

  it("applies the allowed filter before the cut", () => {
    const index = new Bm25Index([["paz"], ["paz", "paz"], ["paz"], ["luz"]]);
    expect(index.search([{ term: "paz", weight: 1 }], 1, (doc) => doc !== 1).map((hit) => hit.doc)).toEqual([0]);
    expect(index.documentFrequency("paz")).toBe(3);
    expect(index.vocabularySize).toBe(2);
  });
});
