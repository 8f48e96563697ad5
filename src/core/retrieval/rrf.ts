/**
 * Reciprocal Rank Fusion (Cormack et al. 2009): each list contributes weight / (k + rank)
 * for an item, rank starting at 1. Fusion is by position, never by score: cosine lives in
 * 0..1 and BM25 has no ceiling. Identity is a caller-given key (the verse's coordinate),
 * never the result object, because the same verse arrives from both sides as different
 * objects with different scores.
 */
export const RRF_K = 60;

export interface RankedList<T> {
  name: string;
  items: readonly T[];
  /** Multiplies this list's contributions; 1 by default. */
  weight?: number;
}

export interface FusedItem<T> {
  key: string;
  score: number;
  /** The item as first seen (lists are visited in the order given). */
  item: T;
  /** Names of the lists the item appeared in, in list order. */
  via: string[];
  /** 1-based rank in each list it appeared in. */
  ranks: Record<string, number>;
}

export function reciprocalRankFusion<T>(
  lists: readonly RankedList<T>[],
  keyOf: (item: T) => string,
  options: { k?: number; limit?: number } = {},
): FusedItem<T>[] {
  const k = options.k ?? RRF_K;
  const fused = new Map<string, FusedItem<T> & { firstSeen: number }>();
  let order = 0;
  for (const list of lists) {
    const weight = list.weight ?? 1;
    list.items.forEach((item, index) => {
      const key = keyOf(item);
      let entry = fused.get(key);
      if (!entry) {
        entry = { key, score: 0, item, via: [], ranks: {}, firstSeen: order++ };
        fused.set(key, entry);
      }
      if (list.name in entry.ranks) return; // a duplicate within one list counts once, at its best rank
      entry.score += weight / (k + index + 1);
      entry.via.push(list.name);
      entry.ranks[list.name] = index + 1;
    });
  }
  const sorted = [...fused.values()].sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen);
  const limited = options.limit === undefined ? sorted : sorted.slice(0, Math.max(0, options.limit));
  return limited.map(({ firstSeen: _firstSeen, ...rest }) => rest);
}
