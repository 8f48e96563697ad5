/**
 * Okapi BM25 over an in-memory inverted index. Pure: documents are dense integer ids
 * (0..n-1) with their analysed terms; the index is rebuilt from the persisted terms at boot
 * (see src/adapters/index), so it can never be missing while the verses are there.
 */
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";
import { TermDictionary } from "./term-dictionary.js";
import { bestPositions } from "./first-sorted.js";

export interface Bm25Parameters {
  k1: number;
  b: number;
}

export const DEFAULT_BM25: Bm25Parameters = { k1: 1.2, b: 0.75 };

export interface WeightedTerm {
  term: string;
  /** Multiplies the term's BM25 contribution (1 for the asker's own words). */
  weight: number;
}

export interface Bm25Hit {
  doc: number;
  score: number;
  /** Query terms that matched this document, in query order. */
  matchedTerms: string[];
}

/** What an index is made of: the sorted vocabulary, the postings (CSR) and each document's length. */
export interface Bm25Parts {
  vocabulary: TermDictionary;
  offsets: Int32Array;
  docs: Int32Array;
  freqs: Uint16Array;
  lengths: Float64Array;
}

/**
 * The postings of the documents: term ids first in first-seen order with their document
 * frequencies, then renumbered in the dictionary's (sorted) order and filled document by
 * document, so each term's documents come in increasing order. Per-document counts use one
 * array over the term ids (no Set or Map per document).
 */
function buildParts(documents: readonly (readonly string[])[]): Bm25Parts {
  const lengths = new Float64Array(documents.length);
  const firstSeen = new Map<string, number>();
  let tokens = 0;
  for (const terms of documents) tokens += terms.length;
  // Pass 1: every occurrence as its first-seen id; document frequencies.
  const sequence = new Int32Array(tokens);
  let seenDf: Int32Array = new Int32Array(1024);
  let lastDoc: Int32Array = new Int32Array(1024).fill(-1);
  let at = 0;
  documents.forEach((terms, doc) => {
    lengths[doc] = terms.length;
    for (const term of terms) {
      let id = firstSeen.get(term);
      if (id === undefined) {
        id = firstSeen.size;
        firstSeen.set(term, id);
        if (id >= seenDf.length) {
          seenDf = grow(seenDf, 0);
          lastDoc = grow(lastDoc, -1);
        }
      }
      sequence[at++] = id;
      if (lastDoc[id] !== doc) {
        lastDoc[id] = doc;
        seenDf[id]!++;
      }
    }
  });
  // The final ids are the dictionary's (sorted order).
  const { dictionary, sorted } = TermDictionary.fromTerms(firstSeen.keys());
  const idOf = new Int32Array(sorted.length);
  sorted.forEach((term, id) => (idOf[firstSeen.get(term)!] = id));
  const offsets = new Int32Array(sorted.length + 1);
  for (let t = 0; t < sorted.length; t++) offsets[t + 1] = offsets[t]! + seenDf[firstSeen.get(sorted[t]!)!]!;
  const total = offsets[sorted.length]!;
  const docs = new Int32Array(total);
  const freqs = new Uint16Array(total);
  // Pass 2: fill, documents in increasing order within each term.
  const cursor = offsets.slice(0, sorted.length);
  const count = new Int32Array(sorted.length);
  const inDoc: number[] = [];
  at = 0;
  documents.forEach((terms, doc) => {
    for (let i = 0; i < terms.length; i++) {
      const id = idOf[sequence[at++]!]!;
      if (count[id]!++ === 0) inDoc.push(id);
    }
    for (const id of inDoc) {
      const slot = cursor[id]!++;
      docs[slot] = doc;
      freqs[slot] = Math.min(count[id]!, 65_535);
      count[id] = 0;
    }
    inDoc.length = 0;
  });
  return { vocabulary: dictionary, offsets, docs, freqs, lengths };
}

function grow(array: Int32Array, fill: number): Int32Array {
  const bigger = new Int32Array(array.length * 2).fill(fill);
  bigger.set(array);
  return bigger;
}

/**
 * Postings are stored compressed-sparse-row: one term id per distinct term, and for term t
 * its documents are docs[offsets[t] .. offsets[t+1]) with their frequencies alongside, in
 * increasing document order. The vocabulary is a frozen `TermDictionary` (sorted terms in
 * one string, not a Map: ≈ 400k phrase keys would cost ≈ 45 MB a worker as Map entries),
 * and each document's length normaliser is computed once at build. Scoring allocates only
 * the hits it returns; their matched terms are found after the cut, for those hits alone.
 */
export class Bm25Index {
  private readonly vocabulary: TermDictionary;
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly freqs: Uint16Array;
  /** Per document: its number of terms (what a snapshot keeps; the norms follow from it and the parameters). */
  private readonly lengths: Float64Array;
  /** Per document: k1 · (1 − b + b · length / average length). */
  private readonly norms: Float64Array;
  private readonly scratch: Float64Array;
  /** Documents touched by the current query, then the candidates that made it. */
  private readonly touched: Int32Array;
  private readonly candidateScores: Float64Array;
  /**
   * The last few queries' hits (unrestricted ones), by their merged terms and weights: a
   * search of the same query at most as deep is their first hits (the ranking is a total
   * order: score, then document), as when the gate searches again the question just searched.
   */
  private readonly recent: RecentHits[] = [];

  constructor(
    documents: readonly (readonly string[])[] | Bm25Parts,
    private readonly params: Bm25Parameters = DEFAULT_BM25,
  ) {
    const parts = Array.isArray(documents) ? buildParts(documents as readonly (readonly string[])[]) : (documents as Bm25Parts);
    this.vocabulary = parts.vocabulary;
    this.offsets = parts.offsets;
    this.docs = parts.docs;
    this.freqs = parts.freqs;
    this.lengths = parts.lengths;
    let total = 0;
    for (const length of this.lengths) total += length;
    const averageLength = this.lengths.length > 0 ? total / this.lengths.length : 0;
    const { k1, b } = params;
    this.norms = this.lengths.map((length) => k1 * (1 - b + (b * length) / averageLength));
    this.scratch = new Float64Array(this.lengths.length);
    this.touched = new Int32Array(this.lengths.length);
    this.candidateScores = new Float64Array(this.lengths.length);
  }

  /** The index a snapshot holds under `name` (`write`), with these parameters; its shape checked. */
  static read(snapshot: SnapshotReader, name: string, params: Bm25Parameters = DEFAULT_BM25): Bm25Index {
    const vocabulary = TermDictionary.read(snapshot, `${name}.terms`);
    const offsets = snapshot.i32(`${name}.offsets`);
    const docs = snapshot.i32(`${name}.docs`);
    const freqs = snapshot.u16(`${name}.freqs`);
    const lengths = snapshot.f64(`${name}.lengths`);
    const valid =
      offsets.length === vocabulary.size + 1 &&
      offsets[0] === 0 &&
      offsets[vocabulary.size] === docs.length &&
      freqs.length === docs.length &&
      offsets.every((offset, i) => i === 0 || offset >= offsets[i - 1]!) &&
      docs.every((doc) => doc >= 0 && doc < lengths.length);
    if (!valid) throw new SnapshotError(`bad BM25 index ${name}`);
    return new Bm25Index({ vocabulary, offsets, docs, freqs, lengths }, params);
  }

  write(snapshot: SnapshotWriter, name: string): void {
    this.vocabulary.write(snapshot, `${name}.terms`);
    snapshot.put(`${name}.offsets`, this.offsets);
    snapshot.put(`${name}.docs`, this.docs);
    snapshot.put(`${name}.freqs`, this.freqs);
    snapshot.put(`${name}.lengths`, this.lengths);
  }

  /** The dictionary of the terms it indexes. */
  get terms(): TermDictionary {
    return this.vocabulary;
  }

  get documentCount(): number {
    return this.norms.length;
  }

  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  documentFrequency(term: string): number {
    const id = this.vocabulary.idOf(term);
    return id < 0 ? 0 : this.offsets[id + 1]! - this.offsets[id]!;
  }

  /** The documents holding a term, in increasing order (a view into the index: do not write to it). */
  documentsOf(term: string): Int32Array {
    const id = this.vocabulary.idOf(term);
    return id < 0 ? this.docs.subarray(0, 0) : this.docs.subarray(this.offsets[id]!, this.offsets[id + 1]!);
  }

  /** Lucene's BM25 idf, always positive: ln(1 + (N - df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  private idfOf(df: number): number {
    return df === 0 ? 0 : Math.log(1 + (this.documentCount - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document containing at least one query term and returns the best `limit`,
   * highest score first, ties broken by document id. Terms scoring 0 never make a hit.
   * `allowed`, when given, restricts the hits to documents it accepts (collections, sources).
   */
  search(query: readonly WeightedTerm[], limit: number, allowed?: (doc: number) => boolean): Bm25Hit[] {
    // The merged terms that score, with their ids (absent from the corpus or weight ≤ 0: left out).
    const terms = mergeTerms(query).flatMap(({ term, weight }) => {
      const id = weight > 0 ? this.vocabulary.idOf(term) : -1;
      return id < 0 ? [] : [{ term, weight, id }];
    });
    if (terms.length === 0 || limit <= 0) return [];
    const key = allowed ? undefined : terms.map(({ id, weight }) => `${id}:${weight}`).join(" ");
    const remembered = key === undefined ? undefined : this.recent.find((entry) => entry.key === key && (entry.limit >= limit || entry.hits.length < entry.limit));
    if (remembered) return copyHits(remembered.hits, limit);
    const hits = this.score(terms, limit, allowed);
    if (key !== undefined) {
      this.recent.unshift({ key, limit, hits });
      if (this.recent.length > RECENT_QUERIES) this.recent.pop();
      return copyHits(hits, limit);
    }
    return hits;
  }

  private score(terms: readonly { term: string; weight: number; id: number }[], limit: number, allowed?: (doc: number) => boolean): Bm25Hit[] {
    const { k1 } = this.params;
    const { scratch: scores, touched, candidateScores, norms, docs, freqs, offsets } = this;
    let touchedCount = 0;
    for (const { weight, id } of terms) {
      const start = offsets[id]!;
      const end = offsets[id + 1]!;
      const idf = this.idfOf(end - start) * weight;
      for (let i = start; i < end; i++) {
        const doc = docs[i]!;
        const freq = freqs[i]!;
        const contribution = (idf * freq * (k1 + 1)) / (freq + norms[doc]!);
        if (scores[doc] === 0) touched[touchedCount++] = doc;
        scores[doc]! += contribution;
      }
    }
    // Candidates are compacted into the front of `touched`, their scores kept aside.
    let count = 0;
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (score <= 0 || (allowed && !allowed(doc))) continue;
      touched[count] = doc;
      candidateScores[count++] = score;
    }
    return bestOf(touched, candidateScores, count, limit).map((at) => {
      const doc = touched[at]!;
      const matchedTerms = terms.filter(({ id }) => containsDoc(docs, offsets[id]!, offsets[id + 1]!, doc)).map(({ term }) => term);
      return { doc, score: candidateScores[at]!, matchedTerms };
    });
  }
}

/** How many recent queries an index remembers (the question, the theme, the gate's search again…). */
const RECENT_QUERIES = 4;

interface RecentHits {
  key: string;
  limit: number;
  hits: readonly Bm25Hit[];
}

/** The first `limit` hits as new objects (a caller may keep or change what it is given). */
function copyHits(hits: readonly Bm25Hit[], limit: number): Bm25Hit[] {
  return hits.slice(0, limit).map((hit) => ({ doc: hit.doc, score: hit.score, matchedTerms: [...hit.matchedTerms] }));
}

/**
 * The positions (into `docs`/`scores`, first `count`) of the best `limit`, best first: higher
 * score, then lower document id. A bounded heap whose root is the worst kept; the same
 * order as sorting them all and cutting.
 */
function bestOf(docs: Int32Array, scores: Float64Array, count: number, limit: number): number[] {
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && docs[a]! > docs[b]!);
  return bestPositions(count, limit, worse).sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Whether the increasing run docs[start..end) holds `doc` (binary search). */
function containsDoc(docs: Int32Array, start: number, end: number, doc: number): boolean {
  let lo = start;
  let hi = end - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = docs[mid]!;
    if (at === doc) return true;
    if (at < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Same term twice in a query counts once, with the larger weight. */
function mergeTerms(query: readonly WeightedTerm[]): WeightedTerm[] {
  const byTerm = new Map<string, number>();
  for (const { term, weight } of query) byTerm.set(term, Math.max(weight, byTerm.get(term) ?? 0));
  return [...byTerm].map(([term, weight]) => ({ term, weight }));
}
