/**
 * The story index (resources/stories/): Bible episodes with the ways people recall them, read by
 * the topical index's machinery without the words that only ask for a story, and joined to the
 * fusion as one more list for a question that is neither framed as a theme or situation nor a
 * quotation.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStories, STORIES_FILE } from "../src/app/retrieval/topics-file.js";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { storyTerms } from "../src/core/reading/frames.js";
import { TopicalIndex, type Topic } from "../src/core/retrieval/topical-index.js";
import { expectEntriesInCorpus, openBibleEngine, ROOT } from "./support/bible-index.js";

const refs = (response: SearchResponse) => response.results.map((r) => r.ref);
const viaStory = (response: SearchResponse) => response.results.some((r) => r.via.includes("story"));

describe("the story index's reading (pure)", () => {
  it("leaves out the words that only ask for a story", () => {
    expect(storyTerms("o que aconteceu com Geazi?")).toEqual(storyTerms("Geazi"));
    expect(storyTerms("onde fala da história do filho pródigo")).toEqual(storyTerms("filho pródigo"));
    expect(storyTerms("a arca de Noé")).toEqual(["arca", "noe"]);
  });

  it("counts a phrasing towards the coverage only when it holds enough of the question's words", () => {
    const episode: Topic = { id: "luz", title: "luz", phrasings: ["o cego que voltou a ver a luz"], verses: [{ book: "JHN", chapter: 9, verse: 7 }] };
    const index = new TopicalIndex([episode]);
    const selection = { minCoverage: 0.01, maxTopics: 1, minShareOfBest: 0 };
    // One shared word ("luz") of four: counted with the default, not when two must be held.
    expect(index.match("segunda via da conta de luz", selection)).toHaveLength(1);
    expect(index.match("segunda via da conta de luz", { ...selection, minTermsHeld: 2 })).toHaveLength(0);
    expect(index.match("o cego que viu a luz", { ...selection, minTermsHeld: 2 })).toHaveLength(1);
    // A question of one word needs only that one.
    expect(index.match("cego", { ...selection, minTermsHeld: 2 })).toHaveLength(1);
  });
});

describe("the story index on the real Bible index", () => {
  let withStories: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutStories: Awaited<ReturnType<typeof openBibleEngine>>;
  beforeAll(async () => {
    withStories = await openBibleEngine();
    withoutStories = await openBibleEngine({}, { storyWeight: 0 });
  }, 240_000);
  afterAll(async () => {
    await withStories?.close();
    await withoutStories?.close();
  });

  it("holds well-formed episodes whose every verse is in the Bíblia Livre with its text", async () => {
    expectEntriesInCorpus(await loadStories(path.join(ROOT, STORIES_FILE)), withStories.engine, { minEntries: 150, minPhrasings: 12, minVerses: 3 });
  });

  it("answers an episode told in other words with the verses that tell it", async () => {
    const query = "o velho que construiu um barco enorme antes da chuva";
    const found = await withStories.engine.search(query, { k: 5 });
    expect(found.results.slice(0, 3).every((r) => r.book === "GEN" && r.chapter >= 6 && r.chapter <= 8 && r.via.includes("story"))).toBe(true);
    // Without the list, "chuva" and "barco" find other books.
    const plain = await withoutStories.engine.search(query, { k: 5 });
    expect(plain.results.some((r) => r.book === "GEN")).toBe(false);
    expect(viaStory(plain)).toBe(false);
  });

  it("leaves a quotation to its verse: 'amai os vossos inimigos' is Matthew 5:44, not the good Samaritan", async () => {
    const found = await withStories.engine.search("amai os vossos inimigos", { k: 5 });
    expect(refs(found)[0]).toBe("MAT 5:44");
    expect(viaStory(found)).toBe(false);
  });

  it("leaves a saying asked as one to its verse, and reads a question typed without accents as with them", async () => {
    expect(refs(await withStories.engine.search("o que Jesus disse sobre amar os inimigos?", { k: 5 }))[0]).toBe("MAT 5:44");
    for (const query of ["a transfiguração de Jesus", "a purificação do templo", "o menino que derrubou o gigante"]) {
      const folded = query.normalize("NFD").replace(/\p{M}/gu, "");
      expect(refs(await withStories.engine.search(folded, { k: 5 })), query).toEqual(refs(await withStories.engine.search(query, { k: 5 })));
    }
  });

  it("matches no episode on the words that only ask for one ('o que aconteceu com…')", async () => {
    for (const query of ["o que aconteceu com Geazi?", "o que significa ebenezer"]) {
      expect(viaStory(await withStories.engine.search(query, { k: 10 })), query).toBe(false);
    }
  });

  it("changes nothing for a theme or the asker's own situation", async () => {
    for (const query of ["o que a Bíblia diz sobre o perdão?", "estou com medo do futuro", "minha mãe morreu e a saudade não passa"]) {
      expect(refs(await withStories.engine.search(query, { k: 10 })), query).toEqual(refs(await withoutStories.engine.search(query, { k: 10 })));
    }
  });
});
