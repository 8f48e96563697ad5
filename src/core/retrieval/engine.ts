import { analyze, foldAccents, SHORT_STEM_RULE, splitWords } from "../analysis/index.js";
import { bookByCode } from "../bible/books.js";
import type { ContextText, Verse } from "../types.js";
import { MAX_REFERENCE_SPANS } from "../bible/reference-limits.js";
import {
  type BibleReference,
  expandReferences,
  findQueryReferences,
  formatReference,
  type ReferenceMatch,
  validateReference,
  type Versification,
} from "../bible/references.js";
import type { CorpusVocabulary } from "./scope/features.js";
import type { ScopeDecision } from "./scope/gate.js";
import { DEFAULT_HYBRID_SETTINGS, belowTheirSeeds, type DENSE, type HybridSearchSettings, type LEXICAL } from "./fusion.js";
import { asksForGuidance, isSituation, pointsAtText, recallsStory, speaksInFirstPerson, speaksOfSelf, storyTerms, themeOf } from "./query-frame.js";
import { topicVerses, type TopicalIndex, type TopicSelection } from "./topical-index.js";
import { stretchMasses, stretchScratch, type StretchScratch } from "./stretches.js";
import type { SearchMode } from "./dense-side.js";
import { derivationalRoot, type LexicalSettings } from "./lexical-side.js";
import { UnitSearch, type FirstFusion, type FusedUnit, type UnitSearchDependencies, type UnitShape } from "./unit-search.js";

export type { SearchMode };

export type Via = "reference" | typeof LEXICAL | typeof DENSE | "crossref" | "context" | "theme" | "topic" | "story" | "passage";

/** A verse as the engine holds it (the store's row, minus storage details). */
export interface EngineVerse extends Omit<Verse, "canonical">, ContextText {
  terms: readonly string[];
}

/** A verse found for a query: the verse (its book name canonical) and how it was found. */
export interface SearchResult extends Omit<EngineVerse, "terms"> {
  /** Compact coordinate, e.g. "MAT 5:44" (USFX book code). */
  ref: string;
  /** Canonical Portuguese reference, e.g. "Mateus 5:44". */
  reference: string;
  via: Via[];
  matchedTerms: string[];
  score: number;
  lexicalScore?: number;
  similarity?: number;
}

export interface ReferenceLookup {
  text: string;
  start: number;
  end: number;
  reference: string;
  ok: boolean;
  message?: string;
}

export interface SearchResponse {
  query: string;
  mode: SearchMode;
  results: SearchResult[];
  references: ReferenceLookup[];
  /** Plain-Portuguese notes about how the answer was produced (degraded modes). */
  notices: string[];
  /** Whether the Bible has anything to say about the question (the out-of-scope gate), when the gate is loaded. */
  scope?: ScopeDecision;
}

/** The Bible's settings: the hybrid search's, its lexical side's, and what only the Bible has (cross references, neighbours, themes, the reader prior). */
export interface SearchSettings extends HybridSearchSettings, LexicalSettings {
  /** How many of the top fused hits pull in their strongest cross references. */
  crossrefSeeds: number;
  crossrefWeight: number;
  crossrefMinVotes: number;
  /**
   * A verse the cross-reference list lifted never ranks above the verse that linked it: the
   * link is evidence by association, weaker than the direct hit it came from (measured:
   * "amar os inimigos" put John 14:15, linked from the John 14 verses it found, above Mt 5:44).
   */
  crossrefBelowSeed: boolean;
  /** Strength of the "verses readers link to" prior on fused scores (0 turns it off). */
  priorWeight: number;
  /** The same prior applied to BM25 scores before the lexical ranking is cut. */
  lexicalPriorWeight: number;
  /**
   * BM25's first hit is kept first when its score is at least this multiple of the second's
   * (a confident lexical hit, such as a quoted verse); 0 turns it off.
   */
  confidentLexicalRatio: number;
  /** How many of the first fused hits bring their neighbouring verses in (0 turns it off). */
  neighbourSeeds: number;
  neighbourWeight: number;
  /** Verses taken on each side of a seed (same book). */
  neighbourSpan: number;
  /**
   * Topical questions ("o que a Bíblia diz sobre X?", "versículos sobre X", "X na Bíblia"; see
   * query-frame.ts) are searched as a theme: X alone, plus a list of the verses about X that
   * readers link to most. Weight of that list in the fusion (0 turns the lever off).
   */
  themeWeight: number;
  /** The same list for questions without a topical frame (0: only framed questions get it). */
  unframedThemeWeight: number;
  /** The same list for first-person feelings and situations ("estou com medo do futuro"; query-frame.ts). */
  situationThemeWeight: number;
  /** How many BM25 hits of the theme (own words and expansions) the list is drawn from. */
  themeDepth: number;
  /** How strongly BM25 counts in the list's order against reader votes (score^exponent × votes prior). */
  themeLexicalExponent: number;
  /** The reader prior on fused scores for framed themes (the quotation prior stays priorWeight). */
  themePriorWeight: number;
  /** How many of the theme list's first verses bring in the verses readers link them to, and that list's weight. */
  themeLinkSeeds: number;
  /** Weight, in the theme list's query, of corpus words of the theme word's derivational family ("ansiedade" → "ansiosos"); 0 turns it off. */
  themeFamilyWeight: number;
  /**
   * For framed themes: the dense side's weight (their words are rarely the verses' words) and the
   * confident-lexical ratio (0: a verse repeating the theme word is not a quotation to put first);
   * negative: as for any question.
   */
  themeDenseWeight: number;
  themeConfidentLexicalRatio: number;
  themeLinkWeight: number;
  /**
   * The topical index (resources/topics/): the verses of the topics a question is about join
   * the fusion as one list of this weight (0: off), when one of the topic's phrasings holds at
   * least `topicMinCoverage` of the question's weight (`topicFramedMinCoverage` for a framed
   * theme, a first-person situation, a question that speaks of the asker's own life or one that
   * asks for guidance about the asker's conduct, which are surely about a topic, where any other
   * question may be a quotation); at most
   * `topicMaxTopics` topics, each further one scoring at least `topicMinShareOfBest` of the best.
   */
  topicWeight: number;
  topicMinCoverage: number;
  topicFramedMinCoverage: number;
  topicMaxTopics: number;
  topicMinShareOfBest: number;
  /**
   * A framed message of at least this many distinct words (a situation told at length) needs
   * only `topicLongMinCoverage`: no phrasing holds most of a long message (0: no such bar).
   */
  topicLongMessageTerms: number;
  topicLongMinCoverage: number;
  /**
   * The story index (resources/stories/): the verses that tell the Bible episodes a question
   * recalls ("o menino que derrubou um gigante com uma pedra", "a história do filho pródigo")
   * join the fusion as one list of this weight (0: off), the key verse first, when one of the
   * episode's phrasings holds at least `storyMinCoverage` of the question's weight; at most
   * `storyMaxStories` episodes, each further one scoring at least `storyMinShareOfBest` of the
   * best. Not for a question framed as a theme or as the asker's own situation, nor for a
   * quotation: a question of which one of the first lexical hits holds `storyMaxQuotedShare` of
   * the words or more ("amai os vossos inimigos" is Matthew 5:44, not the good Samaritan).
   */
  storyWeight: number;
  storyMinCoverage: number;
  storyMaxStories: number;
  storyMinShareOfBest: number;
  storyMaxQuotedShare: number;
  /** How many of the question's words the phrasing must hold (`TopicSelection.minTermsHeld`). */
  storyMinTermsHeld: number;
  /**
   * A message in the first person ("assinei o divórcio hoje…", "na escola me chamam de…") of at
   * least `ownStoryMinTerms` distinct words, of which no verse among the first lexical hits holds
   * `ownStoryMaxQuotedShare` or more, is the asker telling their own story, not quoting the
   * text: framed like a situation for the topical index (0: off).
   */
  ownStoryMinTerms: number;
  ownStoryMaxQuotedShare: number;
  /**
   * A story recalled in the asker's words (`recallsStory`, and no other frame): the verses at the
   * heart of the stretches of text (a verse and `passageRadius` neighbours on each side, same
   * book) that hold at least `passageMinShare` of the question's idf mass, most first, at most
   * `passageDepth`, join the fusion as one list of weight `passageWeight` (0: off). A story is
   * told over several verses; the lexical side scores them one by one.
   */
  passageWeight: number;
  passageRadius: number;
  passageMinShare: number;
  passageDepth: number;
}

/**
 * Defaults measured on the dev queries with `pastor eval` (see docs/RETRIEVAL.md for the
 * table of what each lever did); generic settings, never rules for particular questions.
 */
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  ...DEFAULT_HYBRID_SETTINGS,
  phraseWeight: 0.5,
  exactWeight: 0,
  shortStemLength: SHORT_STEM_RULE.maxLength,
  shortStemWeight: 0.3,
  shortStemMinExactDf: SHORT_STEM_RULE.minExactDf,
  expansionWeight: 0.3,
  expansionsPerWord: 5,
  denseWeight: 0.85,
  crossrefSeeds: 3,
  crossrefWeight: 0.5,
  crossrefMinVotes: 5,
  crossrefBelowSeed: true,
  priorWeight: 0.25,
  lexicalPriorWeight: 0,
  confidentLexicalRatio: 1.2,
  frameWordWeight: 0.3,
  neighbourSeeds: 5,
  neighbourWeight: 0.2,
  neighbourSpan: 2,
  themeWeight: 1,
  unframedThemeWeight: 0,
  situationThemeWeight: 0.75,
  themeDepth: 200,
  themeLexicalExponent: 0.5,
  themePriorWeight: 1,
  themeLinkSeeds: 3,
  themeFamilyWeight: 1,
  themeDenseWeight: 1.2,
  themeConfidentLexicalRatio: 0,
  themeLinkWeight: 0.5,
  topicWeight: 3,
  topicMinCoverage: 0.5,
  topicFramedMinCoverage: 0.3,
  topicLongMessageTerms: 5,
  topicLongMinCoverage: 0.05,
  topicMaxTopics: 2,
  topicMinShareOfBest: 0.8,
  storyWeight: 3,
  storyMinCoverage: 0.3,
  storyMaxStories: 1,
  storyMinShareOfBest: 0.8,
  storyMaxQuotedShare: 0.8,
  storyMinTermsHeld: 2,
  ownStoryMinTerms: 6,
  ownStoryMaxQuotedShare: 0.5,
  passageWeight: 1,
  passageRadius: 3,
  passageMinShare: 0.5,
  passageDepth: 10,
};

export interface CrossLinks {
  /** Verses strongly linked from a verse, strongest first. */
  strongest(book: string, chapter: number, verse: number, limit: number): readonly { book: string; chapter: number; verse: number; votes: number }[];
  /** How much readers link to a verse (sum of votes of links pointing at it). */
  inboundVotes(book: string, chapter: number, verse: number): number;
}

/** The search's (embedder or why there is none, query expansions, the gate's data) and the Bible's own. */
export interface EngineDependencies extends UnitSearchDependencies {
  crossLinks?: CrossLinks;
  /** The topical index: themes and feelings with the verses a pastor gives for them. */
  topics?: TopicalIndex;
  /** The story index: Bible episodes, the ways people recall them, and the verses that tell them. */
  stories?: TopicalIndex;
  /** Which source answers explicit references and is searched by default. */
  primarySource?: string;
}

const KEY_SEPARATOR = "|";

/** How many of the first lexical hits are read for a verse that quotes the message (`quotedShare`). */
const QUOTE_HITS = 5;
/** Verses of a query's references listed beyond the k asked, for those without text (bridged or omitted verses). */
const REFERENCE_SLACK = 64;

/**
 * The largest share of the question's words that one of the first lexical hits holds, each hit's
 * words read by `wordsOf` (its matched terms, or its text as the story index reads it): near 1, a
 * verse quotes the question.
 */
function quotedShare(terms: ReadonlySet<string>, first: FirstFusion, wordsOf: (hit: FirstFusion["lexical"][number]) => readonly string[]): number {
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

export function coordinateKey(source: string, book: string, chapter: number, verse: number): string {
  return [source, book, chapter, verse].join(KEY_SEPARATOR);
}

/**
 * The Bible's retrieval: the one `UnitSearch` over the verses (BM25 on the verse alone with
 * phrases and weighted expansions, dense similarity on the context windows, fused by rank on
 * the coordinate with the lexical-only quota), and what only verses have — explicit references
 * by metadata first, the verses readers link the first hits to, the verses around them, the
 * theme list and the reader prior. Pure apart from the embedder call.
 */
export class SearchEngine {
  private readonly hybrid: UnitSearch<EngineVerse>;
  private readonly builtVersifications = new Map<string, Versification>();
  private readonly versification = new Map<string, Map<string, number[]>>();
  /** Per document, 0..1: log inbound cross-reference votes, normalised. */
  private readonly prior: Float32Array | undefined;
  /** `passageCandidates`' scratch per document, made on first use (filled and read within one synchronous call, so concurrent searches never share it). */
  private passageScratch: (StretchScratch & { own: Float64Array; runs: Int32Array }) | undefined;
  readonly primarySource: string | undefined;

  constructor(
    readonly verses: readonly EngineVerse[],
    vectorMatrix: Float32Array | undefined,
    private readonly deps: EngineDependencies = {},
    readonly settings: SearchSettings = DEFAULT_SEARCH_SETTINGS,
  ) {
    this.hybrid = new UnitSearch(verses, VERSE_SHAPE, vectorMatrix, deps, settings);
    verses.forEach((verse) => {
      let books = this.versification.get(verse.source);
      if (!books) this.versification.set(verse.source, (books = new Map()));
      let chapters = books.get(verse.book);
      if (!chapters) books.set(verse.book, (chapters = []));
      chapters[verse.chapter - 1] = Math.max(chapters[verse.chapter - 1] ?? 0, verse.verseEnd);
    });
    this.primarySource = deps.primarySource ?? verses[0]?.source;
    this.prior = deps.crossLinks ? buildPrior(verses, deps.crossLinks) : undefined;
    // The theme list's word families (≈ 0.12 s), built at load, not on the first topical question.
    const themes = settings.themeWeight > 0 || settings.situationThemeWeight > 0 || settings.unframedThemeWeight > 0;
    if (this.prior && themes && settings.themeFamilyWeight > 0) this.hybrid.silos[0]?.lexical.families();
  }

  /** The corpus statistics the out-of-scope gate reads (verse documents, stems and exact words). */
  vocabulary(): CorpusVocabulary {
    return this.hybrid.vocabulary();
  }

  get denseAvailable(): boolean {
    return this.hybrid.denseAvailable;
  }

  get size(): number {
    return this.verses.length;
  }

  versificationOf(source = this.primarySource): Versification {
    const books = source ? this.versification.get(source) : undefined;
    return new Map([...(books ?? [])].map(([book, chapters]) => [book, Array.from(chapters, (n) => n ?? 0)]));
  }

  /** `versificationOf`, built once per source for the engine's own reads (never handed out). */
  private versificationFor(source: string): Versification {
    let built = this.builtVersifications.get(source);
    if (!built) this.builtVersifications.set(source, (built = this.versificationOf(source)));
    return built;
  }

  private docAt(source: string, book: string, chapter: number, verse: number): number | undefined {
    return this.hybrid.docAt(coordinateKey(source, book, chapter, verse));
  }

  /** Looks a verse up by coordinate in a source (the primary one by default). */
  verseAt(book: string, chapter: number, verse: number, source = this.primarySource): EngineVerse | undefined {
    if (!source) return undefined;
    const doc = this.docAt(source, book, chapter, verse);
    return doc === undefined ? undefined : this.verses[doc];
  }

  /**
   * Coordinates of a verse's context window: up to `size` non-empty neighbours on each side,
   * same source and book, crossing chapters (the rule the indexer used for the window text).
   */
  windowCoordinates(
    book: string,
    chapter: number,
    verse: number,
    size: number,
    source = this.primarySource,
  ): { book: string; chapter: number; verse: number; verseEnd: number }[] {
    if (!source) return [];
    const doc = this.docAt(source, book, chapter, verse);
    if (doc === undefined) return [];
    const at = (i: number) => this.verses[i];
    const sameBook = (i: number) => at(i)?.source === source && at(i)?.book === book;
    const before: number[] = [];
    for (let i = doc - 1; i >= 0 && sameBook(i) && before.length < size; i--) if (at(i)!.text !== "") before.unshift(i);
    const after: number[] = [];
    for (let i = doc + 1; i < this.verses.length && sameBook(i) && after.length < size; i++) if (at(i)!.text !== "") after.push(i);
    return [...before, doc, ...after].map((i) => {
      const v = at(i)!;
      return { book: v.book, chapter: v.chapter, verse: v.verse, verseEnd: v.verseEnd };
    });
  }

  async search(query: string, options: { k?: number; mode?: SearchMode } = {}): Promise<SearchResponse> {
    const k = options.k ?? this.settings.topK;
    const { mode, notices } = this.hybrid.effectiveMode(options.mode ?? "hybrid");
    const { results, lookups } = await this.resultsFor(query, k, mode);
    const response: SearchResponse = { query, mode, results, references: lookups, notices };
    const searchAgain = async (depth: number, hybrid: SearchMode) => (await this.resultsFor(query, depth, hybrid)).results;
    const scope = await this.hybrid.scopeFor(query, { k, mode, results }, searchAgain, lookups.some((reference) => reference.ok));
    return scope ? { ...response, scope } : response;
  }

  /** The k results for a query: its explicit references first, then the ranked search of the rest. */
  private async resultsFor(query: string, k: number, mode: SearchMode): Promise<{ results: SearchResult[]; lookups: ReferenceLookup[] }> {
    const { lookups, docs: referenceDocs, matches } = this.resolveReferences(query, k);
    const results: SearchResult[] = referenceDocs.map((doc) => this.toResult(doc, ["reference"], [], 1));
    if (results.length >= k) return { results, lookups };

    const remainder = matches.length > 0 ? stripSpans(query, matches) : query;
    const found = await this.rank(remainder, mode, k);
    const seen = new Set(referenceDocs);
    for (const hit of found) {
      if (results.length >= k) break;
      if (seen.has(hit.doc)) continue;
      results.push(this.toResult(hit.doc, hit.via as Via[], hit.matchedTerms, hit.score, hit.lexicalScore, hit.similarity));
    }
    return { results, lookups };
  }

  /**
   * The query's explicit references (at most `MAX_REFERENCE_SPANS` spans are looked up) and the
   * verses they name, at most `limit` of them: each span is
   * validated and counted before any verse is listed (`expandReferences`), so "Sl 1-150;1-150;…"
   * costs its parsing, not the verses it names.
   */
  private resolveReferences(query: string, limit: number): { lookups: ReferenceLookup[]; docs: number[]; matches: ReferenceMatch[] } {
    const lookups: ReferenceLookup[] = [];
    const docs: number[] = [];
    const source = this.primarySource;
    if (!source) return { lookups, docs, matches: [] };
    const versification = this.versificationFor(source);
    const matches = findQueryReferences(query);
    const valid: BibleReference[] = [];
    for (const match of matches) {
      for (const reference of match.references) {
        if (lookups.length >= MAX_REFERENCE_SPANS) break;
        const validity = validateReference(reference, versification);
        const lookup: ReferenceLookup = {
          text: match.text,
          start: match.start,
          end: match.end,
          reference: formatReference(reference),
          ok: validity.ok,
        };
        lookups.push(lookup);
        if (validity.ok) valid.push(reference);
        else lookup.message = validity.message;
      }
    }
    const seen = new Set<number>();
    // A verse without text (a bridge's second number, an omitted verse) is skipped: look a few further.
    for (const coordinate of expandReferences(valid, versification, limit + REFERENCE_SLACK).verses) {
      const doc = this.docAt(source, coordinate.book, coordinate.chapter, coordinate.verse);
      if (doc === undefined || this.verses[doc]!.text === "" || seen.has(doc)) continue;
      seen.add(doc);
      docs.push(doc);
      if (docs.length >= limit) break;
    }
    return { lookups, docs, matches };
  }

  private rank(asked: string, mode: SearchMode, k: number) {
    const { settings, prior } = this;
    const theme = settings.themeWeight > 0 ? themeOf(asked) : undefined;
    const lexicalPrior = prior && settings.lexicalPriorWeight > 0 ? settings.lexicalPriorWeight : 0;
    // A framed theme is searched by itself: the frame ("o que a Bíblia diz sobre") names no content.
    return this.hybrid.rank(theme ?? asked, {
      mode,
      k,
      denseWeight: theme !== undefined && settings.themeDenseWeight >= 0 ? settings.themeDenseWeight : settings.denseWeight,
      lexicalBoost: lexicalPrior > 0 ? (doc) => 1 + lexicalPrior * prior![doc]! : undefined,
      refine: (first) => this.refine(first, asked, theme, k * settings.candidateMultiplier),
    });
  }

  /**
   * The first fusion, refined with what only verses have: more lists built from its first hits
   * (the verses readers link them to, the verses around them — a story or an argument runs
   * over several verses — and the theme's list), the reader prior, a lifted verse kept below
   * the hit that linked it, and a confident lexical hit (a quotation) kept first.
   */
  private refine(first: FirstFusion, asked: string, theme: string | undefined, depth: number): FusedUnit[] {
    const { settings, prior } = this;
    const query = theme ?? asked;
    const seeds = (count: number) => first.fused.slice(0, count).map((item) => item.item.doc);
    const themeWeight =
      theme !== undefined ? settings.themeWeight : isSituation(asked) && settings.situationThemeWeight > 0 ? settings.situationThemeWeight : settings.unframedThemeWeight;
    const themed = themeWeight > 0 ? this.themeCandidates(query, depth) : [];
    // A theme's first verses also bring in the verses readers link them to ("ansiedade":
    // 1 Peter 5:7 → Philippians 4:6, which says "ansiosos").
    const themeSeeds = themeWeight > 0 ? themed.slice(0, settings.themeLinkSeeds).map((item) => item.doc) : [];
    const framed = theme !== undefined || isSituation(asked) || speaksOfSelf(asked) || asksForGuidance(asked) || this.tellsOwnStory(asked, first);
    const linked = this.crossReferenceCandidates([...new Set([...seeds(settings.crossrefSeeds), ...themeSeeds])]);
    const neighbours = this.neighbourCandidates(seeds(settings.neighbourSeeds));
    const linkWeight = themeSeeds.length > 0 ? Math.max(settings.crossrefWeight, settings.themeLinkWeight) : settings.crossrefWeight;
    const more = [
      { name: "crossref", items: linked, weight: linkWeight },
      { name: "context", items: neighbours, weight: settings.neighbourWeight },
      { name: "theme", items: themed, weight: themeWeight },
      { name: "topic", items: this.topicCandidates(query, framed), weight: settings.topicWeight },
      { name: "story", items: framed ? [] : this.storyCandidates(query, first), weight: settings.storyWeight },
      { name: "passage", items: !framed && recallsStory(asked) ? this.passageCandidates(query) : [], weight: settings.passageWeight },
    ].filter((list) => list.items.length > 0);
    let fused = more.length > 0 ? first.fuseWith(more) : first.fused;
    const priorWeight = theme !== undefined ? settings.themePriorWeight : settings.priorWeight;
    if (prior && priorWeight > 0) {
      fused = fused
        .map((item, order) => ({ item: { ...item, score: item.score * (1 + priorWeight * prior[item.item.doc]!) }, order }))
        .sort((a, b) => b.item.score - a.item.score || a.order - b.order)
        .map(({ item }) => item);
    }
    if (settings.crossrefBelowSeed && linked.length > 0) {
      const keyOf = (doc: number) => this.hybrid.keyAt(doc);
      fused = belowTheirSeeds(fused, new Map(linked.map((item) => [keyOf(item.doc), keyOf(item.seed)])), (item) => item.via.includes("crossref"));
    }
    const confidence = theme !== undefined && settings.themeConfidentLexicalRatio >= 0 ? settings.themeConfidentLexicalRatio : settings.confidentLexicalRatio;
    const [best, second] = first.lexical;
    if (confidence > 0 && best && (!second || best.score >= confidence * second.score)) {
      const at = fused.findIndex((item) => item.item.doc === best.doc);
      if (at > 0) fused = [fused[at]!, ...fused.slice(0, at), ...fused.slice(at + 1)];
    }
    return fused;
  }

  /**
   * The verses about a theme that readers link to most: the theme's BM25 hits (own words and
   * lexicon expansions, `themeDepth` deep) ordered by normalised BM25^exponent × the reader
   * prior (log inbound OpenBible votes). "ansiedade" brings Philippians 4:6 and 1 Peter 5:7
   * before the verses that merely say "ansioso".
   */
  private themeCandidates(theme: string, limit: number): { doc: number }[] {
    const prior = this.prior;
    const lexical = this.hybrid.silos[0]?.lexical;
    if (!prior || !lexical) return [];
    const { own, expansions } = lexical.query(theme);
    if (own.length === 0) return [];
    if (this.settings.themeFamilyWeight > 0) {
      const taken = new Set([...own.map((t) => t.term), ...expansions.map((t) => t.term)]);
      for (const word of splitWords(theme)) {
        for (const term of lexical.families().get(derivationalRoot(foldAccents(word)) ?? "") ?? []) {
          if (taken.has(term) || !lexical.usableExpansion(term)) continue;
          taken.add(term);
          expansions.push({ term, weight: this.settings.themeFamilyWeight });
        }
      }
    }
    const hits = lexical.index.search([...own, ...expansions], this.settings.themeDepth).filter((hit) => this.verses[hit.doc]!.text !== "");
    const top = hits[0]?.score ?? 0;
    if (top <= 0) return [];
    const exponent = this.settings.themeLexicalExponent;
    return hits
      .map((hit) => ({ doc: hit.doc, score: Math.pow(hit.score / top, exponent) * prior[hit.doc]! }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit)
      .map(({ doc }) => ({ doc }));
  }

  /** Whether the asker tells their own story (see `ownStoryMinTerms`): in the first person, long enough, and quoted by no verse. */
  private tellsOwnStory(asked: string, first: FirstFusion): boolean {
    const { ownStoryMinTerms, ownStoryMaxQuotedShare } = this.settings;
    if (ownStoryMinTerms <= 0 || !speaksInFirstPerson(asked) || pointsAtText(asked)) return false;
    const terms = new Set(analyze(asked));
    if (terms.size < ownStoryMinTerms) return false;
    return quotedShare(terms, first, (hit) => hit.matchedTerms) < ownStoryMaxQuotedShare;
  }

  /** The verses of the topics the question is about (the topical index), in the primary source. */
  private topicCandidates(question: string, framed: boolean): { doc: number }[] {
    const { settings } = this;
    if (settings.topicWeight <= 0) return [];
    return this.indexedVerses(this.deps.topics, question, {
      minCoverage: framed ? settings.topicFramedMinCoverage : settings.topicMinCoverage,
      maxTopics: settings.topicMaxTopics,
      minShareOfBest: settings.topicMinShareOfBest,
      ...(framed && settings.topicLongMessageTerms > 0 ? { longMessage: { minTerms: settings.topicLongMessageTerms, minCoverage: settings.topicLongMinCoverage } } : {}),
    });
  }

  /** The verses that tell the episodes the question recalls (the story index), in the primary source; none for a quotation. */
  private storyCandidates(question: string, first: FirstFusion): { doc: number }[] {
    const { settings } = this;
    if (settings.storyWeight <= 0) return [];
    // Read as the story index reads (folded, without the words that only ask for a story), the
    // verse and the question compare alike whether the asker typed the accents or not.
    const terms = new Set(storyTerms(question));
    if (terms.size === 0 || quotedShare(terms, first, (hit) => storyTerms(this.verses[hit.doc]!.text)) >= settings.storyMaxQuotedShare) return [];
    return this.indexedVerses(this.deps.stories, question, {
      minCoverage: settings.storyMinCoverage,
      maxTopics: settings.storyMaxStories,
      minShareOfBest: settings.storyMinShareOfBest,
      minTermsHeld: settings.storyMinTermsHeld,
    });
  }

  /** The verses of the entries of an index of topics or stories that the question matches, each entry's first verse first, in the primary source. */
  private indexedVerses(index: TopicalIndex | undefined, question: string, selection: TopicSelection): { doc: number }[] {
    const source = this.primarySource;
    if (!index || !source) return [];
    // Typed without accents ("humilhacao"), the question is read in the corpus's spelling, as on the lexical side.
    const lexical = this.hybrid.silos[0]?.lexical;
    const matches = index.match(lexical ? lexical.restoreAccentsIn(question) : question, selection);
    return topicVerses(matches).flatMap((verse) => {
      const doc = this.docAt(source, verse.book, verse.chapter, verse.verse);
      return doc !== undefined && this.verses[doc]!.text !== "" ? [{ doc }] : [];
    });
  }

  /**
   * The verses at the heart of the stretches of text that hold most of the question (see
   * `passageWeight`): each verse's stretch sums the idf of the question's own words found in it,
   * each word once; ties go to the verse that holds more of them itself.
   */
  private passageCandidates(question: string): { doc: number }[] {
    const { passageWeight, passageRadius, passageMinShare, passageDepth } = this.settings;
    const lexical = this.hybrid.silos[0]?.lexical;
    if (passageWeight <= 0 || !lexical) return [];
    const n = this.verses.length;
    const scratch = (this.passageScratch ??= { ...stretchScratch(n), own: new Float64Array(n), runs: bookRuns(this.verses) });
    const own = scratch.own.fill(0);
    const words = lexical.query(question).own.map(({ term, weight }) => ({ docs: lexical.index.documentsOf(term), weight: lexical.index.idf(term) * weight }));
    let total = 0;
    for (const { docs, weight } of words) {
      total += weight;
      for (let i = 0; i < docs.length; i++) own[docs[i]!]! += weight;
    }
    if (total <= 0) return [];
    const { mass: stretch, touched } = stretchMasses(words, n, { radius: passageRadius, runs: scratch.runs, scratch });
    return touched
      .filter((doc) => stretch[doc]! >= passageMinShare * total && this.verses[doc]!.text !== "")
      .sort((a, b) => stretch[b]! - stretch[a]! || own[b]! - own[a]! || a - b)
      .slice(0, passageDepth)
      .map((doc) => ({ doc }));
  }

  /** The verses next to the seeds (same source and book, non-empty), nearest seed first. */
  private neighbourCandidates(seeds: readonly number[]): { doc: number }[] {
    const out: { doc: number }[] = [];
    const seen = new Set(seeds);
    for (const seed of seeds) {
      const verse = this.verses[seed]!;
      for (let offset = 1; offset <= this.settings.neighbourSpan; offset++) {
        for (const doc of [seed - offset, seed + offset]) {
          const near = this.verses[doc];
          if (!near || seen.has(doc) || near.text === "" || near.source !== verse.source || near.book !== verse.book) continue;
          seen.add(doc);
          out.push({ doc });
        }
      }
    }
    return out;
  }

  /** Verses strongly linked (reader votes) from the seed documents, strongest first. */
  private crossReferenceCandidates(seeds: readonly number[]): { doc: number; seed: number }[] {
    const links = this.deps.crossLinks;
    if (!links || seeds.length === 0) return [];
    const candidates: { doc: number; seed: number; strength: number }[] = [];
    const seen = new Set(seeds);
    seeds.forEach((seed, rank) => {
      const verse = this.verses[seed]!;
      for (const link of links.strongest(verse.book, verse.chapter, verse.verse, 8)) {
        if (link.votes < this.settings.crossrefMinVotes) continue;
        const doc = this.docAt(verse.source, link.book, link.chapter, link.verse);
        if (doc === undefined || seen.has(doc) || this.verses[doc]!.text === "") continue;
        seen.add(doc);
        candidates.push({ doc, seed, strength: link.votes / (rank + 1) });
      }
    });
    return candidates.sort((a, b) => b.strength - a.strength || a.doc - b.doc).map(({ doc, seed }) => ({ doc, seed }));
  }

  private toResult(doc: number, via: Via[], matchedTerms: string[], score: number, lexicalScore?: number, similarity?: number): SearchResult {
    const { terms: _terms, ...verse } = this.verses[doc]!;
    const range = verse.verseEnd > verse.verse ? `${verse.verse}-${verse.verseEnd}` : String(verse.verse);
    const name = bookByCode(verse.book)?.name ?? verse.bookName;
    const result: SearchResult = {
      ...verse,
      ref: `${verse.book} ${verse.chapter}:${range}`,
      reference: `${name} ${verse.chapter}:${range}`,
      bookName: name,
      via,
      matchedTerms,
      score,
    };
    if (lexicalScore !== undefined) result.lexicalScore = lexicalScore;
    if (similarity !== undefined) result.similarity = similarity;
    return result;
  }
}

const VERSE_SHAPE: UnitShape<EngineVerse> = {
  keyOf: (verse) => coordinateKey(verse.source, verse.book, verse.chapter, verse.verse),
  staleVectors: "os vetores guardados não correspondem aos versículos do índice; reindexe",
};

/** Per document, the number of its run of one source's book (documents are in source, book order): a stretch never crosses a run. */
function bookRuns(verses: readonly EngineVerse[]): Int32Array {
  const runs = new Int32Array(verses.length);
  for (let doc = 1; doc < verses.length; doc++) {
    const same = verses[doc]!.source === verses[doc - 1]!.source && verses[doc]!.book === verses[doc - 1]!.book;
    runs[doc] = runs[doc - 1]! + (same ? 0 : 1);
  }
  return runs;
}

function buildPrior(verses: readonly EngineVerse[], links: CrossLinks): Float32Array {
  const votes = verses.map((verse) => links.inboundVotes(verse.book, verse.chapter, verse.verse));
  const max = Math.log1p(Math.max(0, ...votes));
  return Float32Array.from(votes, (v) => (max > 0 ? Math.log1p(Math.max(0, v)) / max : 0));
}

/** The query with the reference spans blanked out, so "o que diz João 3:16?" searches "o que diz". */
function stripSpans(query: string, spans: readonly { start: number; end: number }[]): string {
  return [...spans]
    .sort((a, b) => b.start - a.start)
    .reduce((out, span) => `${out.slice(0, span.start)} ${out.slice(span.end)}`, query);
}
