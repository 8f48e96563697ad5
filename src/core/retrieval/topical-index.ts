/**
 * The topical index (resources/topics/): themes and feelings ("medo do futuro", "luto",
 * "perdão"), each with the ways people write to a pastor about it and the verses a pastor gives
 * for it, best first. A question is matched to its topics by BM25 with each topic as one
 * document (all its phrasings), and judged by coverage: the largest share of the question's
 * discriminating weight (idf over the topics) that one phrasing holds (the union of twenty
 * phrasings holds too many words to tell a topic from chance). A question whose words the
 * topics do not share ("a torre de Babel") matches none. Pure.
 */
import { analyze } from "../analysis/index.js";
import { parseVerseId } from "../bible/books.js";
import { parseJsonLines } from "../sources/jsonl.js";
import { Bm25Index } from "./bm25.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";

export interface TopicVerse {
  book: string;
  chapter: number;
  verse: number;
}

export interface Topic {
  id: string;
  title: string;
  /** Messages people write about it, in their own words. */
  phrasings: readonly string[];
  /** The verses a pastor gives for it, best first. */
  verses: readonly TopicVerse[];
}

export interface TopicMatch {
  topic: Topic;
  /** BM25 of the question against the topic's words. */
  score: number;
  /** 0..1: the largest share of the question's idf weight that one of the topic's phrasings holds. */
  coverage: number;
}

export interface TopicSelection {
  /** At least this coverage to count as a match. */
  minCoverage: number;
  /** At most this many topics. */
  maxTopics: number;
  /** A further topic must score at least this share of the best one's BM25. */
  minShareOfBest: number;
  /**
   * A message of at least `minTerms` distinct words is judged by its own bar: a person telling
   * a situation writes more than any one phrasing holds, so its coverage falls with its length.
   */
  longMessage?: { minTerms: number; minCoverage: number };
  /**
   * A phrasing counts towards the coverage only when it holds at least this many of the
   * question's words (all of them, for a question of fewer): one shared word is chance. Default 1.
   */
  minTermsHeld?: number;
}

/** A topical index's analysed phrasings (per topic, the title first) and its BM25 index over them. */
export interface TopicalPrebuilt {
  phrasingTerms: readonly (readonly ReadonlySet<string>[])[];
  index: Bm25Index;
}

/** How many recent questions an index keeps the matches of. */
const RECENT_QUESTIONS = 4;

export class TopicalIndex {
  private readonly index: Bm25Index;
  /** Per topic, the analysed terms of each of its phrasings (and its title). */
  private readonly phrasingTerms: readonly (readonly ReadonlySet<string>[])[];
  private readonly titleTerms: readonly ReadonlySet<string>[];
  private readonly recent: { key: string; matches: readonly TopicMatch[] }[] = [];

  constructor(
    readonly topics: readonly Topic[],
    private readonly analyzeText: (text: string) => string[] = (text) => analyze(text),
    /** The analysed phrasings and their index as a snapshot holds them (`TopicalIndex.read`), for these topics and this analysis. */
    prebuilt?: TopicalPrebuilt,
  ) {
    this.phrasingTerms = prebuilt?.phrasingTerms ?? topics.map((topic) => [topic.title, ...topic.phrasings].map((text) => new Set(this.analyzeText(text))));
    this.titleTerms = this.phrasingTerms.map((phrasings) => phrasings[0]!);
    this.index = prebuilt?.index ?? new Bm25Index(this.phrasingTerms.map((phrasings) => phrasings.flatMap((terms) => [...terms])));
  }

  /** Saves the analysed phrasings (each a list of terms, the title first) and the BM25 index over them under `name`. */
  write(snapshot: SnapshotWriter, name: string): void {
    const phrasingEnds: number[] = [];
    const termEnds: number[] = [];
    const terms: string[] = [];
    for (const phrasings of this.phrasingTerms) {
      for (const phrasing of phrasings) {
        terms.push(...phrasing);
        termEnds.push(terms.length);
      }
      phrasingEnds.push(termEnds.length);
    }
    snapshot.put(`${name}.phrasingEnds`, Int32Array.from(phrasingEnds));
    snapshot.put(`${name}.termEnds`, Int32Array.from(termEnds));
    snapshot.putStrings(`${name}.terms`, terms);
    this.index.write(snapshot, `${name}.bm25`);
  }

  /** What `write` saved under `name`, for an index of `topics` topics. */
  static read(snapshot: SnapshotReader, name: string, topics: number): TopicalPrebuilt {
    const phrasingEnds = snapshot.i32(`${name}.phrasingEnds`);
    const termEnds = snapshot.i32(`${name}.termEnds`);
    const terms = snapshot.strings(`${name}.terms`);
    const index = Bm25Index.read(snapshot, `${name}.bm25`);
    const valid =
      phrasingEnds.length === topics &&
      index.documentCount === topics &&
      phrasingEnds[topics - 1] === termEnds.length &&
      termEnds[termEnds.length - 1] === terms.length &&
      phrasingEnds.every((end, i) => end > (i === 0 ? 0 : phrasingEnds[i - 1]!)) &&
      termEnds.every((end, i) => end >= (i === 0 ? 0 : termEnds[i - 1]!));
    if (!valid) throw new SnapshotError(`bad topical index ${name}`);
    const phrasingTerms: ReadonlySet<string>[][] = [];
    let phrasing = 0;
    for (const end of phrasingEnds) {
      const sets: ReadonlySet<string>[] = [];
      for (; phrasing < end; phrasing++) sets.push(new Set(terms.slice(phrasing === 0 ? 0 : termEnds[phrasing - 1]!, termEnds[phrasing]!)));
      phrasingTerms.push(sets);
    }
    return { phrasingTerms, index };
  }

  get size(): number {
    return this.topics.length;
  }

  /** The topics a question is about, best first, as `selection` admits them (the last few questions' matches are kept; each call gets its own copy). */
  match(question: string, selection: TopicSelection): TopicMatch[] {
    const key = `${question}\u0000${JSON.stringify(selection)}`;
    let known = this.recent.find((entry) => entry.key === key);
    if (!known) {
      known = { key, matches: this.matchNow(question, selection) };
      this.recent.unshift(known);
      if (this.recent.length > RECENT_QUESTIONS) this.recent.pop();
    }
    return known.matches.map((match) => ({ ...match }));
  }

  private matchNow(question: string, selection: TopicSelection): TopicMatch[] {
    const terms = [...new Set(this.analyzeText(question))];
    if (terms.length === 0) return [];
    // A word no topic holds weighs a little more than the rarest word they hold (idf at a
    // document frequency of 0): content no topic speaks of lowers the coverage.
    const unseen = Math.log(1 + (this.topics.length + 0.5) / 0.5);
    const weightOf = (term: string) => (this.index.documentFrequency(term) > 0 ? this.index.idf(term) : unseen);
    const total = terms.reduce((sum, term) => sum + weightOf(term), 0);
    const hits = this.index.search(
      terms.map((term) => ({ term, weight: 1 })),
      selection.maxTopics * 4,
    );
    // A topic whose title names what the question asks ("casamento" → "Casamento", not "Crise no
    // casamento") ranks above those that only use its words: BM25 × (1 + Jaccard of the title).
    const titled = hits.map((hit) => {
      const title = this.titleTerms[hit.doc]!;
      const shared = terms.filter((term) => title.has(term)).length;
      return { ...hit, score: hit.score * (1 + shared / (title.size + terms.length - shared)) };
    });
    titled.sort((a, b) => b.score - a.score || a.doc - b.doc);
    const best = titled[0]?.score ?? 0;
    const long = selection.longMessage;
    const minCoverage = long && terms.length >= long.minTerms ? Math.min(long.minCoverage, selection.minCoverage) : selection.minCoverage;
    const minHeld = Math.min(selection.minTermsHeld ?? 1, terms.length);
    const coverageOf = (held: ReadonlySet<string>) => {
      const shared = terms.filter((term) => held.has(term));
      return shared.length >= minHeld ? shared.reduce((sum, term) => sum + weightOf(term), 0) / total : 0;
    };
    return titled
      .map((hit) => ({
        topic: this.topics[hit.doc]!,
        score: hit.score,
        coverage: Math.max(...this.phrasingTerms[hit.doc]!.map(coverageOf)),
      }))
      .filter((match) => match.coverage >= minCoverage && match.score >= selection.minShareOfBest * best)
      .slice(0, selection.maxTopics);
  }
}

/** The verses of matched topics as one list: each topic's first verse, then each one's second… without repeats. */
export function topicVerses(matches: readonly TopicMatch[]): TopicVerse[] {
  const longest = Math.max(0, ...matches.map((match) => match.topic.verses.length));
  const byRank = Array.from({ length: longest }, (_, rank) => matches.flatMap((match) => match.topic.verses[rank] ?? []));
  const seen = new Set<string>();
  return byRank.flat().filter((verse) => {
    const key = `${verse.book} ${verse.chapter}:${verse.verse}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export class TopicFileError extends Error {
  readonly code = "invalid_topics";
  constructor(
    readonly file: string,
    readonly line: number,
    problem: string,
  ) {
    super(`${file}, linha ${line}: ${problem}`);
    this.name = "TopicFileError";
  }
}

/** Parses the topics file (JSONL: `id`, `title`, `phrasings`, `verses` as `BOOK C:V`), naming the file and line of a problem. */
export function parseTopicsFile(text: string, file: string): Topic[] {
  const topics: Topic[] = [];
  const ids = new Set<string>();
  for (const { line, value } of parseJsonLines(text, (at) => new TopicFileError(file, at, "JSON inválido"))) {
    const record = value as Partial<Record<"id" | "title" | "phrasings" | "verses", unknown>>;
    const strings = (field: unknown) => Array.isArray(field) && field.length > 0 && field.every((item) => typeof item === "string" && item.trim() !== "");
    if (typeof record.id !== "string" || record.id === "") throw new TopicFileError(file, line, "falta o campo id");
    if (ids.has(record.id)) throw new TopicFileError(file, line, `o tema ${record.id} aparece duas vezes`);
    if (typeof record.title !== "string" || record.title.trim() === "") throw new TopicFileError(file, line, "falta o campo title");
    if (!strings(record.phrasings)) throw new TopicFileError(file, line, "phrasings deve ser uma lista de frases");
    if (!strings(record.verses)) throw new TopicFileError(file, line, "verses deve ser uma lista de referências BOOK C:V");
    const verses = (record.verses as string[]).map((reference) => {
      const verse = parseVerseId(reference);
      if (!verse) throw new TopicFileError(file, line, `referência inválida: ${reference} (use BOOK C:V, como JHN 3:16)`);
      return verse;
    });
    ids.add(record.id);
    topics.push({ id: record.id, title: record.title, phrasings: record.phrasings as string[], verses });
  }
  return topics;
}
