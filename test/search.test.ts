import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyze, foldAccents } from "../src/core/analysis/index.js";
import { parseEvalFile } from "../src/core/retrieval/eval.js";
import { SearchEngine, type EngineVerse, type SearchResponse } from "../src/core/retrieval/engine.js";
import { openBibleEngine, ROOT } from "./support/bible-index.js";

let loaded: Awaited<ReturnType<typeof openBibleEngine>>;
beforeAll(async () => {
  loaded = await openBibleEngine();
}, 180_000);
afterAll(async () => loaded?.close());

const refs = (response: SearchResponse) => response.results.map((r) => r.ref);

describe("the real Bible index", () => {
  it("holds all 31,102 verses with a dense side learned from the corpus", () => {
    expect(loaded.engine.size).toBe(31_102);
    expect(loaded.engine.denseAvailable).toBe(true);
    expect(loaded.embedder?.id).toMatch(/^lsa:/);
    expect(loaded.lexicalReady).toBe(true);
  });
});

describe("explicit references are answered by metadata first", () => {
  it("João 3:16 comes first, from the reference, deterministically", async () => {
    for (const query of ["João 3:16", "o que diz Jo 3.16?", "joão 3,16"]) {
      const response = await loaded.engine.search(query);
      expect(response.results[0]!.ref).toBe("JHN 3:16");
      expect(response.results[0]!.via).toEqual(["reference"]);
      expect(response.results[0]!.text).toMatch(/^Porque Deus amou o mundo/);
    }
  });

  it("takes 'book chapter verse' typed with spaces as the reference, and keeps it in scope", async () => {
    for (const [query, first] of [["jo 3 16", "JHN 3:16"], ["ap 21 4", "REV 21:4"], ["proverbios 3 5-6", "PRO 3:5"], ["o que diz filipenses 4 13?", "PHP 4:13"]] as const) {
      const response = await loaded.engine.search(query);
      expect(response.results[0], query).toMatchObject({ ref: first, via: ["reference"] });
      expect(response.scope?.inScope, query).not.toBe(false);
    }
  });

  it("a whole chapter, a range and a list resolve in order", async () => {
    expect(refs(await loaded.engine.search("Salmo 23", { k: 6 }))).toEqual(["PSA 23:1", "PSA 23:2", "PSA 23:3", "PSA 23:4", "PSA 23:5", "PSA 23:6"]);
    expect(refs(await loaded.engine.search("1 Co 13:4-7", { k: 4 }))).toEqual(["1CO 13:4", "1CO 13:5", "1CO 13:6", "1CO 13:7"]);
    expect(refs(await loaded.engine.search("Rm 3:23; 6:23", { k: 2 }))).toEqual(["ROM 3:23", "ROM 6:23"]);
  });

  it("a reference outside the book is reported as not existing, never clamped", async () => {
    const response = await loaded.engine.search("João 30:1");
    expect(response.references).toHaveLength(1);
    expect(response.references[0]!.ok).toBe(false);
    expect(response.references[0]!.message).toMatch(/30/);
    expect(response.results.some((r) => r.book === "JHN" && r.chapter === 21)).toBe(false);
  });
});

describe("hybrid retrieval", () => {
  it("finds Mt 5:44 for 'amar os inimigos' (amar meets amai), in both modes", async () => {
    for (const mode of ["hybrid", "lexical"] as const) {
      const response = await loaded.engine.search("amar os inimigos", { k: 6, mode });
      expect(refs(response).slice(0, 3)).toContain("MAT 5:44");
      const hit = response.results.find((r) => r.ref === "MAT 5:44")!;
      expect(hit.matchedTerms).toEqual(expect.arrayContaining(analyze("amar inimigos")));
    }
    const question = await loaded.engine.search("o que Jesus disse sobre amar os inimigos?", { k: 6 });
    expect(refs(question).slice(0, 3).some((ref) => ["MAT 5:44", "LUK 6:27", "LUK 6:35"].includes(ref))).toBe(true);
  });

  it("puts the saying itself first for 'o que Jesus disse sobre amar os inimigos?', not a verse a cross reference lifted", async () => {
    for (const query of ["o que Jesus disse sobre amar os inimigos?", "amar os inimigos"]) {
      const response = await loaded.engine.search(query, { k: 6 });
      expect(response.results[0]?.ref, query).toBe("MAT 5:44");
    }
    // The rule alone (the topical index, which also lifts Mt 5:44, and the story index off): with it
    // Mt 5:44 is first; without it, John 14:15 ("Se me amais, guardai os meus mandamentos"), which
    // readers link to the John 14 verses the search also found, is lifted above them and Mt 5:44.
    const withRule = await openBibleEngine({}, { topicWeight: 0, storyWeight: 0 });
    const without = await openBibleEngine({}, { off: ["below-seeds"], topicWeight: 0, storyWeight: 0 });
    try {
      expect((await withRule.engine.search("o que Jesus disse sobre amar os inimigos?", { k: 6 })).results[0]?.ref).toBe("MAT 5:44");
      const response = await without.engine.search("o que Jesus disse sobre amar os inimigos?", { k: 6 });
      expect(response.results[0]).toMatchObject({ ref: "JHN 14:15", via: expect.arrayContaining(["crossref"]) });
    } finally {
      await withRule.close();
      await without.close();
    }
  });

  it("does not let a stem collision answer 'medo' with Ezekiel's measurements (medo/mediu share 'med')", async () => {
    // The rule lives on the lexical side: its list holds "medo", never "mediu".
    const lexical = await loaded.engine.search("estou com medo do futuro", { k: 6, mode: "lexical" });
    expect(lexical.results.filter((r) => /\bmedi[ru]|medida/i.test(r.text))).toEqual([]);
    expect(lexical.results.filter((r) => /\bmedo\b/i.test(r.text)).length).toBeGreaterThanOrEqual(4);
    // The fused answer stays with fear and the future, never the measurements.
    const response = await loaded.engine.search("estou com medo do futuro", { k: 6 });
    expect(response.results.filter((r) => /\bmedi[ru]|medida/i.test(r.text))).toEqual([]);
    expect(refs(response)).toContain("MAT 6:34");
    // The collision rule needs enough verses of the exact word: "amar" still meets "amai".
    expect(refs(await loaded.engine.search("amar os inimigos", { k: 3, mode: "lexical" }))).toContain("MAT 5:44");
  });

  it("brings in the verses around the first hits (a story runs over several verses), never from another book", async () => {
    const query = "Jonas engolido por um grande peixe";
    const off = new SearchEngine(loaded.engine.verses, undefined, {}, { ...loaded.engine.settings, neighbourSeeds: 0 });
    expect((await off.search(query, { k: 10, mode: "lexical" })).results.some((r) => r.via.includes("context"))).toBe(false);
    const response = await loaded.engine.search(query, { k: 10 });
    const around = response.results.filter((r) => r.via.includes("context"));
    expect(around.length).toBeGreaterThan(0);
    for (const verse of around) {
      // Within two verses of another result, same book (crossing chapters, as context windows do).
      const window = loaded.engine.windowCoordinates(verse.book, verse.chapter, verse.verse, 2);
      const near = response.results.some(
        (other) => other !== verse && window.some((c) => c.book === other.book && c.chapter === other.chapter && c.verse === other.verse),
      );
      expect(near, `${verse.ref} near another result`).toBe(true);
    }
  });

  it("keeps lexical-only hits within MAX_KEYWORD_ONLY, confirmed hits apart", async () => {
    for (const query of ["estou com medo do futuro", "a parábola do semeador", "Davi e Golias"]) {
      const response = await loaded.engine.search(query, { k: 10 });
      const keywordOnly = response.results.filter((r) => r.via.length === 1 && r.via[0] === "lexical");
      expect(keywordOnly.length).toBeLessThanOrEqual(2);
      expect(response.results).toHaveLength(10);
    }
  });

  it("reports the matched terms and both scores of a hit both sides found", async () => {
    const response = await loaded.engine.search("no princípio criou Deus os céus e a terra", { k: 6 });
    const first = response.results[0]!;
    expect(first.ref).toBe("GEN 1:1");
    // Both sides found it ("criou" also reads the question as a recalled story: the stretch of Genesis 1 votes for it too).
    expect(first.via.slice(0, 2)).toEqual(["lexical", "dense"]);
    expect(first.lexicalScore).toBeGreaterThan(0);
    expect(first.similarity).toBeGreaterThan(0);
  });

  it("gives nothing, without crashing, for empty and stopword-only queries", async () => {
    for (const query of ["", "   ", "o que é que nós somos", "?!"]) {
      const response = await loaded.engine.search(query);
      expect(response.results).toEqual([]);
    }
  });

  it("a similarity floor cannot tell off-topic questions apart (measured lesson)", async () => {
    const topSimilarity = async (query: string) => (await loaded.engine.search(query, { k: 1, mode: "dense" })).results[0]?.similarity ?? 0;
    const offTopic = [
      "qual é a capital da França?", "receita de bolo de cenoura", "quem ganhou a copa do mundo de 2002?", "como investir na bolsa de valores",
      "me indique um bom filme de ação", "como trocar o pneu do carro", "qual o melhor celular de 2025?", "qual a previsão do tempo para amanhã?",
    ];
    // Real questions: the dev set's (references aside: they carry no dense signal) and the project's own-words set.
    const real = ["dev.jsonl", "semantic-own.jsonl"].flatMap((file) =>
      parseEvalFile(readFileSync(path.join(ROOT, "eval", file), "utf8"), file)
        .filter((q) => q.type !== "offtopic" && q.type !== "reference")
        .map((q) => q.query),
    );
    const offScores = await Promise.all(offTopic.map(topSimilarity));
    const realScores = await Promise.all(real.map(topSimilarity));
    // A floor high enough to block every off-topic question would also block a large share of real ones…
    const blockedReal = realScores.filter((score) => score <= Math.max(...offScores)).length;
    expect(blockedReal / real.length).toBeGreaterThan(0.25);
    // …and a floor that lets every real question through blocks no off-topic one.
    expect(offScores.filter((score) => score < Math.min(...realScores))).toEqual([]);
  });
});

describe("questions typed without accents", () => {
  // Written for this test (none is in eval/): nouns in -ção, -ência, -ões… several of which the
  // Bible never writes ("transfiguração", "multiplicação"), so only the suffix rule restores them.
  const questions = [
    "a negação de Pedro", "a multiplicação dos pães", "a traição de Judas", "a conversão de Paulo",
    "a oração no Getsêmani", "a ressurreição de Lázaro", "a purificação do templo", "a transfiguração de Jesus",
    "a ascensão de Jesus", "a tentação de Jesus no deserto", "a paciência de Jó", "a obediência de Abraão",
    "a ordenação dos sacerdotes", "a destruição de Jerusalém", "a libertação do Egito", "perseverança nas provações",
    "a ira de Deus contra a desobediência", "a confissão de pecados", "a humilhação de Cristo", "a santificação do crente",
  ];

  it("find the verses they find with accents, on both sides (before: 10 of these 20 differed in the top 5)", async () => {
    const differing: string[] = [];
    for (const question of questions) {
      const top = async (text: string) => refs(await loaded.engine.search(text, { k: 5 }));
      const accented = await top(question);
      expect(accented).toHaveLength(5);
      if ((await top(foldAccents(question))).join() !== accented.join()) differing.push(question);
    }
    expect(differing).toEqual([]);
  });
});

describe("without embeddings", () => {
  it("degrades cleanly to lexical order, and says so", async () => {
    const lexical = await loaded.engine.search("amai vossos inimigos", { k: 6, mode: "lexical" });
    const noDense = new SearchEngine(loaded.engine.verses, undefined, { denseUnavailableReason: "EMBEDDING_MODEL=none" });
    const response = await noDense.search("amai vossos inimigos", { k: 6 });
    expect(response.mode).toBe("lexical");
    expect(response.notices.join(" ")).toMatch(/Busca semântica indisponível/);
    expect(response.results.every((r) => r.via.length === 1 && r.via[0] === "lexical")).toBe(true);
    expect(refs(response)[0]).toBe(refs(lexical)[0]);
  });

  it("says so when the stored vectors do not describe the verses (a stale index), and never asks the model", async () => {
    const embedder = loaded.embedder!;
    let calls = 0;
    const counting = { ...embedder, id: embedder.id, dimensions: embedder.dimensions, embed: (texts: string[], kind: "query" | "document") => (calls++, embedder.embed(texts, kind)) };
    const verses = loaded.engine.verses;
    const stale = new SearchEngine(verses, new Float32Array(embedder.dimensions * (verses.length - 1)), { embedder: counting });
    const response = await stale.search("amai vossos inimigos", { k: 6 });
    expect(stale.denseAvailable).toBe(false);
    expect(response.mode).toBe("lexical");
    expect(response.notices).toEqual([
      "Busca semântica indisponível (os vetores guardados não correspondem aos versículos do índice; reindexe): resultados por palavras-chave apenas.",
    ]);
    expect(calls).toBe(0);
  });
});

describe("BM25 indexes the verse alone, never the window (measured lesson)", () => {
  it("indexing the window would sink Mt 5:44 for 'amar os inimigos'", async () => {
    const query = "amar os inimigos";
    const verseOnly = new SearchEngine(loaded.engine.verses, undefined, {}, { ...loaded.engine.settings, phraseWeight: 0 });
    const windowed: EngineVerse[] = loaded.engine.verses.map((v) => ({
      ...v,
      terms: analyze([v.contextBefore, v.text, v.contextAfter].join(" ")),
    }));
    const windowEngine = new SearchEngine(windowed, undefined, {}, { ...loaded.engine.settings, phraseWeight: 0 });
    const rankOf = async (engine: SearchEngine) => refs(await engine.search(query, { k: 50, mode: "lexical" })).indexOf("MAT 5:44") + 1;
    const verseRank = await rankOf(verseOnly);
    const windowRank = await rankOf(windowEngine);
    expect(verseRank).toBeGreaterThan(0);
    expect(verseRank).toBeLessThanOrEqual(3);
    expect(windowRank === 0 || windowRank > verseRank).toBe(true);
  });
});
