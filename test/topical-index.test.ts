import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTopics, TOPICS_FILE } from "../src/app/retrieval/topics-file.js";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { parseTopicsFile, TopicalIndex, TopicFileError, topicVerses, type Topic, type TopicSelection } from "../src/core/retrieval/topical-index.js";
import { asksForGuidance, isSituation, speaksOfSelf } from "../src/core/reading/frames.js";
import { expectEntriesInCorpus, openBibleEngine, ROOT } from "./support/bible-index.js";
import path from "node:path";

const ANY: TopicSelection = { minCoverage: 0, maxTopics: 3, minShareOfBest: 0 };

const topic = (id: string, phrasings: string[], verses: [string, number, number][]): Topic => ({
  id,
  title: id,
  phrasings,
  verses: verses.map(([book, chapter, verse]) => ({ book, chapter, verse })),
});

const SMALL = [
  topic("medo", ["tenho medo de tudo", "vivo assustada", "como vencer o medo?"], [["ISA", 41, 10], ["PSA", 56, 3], ["2TI", 1, 7]]),
  topic("luto", ["minha mãe faleceu e a saudade dói", "perdi meu pai", "como lidar com a perda de alguém"], [["PSA", 34, 18], ["MAT", 5, 4], ["ISA", 41, 10]]),
  topic("perdao", ["não consigo perdoar quem me feriu", "perdoar é esquecer?"], [["COL", 3, 13], ["MAT", 6, 14]]),
];

describe("the topical index (pure)", () => {
  it("matches a question to its topic through the Portuguese analysis (stems, folded accents)", () => {
    const index = new TopicalIndex(SMALL);
    const [best] = index.match("Tenho tido MEDOS terríveis", ANY);
    expect(best?.topic.id).toBe("medo");
    // "faleceu" and "saudades" reach "faleceu" and "saudade" through their stems.
    expect(index.match("meu avô faleceu, que saudades", ANY)[0]?.topic.id).toBe("luto");
    expect(index.match("perdoar", ANY)[0]?.topic.id).toBe("perdao");
  });

  it("judges a match by the share of the question's weight one phrasing holds", () => {
    const index = new TopicalIndex(SMALL);
    const full = index.match("tenho medo de tudo", ANY)[0]!;
    expect(full.coverage).toBeCloseTo(1, 5);
    // Words no topic holds weigh as much as the rarest word: they lower the coverage.
    const partial = index.match("tenho medo da prova de cálculo diferencial", ANY)[0]!;
    expect(partial.topic.id).toBe("medo");
    expect(partial.coverage).toBeLessThan(0.5);
    expect(index.match("tenho medo da prova de cálculo diferencial", { ...ANY, minCoverage: 0.5 })).toEqual([]);
  });

  it("judges a long message by its own bar: no phrasing holds most of a situation told at length", () => {
    const index = new TopicalIndex(SMALL);
    const long = "ontem no ônibus lotado voltando do trabalho senti medo de tudo, do motorista, da chuva, do escuro";
    const selection = { ...ANY, minCoverage: 0.3 };
    expect(index.match(long, ANY)[0]!.coverage).toBeLessThan(0.3);
    expect(index.match(long, selection)).toEqual([]);
    expect(index.match(long, { ...selection, longMessage: { minTerms: 5, minCoverage: 0.09 } })[0]?.topic.id).toBe("medo");
    // A short question keeps the ordinary bar.
    const short = "medo do escuro";
    expect(index.match(short, { ...ANY, minCoverage: 0.6, longMessage: { minTerms: 5, minCoverage: 0.1 } })).toEqual([]);
  });

  it("matches nothing when the topics do not share the question's words", () => {
    const index = new TopicalIndex(SMALL);
    expect(index.match("a torre de Babel", ANY)).toEqual([]);
    expect(index.match("???", ANY)).toEqual([]);
  });

  it("keeps at most maxTopics, each further one scoring at least minShareOfBest of the best", () => {
    const index = new TopicalIndex(SMALL);
    const question = "tenho medo de perdoar quem me feriu";
    expect(index.match(question, ANY).map((m) => m.topic.id)).toEqual(expect.arrayContaining(["medo", "perdao"]));
    expect(index.match(question, { ...ANY, maxTopics: 1 })).toHaveLength(1);
    const [first, second] = index.match(question, ANY);
    expect(index.match(question, { ...ANY, minShareOfBest: (second!.score / first!.score) + 0.01 })).toHaveLength(1);
  });

  it("ranks the topic whose title names the question above one that only uses its word more", () => {
    const marriage = [
      { ...topic("crise", ["meu casamento esfriou", "casamento em crise", "brigas no casamento todo dia", "casamento sem diálogo"], [["COL", 3, 13]]), title: "Crise no casamento" },
      { ...topic("casamento", ["vou casar mês que vem", "o que é um bom casamento?"], [["GEN", 2, 24]]), title: "Casamento" },
    ];
    const index = new TopicalIndex(marriage);
    expect(index.match("casamento", ANY).map((m) => m.topic.id)).toEqual(["casamento", "crise"]);
    expect(index.match("meu casamento está em crise", ANY)[0]?.topic.id).toBe("crise");
  });

  it("lists matched topics' verses rank by rank, without repeats", () => {
    const index = new TopicalIndex(SMALL);
    const [medo, luto] = [SMALL[0]!, SMALL[1]!];
    const verses = topicVerses([
      { topic: medo, score: 2, coverage: 1 },
      { topic: luto, score: 1, coverage: 1 },
    ]).map((v) => `${v.book} ${v.chapter}:${v.verse}`);
    expect(verses).toEqual(["ISA 41:10", "PSA 34:18", "PSA 56:3", "MAT 5:4", "2TI 1:7"]);
    expect(topicVerses([])).toEqual([]);
    expect(index.size).toBe(3);
  });

  it("parses the file, naming the file and line of a problem", () => {
    const good = JSON.stringify({ id: "medo", title: "Medo", phrasings: ["tenho medo"], verses: ["ISA 41:10", "1JN 4:18"] });
    expect(parseTopicsFile(`${good}\n\n`, "t.jsonl")[0]!.verses).toEqual([
      { book: "ISA", chapter: 41, verse: 10 },
      { book: "1JN", chapter: 4, verse: 18 },
    ]);
    const bad: [string, RegExp][] = [
      [`${good}\n{oops`, /t\.jsonl, linha 2: JSON inválido/],
      [`${good}\n${good}`, /linha 2: o tema medo aparece duas vezes/],
      [JSON.stringify({ id: "x", title: "X", phrasings: [], verses: ["ISA 41:10"] }), /linha 1: phrasings deve ser uma lista/],
      [JSON.stringify({ id: "x", title: "X", phrasings: ["a"], verses: ["Isaías 41:10"] }), /linha 1: referência inválida: Isaías 41:10/],
      [JSON.stringify({ id: "x", title: "X", phrasings: ["a"], verses: ["XYZ 1:1"] }), /linha 1: referência inválida: XYZ 1:1/],
      [JSON.stringify({ id: "x", title: "X", phrasings: ["a"], verses: ["JHN 0:16"] }), /linha 1: referência inválida: JHN 0:16/],
      [JSON.stringify({ id: "x", phrasings: ["a"], verses: ["ISA 41:10"] }), /linha 1: falta o campo title/],
    ];
    for (const [text, message] of bad) {
      expect(() => parseTopicsFile(text, "t.jsonl")).toThrow(TopicFileError);
      expect(() => parseTopicsFile(text, "t.jsonl")).toThrow(message);
    }
  });
});

const refs = (response: SearchResponse) => response.results.map((r) => r.ref);

describe("the shipped topical index on the real Bible index", () => {
  let withTopics: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutTopics: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutOwnStory: Awaited<ReturnType<typeof openBibleEngine>>;
  beforeAll(async () => {
    withTopics = await openBibleEngine();
    withoutTopics = await openBibleEngine({}, { topicWeight: 0 });
    withoutOwnStory = await openBibleEngine({}, { ownStoryMinTerms: 0 });
  }, 240_000);
  afterAll(async () => {
    await withTopics?.close();
    await withoutTopics?.close();
    await withoutOwnStory?.close();
  });

  it("holds well-formed topics whose every verse is in the Bíblia Livre with its text", async () => {
    expectEntriesInCorpus(await loadTopics(path.join(ROOT, TOPICS_FILE)), withTopics.engine, { minEntries: 200, minPhrasings: 15, minVerses: 6 });
  });

  it("answers a feeling in the asker's own words with the verses of its topic", async () => {
    const query = "tô com o coração apertado pensando no amanhã";
    const found = await withTopics.engine.search(query, { k: 10 });
    const plain = await withoutTopics.engine.search(query, { k: 10 });
    // Mateus 6:34 ("não vos inquieteis pelo dia de amanhã"), Jeremias 29:11, Provérbios 3:5.
    expect(refs(found)).toEqual(expect.arrayContaining(["MAT 6:34", "JER 29:11", "PRO 3:5"]));
    expect(found.results.find((r) => r.ref === "MAT 6:34")?.via).toContain("topic");
    expect(refs(plain)).not.toContain("PRO 3:5");
    expect(plain.results.some((r) => r.via.includes("topic"))).toBe(false);
  });

  it("reads a message about the asker's own life as about a topic ('minha mãe morreu…'), not as a quotation", async () => {
    const query = "minha mãe morreu mês passado e a saudade não passa";
    const found = await withTopics.engine.search(query, { k: 10 });
    // Salmos 34:18 ("Perto está o SENHOR dos quebrantados de coração") and Mateus 5:4 ("os que choram").
    expect(refs(found)).toEqual(expect.arrayContaining(["PSA 34:18", "MAT 5:4"]));
    // Before: Êxodo 21:17, "o que amaldiçoar a seu pai ou a sua mãe, morrerá", came first.
    expect(found.results.slice(0, 3).some((r) => /amaldiçoar a seu pai/.test(r.text))).toBe(false);
  });

  it("answers a situation told at length with its topic's verses, though no phrasing holds most of it", async () => {
    const query = "um incêndio destruiu nossa casa semana passada, perdemos móveis, roupas e documentos e agora estamos de favor na casa da minha irmã";
    // Its best phrasing of "perder tudo num desastre" holds 0.28 of it, under the 0.3 of a short message.
    const found = await withTopics.engine.search(query, { k: 10 });
    expect(refs(found)).toEqual(expect.arrayContaining(["ISA 43:2", "PSA 46:1"]));
    expect(found.results.find((r) => r.ref === "ISA 43:2")?.via).toContain("topic");
    // A quotation that speaks of "nosso" stays a quotation.
    expect(refs(await withTopics.engine.search("pai nosso que estás nos céus", { k: 3 }))[0]).toBe("MAT 6:9");
  });

  it("answers a message of several sentences with its topic's verses, though its best phrasing holds under a tenth of it", async () => {
    const index = await loadTopics(path.join(ROOT, TOPICS_FILE));
    const told =
      "Boa noite. Moro sozinha desde que me mudei pra outra cidade por causa do serviço. Durante a semana até vai, mas no fim de semana ninguém me chama pra nada, passo o domingo inteiro sem falar com ninguém e a casa parece enorme. Não sei mais o que fazer com esse vazio.";
    const best = Math.max(...index.match(told, { minCoverage: 0, maxTopics: 5, minShareOfBest: 0 }).map((m) => m.coverage));
    expect(best).toBeGreaterThanOrEqual(withTopics.engine.settings.topicLongMinCoverage);
    expect(best).toBeLessThan(0.12);
    const found = await withTopics.engine.search(told, { k: 10 });
    // Gênesis 28:15 ("estou contigo, e te guardarei por onde quer que fores") and Deuteronômio 31:8, from
    // "Morar longe da família" and "Solidão"; at the bar of 0.12, Daniel's weeks ("semana") came first.
    expect(refs(found)).toEqual(expect.arrayContaining(["GEN 28:15", "DEU 31:8"]));
    expect(found.results.slice(0, 3).some((r) => r.book === "DAN")).toBe(false);
  });

  it("reads a first-person story that no verse quotes as about a topic ('na firma me chamam de burro…'), a first-person quotation as a quotation", async () => {
    const told = "na firma me chamam de burro na frente de todo mundo e eu engulo calado";
    // No other frame reads it: it neither opens as a situation nor speaks of "meu" or "minha".
    expect(isSituation(told) || speaksOfSelf(told) || asksForGuidance(told)).toBe(false);
    const found = await withTopics.engine.search(told, { k: 10 });
    // Isaías 51:7 ("não temais o opróbrio dos homens") and 1 Pedro 3:9, from "humilhação"; before, John 17 ("o mundo os odiou").
    expect(refs(found)).toEqual(expect.arrayContaining(["ISA 51:7", "1PE 3:9"]));
    expect(found.results.slice(0, 3).every((r) => r.via.includes("topic"))).toBe(true);
    // Its off switch: the same message without the frame gets none of the topic's verses.
    const off = await withoutOwnStory.engine.search(told, { k: 10 });
    expect(off.results.some((r) => r.via.includes("topic"))).toBe(false);
    // In the first person too, but Mateus 11:28 quotes it: left as it was.
    const quotation = "vinde a mim todos os que estais cansados e oprimidos, e eu vos aliviarei";
    expect(refs(await withTopics.engine.search(quotation, { k: 10 }))).toEqual(refs(await withoutOwnStory.engine.search(quotation, { k: 10 })));
    expect(refs(await withTopics.engine.search(quotation, { k: 3 }))[0]).toBe("MAT 11:28");
  });

  it("reads a request for guidance ('como vencer…?', 'é errado…?') as about a topic, at a situation's bar", async () => {
    const index = await loadTopics(path.join(ROOT, TOPICS_FILE));
    const { settings } = withTopics.engine;
    for (const query of ["como vencer a preguiça de manhã?", "é errado guardar mágoa de um parente?"]) {
      // Its best topic holds less of it than an unframed question needs, more than a situation does.
      const best = Math.max(...index.match(query, { minCoverage: 0, maxTopics: 5, minShareOfBest: 0 }).map((m) => m.coverage));
      expect(best, query).toBeLessThan(settings.topicMinCoverage);
      expect(best, query).toBeGreaterThanOrEqual(settings.topicFramedMinCoverage);
      const found = await withTopics.engine.search(query, { k: 10 });
      expect(found.results.some((r) => r.via.includes("topic")), query).toBe(true);
    }
    // "Preguiça": Provérbios 6:6 ("Vai-te à formiga, ó preguiçoso").
    expect(refs(await withTopics.engine.search("como vencer a preguiça de manhã?", { k: 10 }))).toContain("PRO 6:6");
  });

  it("answers a framed theme with the topic's verses and the theme's own ('ansiedade' reaches 'ansiosos')", async () => {
    const top = refs(await withTopics.engine.search("o que a Bíblia diz sobre a ansiedade?", { k: 10 }));
    expect(top).toEqual(expect.arrayContaining(["1PE 5:7", "PHP 4:6", "MAT 6:34"]));
  });

  it("leaves a story whose words no topic holds exactly as it was", async () => {
    for (const query of ["a torre de Babel", "Jonas e o grande peixe"]) {
      expect(refs(await withTopics.engine.search(query, { k: 10 }))).toEqual(refs(await withoutTopics.engine.search(query, { k: 10 })));
    }
  });

  it("keeps a quotation's own verse first", async () => {
    expect(refs(await withTopics.engine.search("o que Jesus disse sobre amar os inimigos?", { k: 3 }))[0]).toBe("MAT 5:44");
    expect(refs(await withTopics.engine.search("o Senhor é o meu pastor, nada me faltará", { k: 3 }))[0]).toBe("PSA 23:1");
  });
});
