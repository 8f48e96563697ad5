import { SHORT_STEM_RULE } from "../analysis/index.js";
import { bookByCode } from "../bible/books.js";
import { withinVerseBounds } from "../bible/bounds.js";
import { expandReference, findQueryReferences, formatReference, validateReference, type Versification } from "../bible/references.js";
import type { CorpusVocabulary } from "./scope/features.js";
import type { ScopeDecision } from "./scope/gate.js";
import { DEFAULT_HYBRID_SETTINGS, type DENSE, type HybridSearchSettings, type LEXICAL } from "./fusion.js";
import type { TopicalIndex } from "./topical-index.js";
import type { SearchMode } from "./dense-side.js";
import type { LexicalSettings } from "./lexical-side.js";
import { UnitSearch, type FirstFusion, type UnitSearchDependencies, type UnitShape } from "./unit-search.js";
import { DEFAULT_PROFILES, isFramed, readQuestion, type ProfileId } from "./stages/profiles.js";
import { refineFusion, type Trace, type TraceEntry } from "./stages/stage.js";
import { buildPrior, type CrossLinks, type EngineVerse, type VerseContext, type VerseCorpus, type VerseStageSettings } from "./stages/verse-context.js";
import { VERSE_RERANKERS } from "./stages/verse-rerankers.js";
import { tellsOwnStory, VERSE_SOURCES } from "./stages/verse-sources.js";

export type { SearchMode };

export type Via = "reference" | typeof LEXICAL | typeof DENSE | "crossref" | "context" | "theme" | "topic" | "story" | "passage";

export type { CrossLinks, EngineVerse };

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
  /** The explain trace, when asked for: one entry per stage, in order (`stages/stage.ts`). */
  explain?: TraceEntry[];
}

/** The Bible's settings: the hybrid search's, its lexical side's, and its stages' (cross references, neighbours, themes, topics, stories, stretches, the per-kind profiles). */
export interface SearchSettings extends HybridSearchSettings, LexicalSettings, VerseStageSettings {}

/**
 * Defaults measured on the dev queries and the seen sets with `pastor eval` (see
 * docs/RETRIEVAL.md for what each stage did); generic settings, never rules for particular
 * questions. The dense side's weight is each profile's.
 */
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  ...DEFAULT_HYBRID_SETTINGS,
  phraseWeight: 0.5,
  shortStemLength: SHORT_STEM_RULE.maxLength,
  shortStemWeight: 0.3,
  shortStemMinExactDf: SHORT_STEM_RULE.minExactDf,
  expansionWeight: 0.3,
  expansionsPerWord: 5,
  frameWordWeight: 0.3,
  crossrefSeeds: 3,
  crossrefWeight: 0.5,
  crossrefMinVotes: 5,
  neighbourSeeds: 5,
  neighbourWeight: 0.2,
  neighbourSpan: 2,
  themeDepth: 200,
  themeLexicalExponent: 0.5,
  themeLinkSeeds: 3,
  themeFamilyWeight: 1,
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
  profiles: DEFAULT_PROFILES,
  off: [],
};

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
  /** What the stages read of the verses (one object per engine: the stretches' scratch is kept per corpus). */
  private readonly corpus: VerseCorpus;
  readonly primarySource: string | undefined;

  constructor(
    readonly verses: readonly EngineVerse[],
    vectorMatrix: Float32Array | undefined,
    private readonly deps: EngineDependencies = {},
    readonly settings: SearchSettings = DEFAULT_SEARCH_SETTINGS,
  ) {
    this.hybrid = new UnitSearch(verses, VERSE_SHAPE, vectorMatrix, deps, settings);
    verses.forEach((verse) => {
      // A chapter beyond the bounds would size the array (app/retrieval/load-engine leaves such verses out).
      if (!withinVerseBounds(verse)) return;
      let books = this.versification.get(verse.source);
      if (!books) this.versification.set(verse.source, (books = new Map()));
      let chapters = books.get(verse.book);
      if (!chapters) books.set(verse.book, (chapters = []));
      chapters[verse.chapter - 1] = Math.max(chapters[verse.chapter - 1] ?? 0, verse.verseEnd);
    });
    this.primarySource = deps.primarySource ?? verses[0]?.source;
    const hybrid = this.hybrid;
    const primarySource = this.primarySource;
    this.corpus = {
      verses,
      primarySource,
      prior: deps.crossLinks ? buildPrior(verses, deps.crossLinks) : undefined,
      lexical: hybrid.silos[0]?.lexical,
      crossLinks: deps.crossLinks,
      topics: deps.topics,
      stories: deps.stories,
      docAt: (source, book, chapter, verse) => hybrid.docAt(coordinateKey(source, book, chapter, verse)),
      keyAt: (doc) => hybrid.keyAt(doc),
    };
    // The theme list's word families (≈ 0.12 s), built at load, not on the first topical question.
    const themes = Object.values(settings.profiles).some((profile) => profile.themeWeight > 0) && !settings.off.includes("theme");
    if (this.corpus.prior && themes && settings.themeFamilyWeight > 0) this.corpus.lexical?.families();
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

  async search(query: string, options: { k?: number; mode?: SearchMode; explain?: boolean } = {}): Promise<SearchResponse> {
    const k = options.k ?? this.settings.topK;
    const { mode, notices } = this.hybrid.effectiveMode(options.mode ?? "hybrid");
    const trace: Trace | undefined = options.explain ? { entries: [], label: (doc) => this.label(doc) } : undefined;
    const { results, lookups } = await this.resultsFor(query, k, mode, trace);
    const response: SearchResponse = { query, mode, results, references: lookups, notices };
    const searchAgain = async (depth: number, hybrid: SearchMode) => (await this.resultsFor(query, depth, hybrid)).results;
    const scope = await this.hybrid.scopeFor(query, { k, mode, results }, searchAgain, lookups.some((reference) => reference.ok));
    if (scope) response.scope = scope;
    if (trace) {
      if (scope) trace.entries.push({ stage: "gate", inScope: scope.inScope, doubtful: scope.doubtful, outOfScopeProbability: round(scope.outOfScopeProbability), reasons: scope.reasons });
      response.explain = trace.entries;
    }
    return response;
  }

  /** The k results for a query: its explicit references first, then the ranked search of the rest. */
  private async resultsFor(query: string, k: number, mode: SearchMode, trace?: Trace): Promise<{ results: SearchResult[]; lookups: ReferenceLookup[] }> {
    const { lookups, docs: referenceDocs } = this.resolveReferences(query);
    const results: SearchResult[] = referenceDocs.slice(0, k).map((doc) => this.toResult(doc, ["reference"], [], 1));
    if (trace) trace.entries.push({ stage: "reference", found: lookups.map(({ text, reference, ok }) => ({ text, reference, ok })), verses: referenceDocs.slice(0, k).map((doc) => this.label(doc)) });
    if (results.length >= k) return { results, lookups };

    const remainder = lookups.length > 0 ? stripSpans(query, lookups) : query;
    const found = await this.rank(remainder, mode, k, trace);
    const seen = new Set(referenceDocs);
    for (const hit of found) {
      if (results.length >= k) break;
      if (seen.has(hit.doc)) continue;
      results.push(this.toResult(hit.doc, hit.via as Via[], hit.matchedTerms, hit.score, hit.lexicalScore, hit.similarity));
    }
    return { results, lookups };
  }

  private resolveReferences(query: string): { lookups: ReferenceLookup[]; docs: number[] } {
    const lookups: ReferenceLookup[] = [];
    const docs: number[] = [];
    const source = this.primarySource;
    if (!source) return { lookups, docs };
    const versification = this.versificationFor(source);
    for (const match of findQueryReferences(query)) {
      for (const reference of match.references) {
        const validity = validateReference(reference, versification);
        const lookup: ReferenceLookup = {
          text: match.text,
          start: match.start,
          end: match.end,
          reference: formatReference(reference),
          ok: validity.ok,
        };
        lookups.push(lookup);
        if (!validity.ok) {
          lookup.message = validity.message;
          continue;
        }
        for (const coordinate of expandReference(reference, versification)) {
          const doc = this.docAt(source, coordinate.book, coordinate.chapter, coordinate.verse);
          if (doc !== undefined && this.verses[doc]!.text !== "" && !docs.includes(doc)) docs.push(doc);
        }
      }
    }
    return { lookups, docs };
  }

  /**
   * The ranked search of a question: its profile read from the text (a framed theme is searched
   * by itself: the frame, "o que a Bíblia diz sobre", names no content), the two sides fused,
   * then the Bible's stages on the first fusion (`stages/verse-sources.ts`,
   * `stages/verse-rerankers.ts`), then the quota.
   */
  private rank(asked: string, mode: SearchMode, k: number, trace?: Trace) {
    const { settings } = this;
    const reading = readQuestion(asked, { themes: !settings.off.includes("theme") });
    const query = reading.theme ?? asked;
    const profile = settings.profiles[reading.profile];
    if (trace) trace.entries.push({ stage: "profile", profile: reading.profile, ...(reading.theme !== undefined ? { theme: reading.theme } : {}), ...profile });
    return this.hybrid.rank(query, {
      mode,
      k,
      denseWeight: profile.denseWeight,
      trace,
      refine: (first) => this.refine(first, asked, query, reading.profile, k * settings.candidateMultiplier, trace),
    });
  }

  /**
   * The first fusion, refined with what only verses have: a long first-person message that no
   * verse quotes is the asker's own story (framed), then the lists and rerankers of the stages.
   */
  private refine(first: FirstFusion, asked: string, query: string, read: ProfileId, depth: number, trace?: Trace) {
    const { settings } = this;
    const profileId: ProfileId = !isFramed(read) && tellsOwnStory(asked, first, settings) ? "own-story" : read;
    if (trace && profileId !== read) trace.entries.push({ stage: "profile", profile: profileId, ...settings.profiles[profileId], because: "no verse quotes this first-person message" });
    const context: VerseContext = { corpus: this.corpus, settings, first, asked, query, profileId, profile: settings.profiles[profileId], depth, memo: new Map() };
    return refineFusion(context, first, VERSE_SOURCES, VERSE_RERANKERS, trace);
  }

  /** A verse as the trace names it ("MAT 5:44"). */
  private label(doc: number): string {
    const verse = this.verses[doc]!;
    return `${verse.book} ${verse.chapter}:${verse.verse}`;
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

/** The query with the reference spans blanked out, so "o que diz João 3:16?" searches "o que diz". */
function stripSpans(query: string, spans: readonly { start: number; end: number }[]): string {
  return [...spans]
    .sort((a, b) => b.start - a.start)
    .reduce((out, span) => `${out.slice(0, span.start)} ${out.slice(span.end)}`, query);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
