/**
 * The dense side of any collection's search (the Bible's verses, a document collection's
 * chunks): the vector index over its units when the stored matrix describes them, why there is
 * none otherwise, and the mode a search runs in without it (lexical, said in Portuguese).
 */
import type { Embedder } from "../index/embedder.js";
import { VectorIndex } from "./vector-index.js";
import type { Int8Screen } from "./int8-screen.js";

export type SearchMode = "hybrid" | "lexical" | "dense";

export interface DenseSide {
  /** Row i is the unit vector of unit i; absent without an embedder or a matrix that fits. */
  vectors: VectorIndex | undefined;
  embedder: Embedder | undefined;
  /** Why there is no dense side, when there is none and the reason is known (shown to the user). */
  reason: string | undefined;
  /**
   * The last few queries' vectors and nearest units (unrestricted searches): the same query is
   * not embedded again, and a search at most as deep is the first hits of the deeper one (the
   * ranking is a total order: similarity, then unit).
   */
  recent?: RecentDense[];
}

interface RecentDense {
  query: string;
  minSimilarity: number;
  vector: Float32Array | undefined;
  depth: number;
  hits: readonly { doc: number; similarity: number }[];
}

/** How many recent queries a dense side remembers. */
const RECENT_QUERIES = 4;

/**
 * The dense side over `units` units. A matrix that does not describe them (another count, or
 * other dimensions: a stale or broken index) gives none, with `mismatch` as the reason.
 */
export function denseSide(
  matrix: Float32Array | undefined,
  embedder: Embedder | undefined,
  units: number,
  reasons: { unavailable?: string | undefined; mismatch: string },
  /** The int8 screen already made (read from a snapshot). */
  screen?: Int8Screen,
): DenseSide {
  const dims = embedder?.dimensions ?? 0;
  if (matrix === undefined || dims <= 0) return { vectors: undefined, embedder, reason: reasons.unavailable };
  if (matrix.length !== units * dims) return { vectors: undefined, embedder, reason: reasons.mismatch };
  return { vectors: new VectorIndex(matrix, dims, { prebuiltScreen: screen }), embedder, reason: undefined };
}

export function denseAvailable(side: DenseSide): boolean {
  return side.vectors !== undefined && side.embedder !== undefined;
}

/** The mode a search runs in: the one asked, or lexical without a dense side, with the notice saying so. */
export function effectiveMode(requested: SearchMode, side: DenseSide): { mode: SearchMode; notices: string[] } {
  if (requested === "lexical" || denseAvailable(side)) return { mode: requested, notices: [] };
  const reason = side.reason ? ` (${side.reason})` : "";
  return { mode: "lexical", notices: [`Busca semântica indisponível${reason}: resultados por palavras-chave apenas.`] };
}

/** The query's nearest units on the dense side (none without one). */
export async function denseHits(
  side: DenseSide,
  query: string,
  depth: number,
  minSimilarity: number,
  allowed?: (doc: number) => boolean,
): Promise<{ doc: number; similarity: number }[]> {
  if (!side.vectors || !side.embedder) return [];
  const recent = (side.recent ??= []);
  const known = recent.find((entry) => entry.query === query && entry.minSimilarity === minSimilarity);
  if (known && !allowed && (known.depth >= depth || known.hits.length < known.depth)) return known.hits.slice(0, depth).map((hit) => ({ ...hit }));
  const vector = known ? known.vector : (await side.embedder.embed([query], "query"))[0];
  const hits = vector ? side.vectors.search(vector, depth, minSimilarity, allowed) : [];
  if (!allowed) {
    if (known) recent.splice(recent.indexOf(known), 1);
    recent.unshift({ query, minSimilarity, vector, depth, hits });
    if (recent.length > RECENT_QUERIES) recent.pop();
    return hits.map((hit) => ({ ...hit }));
  }
  return hits;
}
