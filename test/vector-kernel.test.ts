import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileKernel, kernelSources, moduleFileOf } from "../scripts/build-wasm.js";
import { createDotKernel } from "../src/core/retrieval/dot-kernel.js";
import { VectorIndex } from "../src/core/retrieval/vector-index.js";
import { mulberry32 } from "../src/core/index/linalg.js";

function randomMatrix(rows: number, dims: number, seed: number): Float32Array {
  const random = mulberry32(seed);
  return Float32Array.from({ length: rows * dims }, () => random() * 2 - 1);
}

function plainDots(matrix: Float32Array, dims: number, query: Float32Array): number[] {
  const out: number[] = [];
  for (let row = 0; row < matrix.length / dims; row++) {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += matrix[row * dims + d]! * query[d]!;
    out.push(sum);
  }
  return out;
}

describe("dot-product kernels", () => {
  it("uses WebAssembly SIMD on Node 20", () => {
    expect(createDotKernel(new Float32Array(16), 8).kind).toBe("wasm-simd");
    expect(new VectorIndex(new Float32Array(16), 8).kernelKind).toBe("wasm-simd");
  });

  for (const dims of [1, 3, 8, 13, 16, 256, 384]) {
    it(`gives the plain dot products for ${dims} dimensions (padding rows to 8 lanes), in both kernels`, () => {
      const rows = 257;
      const matrix = randomMatrix(rows, dims, dims);
      for (const prefer of ["wasm-simd", "js"] as const) {
        const kernel = createDotKernel(matrix, dims, { prefer });
        expect(kernel.kind).toBe(prefer);
        expect(kernel.rows).toBe(rows);
        for (let q = 0; q < 3; q++) {
          const query = randomMatrix(1, dims, 1000 + q);
          const expected = plainDots(matrix, dims, query);
          const got = Array.from(kernel.scores(query));
          expect(got).toHaveLength(rows);
          got.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 4));
        }
      }
    });
  }

  it("handles an empty matrix", () => {
    const kernel = createDotKernel(new Float32Array(0), 8);
    expect(Array.from(kernel.scores(new Float32Array(8)))).toEqual([]);
  });

  it("ranks the same documents with either kernel", () => {
    const dims = 64;
    const matrix = randomMatrix(2000, dims, 7);
    const query = randomMatrix(1, dims, 8);
    const wasm = new VectorIndex(matrix, dims, { kernel: "wasm-simd" }).search(query, 20, -1);
    const js = new VectorIndex(matrix, dims, { kernel: "js" }).search(query, 20, -1);
    expect(wasm.map((hit) => hit.doc)).toEqual(js.map((hit) => hit.doc));
  });

  it("the committed WebAssembly modules are compiled from their current .wat sources", async () => {
    const sources = kernelSources();
    expect(sources.length).toBeGreaterThan(0);
    for (const wat of sources) expect(readFileSync(moduleFileOf(wat), "utf8")).toBe(await compileKernel(wat));
  });
});

describe("the int8 screen", () => {
  function unitRows(rows: number, dims: number, seed: number): Float32Array {
    const matrix = randomMatrix(rows, dims, seed);
    for (let row = 0; row < rows; row++) {
      const vector = matrix.subarray(row * dims, (row + 1) * dims);
      // some rows share a direction (ties and near ties), a few are empty
      if (row % 97 === 5) vector.set(matrix.subarray(0, dims));
      if (row % 211 === 7) vector.fill(0);
      const norm = Math.hypot(...vector);
      if (norm > 0) for (let d = 0; d < dims; d++) vector[d]! /= norm;
    }
    return matrix;
  }

  for (const dims of [13, 64, 256]) {
    it(`returns exactly the full scan's hits (${dims} dimensions), with floors, filters and ties`, () => {
      const matrix = unitRows(6000, dims, dims);
      const screened = new VectorIndex(matrix, dims, { screen: true });
      const full = new VectorIndex(matrix, dims, { screen: false });
      expect(screened.screened).toBe(true);
      expect(full.screened).toBe(false);
      const allowed = (doc: number) => doc % 3 !== 0;
      for (let q = 0; q < 12; q++) {
        const query = q === 0 ? matrix.slice(0, dims) : unitRows(1, dims, 500 + q);
        for (const [limit, floor] of [[1, -1], [10, 0], [80, 0.05], [5000, -1], [20, 0.9]] as const) {
          expect(screened.search(query, limit, floor)).toEqual(full.search(query, limit, floor));
          expect(screened.search(query, limit, floor, allowed)).toEqual(full.search(query, limit, floor, allowed));
        }
      }
    });
  }

  it("is built by default for large matrices only", () => {
    expect(new VectorIndex(unitRows(5000, 16, 1), 16).screened).toBe(true);
    expect(new VectorIndex(unitRows(100, 16, 1), 16).screened).toBe(false);
    expect(new VectorIndex(unitRows(5000, 16, 1), 16, { kernel: "js" }).screened).toBe(false);
  });

  it("scores the listed rows with the same bits as the full scan, in both kernels", () => {
    const dims = 40;
    const matrix = randomMatrix(300, dims, 3);
    const query = randomMatrix(1, dims, 4);
    const rows = Int32Array.from([299, 0, 17, 17, 150]);
    for (const prefer of ["wasm-simd", "js"] as const) {
      const kernel = createDotKernel(matrix, dims, { prefer });
      const all = Array.from(kernel.scores(query));
      expect(Array.from(kernel.scoresOf(query, rows, 4))).toEqual([all[299], all[0], all[17], all[17]]);
    }
  });
});
