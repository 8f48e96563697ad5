import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { recallsStory } from "../src/core/reading/frames.js";
import { openBibleEngine, useBibleEngine } from "./support/bible-index.js";
import { ASSISTANT_PASSAGES } from "../src/core/reading/assistant-passages.js";

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

describe("a verse typed as it is, without asking where it is written, on the real Bible index", () => {
  const bible = useBibleEngine();

  it("is read as a quotation when a verse holds nearly all of it, that verse first", async () => {
    for (const [typed, verse] of [
      ["ninguém pode servir a dois senhores", "MAT 6:24"],
      ["bem-aventurados os mansos, porque herdarão a terra", "MAT 5:5"],
      // One word of weight ("Deus"): held word for word by a first hit, function words too.
      ["Se Deus é por nós, quem será contra nós?", "ROM 8:31"],
    ] as const) {
      const found = await bible().engine.search(typed, { k: 10 });
      expect(found.reading?.kind, typed).toBe("quotation_check");
      expect(found.reading?.quotation).toMatchObject({ verdict: "found", verses: [verse] });
      expect(found.results[0], typed).toMatchObject({ ref: verse, via: ["quotation"] });
    }
  });

  it("leaves a story told in the Bible's words, a theme and a situation to their own readings", async () => {
    // "o batismo de Jesus no rio Jordão" shares most of its words with Marcos 1:4–5, and is a story.
    // "o que Deus quer de mim hoje?" is as short, and no verse says it word for word.
    for (const query of ["o batismo de Jesus no rio Jordão", "Jesus expulsou os vendilhões do templo", "estou com medo de perder meu emprego e não sei o que fazer", "o que Deus quer de mim hoje?"]) {
      const found = await bible().engine.search(query, { k: 10 });
      expect(found.reading?.kind, query).toBe("question");
      expect(found.reading?.quotation, query).toBeUndefined();
    }
  });
});

describe("a question about the assistant, on the real Bible index", () => {
  const opened = useBibleEngine();

  it("is answered with its topic's passages, each found in the Bíblia Livre, in their order", async () => {
    for (const [topic, passages] of Object.entries(ASSISTANT_PASSAGES)) {
      if (passages.length === 0) continue;
      const resolved = await opened().engine.search(passages.join("; "), { k: 20 });
      expect(resolved.references.length, topic).toBe(passages.length);
      expect(resolved.references.filter((lookup) => !lookup.ok), topic).toEqual([]);
    }
    const trust = await opened().engine.search("dá pra confiar em tudo que você responde?", { k: 6 });
    expect(trust.reading?.kind).toBe("about_assistant");
    expect(refs(trust).slice(0, 3)).toEqual(["ACT 17:11", "1TH 5:21", "1JN 4:1"]);
    const confession = await opened().engine.search("posso me confessar contigo? você perdoa pecados?", { k: 6 });
    expect(confession.reading?.kind).toBe("about_assistant");
    expect(refs(confession)[0]).toBe("1JN 1:9");
  });
});
