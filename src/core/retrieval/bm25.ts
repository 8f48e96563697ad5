/**
 * Okapi BM25 over an in-memory inverted index. Pure: documents are dense integer ids
 * (0..n-1) with their analysed terms; the index is rebuilt from the persisted terms at boot
 * (see src/adapters/index), so it can never be missing while the verses are there.
 */
import { TermDictionary } from "./term-dictionary.js";

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
  /** Per document: k1 · (1 − b + b · length / average length). */
  private readonly norms: Float64Array;
  private readonly scratch: Float64Array;
  /** Documents touched by the current query, then the candidates that made it. */
  private readonly touched: Int32Array;
  private readonly candidateScores: Float64Array;

  constructor(
    documents: readonly (readonly string[])[],
    private readonly params: Bm25Parameters = DEFAULT_BM25,
  ) {
    const lengths = new Float64Array(documents.length);
    // Pass 1: term ids (in first-seen order, for now) and document frequencies.
    const firstSeen = new Map<string, number>();
    const seenDf: number[] = [];
    let total = 0;
    documents.forEach((terms, doc) => {
      lengths[doc] = terms.length;
      total += terms.length;
      for (const term of new Set(terms)) {
        let id = firstSeen.get(term);
        if (id === undefined) {
          id = seenDf.length;
          firstSeen.set(term, id);
          seenDf.push(0);
        }
        seenDf[id]!++;
      }
    });
    // The final ids are the dictionary's (sorted order).
    const { dictionary, sorted } = TermDictionary.fromTerms([...firstSeen.keys()]);
    this.vocabulary = dictionary;
    const idOf = new Int32Array(sorted.length);
    sorted.forEach((term, id) => (idOf[firstSeen.get(term)!] = id));
    this.offsets = new Int32Array(sorted.length + 1);
    for (let t = 0; t < sorted.length; t++) this.offsets[t + 1] = this.offsets[t]! + seenDf[firstSeen.get(sorted[t]!)!]!;
    this.docs = new Int32Array(this.offsets[sorted.length]!);
    this.freqs = new Uint16Array(this.offsets[sorted.length]!);
    // Pass 2: fill, documents in increasing order within each term.
    const cursor = this.offsets.slice(0, sorted.length);
    documents.forEach((terms, doc) => {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, freq] of counts) {
        const id = idOf[firstSeen.get(term)!]!;
        const at = cursor[id]!++;
        this.docs[at] = doc;
        this.freqs[at] = Math.min(freq, 65_535);
      }
    });
    const averageLength = documents.length > 0 ? total / documents.length : 0;
    const { k1, b } = params;
    this.norms = lengths.map((length) => k1 * (1 - b + (b * length) / averageLength));
    this.scratch = new Float64Array(documents.length);
    this.touched = new Int32Array(documents.length);
    this.candidateScores = new Float64Array(documents.length);
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

/**
 * The positions (into `docs`/`scores`, first `count`) of the best `limit`, best first: higher
 * score, then lower document id. A bounded heap whose root is the worst kept; the same
 * order as sorting them all and cutting.
 */
function bestOf(docs: Int32Array, scores: Float64Array, count: number, limit: number): number[] {
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && docs[a]! > docs[b]!);
  const heap: number[] = [];
  const siftDown = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const child = right < heap.length && worse(heap[right]!, heap[left]!) ? right : left;
      if (!worse(heap[child]!, heap[at]!)) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  for (let i = 0; i < count; i++) {
    if (heap.length < limit) {
      heap.push(i);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (worse(heap[0]!, i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
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
