import { createDotKernel, type DotKernel } from "./dot-kernel.js";

/**
 * Exact nearest-neighbour search over one contiguous Float32Array (row i = document i).
 * Vectors are unit length, so the dot product is the cosine. A zero row (a document the
 * model has no terms for, or no vector yet) never matches.
 */
export interface VectorHit {
  doc: number;
  similarity: number;
}

export class VectorIndex {
  private readonly kernel: DotKernel;

  constructor(matrix: Float32Array, readonly dimensions: number, options: { kernel?: "wasm-simd" | "js" } = {}) {
    if (dimensions <= 0 || matrix.length % dimensions !== 0) {
      throw new Error(`vector matrix of ${matrix.length} floats does not split into rows of ${dimensions}`);
    }
    this.kernel = createDotKernel(matrix, dimensions, { prefer: options.kernel });
  }

  get size(): number {
    return this.kernel.rows;
  }

  /** Which dot-product kernel serves the search (WebAssembly SIMD where available). */
  get kernelKind(): DotKernel["kind"] {
    return this.kernel.kind;
  }

  /** The best `limit` documents with similarity ≥ `minSimilarity`, best first, ties by id. */
  search(query: Float32Array, limit: number, minSimilarity: number, allowed?: (doc: number) => boolean): VectorHit[] {
    if (limit <= 0 || isZero(query)) return [];
    const scores = this.kernel.scores(query);
    const rows = this.size;
    // A bounded min-heap would save little at 31k rows; a threshold-pruned array keeps it simple.
    const best: VectorHit[] = [];
    let floor = minSimilarity;
    for (let row = 0; row < rows; row++) {
      const dot = scores[row]!;
      if (dot < floor || dot === 0) continue;
      if (allowed && !allowed(row)) continue;
      best.push({ doc: row, similarity: dot });
      if (best.length >= limit * 4) {
        best.sort(byBest);
        best.length = limit;
        floor = Math.max(minSimilarity, best[limit - 1]!.similarity);
      }
    }
    best.sort(byBest);
    return best.slice(0, limit);
  }
}

function byBest(a: VectorHit, b: VectorHit): number {
  return b.similarity - a.similarity || a.doc - b.doc;
}

function isZero(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) return false;
  return true;
}
