import { align16, instantiateKernel } from "./dot-kernel.js";
import { WASM_BASE64 } from "./kernels/dot-rows-i8.wasm.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";

/**
 * A quarter-size copy of a vector matrix for a first pass: every row quantized to int8 with its
 * own scale, scanned by the WebAssembly SIMD kernel (kernels/dot-rows-i8.wat) in less than half
 * the time of the f32 scan. Each approximate dot product comes with a bound on its error, so a
 * search can rescore exactly only the rows that may still be among the best
 * (`VectorIndex.search`) and return exactly what the full f32 scan returns.
 *
 * Bound: with x = s·(a + δ), |δ| ≤ ½ per entry (row scale s, int8 a) and q = t·(b + ε) (query
 * scale t, int16 b holding −127..127), |x·q − s·t·a·b| ≤ s·t·(½‖a‖₁ + ½‖b‖₁ + ¼·d); the f32 sum
 * the exact kernel computes differs from the real one by less than d·2⁻²⁰·‖x‖·‖q‖ (a wide
 * margin over f32 rounding), which is added.
 */
export class Int8Screen {
  readonly rows: number;
  private readonly stride: number;
  private readonly dotRows: (matrix: number, query: number, rows: number, dims: number, out: number) => void;
  private readonly query: Int16Array;
  private readonly out: Int32Array;
  private readonly queryOffset: number;
  private readonly outOffset: number;
  private readonly rowScale: Float64Array;
  private readonly rowL1: Float64Array;
  private readonly rowNorm: Float64Array;

  private readonly quantized: Int8Array;

  private constructor(
    source: Float32Array | SavedScreen,
    readonly dimensions: number,
    kernel: { exports: Record<string, unknown>; memory: { buffer: ArrayBuffer } },
  ) {
    this.rows = source instanceof Float32Array ? source.length / dimensions : source.rowScale.length;
    this.stride = strideOf(dimensions);
    this.queryOffset = this.rows * this.stride;
    this.outOffset = align16(this.queryOffset + this.stride * 2);
    this.dotRows = kernel.exports.dotRowsI8 as Int8Screen["dotRows"];
    const buffer = kernel.memory.buffer;
    const quantized = new Int8Array(buffer, 0, this.rows * this.stride);
    this.quantized = quantized;
    this.query = new Int16Array(buffer, this.queryOffset, this.stride);
    this.out = new Int32Array(buffer, this.outOffset, this.rows);
    if (!(source instanceof Float32Array)) {
      quantized.set(source.quantized);
      this.rowScale = source.rowScale;
      this.rowL1 = source.rowL1;
      this.rowNorm = source.rowNorm;
      return;
    }
    const matrix = source;
    this.rowScale = new Float64Array(this.rows);
    this.rowL1 = new Float64Array(this.rows);
    this.rowNorm = new Float64Array(this.rows);
    for (let row = 0; row < this.rows; row++) {
      const { scale, l1, norm } = quantize(matrix, row * dimensions, dimensions, quantized, row * this.stride);
      this.rowScale[row] = scale;
      this.rowL1[row] = l1;
      this.rowNorm[row] = norm;
    }
  }

  /** The screen of a matrix, or undefined where WebAssembly SIMD is unavailable. */
  static of(matrix: Float32Array, dimensions: number): Int8Screen | undefined {
    return Int8Screen.from(matrix, dimensions);
  }

  private static from(source: Float32Array | SavedScreen, dimensions: number): Int8Screen | undefined {
    const rows = source instanceof Float32Array ? source.length / dimensions : source.rowScale.length;
    const stride = strideOf(dimensions);
    const kernel = instantiateKernel(WASM_BASE64, align16(rows * stride + stride * 2) + rows * 4);
    return kernel ? new Int8Screen(source, dimensions, kernel) : undefined;
  }

  /** The screen a snapshot holds (`write`) for `rows` rows of `dimensions`, or undefined where WebAssembly SIMD is unavailable. */
  static read(snapshot: SnapshotReader, name: string, rows: number, dimensions: number): Int8Screen | undefined {
    const raw = snapshot.view(`${name}.quantized`, "i8");
    const saved: SavedScreen = {
      quantized: new Int8Array(raw.buffer, raw.byteOffset, raw.length),
      rowScale: snapshot.f64(`${name}.rowScale`),
      rowL1: snapshot.f64(`${name}.rowL1`),
      rowNorm: snapshot.f64(`${name}.rowNorm`),
    };
    const valid = saved.quantized.length === rows * strideOf(dimensions) && [saved.rowScale, saved.rowL1, saved.rowNorm].every((array) => array.length === rows);
    if (!valid) throw new SnapshotError(`bad int8 screen ${name}`);
    return Int8Screen.from(saved, dimensions);
  }

  write(snapshot: SnapshotWriter, name: string): void {
    snapshot.put(`${name}.quantized`, this.quantized);
    snapshot.put(`${name}.rowScale`, this.rowScale);
    snapshot.put(`${name}.rowL1`, this.rowL1);
    snapshot.put(`${name}.rowNorm`, this.rowNorm);
  }

  /**
   * Scans every row with the int8 kernel. The exact dot product of row r with the query lies
   * within `error` of `estimate`, where both = rowScale[r] · scale, estimate = both · out[r] and
   * error = both · (½ · rowL1[r] + fixed) + rounding · rowNorm[r] (the caller computes them row by
   * row, as it reads them: one pass over the rows).
   */
  scan(query: Float32Array): ScreenScan {
    const { scale, l1, norm: queryNorm } = quantize(query, 0, this.dimensions, this.query, 0);
    this.dotRows(0, this.queryOffset, this.rows, this.stride, this.outOffset);
    return {
      scale,
      fixed: 0.5 * l1 + 0.25 * this.dimensions,
      rounding: this.dimensions * 2 ** -20 * queryNorm,
      out: this.out,
      rowScale: this.rowScale,
      rowL1: this.rowL1,
      rowNorm: this.rowNorm,
    };
  }
}

/** One scan's integer dot products and what their error bounds are computed from (`Int8Screen.scan`). */
export interface ScreenScan {
  scale: number;
  fixed: number;
  rounding: number;
  out: Int32Array;
  rowScale: Float64Array;
  rowL1: Float64Array;
  rowNorm: Float64Array;
}

/** A screen as a snapshot keeps it: the quantized rows (padded to the stride) and each row's scale, L1 norm of levels and norm. */
interface SavedScreen {
  quantized: Int8Array;
  rowScale: Float64Array;
  rowL1: Float64Array;
  rowNorm: Float64Array;
}

/**
 * Writes values[start … start + dimensions) to out[outStart …] as levels −127..127 of one scale
 * (largest |value| / 127; all levels 0 for a zero vector), and returns what the error bound
 * needs: that scale, the levels' L1 norm and the values' Euclidean norm.
 */
function quantize(
  values: Float32Array,
  start: number,
  dimensions: number,
  out: Int8Array | Int16Array,
  outStart: number,
): { scale: number; l1: number; norm: number } {
  let largest = 0;
  let squares = 0;
  for (let d = 0; d < dimensions; d++) {
    const value = values[start + d]!;
    largest = Math.max(largest, Math.abs(value));
    squares += value * value;
  }
  const scale = largest / 127;
  let l1 = 0;
  for (let d = 0; d < dimensions; d++) {
    const level = scale > 0 ? Math.round(values[start + d]! / scale) : 0;
    out[outStart + d] = level;
    l1 += Math.abs(level);
  }
  return { scale, l1, norm: Math.sqrt(squares) };
}

/** Rows padded to 16 bytes (one int8x16 load at a time). */
function strideOf(dimensions: number): number {
  return Math.ceil(dimensions / 16) * 16;
}
