/**
 * Per-kind profiles of the Bible's ranking: what kind of question was asked decides which
 * stages run and how much each weighs. A theme asked as a theme ("o que a Bíblia diz sobre a
 * ansiedade?") leans on the verses readers link most and the dense side; a first-person
 * situation on its theme list and the topical index; a recalled story on the story index and
 * the stretches of text; anything else (a quotation, a saying, a name) on the confident lexical
 * hit. The reading is `query-frame.ts`'s; this table is the one place its outcome is turned
 * into weights. Pure.
 */
import { asksForGuidance, isSituation, recallsStory, speaksOfSelf, themeOf } from "../../reading/frames.js";

export type ProfileId = "theme" | "situation" | "guidance" | "self" | "own-story" | "story" | "plain" | "person" | "place" | "event" | "definition" | "practice";

export interface Profile {
  /** Weight of the theme list (the verses about the theme readers link to most); 0: no list. */
  themeWeight: number;
  /** The dense side's weight in the fusion. */
  denseWeight: number;
  /** Strength of the reader prior (inbound cross-reference votes) on fused scores; 0: off. */
  priorWeight: number;
  /** BM25's first hit is kept first when it scores this multiple of the second's; 0: off. */
  confidentLexicalRatio: number;
  /**
   * …and, for a message about the asker, only when that hit quotes it (holds most of its words:
   * "eu sou o caminho, a verdade e a vida" is John 14:6; "estou com medo do futuro" is no verse).
   */
  confidentNeedsQuote?: boolean;
  /**
   * Which bar the topical index's match must clear: `framed` (the question is surely about a
   * topic: the lower bar, and the long-message bar) or `open` (it may be a quotation).
   */
  topicBar: "framed" | "open";
  /** Whether the story index's list runs. */
  stories: boolean;
  /** Whether the stretches of text that hold most of the question run. */
  passages: boolean;
}

/** Framed questions (a theme, a situation, the asker's own life or conduct): never a quotation nor a story. */
const FRAMED = { confidentLexicalRatio: 1.2, confidentNeedsQuote: true, priorWeight: 0.25, denseWeight: 0.85, topicBar: "framed", stories: false, passages: false } as const;
const OPEN = { themeWeight: 0, confidentLexicalRatio: 1.2, priorWeight: 0.25, denseWeight: 0.85, topicBar: "open" } as const;

/** Measured on the dev queries and the seen sets (docs/RETRIEVAL.md). */
export const DEFAULT_PROFILES: Readonly<Record<ProfileId, Profile>> = {
  theme: { ...FRAMED, themeWeight: 1, denseWeight: 1.2, priorWeight: 1, confidentLexicalRatio: 0 },
  situation: { ...FRAMED, themeWeight: 0.75 },
  guidance: { ...FRAMED, themeWeight: 0 },
  self: { ...FRAMED, themeWeight: 0 },
  "own-story": { ...FRAMED, themeWeight: 0 },
  story: { ...OPEN, stories: true, passages: true },
  plain: { ...OPEN, stories: true, passages: false },
  // Questions of knowledge (stages/knowledge.ts): a name is never a quotation to put first.
  person: { ...OPEN, confidentLexicalRatio: 0, stories: true, passages: false },
  place: { ...OPEN, confidentLexicalRatio: 0, stories: true, passages: false },
  event: { ...OPEN, confidentLexicalRatio: 0, stories: true, passages: false },
  definition: { ...FRAMED, themeWeight: 1, denseWeight: 1.2, priorWeight: 1, confidentLexicalRatio: 0 },
  practice: { ...FRAMED, themeWeight: 1, denseWeight: 1.2, priorWeight: 1, confidentLexicalRatio: 0 },
};

/** What the text of a question says of its kind, before any search. */
export interface QuestionReading {
  profile: ProfileId;
  /** The theme of a topical question, without its frame ("a ansiedade"). */
  theme?: string;
}

/**
 * The profile a question's text calls for, in order of precedence: a theme asked as a theme,
 * a first-person situation, a request for guidance, the asker's own life, a recalled story,
 * anything else. (Whether a long first-person message is the asker's own story is decided
 * after the lexical side, by `tellsOwnStory`.)
 */
export function readQuestion(asked: string, options: { themes?: boolean } = {}): QuestionReading {
  // With the theme stage off (to measure it), a topical question is read as any other.
  const theme = options.themes === false ? undefined : themeOf(asked);
  if (theme !== undefined) return { profile: "theme", theme };
  if (isSituation(asked)) return { profile: "situation" };
  if (asksForGuidance(asked)) return { profile: "guidance" };
  if (speaksOfSelf(asked)) return { profile: "self" };
  if (recallsStory(asked)) return { profile: "story" };
  return { profile: "plain" };
}

/** Whether a profile is framed: the topical index's lower bar, no story list, no stretches of text. */
export function isFramed(profile: ProfileId): boolean {
  return DEFAULT_PROFILES[profile].topicBar === "framed";
}

/** The default profiles with some of their values changed (to measure a stage, or in a test). */
export function withProfiles(changes: Partial<Record<ProfileId, Partial<Profile>>>, base: Readonly<Record<ProfileId, Profile>> = DEFAULT_PROFILES): Record<ProfileId, Profile> {
  return Object.fromEntries(Object.entries(base).map(([id, profile]) => [id, { ...profile, ...changes[id as ProfileId] }])) as Record<ProfileId, Profile>;
}
