import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFF_TOPIC_EXAMPLES, WORLDLY_PASTORAL_EXAMPLES } from "./support/scope-questions.js";
import { loadScopeResources } from "../src/app/retrieval/scope.js";
import { CollectionService } from "../src/app/collection-service.js";
import { readSettings } from "../src/config/settings.js";
import { tempDir } from "./support/usfx.js";
import { analyzeTokens, analyzeWord } from "../src/core/analysis/index.js";
import { contentTokens, CUE_PREFIX, nameShares, passageCoverage, scopeFeatures, textVocabulary, wordEvidence, FEATURE_NAMES, type WordEvidence } from "../src/core/retrieval/scope/features.js";
import { decideScope, type ScopeModel } from "../src/core/retrieval/scope/gate.js";
import { faithWordsOf } from "../src/core/reading/faith-words.js";
import { fitLogistic, predict } from "../src/core/reading/logistic.js";
import { parseTopicRows, TopicLexicon } from "../src/core/retrieval/scope/topics.js";
import { openBibleEngine, ROOT } from "./support/bible-index.js";

let loaded: Awaited<ReturnType<typeof openBibleEngine>>;
beforeAll(async () => {
  loaded = await openBibleEngine();
}, 180_000);
afterAll(async () => loaded?.close());

const scopeOf = async (question: string) => {
  const response = await loaded.engine.search(question);
  expect(response.scope).toBeDefined();
  return response.scope!;
};

const OFF_TOPIC = OFF_TOPIC_EXAMPLES;

const WORLDLY_PASTORAL = WORLDLY_PASTORAL_EXAMPLES;

describe("the out-of-scope gate on the real Bible index", () => {
  it.each(OFF_TOPIC)("refuses %s", async (question) => {
    const scope = await scopeOf(question);
    expect(scope.inScope).toBe(false);
    expect(scope.reasons.rule).toBe("model");
    expect(scope.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it.each(WORLDLY_PASTORAL)("keeps %s", async (question) => {
    expect((await scopeOf(question)).inScope).toBe(true);
  });

  it("keeps quotations, stories, references and feelings", async () => {
    for (const question of ["no princípio criou Deus os céus e a terra", "a história de Jonas", "Jo 3:16", "estou com medo do futuro", "a parábola do filho pródigo"]) {
      expect((await scopeOf(question)).inScope, question).toBe(true);
    }
  });

  it("keeps a Bible story told in the asker's own words, and refuses a film or a match recalled the same way", async () => {
    for (const question of [
      "a mulher que escondeu os espiões no telhado debaixo das palhas",
      "os irmãos que jogaram o caçula num poço vazio e depois venderam ele pros mercadores",
      "o cara q dormiu no colo da mulher e ela mandou cortar o cabelo dele",
    ]) {
      expect((await scopeOf(question)).inScope, question).toBe(true);
    }
    for (const question of ["o filme em que o navio bateu num iceberg e afundou", "aquele jogador que fez o gol de bicicleta na final"]) {
      expect((await scopeOf(question)).inScope, question).toBe(false);
    }
  });

  it("a question that mentions the Bible is in scope, even about what it does not treat", async () => {
    const scope = await scopeOf("a Bíblia fala de dinossauros?");
    expect(scope).toMatchObject({ inScope: true, confidence: 1, reasons: { rule: "faith_word", faithWords: ["biblia"] } });
    expect(scope.reasons.foreign).toContain("dinossauros");
  });

  it("an explicit reference decides by itself", async () => {
    expect((await scopeOf("Rm 8:28 e a cotação do dólar")).reasons.rule).toBe("reference");
  });

  it("explains a refusal: the words foreign to the corpus and what they name", async () => {
    const scope = await scopeOf("qual a cotação do dólar hoje?");
    expect(scope.inScope).toBe(false);
    expect(scope.reasons.foreign).toEqual(["cotacao", "dolar"]);
    expect(scope.reasons.carried).toEqual([]);
    expect(scope.reasons.topics[0]).toBe("noun.possession");
    expect(scope.reasons.weighed[0]!.contribution).toBeGreaterThan(0);
    expect(scope.outOfScopeProbability).toBeGreaterThan(0.5);
  });

  it("explains a kept question: the words that carried it and the passages that support it", async () => {
    const scope = await scopeOf("perdi meu emprego e estou com medo");
    expect(scope.inScope).toBe(true);
    expect(scope.reasons.carried.map((word) => word.word)).toEqual(expect.arrayContaining(["medo", "emprego"]));
    expect(scope.reasons.carried.find((word) => word.word === "medo")!.documents).toBeGreaterThan(100);
    expect(scope.reasons.foreign).toEqual([]);
    expect(scope.reasons.weighed.some((entry) => entry.feature === "firstPerson" && entry.contribution < 0)).toBe(true);
  });

  it("decides the same whatever k and mode the search asks for (it reads the evidence it was fitted on)", async () => {
    for (const question of ["a queda das muralhas de Jericó", "qual o melhor vinho para churrasco?", "estou com medo do futuro"]) {
      const decisions = await Promise.all(
        [{ k: 6 }, { k: 1 }, { k: 10 }, { k: 30 }, { k: 6, mode: "lexical" as const }, { k: 10, mode: "dense" as const }].map(async (options) => (await loaded.engine.search(question, options)).scope),
      );
      for (const decision of decisions) expect(decision, question).toEqual(decisions[0]);
    }
  });

  it("sees a story's words meet in one passage and its names as the text writes them", async () => {
    const { lexicons } = await loadScopeResources();
    const vocabulary = loaded.engine.vocabulary();
    const words = wordEvidence("Eliseu e o machado que caiu na água", vocabulary, lexicons);
    expect(words.find((word) => word.word === "eliseu")?.corpusName).toBe(true);
    expect(words.find((word) => word.word === "machado")?.corpusName).toBeUndefined();
    // 2 Reis 6:5-6 holds them all; "vinho" and "churrasco" never meet.
    expect(passageCoverage(words, vocabulary)).toBe(1);
    expect(passageCoverage(wordEvidence("vinho para churrasco", vocabulary, lexicons), vocabulary)).toBeLessThan(0.5);
  });

  it("reads a typo of a corpus word as that word, not as a foreign one", async () => {
    const words = wordEvidence("estou com mdeo do futuro", loaded.engine.vocabulary(), (await loadScopeResources()).lexicons);
    expect(words.find((word) => word.word === "mdeo")).toMatchObject({ status: "typo", correctedTo: "medo" });
  });

  it("does not take a stem collision for a known word ('relatividade' is not 'relatar')", async () => {
    const words = wordEvidence("teoria da relatividade", loaded.engine.vocabulary(), (await loadScopeResources()).lexicons);
    expect(words.map((word) => [word.word, word.status])).toEqual([
      ["teoria", "foreign"],
      ["relatividade", "foreign"],
    ]);
  });

  it("knows the WordNet senses of verbs and adjectives whose synsets Debian's files moved ('encontrar', 'trair', 'aceitar')", async () => {
    const { lexicons } = await loadScopeResources();
    for (const verb of ["encontrar", "trair", "aceitar", "demitir"]) {
      expect([...(lexicons.topics.topics(analyzeWord(verb), verb)?.lexnames.keys() ?? [])].some((name) => name.startsWith("verb.")), verb).toBe(true);
    }
    // So "encontrei" reads as the asker's own past act, as "perdi" always did.
    const words = wordEvidence("Encontrei uma carteira com dinheiro na calçada", loaded.engine.vocabulary(), lexicons);
    expect(scopeFeatures("Encontrei uma carteira com dinheiro na calçada", words).firstPerson).toBe(1);
  });
});

describe("the gate's pieces", () => {
  it("drops stopwords, numbers and question words from the content words", () => {
    const vocabulary = textVocabulary([], (text) => analyzeTokens(text));
    expect(contentTokens("como fazer um bolo de chocolate em 2024?", vocabulary).map((token) => token.surface)).toEqual(["bolo", "chocolate"]);
  });

  it("reads spoken contractions and chat shorthand as function words ('pra', 'pro', 'vc')", () => {
    const vocabulary = textVocabulary([], (text) => analyzeTokens(text));
    expect(contentTokens("vc sabe pq ele subiu pro céu pra sempre?", vocabulary).map((token) => token.surface)).toEqual(["sabe", "subiu", "ceu", "sempre"]);
    expect(contentTokens("oq aconteceu qdo ele caiu, tbm hj?", vocabulary).map((token) => token.surface)).toEqual(["aconteceu", "caiu"]);
    // The same list the crisis reading spells out (core/analysis/shorthand.ts): "dnv" is "de novo", not a word the Bible lacks.
    expect(contentTokens("perdi o emprego dnv, sla oq fazer", vocabulary).map((token) => token.surface)).toEqual(["perdi", "emprego"]);
  });

  it("passage coverage: the largest share of the question's idf mass that one stretch of units holds", () => {
    const texts = ["Naamã foi ao rio", "e mergulhou sete vezes", "e a lepra o deixou", "outra coisa", "mais outra", "ainda outra", "fim da lepra", "uma ovelha"];
    const vocabulary = textVocabulary(texts.map((text) => ({ text, terms: analyzeTokens(text).map((t) => t.term) })), (text) => analyzeTokens(text));
    const word = (surface: string, specificity: number, status: WordEvidence["status"] = "known"): WordEvidence => ({
      word: surface, term: analyzeTokens(surface)[0]!.term, status, documentFrequency: 1, specificity, lexnames: new Map(), domains: new Set(),
    });
    // "naamã", "rio" and "lepra" meet within 3 units of unit 1; "ovelha" is 7 units from "naamã".
    expect(passageCoverage([word("naamã", 1), word("rio", 1), word("lepra", 1)], vocabulary)).toBe(1);
    expect(passageCoverage([word("naamã", 1), word("ovelha", 1)], vocabulary)).toBe(0.5);
    expect(passageCoverage([word("naamã", 1), word("ovelha", 1)], vocabulary, 7)).toBe(1);
    // A word the collection lacks counts in the question's mass, never in a passage's.
    expect(passageCoverage([word("naamã", 1), word("dinossauro", 1, "foreign")], vocabulary)).toBe(0.5);
    expect(passageCoverage([], vocabulary)).toBe(0);
  });

  it("reads a story being recalled: verbs of the third person past, and someone picked out by what they did", () => {
    const texts = ["e a mulher escondeu os homens no terraço", "e voltou a pomba"];
    const vocabulary = textVocabulary(texts.map((text) => ({ text, terms: analyzeTokens(text).map((t) => t.term) })), (text) => analyzeTokens(text));
    const topics = new TopicLexicon(parseTopicRows("esconder\tverb.contact\t\nvoltar\tverb.motion\t\nmulher\tnoun.person\t\n"));
    const lexicons = { words: { hasStem: () => true }, topics };
    const features = (question: string) => scopeFeatures(question, wordEvidence(question, vocabulary, lexicons));
    expect(features("a mulher q escondeu os homens")).toMatchObject({ narrativeVerbs: 0.5, recallFrame: 1 });
    expect(features("a mulher escondeu os homens e voltou")).toMatchObject({ narrativeVerbs: 1, recallFrame: 0 });
    // An irregular past ("fez") counts without WordNet; a noun ending like a verb ("chapéu") does not.
    expect(features("o homem que fez a casa")).toMatchObject({ narrativeVerbs: 0.5, recallFrame: 0 });
    expect(features("a mulher e o chapéu")).toMatchObject({ narrativeVerbs: 0, recallFrame: 0 });
    expect(features("como esconder a mulher")).toMatchObject({ narrativeVerbs: 0, recallFrame: 0 });
  });

  it("reads a question of fact about how the world is at the start of the question, not a question of conduct or a feeling", () => {
    const vocabulary = textVocabulary([{ text: "o mar", terms: ["mar"] }], (text) => analyzeTokens(text));
    const lexicons = { words: { hasStem: () => true }, topics: new TopicLexicon([]) };
    const frame = (question: string) => scopeFeatures(question, wordEvidence(question, vocabulary, lexicons)).knowledgeFrame;
    for (const question of ["Por que a água do mar é salgada?", "pq o sangue eh vermelho", "quantos ossos tem o corpo humano", "qnts luas jupiter tem", "Qual é a distância entre a Terra e a Lua?", "como se forma o arco-íris", "o que é um buraco negro", "quem inventou o avião", "e em que ano acabou a guerra?"]) {
      expect(frame(question), question).toBe(1);
    }
    for (const question of ["estou com medo do futuro", "posso perdoar quem me traiu?", "o que é a graça", "a mulher que escondeu os espias, por que fez isso?", "meu cachorro morreu, por que dói tanto?"]) {
      expect(frame(question), question).toBe(0);
    }
  });

  it("a name is a word the texts capitalize in mid-sentence; a sentence's first word says nothing", () => {
    const share = nameShares(["Lepra. Naamã foi curado da lepra, disse Naamã.", "E Naamã voltou; a lepra saiu"]);
    expect(share("naama")).toBe(1);
    expect(share("lepra")).toBe(0);
    expect(share("voltou")).toBe(0);
    expect(share("nunca")).toBe(0);
  });

  it("faith words are found folded", () => {
    expect(faithWordsOf("O que a BIBLIA diz sobre Jesus?")).toEqual(["biblia", "jesus"]);
    expect(faithWordsOf("por que o céu é azul?")).toEqual([]);
  });

  it("a faith word in its worldly sense settles nothing: a medical fast, a clause in grammar, a will", () => {
    expect(faithWordsOf("Qual é o valor normal de glicose em jejum?")).toEqual([]);
    expect(faithWordsOf("jejum intermitente emagrece?")).toEqual([]);
    expect(faithWordsOf("quanto tempo de jejum para exame de sangue")).toEqual([]);
    expect(faithWordsOf("o que é oração subordinada adjetiva")).toEqual([]);
    expect(faithWordsOf("como fazer um testamento em cartório")).toEqual([]);
    // The same words in their faith sense still do.
    expect(faithWordsOf("jejum?")).toEqual(["jejum"]);
    expect(faithWordsOf("como fazer jejum e oração")).toEqual(["jejum", "oracao"]);
    expect(faithWordsOf("oração para conseguir emprego")).toEqual(["oracao"]);
    expect(faithWordsOf("livros do Antigo Testamento")).toEqual(["testamento"]);
    expect(faithWordsOf("tem no novo testamento tbm?")).toEqual(["testamento"]);
  });

  it("fits a logistic regression that separates a toy problem and predicts in 0..1", () => {
    const rows = [{ a: 0 }, { a: 0.1 }, { a: 0.9 }, { a: 1 }];
    const model = fitLogistic(["a"], rows, [0, 0, 1, 1], { l2: 0 });
    expect(model.weights[0]!).toBeGreaterThan(0);
    expect(predict(model, { a: 1 })).toBeGreaterThan(0.8);
    expect(predict(model, { a: 0 })).toBeLessThan(0.2);
  });

  it("topics are found by stem, so inflected words reach their lemma", () => {
    const topics = new TopicLexicon(parseTopicRows("imposto\tnoun.possession,noun.possession\tcommerce\n"));
    expect(topics.topics(analyzeTokens("impostos")[0]!.term)).toEqual({ lexnames: new Map([["noun.possession", 1]]), domains: new Set(["commerce"]) });
  });

  it("the shipped model weighs every feature the code computes, plus learned word cues", async () => {
    const { model } = await loadScopeResources();
    expect(model.features.slice(0, FEATURE_NAMES.length)).toEqual(FEATURE_NAMES);
    expect(model.features.slice(FEATURE_NAMES.length).every((name) => name.startsWith(CUE_PREFIX))).toBe(true);
    expect(model.weights).toHaveLength(model.features.length);
    expect(model.threshold).toBeGreaterThan(0.5);
    expect(model.threshold).toBeLessThan(1);
    expect(model.doubtThreshold).toBeGreaterThan(0);
    expect(model.doubtThreshold).toBeLessThan(model.threshold);
  });

  it("keeps a question with a doubt between the doubt threshold and the refusal threshold, never under a rule", () => {
    const vocabulary = textVocabulary([{ text: "amai os vossos inimigos", terms: analyzeTokens("amai os vossos inimigos").map((t) => t.term) }], (text) => analyzeTokens(text));
    const lexicons = { words: { hasStem: () => true }, topics: new TopicLexicon([]) };
    // A model of one constant: P(out of scope) = sigmoid(bias).
    const constant = (bias: number, doubtThreshold?: number): ScopeModel => ({
      features: [],
      weights: [],
      bias,
      threshold: 0.8,
      ...(doubtThreshold === undefined ? {} : { doubtThreshold }),
    });
    const decide = (model: ScopeModel, question = "como consertar o motor do carro") => decideScope({ vocabulary, lexicons, model }, { question });
    expect(decide(constant(0, 0.45))).toMatchObject({ inScope: true, doubtful: true, outOfScopeProbability: 0.5 });
    expect(decide(constant(-1, 0.45))).toMatchObject({ inScope: true, doubtful: false });
    expect(decide(constant(3, 0.45))).toMatchObject({ inScope: false, doubtful: false });
    // No doubt threshold: never a doubt.
    expect(decide(constant(0))).toMatchObject({ inScope: true, doubtful: false });
    // A faith word keeps the question by rule, without a doubt.
    expect(decide(constant(0, 0.45), "o que a Bíblia diz sobre o motor do carro")).toMatchObject({ inScope: true, doubtful: false, reasons: { rule: "faith_word" } });
  });

  it("a question with no content word is left to retrieval (no decision against it)", () => {
    const vocabulary = textVocabulary([{ text: "amai os vossos inimigos", terms: analyzeTokens("amai os vossos inimigos").map((t) => t.term) }], (text) => analyzeTokens(text));
    const model: ScopeModel = { features: [...FEATURE_NAMES], weights: FEATURE_NAMES.map(() => 10), bias: 10, threshold: 0.5 };
    const lexicons = { words: { hasStem: () => true }, topics: new TopicLexicon([]) };
    expect(decideScope({ vocabulary, lexicons, model }, { question: "o que é que nós somos" })).toMatchObject({ inScope: true, reasons: { rule: "no_content" } });
    expect(scopeFeatures("o que é", [])).toMatchObject({ noContent: 1 });
  });
});

describe("the gate on a document collection, against its own vocabulary", () => {
  it("refuses a cake recipe on the sample lessons and keeps a question they treat", async () => {
    const collections = new CollectionService(readSettings({ DATA_DIR: tempDir("pastor-scope-"), COLLECTIONS_DIR: path.join(ROOT, "collections") }));
    await collections.open();
    await collections.reload("exemplo");
    try {
      const search = (query: string) => collections.search("exemplo", query, {});
      const cake = await search("como fazer um bolo de chocolate?");
      expect(cake.scope).toMatchObject({ inScope: false });
      const trinity = await search("o que é a Trindade?");
      expect(trinity.scope?.inScope).toBe(true);
      // The same decision whatever k and mode the search asks for.
      for (const options of [{ k: 1 }, { k: 20 }, { mode: "lexical" as const }]) {
        expect((await collections.search("exemplo", "o que é a Trindade?", options)).scope).toEqual(trinity.scope);
        expect((await collections.search("exemplo", "como fazer um bolo de chocolate?", options)).scope).toEqual(cake.scope);
      }
      expect(trinity.scope?.reasons.carried.map((word) => word.word)).toContain("trindade");
    } finally {
      await collections.close();
    }
  });
});
