/**
 * Okapi BM25 over an in-memory inverted index. Pure: documents are dense integer ids
 * (0..n-1) with their analysed terms; the index is rebuilt from the persisted terms at boot
 * (see src/adapters/store), so it can never be missing while the verses are there.
 */
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
 * its documents are docs[offsets[t] .. offsets[t+1]) with their frequencies alongside. Two
 * flat typed arrays instead of one pair of arrays per term keep ~400k phrase keys cheap.
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly freqs: Uint16Array;
  private readonly docLengths: Float32Array;
  private readonly averageLength: number;
  private readonly scratch: Float64Array;

  constructor(
    documents: readonly (readonly string[])[],
    private readonly params: Bm25Parameters = DEFAULT_BM25,
  ) {
    this.docLengths = new Float32Array(documents.length);
    // Pass 1: term ids and document frequencies.
    const df: number[] = [];
    let total = 0;
    documents.forEach((terms, doc) => {
      this.docLengths[doc] = terms.length;
      total += terms.length;
      for (const term of new Set(terms)) {
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = df.length;
          this.termIds.set(term, id);
          df.push(0);
        }
        df[id]!++;
      }
    });
    this.offsets = new Int32Array(df.length + 1);
    for (let t = 0; t < df.length; t++) this.offsets[t + 1] = this.offsets[t]! + df[t]!;
    this.docs = new Int32Array(this.offsets[df.length]!);
    this.freqs = new Uint16Array(this.offsets[df.length]!);
    // Pass 2: fill, documents in increasing order within each term.
    const cursor = this.offsets.slice(0, df.length);
    documents.forEach((terms, doc) => {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, freq] of counts) {
        const id = this.termIds.get(term)!;
        const at = cursor[id]!++;
        this.docs[at] = doc;
        this.freqs[at] = Math.min(freq, 65_535);
      }
    });
    this.averageLength = documents.length > 0 ? total / documents.length : 0;
    this.scratch = new Float64Array(documents.length);
  }

  get documentCount(): number {
    return this.docLengths.length;
  }

  get vocabularySize(): number {
    return this.termIds.size;
  }

  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.offsets[id + 1]! - this.offsets[id]!;
  }

  /** Lucene's BM25 idf, always positive: ln(1 + (N - df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    if (df === 0) return 0;
    return Math.log(1 + (this.documentCount - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document containing at least one query term and returns the best `limit`,
   * highest score first, ties broken by document id. Terms scoring 0 never make a hit.
   * `allowed`, when given, restricts the hits to documents it accepts (collections, sources).
   */
  search(query: readonly WeightedTerm[], limit: number, allowed?: (doc: number) => boolean): Bm25Hit[] {
    const merged = mergeTerms(query);
    if (merged.length === 0 || limit <= 0) return [];
    const { k1, b } = this.params;
    const scores = this.scratch;
    const touched: number[] = [];
    const matchedBy = new Map<number, number[]>();
    merged.forEach(({ term, weight }, termIndex) => {
      const id = this.termIds.get(term);
      if (id === undefined || weight <= 0) return;
      const idf = this.idf(term) * weight;
      for (let i = this.offsets[id]!; i < this.offsets[id + 1]!; i++) {
        const doc = this.docs[i]!;
        const freq = this.freqs[i]!;
        const norm = k1 * (1 - b + (b * this.docLengths[doc]!) / this.averageLength);
        const contribution = (idf * freq * (k1 + 1)) / (freq + norm);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += contribution;
        const matched = matchedBy.get(doc);
        if (matched) matched.push(termIndex);
        else matchedBy.set(doc, [termIndex]);
      }
    });
    const hits: Bm25Hit[] = [];
    for (const doc of touched) {
      const score = scores[doc]!;
      scores[doc] = 0;
      if (score <= 0 || (allowed && !allowed(doc))) continue;
      hits.push({ doc, score, matchedTerms: (matchedBy.get(doc) ?? []).map((i) => merged[i]!.term) });
    }
    hits.sort((x, y) => y.score - x.score || x.doc - y.doc);
    return hits.slice(0, limit);
  }
}

/** Same term twice in a query counts once, with the larger weight. */
function mergeTerms(query: readonly WeightedTerm[]): WeightedTerm[] {
  const byTerm = new Map<string, number>();
  for (const { term, weight } of query) byTerm.set(term, Math.max(weight, byTerm.get(term) ?? 0));
  return [...byTerm].map(([term, weight]) => ({ term, weight }));
}
