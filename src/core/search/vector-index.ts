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
  constructor(
    readonly matrix: Float32Array,
    readonly dimensions: number,
  ) {
    if (dimensions <= 0 || matrix.length % dimensions !== 0) {
      throw new Error(`vector matrix of ${matrix.length} floats does not split into rows of ${dimensions}`);
    }
  }

  get size(): number {
    return this.matrix.length / this.dimensions;
  }

  /** The best `limit` documents with similarity ≥ `minSimilarity`, best first, ties by id. */
  search(query: Float32Array, limit: number, minSimilarity: number, allowed?: (doc: number) => boolean): VectorHit[] {
    if (limit <= 0 || isZero(query)) return [];
    const { matrix, dimensions } = this;
    const rows = this.size;
    // A bounded min-heap would save little at 31k rows; a threshold-pruned array keeps it simple.
    const best: VectorHit[] = [];
    let floor = minSimilarity;
    for (let row = 0; row < rows; row++) {
      const dot = dotAt(matrix, row * dimensions, query, dimensions);
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

/**
 * Dot product of the row at `offset` with the query, four lanes at a time: independent
 * accumulators let the JIT keep the multiply-adds in flight (about twice the plain loop).
 */
function dotAt(matrix: Float32Array, offset: number, query: Float32Array, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let e = 0;
  let d = 0;
  const end4 = dimensions - (dimensions % 4);
  for (; d < end4; d += 4) {
    a += matrix[offset + d]! * query[d]!;
    b += matrix[offset + d + 1]! * query[d + 1]!;
    c += matrix[offset + d + 2]! * query[d + 2]!;
    e += matrix[offset + d + 3]! * query[d + 3]!;
  }
  for (; d < dimensions; d++) a += matrix[offset + d]! * query[d]!;
  return a + b + c + e;
}

function byBest(a: VectorHit, b: VectorHit): number {
  return b.similarity - a.similarity || a.doc - b.doc;
}

function isZero(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) return false;
  return true;
}
