/**
 * The Bible's candidate sources after the first fusion, in the order their lists join it: the
 * verses readers link the first hits to (`crossref`), the verses around the first hits
 * (`context`), the verses about the theme readers link most (`theme`), the topical index's
 * (`topic`), the story index's (`story`) and the stretches of text that hold most of a recalled
 * story (`passage`). Each reads a `VerseContext` and nothing else. Pure.
 */
import { analyze, foldAccents, splitWords } from "../../analysis/index.js";
import { derivationalRoot } from "../lexical-side.js";
import { pointsAtText, speaksInFirstPerson, storyTerms } from "../../reading/frames.js";
import { stretchMasses, stretchScratch, type StretchScratch } from "../stretches.js";
import { firstSorted } from "../first-sorted.js";
import { topicVerses, type TopicalIndex, type TopicSelection } from "../topical-index.js";
import type { Candidate, CandidateList, CandidateSource, FirstFusion, LexicalHit } from "./stage.js";
import { knowledgeSource } from "./knowledge.js";
import { memoized, stageOn, type EngineVerse, type VerseContext, type VerseCorpus } from "./verse-context.js";

/** The first `count` units of the first fusion. */
function seeds(first: FirstFusion, count: number): number[] {
  return first.fused.slice(0, count).map((item) => item.item.doc);
}

/** The theme list of the context (computed once: the cross references read its first verses too). */
function themed(context: VerseContext): Candidate[] {
  return memoized(context, "theme", () => (context.profile.themeWeight > 0 && stageOn(context, "theme") ? themeCandidates(context.corpus, context.settings, context.query, context.depth) : []));
}

/** A cross reference and the seed whose link brought it. */
export interface LinkedCandidate extends Candidate {
  seed: number;
}

/** The cross-reference list of the context (computed once: `below-seeds` reads its seeds). */
export function linked(context: VerseContext): LinkedCandidate[] {
  return memoized(context, "crossref", () => {
    if (!stageOn(context, "crossref")) return [];
    // A theme's first verses also bring in the verses readers link them to ("ansiedade": 1 Peter
    // 5:7 → Philippians 4:6, which says "ansiosos").
    const themeSeeds = themed(context).slice(0, context.settings.themeLinkSeeds).map((item) => item.doc);
    return crossReferenceCandidates(context.corpus, [...new Set([...seeds(context.first, context.settings.crossrefSeeds), ...themeSeeds])], context.settings.crossrefMinVotes);
  });
}

export const crossReferenceSource: CandidateSource<VerseContext> = {
  id: "crossref",
  candidates: (context) => ({ items: linked(context), weight: context.settings.crossrefWeight, detail: { seeds: context.settings.crossrefSeeds, minVotes: context.settings.crossrefMinVotes } }),
};

export const neighbourSource: CandidateSource<VerseContext> = {
  id: "context",
  candidates: (context) =>
    stageOn(context, "context")
      ? { items: neighbourCandidates(context.corpus, seeds(context.first, context.settings.neighbourSeeds), context.settings.neighbourSpan), weight: context.settings.neighbourWeight, detail: { seeds: context.settings.neighbourSeeds, span: context.settings.neighbourSpan } }
      : undefined,
};

export const themeSource: CandidateSource<VerseContext> = {
  id: "theme",
  candidates: (context) => ({ items: themed(context), weight: context.profile.themeWeight, detail: { theme: context.query, depth: context.settings.themeDepth } }),
};

export const topicSource: CandidateSource<VerseContext> = {
  id: "topic",
  candidates: (context) => {
    const { settings, profile } = context;
    if (settings.topicWeight <= 0 || !stageOn(context, "topic")) return undefined;
    // A question about a place or event the data names is no theme nor feeling: "o que houve no
    // monte Sinai?" is not stress piling up like a "monte". (A person may be one: the topical
    // index answers "Quem é Jesus?" with John 1.)
    if (isPlaceOrEvent(context.knowledge)) return { items: [], weight: settings.topicWeight, detail: { matched: [], skipped: `knowledge: ${context.knowledge!.match.kind}` } };
    const framed = profile.topicBar === "framed";
    const selection: TopicSelection = {
      minCoverage: framed ? settings.topicFramedMinCoverage : settings.topicMinCoverage,
      maxTopics: settings.topicMaxTopics,
      minShareOfBest: settings.topicMinShareOfBest,
      ...(framed && settings.topicLongMessageTerms > 0 ? { longMessage: { minTerms: settings.topicLongMessageTerms, minCoverage: settings.topicLongMinCoverage } } : {}),
    };
    // A question of knowledge is about its subject: its frame ("o que aconteceu no…") is no theme's words.
    const asked = context.knowledge?.subject ?? context.query;
    return indexedList(context.corpus, context.corpus.topics, asked, selection, settings.topicWeight);
  },
};

export const storySource: CandidateSource<VerseContext> = {
  id: "story",
  candidates: (context) => {
    const { settings, corpus } = context;
    if (!context.profile.stories || settings.storyWeight <= 0 || !stageOn(context, "story")) return undefined;
    // Read as the story index reads (folded, without the words that only ask for a story), the
    // verse and the question compare alike whether the asker typed the accents or not.
    const terms = new Set(storyTerms(context.query));
    const quoted = terms.size === 0 ? 0 : quotedShare(terms, context.first, (hit) => storyTerms(corpus.verses[hit.doc]!.text));
    if (terms.size === 0 || quoted >= settings.storyMaxQuotedShare) return { items: [], weight: settings.storyWeight, detail: { quoted: round(quoted) } };
    return indexedList(corpus, corpus.stories, context.query, {
      minCoverage: settings.storyMinCoverage,
      maxTopics: settings.storyMaxStories,
      minShareOfBest: settings.storyMinShareOfBest,
      minTermsHeld: settings.storyMinTermsHeld,
    }, settings.storyWeight);
  },
};

/** `passageCandidates`' scratch per corpus, made on first use (filled and read within one synchronous call, so concurrent searches never share it). */
const passageScratches = new WeakMap<VerseCorpus, StretchScratch & { own: Float64Array; runs: Int32Array }>();

export const passageSource: CandidateSource<VerseContext> = {
  id: "passage",
  candidates: (context) => {
    const { settings, corpus } = context;
    if (!context.profile.passages || settings.passageWeight <= 0 || !stageOn(context, "passage")) return undefined;
    return { items: passageCandidates(corpus, settings, context.query), weight: settings.passageWeight, detail: { radius: settings.passageRadius, minShare: settings.passageMinShare } };
  },
};

/** The sources after the first fusion, in the order their lists join it. */
export const VERSE_SOURCES: readonly CandidateSource<VerseContext>[] = [crossReferenceSource, neighbourSource, themeSource, topicSource, storySource, passageSource, knowledgeSource];

/** How many of the first lexical hits are read for a verse that quotes the message (`quotedShare`). */
const QUOTE_HITS = 5;

/**
 * The largest share of the question's words that one of the first lexical hits holds, each hit's
 * words read by `wordsOf` (its matched terms, or its text as the story index reads it): near 1, a
 * verse quotes the question.
 */
export function quotedShare(terms: ReadonlySet<string>, first: Pick<FirstFusion, "lexical">, wordsOf: (hit: LexicalHit) => readonly string[]): number {
  if (terms.size === 0) return 0;
  const quoted = Math.max(
    0,
    ...first.lexical.slice(0, QUOTE_HITS).map((hit) => {
      const held = new Set(wordsOf(hit));
      return [...terms].filter((term) => held.has(term)).length;
    }),
  );
  return quoted / terms.size;
}

/**
 * The verses about a theme that readers link to most: the theme's BM25 hits (own words and
 * lexicon expansions, `themeDepth` deep) ordered by normalised BM25^exponent × the reader
 * prior (log inbound OpenBible votes). "ansiedade" brings Philippians 4:6 and 1 Peter 5:7
 * before the verses that merely say "ansioso".
 */
export function themeCandidates(corpus: VerseCorpus, settings: Pick<VerseContext["settings"], "themeFamilyWeight" | "themeDepth" | "themeLexicalExponent">, theme: string, limit: number): Candidate[] {
  const { prior, lexical } = corpus;
  if (!prior || !lexical) return [];
  const { own, expansions } = lexical.query(theme);
  if (own.length === 0) return [];
  if (settings.themeFamilyWeight > 0) {
    const taken = new Set([...own.map((t) => t.term), ...expansions.map((t) => t.term)]);
    for (const word of splitWords(theme)) {
      for (const term of lexical.families().get(derivationalRoot(foldAccents(word)) ?? "") ?? []) {
        if (taken.has(term) || !lexical.usableExpansion(term)) continue;
        taken.add(term);
        expansions.push({ term, weight: settings.themeFamilyWeight });
      }
    }
  }
  const hits = lexical.index.search([...own, ...expansions], settings.themeDepth).filter((hit) => corpus.verses[hit.doc]!.text !== "");
  const top = hits[0]?.score ?? 0;
  if (top <= 0) return [];
  return hits
    .map((hit) => ({ doc: hit.doc, score: Math.pow(hit.score / top, settings.themeLexicalExponent) * prior[hit.doc]! }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.doc - b.doc)
    .slice(0, limit)
    .map(({ doc }) => ({ doc }));
}

/** Whether a question's knowledge finding is a place or an event. */
function isPlaceOrEvent(finding: VerseContext["knowledge"]): boolean {
  return finding?.match.kind === "place" || finding?.match.kind === "event";
}

/** The verses of the entries of an index of topics or stories that the question matches, each entry's first verse first, in the primary source. */
function indexedList(corpus: VerseCorpus, index: TopicalIndex | undefined, question: string, selection: TopicSelection, weight: number): CandidateList | undefined {
  const source = corpus.primarySource;
  if (!index || !source) return undefined;
  // Typed without accents ("humilhacao"), the question is read in the corpus's spelling, as on the lexical side.
  const matches = index.match(corpus.lexical ? corpus.lexical.restoreAccentsIn(question) : question, selection);
  const items = topicVerses(matches).flatMap((verse) => {
    const doc = corpus.docAt(source, verse.book, verse.chapter, verse.verse);
    return doc !== undefined && corpus.verses[doc]!.text !== "" ? [{ doc }] : [];
  });
  return { items, weight, detail: { matched: matches.map((match) => match.topic.title) } };
}

/**
 * The verses at the heart of the stretches of text that hold most of the question (see
 * `passageWeight`): each verse's stretch sums the idf of the question's own words found in it,
 * each word once; ties go to the verse that holds more of them itself.
 */
export function passageCandidates(corpus: VerseCorpus, settings: Pick<VerseContext["settings"], "passageRadius" | "passageMinShare" | "passageDepth">, question: string): Candidate[] {
  const lexical = corpus.lexical;
  if (!lexical) return [];
  const n = corpus.verses.length;
  let scratch = passageScratches.get(corpus);
  if (!scratch) passageScratches.set(corpus, (scratch = { ...stretchScratch(n), own: new Float64Array(n), runs: bookRuns(corpus.verses) }));
  const own = scratch.own.fill(0);
  const words = lexical.query(question).own.map(({ term, weight }) => ({ docs: lexical.index.documentsOf(term), weight: lexical.index.idf(term) * weight }));
  let total = 0;
  for (const { docs, weight } of words) {
    total += weight;
    for (let i = 0; i < docs.length; i++) own[docs[i]!]! += weight;
  }
  if (total <= 0) return [];
  const { mass: stretch, touched } = stretchMasses(words, n, { radius: settings.passageRadius, runs: scratch.runs, scratch });
  const held: number[] = [];
  for (let i = 0; i < touched.length; i++) {
    const doc = touched[i]!;
    if (stretch[doc]! >= settings.passageMinShare * total && corpus.verses[doc]!.text !== "") held.push(doc);
  }
  // The head of the ranking only (a common word's stretches are thousands): the same as sorting them all.
  return firstSorted(held, settings.passageDepth, (a, b) => stretch[b]! - stretch[a]! || own[b]! - own[a]! || a - b).map((doc) => ({ doc }));
}

/** The verses next to the seeds (same source and book, non-empty), nearest seed first. */
export function neighbourCandidates(corpus: Pick<VerseCorpus, "verses">, seedDocs: readonly number[], span: number): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set(seedDocs);
  for (const seed of seedDocs) {
    const verse = corpus.verses[seed]!;
    for (let offset = 1; offset <= span; offset++) {
      for (const doc of [seed - offset, seed + offset]) {
        const near = corpus.verses[doc];
        if (!near || seen.has(doc) || near.text === "" || near.source !== verse.source || near.book !== verse.book) continue;
        seen.add(doc);
        out.push({ doc });
      }
    }
  }
  return out;
}

/** Verses strongly linked (reader votes) from the seed documents, strongest first. */
export function crossReferenceCandidates(corpus: Pick<VerseCorpus, "verses" | "crossLinks" | "docAt">, seedDocs: readonly number[], minVotes: number): LinkedCandidate[] {
  const links = corpus.crossLinks;
  if (!links || seedDocs.length === 0) return [];
  const candidates: (LinkedCandidate & { strength: number })[] = [];
  const seen = new Set(seedDocs);
  seedDocs.forEach((seed, rank) => {
    const verse = corpus.verses[seed]!;
    for (const link of links.strongest(verse.book, verse.chapter, verse.verse, 8)) {
      if (link.votes < minVotes) continue;
      const doc = corpus.docAt(verse.source, link.book, link.chapter, link.verse);
      if (doc === undefined || seen.has(doc) || corpus.verses[doc]!.text === "") continue;
      seen.add(doc);
      candidates.push({ doc, seed, strength: link.votes / (rank + 1) });
    }
  });
  return candidates.sort((a, b) => b.strength - a.strength || a.doc - b.doc).map(({ doc, seed }) => ({ doc, seed }));
}

/** Per verse, the number of its run of one source's book (verses are in source, book order): a stretch never crosses a run. */
export function bookRuns(verses: readonly EngineVerse[]): Int32Array {
  const runs = new Int32Array(verses.length);
  for (let doc = 1; doc < verses.length; doc++) {
    const same = verses[doc]!.source === verses[doc - 1]!.source && verses[doc]!.book === verses[doc - 1]!.book;
    runs[doc] = runs[doc - 1]! + (same ? 0 : 1);
  }
  return runs;
}

/** Whether the asker tells their own story: in the first person, long enough, and quoted by no verse. */
export function tellsOwnStory(asked: string, first: Pick<FirstFusion, "lexical">, settings: Pick<VerseContext["settings"], "ownStoryMinTerms" | "ownStoryMaxQuotedShare">): boolean {
  if (settings.ownStoryMinTerms <= 0 || !speaksInFirstPerson(asked) || pointsAtText(asked)) return false;
  const terms = new Set(analyze(asked));
  if (terms.size < settings.ownStoryMinTerms) return false;
  return quotedShare(terms, first, (hit) => hit.matchedTerms) < settings.ownStoryMaxQuotedShare;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
