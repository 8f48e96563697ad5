/**
 * Exact vector search at the Bible's size (31,102 rows × 256 dimensions, the LSA default),
 * in one run: the int8 screen with exact f32 rescoring of the rows that may be among the best
 * (the default at this size), the full WebAssembly SIMD f32 scan, and the plain JavaScript
 * one; p50/p95 per query and the ratios. Random unit vectors: the full scans' cost does not
 * depend on the values (the screen's rescoring does, a little: on the real LSA vectors about
 * 140 rows of 31,101 at depth 80).
 */
import { mulberry32 } from "../src/core/index/linalg.js";
import { VectorIndex } from "../src/core/retrieval/vector-index.js";

const ROWS = 31_102;
const DIMENSIONS = 256;
const QUERIES = 200;

function unitRows(rows: number, dims: number, seed: number): Float32Array {
  const random = mulberry32(seed);
  const matrix = new Float32Array(rows * dims);
  for (let row = 0; row < rows; row++) {
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const value = random() * 2 - 1;
      matrix[row * dims + d] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) matrix[row * dims + d]! /= norm;
  }
  return matrix;
}

function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: Math.round(at(0.5) * 1000) / 1000, p95: Math.round(at(0.95) * 1000) / 1000 };
}

export async function runVectorBench(): Promise<Record<string, unknown>> {
  const matrix = unitRows(ROWS, DIMENSIONS, 1);
  const queries = unitRows(QUERIES, DIMENSIONS, 2);
  const figures: Record<string, unknown> = { rows: ROWS, dimensions: DIMENSIONS, queries: QUERIES, limit: 24 };
  const p50s: Record<string, number> = {};
  const variants = [
    ["int8 screen + wasm-simd", { kernel: "wasm-simd", screen: true }],
    ["wasm-simd", { kernel: "wasm-simd", screen: false }],
    ["js", { kernel: "js", screen: false }],
  ] as const;
  for (const [name, options] of variants) {
    const index = new VectorIndex(matrix, DIMENSIONS, options);
    for (let i = 0; i < 20; i++) index.search(queries.subarray(0, DIMENSIONS), 24, 0.05); // warm-up
    const samples: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const query = queries.subarray(q * DIMENSIONS, (q + 1) * DIMENSIONS);
      const started = performance.now();
      index.search(query, 24, 0.05);
      samples.push(performance.now() - started);
    }
    const s = stats(samples);
    p50s[name] = s.p50;
    figures[name] = { kernel: index.kernelKind, screened: index.screened, searchMs: s };
  }
  figures.speedupP50 = Math.round((p50s.js! / p50s["wasm-simd"]!) * 10) / 10;
  figures.screenSpeedupP50 = Math.round((p50s["wasm-simd"]! / p50s["int8 screen + wasm-simd"]!) * 100) / 100;
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runVectorBench(), null, 2));
}
