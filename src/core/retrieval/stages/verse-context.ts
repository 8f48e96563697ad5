/**
 * What the Bible's stages read: the verses and what only verses have (the reader prior, the
 * cross references, the topical and story indexes, the one lexical silo), the settings of each
 * stage, and one search's context (the question, its profile, the first fusion). A corpus can
 * be a handful of verses: each stage is testable on a small fixture. Pure.
 */
import type { ContextText, Verse } from "../../types.js";
import type { KnowledgeIndex } from "../../knowledge/knowledge-index.js";
import type { LexicalSide } from "../lexical-side.js";
import type { TopicalIndex } from "../topical-index.js";
import type { AnyMatch } from "../../knowledge/knowledge-index.js";
import type { KnowledgeFrame } from "../../reading/kinds.js";
import type { Profile, ProfileId } from "./profiles.js";
import type { FirstFusion } from "./stage.js";

/** A verse as the engine holds it (the store's row, minus storage details). */
export interface EngineVerse extends Omit<Verse, "canonical">, ContextText {
  terms: readonly string[];
}

export interface CrossLinks {
  /** Verses strongly linked from a verse, strongest first. */
  strongest(book: string, chapter: number, verse: number, limit: number): readonly { book: string; chapter: number; verse: number; votes: number }[];
  /** How much readers link to a verse (sum of votes of links pointing at it). */
  inboundVotes(book: string, chapter: number, verse: number): number;
}

/** What a question of knowledge was found to be about. */
export interface KnowledgeFinding {
  frame: KnowledgeFrame;
  subject: string;
  profile: Extract<ProfileId, "person" | "place" | "definition" | "practice" | "event">;
  match: AnyMatch;
  /** Whether the corpus uses the subject's own words (the Bible names it), or not ("tatuagem"). */
  named: boolean;
  /** Why the question is about the Bible whatever its words: a name or term only the Bible gives. */
  keep?: string;
}

/** The verses and the Bible's own aids, as the stages read them. */
export interface VerseCorpus {
  readonly verses: readonly EngineVerse[];
  readonly primarySource: string | undefined;
  /** Per verse, 0..1: log inbound cross-reference votes, normalised (`buildPrior`). */
  readonly prior: Float32Array | undefined;
  /** The one lexical silo of the verses. */
  readonly lexical: LexicalSide | undefined;
  readonly crossLinks: CrossLinks | undefined;
  /** The topical index: themes and feelings with the verses a pastor gives for them. */
  readonly topics: TopicalIndex | undefined;
  /** The story index: Bible episodes, the ways people recall them, and the verses that tell them. */
  readonly stories: TopicalIndex | undefined;
  /** People, places, events and terms from the field's open data (`core/knowledge`). */
  readonly knowledge: KnowledgeIndex | undefined;
  docAt(source: string, book: string, chapter: number, verse: number): number | undefined;
  /** A verse's coordinate key (its identity in the fusion). */
  keyAt(doc: number): string;
}

/** The settings of the Bible's stages (the profiles decide what runs; these, how). */
export interface VerseStageSettings {
  /** How many of the top fused hits pull in their strongest cross references, the list's weight and the least votes a link needs. */
  crossrefSeeds: number;
  crossrefWeight: number;
  crossrefMinVotes: number;
  /** How many of the first fused hits bring their neighbouring verses in, the list's weight and how many verses each side (same book). */
  neighbourSeeds: number;
  neighbourWeight: number;
  neighbourSpan: number;
  /** How many BM25 hits of the theme (own words and expansions) the theme list is drawn from. */
  themeDepth: number;
  /** How strongly BM25 counts in the theme list's order against reader votes (score^exponent × votes prior). */
  themeLexicalExponent: number;
  /** How many of the theme list's first verses also bring in the verses readers link them to. */
  themeLinkSeeds: number;
  /** Weight, in the theme list's query, of corpus words of the theme word's derivational family ("ansiedade" → "ansiosos"); 0 turns it off. */
  themeFamilyWeight: number;
  /**
   * The topical index's list: its weight, and the share of the question's weight one of a
   * topic's phrasings must hold — `topicMinCoverage` for an open question, `topicFramedMinCoverage`
   * for a framed one, `topicLongMinCoverage` for a framed message of at least
   * `topicLongMessageTerms` distinct words —; at most `topicMaxTopics` topics, each further one
   * scoring at least `topicMinShareOfBest` of the best.
   */
  topicWeight: number;
  topicMinCoverage: number;
  topicFramedMinCoverage: number;
  topicLongMessageTerms: number;
  topicLongMinCoverage: number;
  topicMaxTopics: number;
  topicMinShareOfBest: number;
  /**
   * The story index's list (for an open question that no first lexical hit quotes: one of them
   * holding `storyMaxQuotedShare` of the words is a quotation): its weight, the coverage a phrasing
   * needs, at most `storyMaxStories` episodes each scoring `storyMinShareOfBest` of the best, and
   * how many of the question's words a phrasing must hold.
   */
  storyWeight: number;
  storyMinCoverage: number;
  storyMaxStories: number;
  storyMinShareOfBest: number;
  storyMaxQuotedShare: number;
  storyMinTermsHeld: number;
  /**
   * A message in the first person of at least `ownStoryMinTerms` distinct words, of which no
   * verse among the first lexical hits holds `ownStoryMaxQuotedShare` or more, is the asker
   * telling their own story: framed like a situation (0: off).
   */
  ownStoryMinTerms: number;
  ownStoryMaxQuotedShare: number;
  /**
   * A recalled story's stretches of text (a verse and `passageRadius` neighbours each side, same
   * book) holding at least `passageMinShare` of the question's idf mass, most first, at most
   * `passageDepth`, as one list of weight `passageWeight`.
   */
  passageWeight: number;
  passageRadius: number;
  passageMinShare: number;
  passageDepth: number;
  /** Weight of the key verses of what a question of knowledge names (`stages/knowledge.ts`). */
  knowledgeWeight: number;
  /** The per-kind profiles. */
  profiles: Readonly<Record<ProfileId, Profile>>;
  /** Stages switched off (to measure what one adds): their ids. */
  off: readonly string[];
}

/** One search's context for the Bible's stages. */
export interface VerseContext {
  readonly corpus: VerseCorpus;
  readonly settings: VerseStageSettings;
  readonly first: FirstFusion;
  /** The question as asked (without its reference spans). */
  readonly asked: string;
  /** What the sides search: the theme of a topical question, else the question. */
  readonly query: string;
  readonly profileId: ProfileId;
  readonly profile: Profile;
  /** How deep each list is drawn (k × candidateMultiplier). */
  readonly depth: number;
  /** What a question of knowledge names, when it names something surely. */
  readonly knowledge?: KnowledgeFinding | undefined;
  /** Lists a stage computes once for the others (the theme list's first verses seed the cross references). */
  readonly memo: Map<string, unknown>;
}

/** A value a stage computes once per search and other stages read (`VerseContext.memo`). */
export function memoized<T>(context: VerseContext, key: string, compute: () => T): T {
  if (context.memo.has(key)) return context.memo.get(key) as T;
  const value = compute();
  context.memo.set(key, value);
  return value;
}

/** Whether a stage runs: not switched off in the settings. */
export function stageOn(context: { settings: { off: readonly string[] } }, id: string): boolean {
  return !context.settings.off.includes(id);
}

/** Per verse, 0..1: log inbound cross-reference votes, normalised by the largest. */
export function buildPrior(verses: readonly EngineVerse[], links: CrossLinks): Float32Array {
  const votes = verses.map((verse) => links.inboundVotes(verse.book, verse.chapter, verse.verse));
  // A loop, not Math.max(...votes): a spread of a million arguments overflows the stack.
  let most = 0;
  for (const vote of votes) if (vote > most) most = vote;
  const max = Math.log1p(most);
  return Float32Array.from(votes, (v) => (max > 0 ? Math.log1p(Math.max(0, v)) / max : 0));
}
