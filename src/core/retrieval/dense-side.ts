/**
 * The dense side of any collection's search (the Bible's verses, a document collection's
 * chunks): the vector index over its units when the stored matrix describes them, why there is
 * none otherwise, and the mode a search runs in without it (lexical, said in Portuguese).
 */
import type { Embedder } from "../index/embedder.js";
import { VectorIndex } from "./vector-index.js";

export type SearchMode = "hybrid" | "lexical" | "dense";

export interface DenseSide {
  /** Row i is the unit vector of unit i; absent without an embedder or a matrix that fits. */
  vectors: VectorIndex | undefined;
  embedder: Embedder | undefined;
  /** Why there is no dense side, when there is none and the reason is known (shown to the user). */
  reason: string | undefined;
}

/**
 * The dense side over `units` units. A matrix that does not describe them (another count, or
 * other dimensions: a stale or broken index) gives none, with `mismatch` as the reason.
 */
export function denseSide(
  matrix: Float32Array | undefined,
  embedder: Embedder | undefined,
  units: number,
  reasons: { unavailable?: string | undefined; mismatch: string },
): DenseSide {
  const dims = embedder?.dimensions ?? 0;
  if (matrix === undefined || dims <= 0) return { vectors: undefined, embedder, reason: reasons.unavailable };
  if (matrix.length !== units * dims) return { vectors: undefined, embedder, reason: reasons.mismatch };
  return { vectors: new VectorIndex(matrix, dims), embedder, reason: undefined };
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
  const [vector] = await side.embedder.embed([query], "query");
  return vector ? side.vectors.search(vector, depth, minSimilarity, allowed) : [];
}
