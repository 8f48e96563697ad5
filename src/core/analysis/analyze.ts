import { foldAccents } from "./fold.js";
import { stemPortuguese } from "./stem.js";
import { isStopword } from "./stopwords.js";

/**
 * Bumped whenever the output of `analyze` changes for some input: the index manifest
 * stores it, and a new version re-does the lexical index (and only that).
 */
export const ANALYZER_VERSION = "pt-snowball-2015/stem-then-fold/v2";

/**
 * Collision-prone short stems: a stem of at most `maxLength` letters is matched mainly by its
 * exact word once the corpus has at least `minExactDf` units with that word ("medo", 133
 * verses, apart from "mediu"; "amar", 16, still meets "amai"). The lexical side's defaults
 * (`DEFAULT_SEARCH_SETTINGS`) and the corpus LSA's word terms both follow it.
 */
export const SHORT_STEM_RULE = { maxLength: 3, minExactDf: 30 } as const;

/** A word: a run of letters and digits (global: for `match` and `replace`). */
export const WORD_PATTERN = /[\p{L}\p{N}]+/gu;
const PURE_NUMBER = /^\p{N}+$/u;

/**
 * Lowercase words of the text, accents kept, split on anything that is not a letter or a
 * digit (so hyphenated forms split: "disse-lhe" → "disse", "lhe"). Numbers included,
 * stopwords included: the base for phrase signals, which need every word.
 */
export function splitWords(text: string): string[] {
  return text.toLowerCase().match(WORD_PATTERN) ?? [];
}

/** Whether a folded word is indexed (folding leaves digits alone: a pure number stays one). */
function isIndexable(folded: string): boolean {
  return !PURE_NUMBER.test(folded) && !isStopword(folded);
}

/**
 * Index tokens without stemming: lowercase, accents folded, pure numbers and stopwords dropped.
 * `tokenize("Coração")` is `["coracao"]`.
 */
export function tokenize(text: string): string[] {
  return splitWords(text)
    .map((word) => foldAccents(word))
    .filter((folded) => isIndexable(folded));
}

/**
 * `tokenize` plus Snowball stemming. Stemming runs on the accented word and the stem is
 * folded afterwards ("stem then fold"): the algorithm's suffix rules are written with
 * accents ("-ção", "-ência"), and the tests measure that this order also lets unaccented
 * typing ("coracao") meet accented text ("coração") for almost the whole corpus vocabulary.
 */
export function analyze(text: string, restoreAccents?: AccentRestorer): string[] {
  return analyzeTokens(text, restoreAccents).map((token) => token.term);
}

/** One analysed word: its stemmed term and its folded surface form (what `tokenize` gives). */
export interface AnalyzedToken {
  term: string;
  surface: string;
}

/** `analyze`, keeping each term's surface word (for exact-word signals). */
export function analyzeTokens(text: string, restoreAccents?: AccentRestorer): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = [];
  for (const word of splitWords(text)) {
    const folded = foldAccents(word);
    if (!isIndexable(folded)) continue;
    const restored = restoreAccents && folded === word ? restoreAccents(word) : word;
    tokens.push({ term: analyzeWord(restored), surface: folded });
  }
  return tokens;
}

/**
 * Maps a word typed without accents to the accented form the corpus uses ("coracao" →
 * "coração"), or returns it unchanged. Built from an index's vocabulary (see
 * `corpusAccentRestorer`, src/core/analysis/accents.ts); needed because Snowball's suffix
 * rules are accented, so "coracao" and "coração" would otherwise stem apart.
 */
export type AccentRestorer = (unaccentedLowercaseWord: string) => string;

const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

const SHORT_INFINITIVE = /^\p{L}{2,4}[aei]r$/u;
const IMPERATIVE_PLURAL = /^\p{L}{2,}[ae]i$/u;

/**
 * Snowball plus two documented verb rules, because the Bible speaks in imperatives and the
 * asker in infinitives ("amar os inimigos" must meet "amai vossos inimigos"):
 * - Imperative plural: Snowball strips only the final "i" of "perdoai", "bendizei", so they
 *   never meet "perdoar", "bendizer". A word of four or more letters ending in "ai"/"ei" is
 *   stemmed as its infinitive ("perdoai" → "perdoar" → "perdo").
 * - Short infinitives: Snowball's RV region leaves vowel-initial infinitives whole ("amar",
 *   "orar", "olhar", "entrar"). When the stemmer left an infinitive of up to six letters
 *   unchanged, it is stemmed without its final "r" ("amar" → "ama").
 * Measured on the corpus vocabulary (see docs/ANALYSIS.md): the changed words fall almost all
 * into their own verb's family; the rare accidental neighbours (altar/alta) are listed there.
 */
function stemWord(lowercaseWord: string): string {
  const word = IMPERATIVE_PLURAL.test(lowercaseWord) ? `${lowercaseWord.slice(0, -1)}r` : lowercaseWord;
  const stem = stemPortuguese(word);
  if (stem === word && SHORT_INFINITIVE.test(word)) return stemPortuguese(word.slice(0, -1));
  return stem;
}

/** Longest word memoised: a longer one (a run without spaces, a hash) is not a word to meet again. */
const STEM_CACHE_WORD_CHARS = 64;

/**
 * Stem-then-fold for one lowercase word (memoised: the corpus has ~30k distinct words; words
 * longer than STEM_CACHE_WORD_CHARS are not kept, so the memo's size is bounded in characters
 * as well as in words).
 */
export function analyzeWord(lowercaseWord: string): string {
  let term = stemCache.get(lowercaseWord);
  if (term === undefined) {
    term = foldAccents(stemWord(lowercaseWord));
    if (lowercaseWord.length > STEM_CACHE_WORD_CHARS) return term;
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(lowercaseWord, term);
  }
  return term;
}
