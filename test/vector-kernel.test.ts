import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileKernel, kernelSources, moduleFileOf } from "../scripts/build-wasm.js";
import { createDotKernel } from "../src/core/search/dot-kernel.js";
import { VectorIndex } from "../src/core/search/vector-index.js";
import { mulberry32 } from "../src/core/embedding/linalg.js";

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
