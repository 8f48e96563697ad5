/**
 * A person's or a place's Portuguese name, learned from the corpus: the capitalised word of the
 * Bíblia Livre that the entity's own verses (the reference data lists every verse that names
 * it, in the corpus's versification) print most, weighted by how specific the word is to the
 * entity's English name and by how close it is spelled to that name. Nothing here knows a name:
 * change a name in the corpus and the alignment follows it (a test does exactly that).
 *
 * For an entity and one of its English names x, each capitalised word w of its verses scores
 *
 *   share(w)       = the entity's verses printing w / the entity's verses
 *   specificity(w) = the verses printing w that name someone (or some place) called x
 *                    / every verse printing w                  (pooled over namesakes)
 *   similarity(w)  = 1 − edit distance / length, over the spelling keys (`name-key.ts`)
 *   score          = share × specificity × (SIMILARITY_FLOOR + similarity)
 *
 * and the best word is the name. The specificity is what makes "Moisés" Moses' name and not
 * Aaron's, although most of Aaron's verses print it; the similarity settles the genealogies,
 * where every name of a verse is printed once. A word left to the verses without the first
 * one (another spelling, or what an alias is printed as: Saul → "Saulo" for Paul) is found the
 * same way among those verses. The confidence weighs the three and the margin over the
 * runner-up; below `minConfidence` the alignment is dropped.
 */
import { boundedDistance, keySimilarity, nameKey } from "./name-key.js";

/** An entity to name: its id, English names (the first is its main one) and verses (indices into the texts). */
export interface AlignEntity {
  id: string;
  names: readonly string[];
  verses: readonly number[];
}

/** One Portuguese name learned for an entity. */
export interface NameAlignment {
  /** The word as the corpus prints it ("Moisés", "En-Dor"). */
  form: string;
  /** The English name it stands for. */
  english: string;
  /** 0..1: how far to trust it. */
  confidence: number;
  share: number;
  specificity: number;
  similarity: number;
}

export interface AlignOptions {
  /** Alignments below this confidence are dropped (default 0.3). */
  minConfidence?: number;
  /** A further spelling is sought when the first leaves at least this share of verses (default 0.2). */
  residualShare?: number;
}

/** Added to the similarity so that a name spelled quite differently ("LORD" → "SENHOR") can still win on the verses. */
const SIMILARITY_FLOOR = 0.15;
export const DEFAULT_MIN_NAME_CONFIDENCE = 0.3;
/** English names whose keys have this many letters or more pool with those one edit away. */
const NEAR_NAME_MIN_LENGTH = 5;
/** An alias's word is kept when spelled this close to one of the entity's names… */
const ALIAS_SIMILARITY = 0.5;
/** …or when it is printed in this share of the verses left and this specific to the entity. */
const ALIAS_SHARE = 0.3;
const ALIAS_SPECIFICITY = 0.9;

/** A capitalised word, hyphenated parts kept when they are capitalised too ("En-Dor", "Bete-Seã"; not "Buscai-me"). */
const CAPITALISED = /\p{Lu}[\p{L}]*(?:-\p{Lu}[\p{L}]*)*/gu;

/** The distinct capitalised words (two letters or more) of a verse. */
export function capitalisedWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.matchAll(CAPITALISED)) if (match[0].length >= 2) words.add(match[0]);
  return [...words];
}

interface Candidate {
  form: string;
  score: number;
  share: number;
  specificity: number;
  similarity: number;
}

/** Each entity's Portuguese names (best first), for the entities with one worth trusting. */
export function alignNames(entities: readonly AlignEntity[], texts: readonly string[], options: AlignOptions = {}): Map<string, NameAlignment[]> {
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_NAME_CONFIDENCE;
  const residualShare = options.residualShare ?? 0.2;
  const wordsOf = texts.map((text) => capitalisedWords(text));
  const df = new Map<string, number>();
  for (const words of wordsOf) for (const word of words) df.set(word, (df.get(word) ?? 0) + 1);

  const keyCache = new Map<string, string>();
  const keyOf = (word: string): string => {
    let key = keyCache.get(word);
    if (key === undefined) keyCache.set(word, (key = nameKey(word)));
    return key;
  };
  // Verses of everyone called x, or by a name spelled nearly as x ("Zachariah", "Zechariah": both
  // "Zacarias"; "Hosea", "Hoshea": both "Oseias"), pooled.
  const versesByKey = new Map<string, Set<number>>();
  for (const entity of entities) {
    for (const name of entity.names) {
      const key = keyOf(name);
      let set = versesByKey.get(key);
      if (!set) versesByKey.set(key, (set = new Set()));
      for (const verse of entity.verses) set.add(verse);
    }
  }
  const keysByLength = new Map<number, string[]>();
  for (const key of versesByKey.keys()) {
    const list = keysByLength.get(key.length) ?? [];
    list.push(key);
    keysByLength.set(key.length, list);
  }
  // A name of several words ("Mount Seir", "Valley of Gerar") is compared whole and word by word.
  const nameKeys = (name: string): string[] => {
    const words = name.split(/[\s,]+/).filter((word) => word.length >= 3);
    return [keyOf(name), ...(words.length > 1 ? words.map(keyOf) : [])];
  };
  const similarityTo = (keys: readonly string[], key: string): number => Math.max(...keys.map((k) => keySimilarity(k, key)));
  const pooledCounts = new Map<string, Map<string, number>>();
  const countsOf = (name: string): Map<string, number> => {
    const key = keyOf(name);
    let counts = pooledCounts.get(key);
    if (!counts) {
      const pooled = new Set<number>();
      const edits = key.length >= NEAR_NAME_MIN_LENGTH ? 1 : 0;
      for (let length = key.length - edits; length <= key.length + edits; length++) {
        for (const other of keysByLength.get(length) ?? []) {
          if (boundedDistance(key, other, edits) <= edits) for (const verse of versesByKey.get(other)!) pooled.add(verse);
        }
      }
      counts = new Map();
      for (const verse of pooled) for (const word of wordsOf[verse] ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
      pooledCounts.set(key, counts);
    }
    return counts;
  };
  const best = (verses: readonly number[], name: string, exclude: ReadonlySet<string>): { top?: Candidate; runnerUp?: Candidate } => {
    const counts = new Map<string, number>();
    for (const verse of verses) for (const word of wordsOf[verse] ?? []) if (!exclude.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const pool = countsOf(name);
    const keys = nameKeys(name);
    let top: Candidate | undefined;
    let runnerUp: Candidate | undefined;
    for (const [form, count] of counts) {
      const share = count / verses.length;
      const specificity = (pool.get(form) ?? count) / (df.get(form) ?? count);
      const similarity = similarityTo(keys, keyOf(form));
      const candidate = { form, share, specificity, similarity, score: share * specificity * (SIMILARITY_FLOOR + similarity) };
      if (!top || candidate.score > top.score) {
        runnerUp = top;
        top = candidate;
      } else if (!runnerUp || candidate.score > runnerUp.score) runnerUp = candidate;
    }
    return { top, runnerUp };
  };

  // Name-like evidence (spelled like the English name, printed in the entity's verses, its own) and
  // distributional evidence (printed with the entity far more than anything else, over enough
  // verses to tell: one verse of a genealogy prints every name once).
  const confidenceOf = (top: Candidate, runnerUp: Candidate | undefined, verseCount: number): number => {
    const margin = runnerUp ? 1 - runnerUp.score / top.score : 1;
    const held = Math.sqrt(top.share * top.specificity);
    const nameLike = top.similarity ** 2 * held;
    const distributional = held * (verseCount / (verseCount + 3)) * margin;
    return 1 - (1 - nameLike) * (1 - distributional);
  };

  const result = new Map<string, NameAlignment[]>();
  for (const entity of entities) {
    const verses = entity.verses.filter((verse) => verse >= 0 && verse < texts.length);
    if (verses.length === 0 || entity.names.length === 0) continue;
    const found: NameAlignment[] = [];
    const taken = new Set<string>();
    const push = (english: string, top: Candidate, runnerUp: Candidate | undefined): void => {
      const confidence = confidenceOf(top, runnerUp, verses.length);
      if (confidence < minConfidence) return;
      // Labelled with the English name it is spelled closest to, when one is close (an alias found
      // among the verses another alias explains: "Pedro" under "Cephas").
      let label = english;
      let similarity = top.similarity;
      for (const name of entity.names) {
        const s = similarityTo(nameKeys(name), keyOf(top.form));
        if (s > similarity && s >= ALIAS_SIMILARITY) [label, similarity] = [name, s];
      }
      taken.add(top.form);
      found.push({ form: top.form, english: label, confidence, share: top.share, specificity: top.specificity, similarity });
    };
    // An alias's word must look like it, or stand for the entity in most of the verses left.
    const aliasHolds = (top: Candidate): boolean =>
      top.similarity >= ALIAS_SIMILARITY || (top.share >= ALIAS_SHARE && top.specificity >= ALIAS_SPECIFICITY);
    // The main name over all the entity's verses, then each alias over the verses not yet explained.
    entity.names.forEach((name, i) => {
      const scope = i === 0 ? verses : verses.filter((verse) => !(wordsOf[verse] ?? []).some((word) => taken.has(word)));
      if (scope.length === 0) return;
      const { top, runnerUp } = best(scope, name, taken);
      if (top && (i === 0 || aliasHolds(top))) push(name, top, runnerUp);
    });
    // Another spelling of the main name, when the names found leave many verses unexplained.
    const left = verses.filter((verse) => !(wordsOf[verse] ?? []).some((word) => taken.has(word)));
    if (found.length > 0 && left.length >= Math.max(2, residualShare * verses.length)) {
      const { top, runnerUp } = best(left, entity.names[0]!, taken);
      if (top && top.similarity >= ALIAS_SIMILARITY) push(entity.names[0]!, top, runnerUp);
    }
    if (found.length > 0) result.set(entity.id, found);
  }
  return result;
}
