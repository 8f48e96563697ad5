/** Retrieval metrics with binary relevance, as defined in the eval README. Pure. */
export interface QueryMetrics {
  hit: number;
  recall: number;
  reciprocalRank: number;
  ndcg: number;
}

export function scoreRanking(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): QueryMetrics {
  const top = ranked.slice(0, k);
  let found = 0;
  let firstRank = 0;
  let dcg = 0;
  const seen = new Set<string>();
  top.forEach((id, index) => {
    if (!relevant.has(id) || seen.has(id)) return;
    seen.add(id);
    found++;
    if (firstRank === 0) firstRank = index + 1;
    dcg += 1 / Math.log2(index + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(relevant.size, k); i++) idcg += 1 / Math.log2(i + 2);
  return {
    hit: found > 0 ? 1 : 0,
    recall: relevant.size > 0 ? found / relevant.size : 0,
    reciprocalRank: firstRank > 0 ? 1 / firstRank : 0,
    ndcg: idcg > 0 ? dcg / idcg : 0,
  };
}

export interface AggregateMetrics {
  n: number;
  hit: number;
  recall: number;
  mrr: number;
  ndcg: number;
}

export function averageMetrics(all: readonly QueryMetrics[]): AggregateMetrics {
  const n = all.length;
  const mean = (pick: (m: QueryMetrics) => number) => (n === 0 ? 0 : all.reduce((sum, m) => sum + pick(m), 0) / n);
  return {
    n,
    hit: mean((m) => m.hit),
    recall: mean((m) => m.recall),
    mrr: mean((m) => m.reciprocalRank),
    ndcg: mean((m) => m.ndcg),
  };
}
