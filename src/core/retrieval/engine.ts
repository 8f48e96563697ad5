import { analyze, SHORT_STEM_RULE } from "../analysis/index.js";
import { bookByCode } from "../bible/books.js";
import { withinVerseBounds } from "../bible/bounds.js";
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
import { DEFAULT_HYBRID_SETTINGS, type DENSE, type HybridSearchSettings, type LEXICAL } from "./fusion.js";
import type { TopicalIndex } from "./topical-index.js";
import type { SearchMode } from "./dense-side.js";
import type { LexicalSettings } from "./lexical-side.js";
import { UnitSearch, type FirstFusion, type UnitSearchDependencies, type UnitShape } from "./unit-search.js";
import { DEFAULT_PROFILES, isFramed, readQuestion, type ProfileId } from "./stages/profiles.js";
import { refineFusion, type Trace, type TraceEntry } from "./stages/stage.js";
import { buildPrior, type CrossLinks, type EngineVerse, type VerseContext, type VerseCorpus, type VerseStageSettings } from "./stages/verse-context.js";
import { VERSE_RERANKERS } from "./stages/verse-rerankers.js";
import { crossReferenceCandidates, tellsOwnStory, VERSE_SOURCES } from "./stages/verse-sources.js";
import { resolveKnowledge, type KnowledgeFinding } from "./stages/knowledge.js";
import { checkQuotation, holdsWordForWord, mayHold, type QuotationCheck } from "./stages/quotation.js";
import { messageKind, type AssistantTopic, type MessageKind } from "../reading/kinds.js";
import { assistantPassagesQuery } from "../reading/assistant-passages.js";
import type { KnowledgeIndex } from "../knowledge/knowledge-index.js";

export type { SearchMode };

export type Via = "reference" | typeof LEXICAL | typeof DENSE | "crossref" | "context" | "theme" | "topic" | "story" | "passage" | "knowledge" | "quotation" | "chosen";

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
  /** What kind of message it was read as, and what the search made of it (for the answer's plan). */
  reading?: SearchReading;
}

/** What kind of message a search was read as, and what it found out for the answer. */
export interface SearchReading {
  kind: MessageKind["kind"];
  /** The profile the question's text called for (`stages/profiles.ts`), for a question of no other kind. */
  profile?: ProfileId;
  /** A question about the assistant: what about. */
  topic?: AssistantTopic;
  /** The subject searched, for a question of knowledge or a sermon or study. */
  subject?: string;
  /** What a question of knowledge names (`stages/knowledge.ts`). */
  knowledge?: KnowledgeFinding;
  /** A sermon, study, devotional or note asked for. */
  study?: { subject: string; form: "sermon" | "study" | "note" | "devotional"; push: boolean };
  /** A saying checked against the Bible (`stages/quotation.ts`), its verses as `BOOK C:V`. */
  quotation?: Omit<QuotationCheck, "docs"> & { verses: string[] };
}

export interface SearchOptions {
  k?: number;
  mode?: SearchMode;
  /** Return the explain trace: one entry per stage, in order. */
  explain?: boolean;
  /** What kind of message the query is (read from the query itself when absent). */
  kind?: MessageKind;
}

interface Found {
  results: SearchResult[];
  lookups: ReferenceLookup[];
  reading: SearchReading;
}

/** What the ranked search reads of a question (see `planOf`). */
interface RankPlan {
  /** The question as asked (what the asker's own story is read from). */
  asked: string;
  /** What the two sides search. */
  query: string;
  profile: ProfileId;
  knowledge?: KnowledgeFinding;
}

/** A passage asked for by reference is quoted whole up to this many verses ("Salmos 23"). */
const QUOTED_PASSAGE_VERSES = 30;
/**
 * A plain question with this many words of weight is also checked as a saying: a verse typed as
 * it is ("Se Deus é por nós, quem será contra nós?") is answered as a quotation when a verse
 * holds nearly all of it (`TYPED_VERSE`: its weight and its word pairs as they are). Without a
 * frame asking where it is written, less than that stays a question: "o batismo de Jesus no rio
 * Jordão" shares many words with Marcos 1:4 and is a story, not a quotation.
 */
const TYPED_VERSE_MIN_TERMS = 4;
/** With fewer words of weight, a question of this many words is a typed verse only when a first hit holds it word for word. */
const TYPED_VERSE_MIN_WORDS = 5;
const TYPED_VERSE = { coverage: 0.9, phrase: 0.7, reach: { lexical: 5, dense: 0 } };
/** A passage explained: the verses before and after it that carry its sense, and its strongest links. */
const EXPLAIN_BEFORE = 3;
const EXPLAIN_AFTER = 1;
const EXPLAIN_LINKS = 3;

/** Verbs that only carry a practice ("fazer tatuagem", "usar brinco"): the practice is searched without them. */
const LIGHT_VERBS = new Set(["fazer", "faz", "usar", "ter", "ir", "praticar", "tomar", "colocar", "botar", "por", "ficar", "comer", "beber", "jogar", "assistir", "ouvir", "frequentar", "participar"]);

function withoutLightVerbs(subject: string): string {
  const words = subject.split(/\s+/u);
  const kept = words.filter((word) => !LIGHT_VERBS.has(word.toLowerCase()));
  return kept.length > 0 && kept.length < words.length ? kept.join(" ") : subject;
}

/** The reading's trace entry. */
function readingEntry(kind: MessageKind): Record<string, unknown> {
  if (kind.kind === "explain_passage" || kind.kind === "quote_passage") return { kind: kind.kind, references: kind.references.map((match) => match.text) };
  const { kind: name, ...rest } = kind;
  return { kind: name, ...rest };
}

/** Why a message's reading keeps it in scope whatever its words, if it does. */
function keepReason(kind: MessageKind, reading: SearchReading): string | undefined {
  if (kind.kind === "about_assistant" && kind.rest === undefined) return "uma pergunta sobre o assistente";
  if (kind.kind === "quotation_check") return "uma frase conferida na Bíblia";
  if (kind.kind === "study_prep") return "o preparo de um sermão, estudo ou mensagem";
  return reading.knowledge?.keep;
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
  knowledgeWeight: 3,
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
  /** People, places, events and terms from the field's open data (`core/knowledge`). */
  knowledge?: KnowledgeIndex;
}

const KEY_SEPARATOR = "|";

/** Verses of a query's references listed beyond the k asked, for those without text (bridged or omitted verses). */
const REFERENCE_SLACK = 64;

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
      knowledge: deps.knowledge,
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

  /**
   * The k results for a question, and whether the Bible has anything to say about it (the
   * gate). What kind of message it is (`reading/kinds.ts`: read here unless the caller read it)
   * decides how: a passage to explain (it, the verses around it, its strongest links) or to quote
   * (it alone), a saying to check (the verse that says it first, then what the Bible says on the
   * matter), a question about the assistant (the passages chosen for it), a question of knowledge
   * (what its subject names, `stages/knowledge.ts`), a sermon or study to prepare (its subject
   * searched as a theme), or any other question (its references first, then the ranked search).
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const k = options.k ?? this.settings.topK;
    const { mode, notices } = this.hybrid.effectiveMode(options.mode ?? "hybrid");
    const kind = options.kind ?? messageKind(query);
    const trace: Trace | undefined = options.explain ? { entries: [], label: (doc) => this.label(doc) } : undefined;
    if (trace) trace.entries.push({ stage: "reading", ...readingEntry(kind) });
    const found = await this.resultsFor(query, k, mode, kind, trace);
    const { results, lookups, reading } = found;
    const response: SearchResponse = { query, mode, results, references: lookups, notices, reading };
    const searchAgain = async (depth: number, hybrid: SearchMode) => (await this.resultsFor(query, depth, hybrid, kind)).results;
    const scope = await this.hybrid.scopeFor(query, { k, mode, results }, searchAgain, lookups.some((reference) => reference.ok), keepReason(kind, reading));
    if (scope) response.scope = scope;
    if (trace) {
      if (scope) trace.entries.push({ stage: "gate", inScope: scope.inScope, doubtful: scope.doubtful, outOfScopeProbability: round(scope.outOfScopeProbability), reasons: scope.reasons });
      response.explain = trace.entries;
    }
    return response;
  }

  /** The k results for a query, by its kind (see `search`). */
  private async resultsFor(query: string, k: number, mode: SearchMode, kind: MessageKind, trace?: Trace): Promise<Found> {
    const reading: SearchReading = { kind: kind.kind };
    if (kind.kind === "about_assistant" && kind.rest !== undefined) {
      // The rest of the message (a situation told with "ore por mim") is searched as any question.
      reading.topic = kind.topic;
      const rest = messageKind(kind.rest);
      return { ...(await this.resultsFor(kind.rest, k, mode, rest.kind === "about_assistant" ? { kind: "question" } : rest, trace)), reading };
    }
    if (kind.kind === "about_assistant") {
      reading.topic = kind.topic;
      const chosen = this.resolveReferences(assistantPassagesQuery(kind.topic), k).docs;
      if (trace) trace.entries.push({ stage: "assistant", topic: kind.topic, verses: chosen.map((doc) => this.label(doc)) });
      return { results: chosen.map((doc) => this.toResult(doc, ["chosen"], [], 1)), lookups: [], reading };
    }
    const { lookups, docs: referenceDocs, matches } = this.resolveReferences(query, kind.kind === "quote_passage" ? Math.max(k, QUOTED_PASSAGE_VERSES) : k);
    if (trace) trace.entries.push({ stage: "reference", found: lookups.map(({ text, reference, ok }) => ({ text, reference, ok })), verses: referenceDocs.slice(0, k).map((doc) => this.label(doc)) });
    if ((kind.kind === "explain_passage" || kind.kind === "quote_passage") && referenceDocs.length > 0) {
      const docs = kind.kind === "quote_passage" ? referenceDocs : referenceDocs.slice(0, k);
      const results = docs.map((doc) => this.toResult(doc, ["reference"], [], 1));
      if (kind.kind === "explain_passage") results.push(...this.passageSurroundings(docs, k, trace));
      return { results, lookups, reading };
    }
    const results: SearchResult[] = referenceDocs.slice(0, k).map((doc) => this.toResult(doc, ["reference"], [], 1));
    if (results.length >= k) return { results, lookups, reading };
    const remainder = matches.length > 0 ? stripSpans(query, matches) : query;
    const plan = this.planOf(remainder, kind, reading);
    let check: QuotationCheck | undefined;
    // A plain question long enough to be a verse typed from memory is checked too: a verse found is a quotation after all.
    const weighty = analyze(plan.query).length;
    const short = weighty < TYPED_VERSE_MIN_TERMS;
    const typedVerse =
      kind.kind === "question" && referenceDocs.length === 0 && plan.profile === "plain" && plan.query === plan.asked && weighty > 0 &&
      (!short || plan.query.split(/\s+/u).length >= TYPED_VERSE_MIN_WORDS);
    const checked = kind.kind === "quotation_check" || typedVerse;
    const reach = typedVerse ? TYPED_VERSE.reach : undefined;
    const verify = (first: FirstFusion) => {
      // A typed verse must be held nearly whole by one of the first hits (a short one word for word): most questions stop here.
      if (typedVerse && !(short ? holdsWordForWord(this.corpus, first, plan.query, TYPED_VERSE.reach) : mayHold(this.corpus, first, plan.query, TYPED_VERSE.coverage, reach))) return;
      check = checkQuotation(this.corpus, first, plan.query, undefined, reach);
    };
    const found = await this.rank(plan, mode, k, trace, checked ? verify : undefined);
    const seen = new Set(referenceDocs);
    if (check && typedVerse && !(check.verdict === "found" && check.coverage >= TYPED_VERSE.coverage && check.phrase >= TYPED_VERSE.phrase)) check = undefined;
    if (check && typedVerse) reading.kind = "quotation_check";
    if (check) {
      const { docs, ...measured } = check;
      reading.quotation = { ...measured, verses: docs.map((doc) => this.label(doc)) };
      if (trace) trace.entries.push({ stage: "quotation", ...reading.quotation });
      for (const doc of check.docs) {
        if (results.length >= k || seen.has(doc)) continue;
        seen.add(doc);
        results.push(this.toResult(doc, ["quotation"], [], 1));
      }
    }
    for (const hit of found) {
      if (results.length >= k) break;
      if (seen.has(hit.doc)) continue;
      results.push(this.toResult(hit.doc, hit.via as Via[], hit.matchedTerms, hit.score, hit.lexicalScore, hit.similarity));
    }
    return { results, lookups, reading };
  }

  /**
   * What the ranked search reads of a question: its text, its profile (`stages/profiles.ts`) and,
   * for a question of knowledge, what its subject names. A saying is searched as it is quoted; a
   * sermon's or study's subject as a theme; a question of knowledge by its subject when the
   * knowledge index names it, else as any question.
   */
  private planOf(text: string, kind: MessageKind, reading: SearchReading): RankPlan {
    const { settings } = this;
    if (kind.kind === "quotation_check") return { asked: kind.quote, query: kind.quote, profile: "plain" };
    if (kind.kind === "study_prep") reading.study = { subject: kind.subject, form: kind.form, push: kind.push };
    if (kind.kind === "study_prep" && kind.subject !== "") {
      reading.subject = kind.subject;
      // A note's subject is its reader's situation ("acabou de perder o cônjuge"); a sermon's, a theme.
      return { asked: kind.subject, query: kind.subject, profile: kind.form === "note" ? "self" : "theme" };
    }
    if (kind.kind === "knowledge" && this.corpus.knowledge && !settings.off.includes("knowledge")) {
      const finding = resolveKnowledge(this.corpus.knowledge, kind.frame, kind.subject, this.corpus);
      // "A Bíblia é confiável?": the subject's entry joins the fusion; the question, with its
      // quality, is searched and answered as asked.
      if (finding && kind.frame === "property") {
        reading.kind = "question";
        return { ...this.questionPlan(text, reading), knowledge: finding };
      }
      if (finding) {
        reading.subject = kind.subject;
        reading.knowledge = finding;
        const query = withoutLightVerbs(kind.subject);
        return { asked: kind.subject, query, profile: finding.profile, knowledge: finding };
      }
    }
    return this.questionPlan(text, reading);
  }

  /** A plain question's plan: its profile read from its text, a theme searched as a theme. */
  private questionPlan(text: string, reading: SearchReading): RankPlan {
    const read = readQuestion(text, { themes: !this.settings.off.includes("theme") });
    reading.profile = read.profile;
    return { asked: text, query: read.theme ?? text, profile: read.profile };
  }

  /**
   * What explains a passage: the verses around it that carry its sense (`EXPLAIN_BEFORE` before
   * it and `EXPLAIN_AFTER` after, same book) and the verses readers link it to most; no other
   * search fills the answer.
   */
  private passageSurroundings(docs: readonly number[], k: number, trace?: Trace): SearchResult[] {
    const taken = new Set(docs);
    const around: number[] = [];
    const first = docs[0]!;
    const last = docs[docs.length - 1]!;
    const sameBook = (doc: number) => this.verses[doc] && this.verses[doc]!.book === this.verses[first]!.book && this.verses[doc]!.source === this.verses[first]!.source && this.verses[doc]!.text !== "";
    for (let doc = first - EXPLAIN_BEFORE; doc <= last + EXPLAIN_AFTER; doc++) if (!taken.has(doc) && sameBook(doc)) around.push(doc);
    around.forEach((doc) => taken.add(doc));
    const linked = crossReferenceCandidates(this.corpus, docs, this.settings.crossrefMinVotes)
      .filter((item) => !taken.has(item.doc))
      .slice(0, EXPLAIN_LINKS)
      .map((item) => item.doc);
    if (trace) trace.entries.push({ stage: "explain", context: around.map((doc) => this.label(doc)), crossref: linked.map((doc) => this.label(doc)) });
    const results = [...around.map((doc) => this.toResult(doc, ["context"], [], 1)), ...linked.map((doc) => this.toResult(doc, ["crossref"], [], 1))];
    return results.slice(0, Math.max(0, k + EXPLAIN_BEFORE + EXPLAIN_AFTER + EXPLAIN_LINKS - docs.length));
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

  /**
   * The ranked search of a plan: the two sides fused, then the Bible's stages on the first fusion
   * (`stages/verse-sources.ts`, `stages/verse-rerankers.ts`), then the quota. `onFirst` reads the
   * first fusion (the quotation check does).
   */
  private rank(plan: RankPlan, mode: SearchMode, k: number, trace?: Trace, onFirst?: (first: FirstFusion) => void) {
    const { settings } = this;
    const profile = settings.profiles[plan.profile];
    if (trace) trace.entries.push({ stage: "profile", profile: plan.profile, ...(plan.query !== plan.asked ? { searched: plan.query } : {}), ...profile });
    return this.hybrid.rank(plan.query, {
      mode,
      k,
      denseWeight: profile.denseWeight,
      trace,
      refine: (first) => {
        onFirst?.(first);
        return this.refine(first, plan, k * settings.candidateMultiplier, trace);
      },
    });
  }

  /**
   * The first fusion, refined with what only verses have: a long first-person message that no
   * verse quotes is the asker's own story (framed), then the lists and rerankers of the stages.
   */
  private refine(first: FirstFusion, plan: RankPlan, depth: number, trace?: Trace) {
    const { settings } = this;
    const read = plan.profile;
    const profileId: ProfileId = !isFramed(read) && !plan.knowledge && tellsOwnStory(plan.asked, first, settings) ? "own-story" : read;
    if (trace && profileId !== read) trace.entries.push({ stage: "profile", profile: profileId, ...settings.profiles[profileId], because: "no verse quotes this first-person message" });
    const context: VerseContext = { corpus: this.corpus, settings, first, asked: plan.asked, query: plan.query, profileId, profile: settings.profiles[profileId], depth, memo: new Map(), knowledge: plan.knowledge };
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
