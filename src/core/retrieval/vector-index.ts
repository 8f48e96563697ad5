import { createDotKernel, type DotKernel } from "./dot-kernel.js";
import { Int8Screen } from "./int8-screen.js";
import type { SnapshotWriter } from "../index/snapshot.js";

/**
 * Exact nearest-neighbour search over one contiguous Float32Array (row i = document i).
 * Vectors are unit length, so the dot product is the cosine. A zero row (a document the
 * model has no terms for, or no vector yet) never matches.
 */
export interface VectorHit {
  doc: number;
  similarity: number;
}

/** Below this many rows the full f32 scan is cheap enough that the int8 screen is not built. */
const SCREEN_MIN_ROWS = 4096;

export interface VectorIndexOptions {
  kernel?: "wasm-simd" | "js";
  /** Screen with int8 first and rescore only the rows that may be among the best (default: for ≥ 4,096 rows with WebAssembly SIMD). */
  screen?: boolean;
  /** The screen already made (read from a snapshot), used when a screen is wanted instead of quantizing the matrix again. */
  prebuiltScreen?: Int8Screen | undefined;
}

export class VectorIndex {
  private readonly kernel: DotKernel;
  private readonly screen: Int8Screen | undefined;
  /** The upper bounds of one search's candidates, by position among them. */
  private readonly upper: Float64Array;
  private readonly candidates: Int32Array;

  constructor(matrix: Float32Array, readonly dimensions: number, options: VectorIndexOptions = {}) {
    if (dimensions <= 0 || matrix.length % dimensions !== 0) {
      throw new Error(`vector matrix of ${matrix.length} floats does not split into rows of ${dimensions}`);
    }
    this.kernel = createDotKernel(matrix, dimensions, { prefer: options.kernel });
    const screened = options.screen ?? (this.kernel.kind === "wasm-simd" && this.kernel.rows >= SCREEN_MIN_ROWS);
    const prebuilt = options.prebuiltScreen?.rows === this.kernel.rows && options.prebuiltScreen.dimensions === dimensions ? options.prebuiltScreen : undefined;
    this.screen = screened ? (prebuilt ?? Int8Screen.of(matrix, dimensions)) : undefined;
    this.upper = new Float64Array(this.screen ? this.kernel.rows : 0);
    this.candidates = new Int32Array(this.screen ? this.kernel.rows : 0);
  }

  /** Saves the int8 screen (when there is one) under `name`. */
  writeScreen(snapshot: SnapshotWriter, name: string): boolean {
    this.screen?.write(snapshot, name);
    return this.screen !== undefined;
  }

  /** Whether searches screen with int8 before the exact scores. */
  get screened(): boolean {
    return this.screen !== undefined;
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
    if (limit <= 0 || query.every((x) => x === 0)) return [];
    return this.screen ? this.screenedSearch(this.screen, query, limit, minSimilarity, allowed) : this.fullSearch(query, limit, minSimilarity, allowed);
  }

  /**
   * The same hits as `fullSearch`, scoring exactly only the rows that may be among them. The
   * `limit`-th largest lower bound τ among rows that surely qualify (lower bound > 0 and ≥
   * `minSimilarity`, allowed) is a score at least `limit` qualifying rows reach; a row whose
   * upper bound is below τ scores below all of them and cannot be returned. The others are
   * rescored with the f32 kernel (the same bits as the full scan) and ranked as it ranks them.
   */
  private screenedSearch(screen: Int8Screen, query: Float32Array, limit: number, minSimilarity: number, allowed?: (doc: number) => boolean): VectorHit[] {
    const { upper, candidates } = this;
    const { scale, fixed, rounding, out, rowScale, rowL1, rowNorm } = screen.scan(query);
    const rows = this.size;
    const sure = new MinHeap(limit);
    // One pass: each row's bounds as it is read; τ only rises, so a row below the running τ is below the final one.
    let tau = minSimilarity;
    let count = 0;
    for (let row = 0; row < rows; row++) {
      const both = rowScale[row]! * scale;
      const estimate = both * out[row]!;
      const error = both * (0.5 * rowL1[row]! + fixed) + rounding * rowNorm[row]!;
      const high = estimate + error;
      if (high < tau) continue;
      if (allowed && !allowed(row)) continue;
      upper[count] = high;
      candidates[count++] = row;
      const low = estimate - error;
      if (low > 0 && low >= minSimilarity && !(sure.full && low <= sure.min)) {
        sure.push(low);
        if (sure.full) tau = Math.max(minSimilarity, sure.min);
      }
    }
    let kept = 0;
    for (let i = 0; i < count; i++) if (upper[i]! >= tau) candidates[kept++] = candidates[i]!;
    const scores = this.kernel.scoresOf(query, candidates, kept);
    const best: VectorHit[] = [];
    for (let i = 0; i < kept; i++) {
      const dot = scores[i]!;
      if (dot < minSimilarity || dot === 0) continue;
      best.push({ doc: candidates[i]!, similarity: dot });
    }
    return best.sort(byBest).slice(0, limit);
  }

  /** Every row scored with the f32 kernel. */
  private fullSearch(query: Float32Array, limit: number, minSimilarity: number, allowed?: (doc: number) => boolean): VectorHit[] {
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
    return best.sort(byBest).slice(0, limit);
  }
}

function byBest(a: VectorHit, b: VectorHit): number {
  return b.similarity - a.similarity || a.doc - b.doc;
}

/** The `capacity` largest numbers pushed so far, smallest on top. */
class MinHeap {
  private readonly values: Float64Array;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.values = new Float64Array(capacity);
  }

  get full(): boolean {
    return this.size === this.capacity;
  }

  get min(): number {
    return this.values[0]!;
  }

  /** Adds `value`; once full, it replaces the smallest (the caller pushes only larger values). */
  push(value: number): void {
    const v = this.values;
    let at: number;
    if (this.size < this.capacity) {
      at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (v[parent]! <= value) break;
        v[at] = v[parent]!;
        at = parent;
      }
      v[at] = value;
      return;
    }
    at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && v[right]! < v[left]! ? right : left;
      if (v[child]! >= value) break;
      v[at] = v[child]!;
      at = child;
    }
    v[at] = value;
  }
}
