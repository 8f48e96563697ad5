import { describe, expect, it } from "vitest";
import { analyze } from "../src/core/analysis/index.js";
import { LexicalSide, PLAIN_LEXICAL } from "../src/core/retrieval/lexical-side.js";
import { reciprocalRankFusion, type RankedList } from "../src/core/retrieval/rrf.js";
import { DEFAULT_SEARCH_SETTINGS } from "../src/core/retrieval/engine.js";
import { DEFAULT_PROFILES, readQuestion, withProfiles } from "../src/core/retrieval/stages/profiles.js";
import { refineFusion, type Candidate, type FirstFusion, type Trace } from "../src/core/retrieval/stages/stage.js";
import { buildPrior, type CrossLinks, type EngineVerse, type VerseContext, type VerseCorpus } from "../src/core/retrieval/stages/verse-context.js";
import { belowSeeds, confidentLexical, readerPrior, withPrior } from "../src/core/retrieval/stages/verse-rerankers.js";
import { crossReferenceCandidates, neighbourCandidates, neighbourSource, passageCandidates, quotedShare, VERSE_SOURCES } from "../src/core/retrieval/stages/verse-sources.js";

/**
 * Each stage of the Bible's ranking on a fixture of a dozen verses (two books, two chapters),
 * never the 31,102-verse index: what it adds or moves, and what it says in the trace.
 */
const TEXTS: [string, number, number, string][] = [
  ["GEN", 1, 1, "No princípio criou Deus os céus e a terra."],
  ["GEN", 1, 2, "E a terra era sem forma e vazia; e havia trevas sobre a face do abismo."],
  ["GEN", 1, 3, "E disse Deus: Haja luz; e houve luz."],
  ["GEN", 1, 4, ""],
  ["GEN", 1, 5, "E chamou Deus à luz Dia; e às trevas chamou Noite."],
  ["GEN", 2, 1, "Assim foram acabados os céus e a terra, e todo o seu exército."],
  ["JHN", 1, 1, "No princípio era o Verbo, e o Verbo estava com Deus."],
  ["JHN", 1, 2, "Este estava no princípio com Deus."],
  ["JHN", 1, 3, "Todas as coisas foram feitas por ele."],
  ["JHN", 1, 4, "Nele estava a vida, e a vida era a luz dos homens."],
  ["JHN", 1, 5, "E a luz resplandece nas trevas, e as trevas não a compreenderam."],
];

const verses: EngineVerse[] = TEXTS.map(([book, chapter, verse, text]) => ({
  source: "fixture.usfx.xml",
  book,
  bookName: book,
  chapter,
  verse,
  verseEnd: verse,
  text,
  contextBefore: "",
  contextAfter: "",
  terms: analyze(text),
}));

const key = (doc: number) => `${verses[doc]!.book} ${verses[doc]!.chapter}:${verses[doc]!.verse}`;
const docOf = (ref: string) => verses.findIndex((_, doc) => key(doc) === ref);

/** OpenBible-style links of the fixture: GEN 1:1 → JHN 1:1 (40 votes), JHN 1:3 (12), GEN 2:1 (3). */
const LINKS: Record<string, { ref: string; votes: number }[]> = {
  "GEN 1:1": [
    { ref: "JHN 1:1", votes: 40 },
    { ref: "JHN 1:3", votes: 12 },
    { ref: "GEN 2:1", votes: 3 },
  ],
  "GEN 1:3": [{ ref: "JHN 1:5", votes: 20 }],
};
const crossLinks: CrossLinks = {
  strongest: (book, chapter, verse, limit) =>
    (LINKS[`${book} ${chapter}:${verse}`] ?? []).slice(0, limit).map(({ ref, votes }) => {
      const [b, cv] = ref.split(" ");
      const [c, v] = cv!.split(":").map(Number);
      return { book: b!, chapter: c!, verse: v!, votes };
    }),
  inboundVotes: (book, chapter, verse) =>
    Object.values(LINKS)
      .flat()
      .filter((link) => link.ref === `${book} ${chapter}:${verse}`)
      .reduce((sum, link) => sum + link.votes, 0),
};

const corpus: VerseCorpus = {
  verses,
  primarySource: "fixture.usfx.xml",
  prior: buildPrior(verses, crossLinks),
  lexical: new LexicalSide(verses, { bm25K1: 1.2, bm25B: 0.75, ...PLAIN_LEXICAL }),
  crossLinks,
  topics: undefined,
  stories: undefined,
  knowledge: undefined,
  docAt: (_source, book, chapter, verse) => {
    const doc = docOf(`${book} ${chapter}:${verse}`);
    return doc >= 0 ? doc : undefined;
  },
  keyAt: key,
};

/** A first fusion of the given lexical and dense orders (refs), as UnitSearch makes it. */
function firstFusion(lexical: [string, number][], dense: string[]): FirstFusion {
  const lexicalHits = lexical.map(([ref, score]) => ({ doc: docOf(ref), score, matchedTerms: [] as string[] }));
  const sides: RankedList<Candidate>[] = [
    { name: "lexical", items: lexicalHits },
    { name: "dense", items: dense.map((ref) => ({ doc: docOf(ref) })) },
  ];
  const fuseWith = (more: readonly RankedList<Candidate>[]) => reciprocalRankFusion<Candidate>([...sides, ...more], (item) => key(item.doc));
  return { fused: fuseWith([]), lexical: lexicalHits, dense: [], fuseWith };
}

function contextFor(first: FirstFusion, asked: string, settings = DEFAULT_SEARCH_SETTINGS): VerseContext {
  const reading = readQuestion(asked);
  return { corpus, settings, first, asked, query: reading.theme ?? asked, profileId: reading.profile, profile: settings.profiles[reading.profile], depth: 20, memo: new Map() };
}

const trace = (): Trace => ({ entries: [], label: key });

describe("the profiles", () => {
  it("reads each kind of question to its profile, in order of precedence", () => {
    expect(readQuestion("o que a Bíblia diz sobre a ansiedade?")).toEqual({ profile: "theme", theme: "a ansiedade" });
    expect(readQuestion("estou com medo do futuro")).toEqual({ profile: "situation" });
    expect(readQuestion("devo contar pro meu amigo que a esposa dele mente?")).toEqual({ profile: "guidance" });
    expect(readQuestion("minha mãe morreu mês passado")).toEqual({ profile: "self" });
    expect(readQuestion("o homem que lutou a noite inteira com um anjo")).toEqual({ profile: "story" });
    expect(readQuestion("amai os vossos inimigos")).toEqual({ profile: "plain" });
    expect(readQuestion("o que a Bíblia diz sobre a ansiedade?", { themes: false })).toEqual({ profile: "plain" });
  });

  it("changes one profile's values and leaves the others as they are", () => {
    const changed = withProfiles({ theme: { themeWeight: 3 } });
    expect(changed.theme).toEqual({ ...DEFAULT_PROFILES.theme, themeWeight: 3 });
    expect(changed.plain).toEqual(DEFAULT_PROFILES.plain);
  });
});

describe("the candidate sources", () => {
  it("context: the verses around the seeds, same book, nearest seed first, empty verses skipped", () => {
    const items = neighbourCandidates(corpus, [docOf("GEN 1:3"), docOf("JHN 1:1")], 2).map((item) => key(item.doc));
    // GEN 1:4 is empty; JHN 1:1's neighbours before it are another book.
    expect(items).toEqual(["GEN 1:2", "GEN 1:1", "GEN 1:5", "JHN 1:2", "JHN 1:3"]);
  });

  it("crossref: the verses readers link the seeds to, strongest first, each with the seed that brought it, weak links left out", () => {
    const items = crossReferenceCandidates(corpus, [docOf("GEN 1:3"), docOf("GEN 1:1")], 5);
    expect(items.map((item) => [key(item.doc), key(item.seed)])).toEqual([
      // 40 votes / rank 2 = 20 ties 20 / 1: the lower position first.
      ["JHN 1:1", "GEN 1:1"],
      ["JHN 1:5", "GEN 1:3"],
      ["JHN 1:3", "GEN 1:1"],
    ]);
  });

  it("passage: the verses whose stretch of text holds most of the question, never across books", () => {
    const found = passageCandidates(corpus, { passageRadius: 3, passageMinShare: 0.9, passageDepth: 5 }, "Verbo vida luz").map((item) => key(item.doc));
    expect(found).toContain("JHN 1:4");
    expect(found.every((ref) => ref.startsWith("JHN"))).toBe(true);
  });

  it("names its share of a question quoted by one of the first lexical hits", () => {
    const first = { lexical: [{ doc: docOf("GEN 1:1"), score: 3, matchedTerms: ["princip", "cri", "deus"] }] };
    expect(quotedShare(new Set(["princip", "cri", "deus", "ceus"]), first, (hit) => hit.matchedTerms)).toBe(0.75);
  });
});

describe("the rerankers", () => {
  it("reader-prior: a verse readers link to more moves up by the profile's weight, ties in their order", () => {
    const first = firstFusion([["GEN 1:5", 2], ["JHN 1:1", 1.9]], []);
    const ranked = withPrior(first.fused, corpus.prior!, 1).map((item) => key(item.item.doc));
    expect(ranked).toEqual(["JHN 1:1", "GEN 1:5"]);
    const context = contextFor(first, "estou com medo do futuro", { ...DEFAULT_SEARCH_SETTINGS, off: ["reader-prior"] });
    expect(readerPrior.rerank(first.fused, context).ranked).toBe(first.fused);
  });

  it("confident-lexical: BM25's first hit first when it scores the ratio times the second's, not for a theme", () => {
    const first = firstFusion([["GEN 1:3", 10], ["JHN 1:5", 2]], ["JHN 1:5", "JHN 1:4", "GEN 1:3"]);
    expect(key(first.fused[0]!.item.doc)).toBe("JHN 1:5");
    const moved = confidentLexical.rerank(first.fused, contextFor(first, "haja luz"));
    expect(key(moved.ranked[0]!.item.doc)).toBe("GEN 1:3");
    expect(moved.detail).toEqual({ ratio: 1.2, confident: true });
    const theme = confidentLexical.rerank(first.fused, contextFor(first, "o que a Bíblia diz sobre a luz?"));
    expect(theme.ranked).toBe(first.fused);
  });

  it("below-seeds: a verse the cross references lifted never ranks above the verse that linked it", () => {
    const first = firstFusion([["GEN 1:1", 5]], ["GEN 1:1"]);
    const context = contextFor(first, "no princípio");
    const withLinks = first.fuseWith([{ name: "crossref", items: [{ doc: docOf("JHN 1:1") }], weight: 50 }]);
    expect(key(withLinks[0]!.item.doc)).toBe("JHN 1:1");
    // The cross-reference list of the context (seeded by GEN 1:1) is what below-seeds reads.
    const ranked = belowSeeds.rerank(withLinks, context).ranked.map((item) => key(item.item.doc));
    expect(ranked.indexOf("GEN 1:1")).toBeLessThan(ranked.indexOf("JHN 1:1"));
  });
});

describe("the refinement and its trace", () => {
  it("runs every source in order, fuses their lists after the two sides, then each reranker, one trace entry each", () => {
    const first = firstFusion([["GEN 1:1", 4], ["GEN 1:3", 3]], ["GEN 1:3"]);
    const t = trace();
    const ranked = refineFusion(contextFor(first, "haja luz"), first, VERSE_SOURCES, [readerPrior, belowSeeds, confidentLexical], t);
    expect(t.entries.map((entry) => entry.stage)).toEqual(["crossref", "context", "theme", "topic", "story", "passage", "knowledge", "fusion", "reader-prior", "below-seeds", "confident-lexical"]);
    // Seeds GEN 1:3 (first) and GEN 1:1 (second): 20 / 1 and 40 / 2 tie, 12 / 2 next, GEN 2:1's 3 votes are too few.
    expect(t.entries[0]).toMatchObject({ stage: "crossref", weight: 0.5, added: 3, first: ["JHN 1:1", "JHN 1:5", "JHN 1:3"], minVotes: 5 });
    expect(t.entries[1]).toMatchObject({ stage: "context", weight: 0.2, span: 2 });
    expect(t.entries[1]!.first).toEqual(expect.arrayContaining(["GEN 1:2", "GEN 1:5"]));
    expect(t.entries[2]).toEqual({ stage: "theme", added: 0, theme: "haja luz", depth: 200 });
    expect(t.entries[6]).toEqual({ stage: "knowledge", added: 0 });
    expect(t.entries[7]).toMatchObject({ stage: "fusion", lists: ["lexical", "dense", "crossref", "context"] });
    // BM25's first hit scores 4 ≥ 1.2 × 3: a quotation, kept first.
    expect(t.entries[10]).toMatchObject({ stage: "confident-lexical", confident: true });
    expect(key(ranked[0]!.item.doc)).toBe("GEN 1:1");
    // A verse the cross references lifted stays below the verse that linked it.
    const order = ranked.map((item) => key(item.item.doc));
    expect(order.indexOf("GEN 1:1")).toBeLessThan(order.indexOf("JHN 1:1"));
  });

  it("a stage switched off adds nothing and says so", () => {
    const first = firstFusion([["GEN 1:3", 4]], []);
    const context = contextFor(first, "haja luz", { ...DEFAULT_SEARCH_SETTINGS, off: ["context"] });
    expect(neighbourSource.candidates(context)).toBeUndefined();
    const t = trace();
    refineFusion(context, first, [neighbourSource], [], t);
    expect(t.entries).toEqual([{ stage: "context", added: 0 }]);
  });
});
