import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { recallsStory } from "../src/core/reading/frames.js";
import { openBibleEngine } from "./support/bible-index.js";

const refs = (response: SearchResponse) => response.results.map((r) => r.ref);

describe("a story recalled in the asker's words", () => {
  it("is read from a verb of what someone did, or from a word that names the text", () => {
    for (const query of ["o homem que lutou a noite inteira", "a mulher que escondeu os espiões", "aquela passagem do gigante"]) {
      expect(recallsStory(query), query).toBe(true);
    }
    for (const query of ["estou com medo do futuro", "o Senhor é o meu pastor", "amar os inimigos"]) {
      expect(recallsStory(query), query).toBe(false);
    }
  });
});

describe("the stretches of text that hold a recalled story, on the real Bible index", () => {
  let withPassages: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutPassages: Awaited<ReturnType<typeof openBibleEngine>>;
  beforeAll(async () => {
    // The story index finds Jacob's fight too (test/story-index.test.ts): off on both sides, to see the stretches alone.
    withPassages = await openBibleEngine({}, { storyWeight: 0 });
    withoutPassages = await openBibleEngine({}, { passageWeight: 0, storyWeight: 0 });
  }, 240_000);
  afterAll(async () => {
    await withPassages?.close();
    await withoutPassages?.close();
  });

  it("brings the verses of the story's stretch ahead of verses that share one of its words", async () => {
    const story = "o homem que lutou a noite inteira e ficou mancando da coxa";
    const found = await withPassages.engine.search(story, { k: 10 });
    // Gênesis 32:24–32: Jacó luta até o romper da aurora, a coxa deslocada, "e coxeava".
    expect(found.results.slice(0, 6).every((r) => r.book === "GEN" && r.chapter === 32)).toBe(true);
    expect(found.results.some((r) => r.via.includes("passage"))).toBe(true);
    // Scored verse by verse, Matthew 21:14 ("coxos") and Job 29:15 came among them.
    const plain = await withoutPassages.engine.search(story, { k: 10 });
    expect(plain.results.slice(0, 6).some((r) => r.book !== "GEN")).toBe(true);
    expect(plain.results.some((r) => r.via.includes("passage"))).toBe(false);
  });

  it("leaves quotations, themes and the asker's own situations as they were", async () => {
    for (const query of ["o que Jesus disse sobre amar os inimigos?", "estou com medo do futuro", "o que a Bíblia diz sobre a ansiedade?"]) {
      const found = await withPassages.engine.search(query, { k: 10 });
      expect(found.results.some((r) => r.via.includes("passage")), query).toBe(false);
      expect(refs(found), query).toEqual(refs(await withoutPassages.engine.search(query, { k: 10 })));
    }
  });
});
