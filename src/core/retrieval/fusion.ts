/** The two sides of every hybrid search, the settings each is tuned with, the lexical-only quota, and `belowTheirSeeds`. */
export const LEXICAL = "lexical";
export const DENSE = "dense";

/** What every collection's hybrid search is tuned with; the Bible's engine adds its own levers. */
export interface HybridSearchSettings {
  /** Okapi BM25 parameters of the lexical index (of each silo, in a document collection). */
  bm25K1: number;
  bm25B: number;
  /** Results returned when the caller gives no `k`. */
  topK: number;
  /** Each side (each silo, and the dense side) ranks `k × candidateMultiplier` candidates. */
  candidateMultiplier: number;
  /** Positions lexical-only hits may take in a hybrid answer. */
  maxKeywordOnly: number;
  /** Cosine below this is noise, never a dense hit. */
  minSimilarity: number;
  /** Weights of the two rankings in the fusion. */
  lexicalWeight: number;
  denseWeight: number;
}

/** The shared defaults: BM25's usual k1 and b, six results, the quota of two (measured on the Bible, see docs/RETRIEVAL.md). */
export const DEFAULT_HYBRID_SETTINGS: HybridSearchSettings = Object.freeze({
  bm25K1: 1.2,
  bm25B: 0.75,
  topK: 6,
  candidateMultiplier: 4,
  maxKeywordOnly: 2,
  minSimilarity: 0.05,
  lexicalWeight: 1,
  denseWeight: 1,
});

export function isKeywordOnly(item: { via: readonly string[] }): boolean {
  return item.via.length === 1 && item.via[0] === LEXICAL;
}

export function applyKeywordOnlyQuota<T extends { via: readonly string[] }>(
  ranked: readonly T[],
  maxKeywordOnly: number,
  limit: number,
): T[] {
  const kept: T[] = [];
  let keywordOnly = 0;
  for (const item of ranked) {
    if (kept.length >= limit) break;
    if (isKeywordOnly(item)) {
      if (keywordOnly >= maxKeywordOnly) continue;
      keywordOnly++;
    }
    kept.push(item);
  }
  return kept;
}

/**
 * The ranking with every item that `derived` marks and whose seed (`seedOf`, by key) is in the
 * ranking moved to just after that seed, if it came before it; the others keep their order.
 * For lists built from the first hits (the verses readers link them to): what a hit brought
 * in ranks below the hit.
 */
export function belowTheirSeeds<T extends { key: string }>(ranked: readonly T[], seedOf: ReadonlyMap<string, string>, derived: (item: T) => boolean): T[] {
  const present = new Set(ranked.map((item) => item.key));
  const waiting = new Map<string, T[]>();
  const placed = new Set<string>();
  const out: T[] = [];
  const place = (item: T) => {
    out.push(item);
    placed.add(item.key);
    for (const follower of waiting.get(item.key) ?? []) place(follower);
    waiting.delete(item.key);
  };
  for (const item of ranked) {
    const seed = seedOf.get(item.key);
    if (seed !== undefined && derived(item) && present.has(seed) && !placed.has(seed)) {
      const queue = waiting.get(seed);
      if (queue) queue.push(item);
      else waiting.set(seed, [item]);
      continue;
    }
    place(item);
  }
  return out;
}
