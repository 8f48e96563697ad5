/**
 * The out-of-scope gate: before any answer is generated, decides whether the collection has
 * anything to say about the question, without an LLM, and says why. Pure: composes the word
 * evidence (features.ts), the learned classifier (reading/logistic.ts), the faith words (reading/faith-words.ts) and two rules that take
 * precedence (an explicit reference, or a question that names the Bible or the faith).
 */
import { faithWordsOf } from "../../reading/faith-words.js";
import { contributions, predict, type LogisticModel } from "../../reading/logistic.js";
import {
  isKnown,
  passageCoverage,
  scopeFeatures,
  specificitySum,
  wordEvidence,
  type CorpusVocabulary,
  type RetrievalEvidence,
  type ScopeLexicons,
  type WordEvidence,
} from "./features.js";

/** The shipped classifier and the probability above which a question is refused. */
export interface ScopeModel extends LogisticModel {
  /** P(out of scope) at or above this refuses. */
  threshold: number;
  /**
   * P(out of scope) at or above this (and below `threshold`) keeps the question with a doubt:
   * it is answered, the asker told that the search is not sure it understood, the model that the
   * sources may not answer. Absent: never a doubt.
   */
  doubtThreshold?: number;
}

export type ScopeRule = "reference" | "faith_word" | "reading" | "no_content" | "model";

export interface ScopeReasons {
  rule: ScopeRule;
  /** Words the collection knows, most specific first (these carried the question in). */
  carried: { word: string; documents: number }[];
  /** Words the collection does not know at all (real words, or not words of the language). */
  foreign: string[];
  /** Misspellings read as a collection word. */
  typos: { word: string; as: string }[];
  /** The faith words that kept the question in scope (rule faith_word). */
  faithWords: string[];
  /** What the message's reading kept it for (rule reading). */
  kept?: string;
  /** What WordNet says the words name (lexicographer groups and domains), strongest first. */
  topics: string[];
  /** Passages both retrieval sides agreed on. */
  supporting: string[];
  /** The features that weighed most in the classifier's decision (+ towards refusing). */
  weighed: { feature: string; contribution: number }[];
}

export interface ScopeDecision {
  inScope: boolean;
  /** Kept, but the classifier leans towards refusing (`ScopeModel.doubtThreshold`): answered with a word of doubt. */
  doubtful: boolean;
  /** 0.5..1: how sure the decision is. */
  confidence: number;
  /** The classifier's probability that the question is out of scope (0 under a rule). */
  outOfScopeProbability: number;
  reasons: ScopeReasons;
}

/** A retrieved passage as the gate reads it: which sides found it, the terms it matched, its reference. */
export interface ScopePassage {
  via: readonly string[];
  matchedTerms: readonly string[];
  reference: string;
}

export interface ScopeInput {
  question: string;
  /** The question holds an explicit, valid reference ("Jo 3:16"). */
  hasReference?: boolean;
  /**
   * Why the message's reading keeps it whatever its words (a saying checked against the Bible,
   * a sermon or study asked for, a name only the Bible gives): rule `reading`.
   */
  keep?: string;
  /** The passages retrieval found for the question, best first. */
  results?: readonly ScopePassage[];
}

/** The gate's data, apart from the collection: the lexicons and the fitted classifier. */
export interface ScopeGateData {
  lexicons: ScopeLexicons;
  model: ScopeModel;
}

export interface ScopeGateDependencies extends ScopeGateData {
  vocabulary: CorpusVocabulary;
}

/** The evidence the gate weighs for a question: its words, the classifier's features, and the rule that decides it, if any. */
export function scopeEvidence(
  deps: Omit<ScopeGateDependencies, "model">,
  input: ScopeInput,
): { words: WordEvidence[]; features: Record<string, number>; supporting: string[]; rule: Exclude<ScopeRule, "model"> | undefined; faithWords: string[] } {
  const words = wordEvidence(input.question, deps.vocabulary, deps.lexicons);
  const retrieval = input.results ? retrievalEvidenceOf(input.results, words) : undefined;
  const features = scopeFeatures(input.question, words, retrieval, passageCoverage(words, deps.vocabulary));
  const faithWords = faithWordsOf(input.question);
  const rule = input.hasReference ? "reference" : faithWords.length > 0 ? "faith_word" : input.keep !== undefined ? "reading" : words.length === 0 ? "no_content" : undefined;
  return { words, features, supporting: retrieval?.supporting ?? [], rule, faithWords };
}

/** Decides whether the question is in scope, with the evidence for the decision. */
export function decideScope(deps: ScopeGateDependencies, input: ScopeInput): ScopeDecision {
  const { words, features, supporting, rule, faithWords } = scopeEvidence(deps, input);
  // The faith words are empty without a rule: one would have decided the question (rule faith_word).
  const reasons = describe(words, supporting, faithWords);
  if (rule) return { inScope: true, doubtful: false, confidence: 1, outOfScopeProbability: 0, reasons: { ...reasons, rule, ...(rule === "reading" ? { kept: input.keep } : {}) } };
  const p = predict(deps.model, features);
  const inScope = p < deps.model.threshold;
  const { doubtThreshold } = deps.model;
  return {
    inScope,
    doubtful: inScope && doubtThreshold !== undefined && p >= doubtThreshold,
    confidence: Number((inScope ? 1 - p : p).toFixed(4)),
    outOfScopeProbability: Number(p.toFixed(4)),
    reasons: { ...reasons, weighed: contributions(deps.model, features).slice(0, 4).map((entry) => ({ ...entry, contribution: Number(entry.contribution.toFixed(3)) })) },
  };
}

function describe(words: readonly WordEvidence[], supporting: readonly string[], faithWords: string[]): ScopeReasons {
  const topicWeights = new Map<string, number>();
  for (const word of words) {
    for (const [lexname, share] of word.lexnames) topicWeights.set(lexname, (topicWeights.get(lexname) ?? 0) + share);
    for (const domain of word.domains) topicWeights.set(`domínio:${domain}`, (topicWeights.get(`domínio:${domain}`) ?? 0) + 1);
  }
  return {
    rule: "model",
    carried: words
      .filter(isKnown)
      .sort((a, b) => b.specificity - a.specificity)
      .map((word) => ({ word: word.correctedTo ?? word.word, documents: word.documentFrequency })),
    foreign: words.filter((word) => word.status === "foreign" || word.status === "nonword").map((word) => word.word),
    typos: words.filter((word) => word.status === "typo").map((word) => ({ word: word.word, as: word.correctedTo! })),
    faithWords,
    topics: [...topicWeights.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name]) => name),
    supporting: [...supporting],
    weighed: [],
  };
}

/**
 * How many of the hybrid search's first results the gate reads (the depth its classifier was
 * fitted on, scripts/scope/train.ts): its decision must not depend on the k a caller asks for.
 */
export const SCOPE_EVIDENCE_DEPTH = 6;

/**
 * What the retrieved passages say: how much of the question one passage covers (by the idf
 * of the content words it matched) and how far the lexical and dense sides agree.
 */
export function retrievalEvidenceOf(
  results: readonly ScopePassage[],
  words: readonly WordEvidence[],
  top = SCOPE_EVIDENCE_DEPTH,
): RetrievalEvidence & { supporting: string[] } {
  const head = results.slice(0, top);
  const confirmed = head.filter((result) => result.via.includes("lexical") && result.via.includes("dense"));
  const total = specificitySum(words);
  let best = 0;
  for (const result of head) {
    const matched = new Set(result.matchedTerms);
    // A word the collection does not know can still "match" through a colliding stem ("teoria" → "teor").
    const covered = specificitySum(words.filter((word) => isKnown(word) && matched.has(word.term)));
    if (total > 0) best = Math.max(best, covered / total);
  }
  return {
    bestHitCoverage: best,
    agreement: head.length > 0 ? confirmed.length / head.length : 0,
    supporting: confirmed.map((result) => result.reference),
  };
}
