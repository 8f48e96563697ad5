import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildContextWindows } from "../src/core/sources/context.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { SeededRandom, orthonormalizeColumns, randomizedSvd, symmetricEigen } from "../src/core/index/linalg.js";
import type { CsrMatrix } from "../src/core/index/linalg.js";
import { LsaModel, createLsaEmbedder, deserializeLsa, termBag, trainLsa } from "../src/core/index/lsa.js";
import { LSA_KERNEL, LsaKernel } from "../src/core/index/lsa-kernel.js";
import { analyze } from "../src/core/analysis/index.js";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function norm(v: Float32Array): number {
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function denseToCsr(a: Float64Array, rows: number, cols: number): CsrMatrix {
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = a[i * cols + j] as number;
      if (v !== 0) {
        indices.push(j);
        values.push(v);
      }
    }
    indptr[i + 1] = indices.length;
  }
  return { rows, cols, indptr, indices: Int32Array.from(indices), values: Float64Array.from(values) };
}

/**
 * Exact singular values by a plain, independent method: cyclic Jacobi rotations on AᵀA until
 * the off-diagonal vanishes; σ = √eigenvalue, largest first.
 */
function exactSingularValues(a: Float64Array, rows: number, cols: number): number[] {
  const g: number[][] = [];
  for (let i = 0; i < cols; i++) {
    g.push([]);
    for (let j = 0; j < cols; j++) {
      let sum = 0;
      for (let r = 0; r < rows; r++) sum += (a[r * cols + i] as number) * (a[r * cols + j] as number);
      (g[i] as number[]).push(sum);
    }
  }
  const get = (i: number, j: number): number => (g[i] as number[])[j] as number;
  const set = (i: number, j: number, v: number): void => {
    (g[i] as number[])[j] = v;
  };
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < cols; p++) for (let q = p + 1; q < cols; q++) off += get(p, q) ** 2;
    if (off < 1e-24) break;
    for (let p = 0; p < cols; p++) {
      for (let q = p + 1; q < cols; q++) {
        const apq = get(p, q);
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (get(q, q) - get(p, p)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < cols; k++) {
          const akp = get(k, p);
          const akq = get(k, q);
          set(k, p, c * akp - s * akq);
          set(k, q, s * akp + c * akq);
        }
        for (let k = 0; k < cols; k++) {
          const apk = get(p, k);
          const aqk = get(q, k);
          set(p, k, c * apk - s * aqk);
          set(q, k, s * apk + c * aqk);
        }
      }
    }
  }
  return Array.from({ length: cols }, (_, i) => Math.sqrt(Math.max(0, get(i, i)))).sort((x, y) => y - x);
}

/** A small corpus with two topics that never share a term: shepherds and fishermen. */
const TOY_CORPUS: readonly string[] = [
  "O pastor guarda as ovelhas no campo.",
  "As ovelhas do rebanho pastam no monte.",
  "O pastor conduz o rebanho ao aprisco.",
  "O rebanho de ovelhas segue o pastor.",
  "O pastor procura a ovelha perdida no monte.",
  "No campo o rebanho descansa junto ao aprisco.",
  "A ovelha ouve a voz do pastor.",
  "O pastor tosquia as ovelhas do rebanho.",
  "O barco navega no mar com os pescadores.",
  "Os pescadores lançam a rede e apanham peixe.",
  "O peixe nada no mar profundo.",
  "O barco volta cheio de peixe para a praia.",
  "No mar a tempestade agita o barco.",
  "A rede dos pescadores rompeu com tanto peixe.",
  "Na praia o barco descansa junto ao mar.",
  "Os pescadores vendem o peixe na praia.",
];

// ---------------------------------------------------------------------------------------------
// Linear algebra
// ---------------------------------------------------------------------------------------------

describe("linalg", () => {
  it("symmetricEigen reconstructs a random symmetric matrix", () => {
    const n = 12;
    const rng = new SeededRandom(7);
    const g = rng.gaussianMatrix(n, n);
    const s = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s[i * n + j] = (g[i * n + j] as number) + (g[j * n + i] as number);
    const { values, vectors } = symmetricEigen(s, n);
    for (let i = 1; i < n; i++) expect(values[i - 1]).toBeGreaterThanOrEqual(values[i] as number);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let k = 0; k < n; k++) sum += (vectors[i * n + k] as number) * (values[k] as number) * (vectors[j * n + k] as number);
        expect(sum).toBeCloseTo(s[i * n + j] as number, 10);
      }
    }
  });

  it("orthonormalizeColumns gives orthonormal columns spanning the input", () => {
    const rows = 50;
    const cols = 6;
    const a = new SeededRandom(3).gaussianMatrix(rows, cols);
    const q = orthonormalizeColumns(a, rows, cols);
    for (let i = 0; i < cols; i++) {
      for (let j = 0; j < cols; j++) {
        let sum = 0;
        for (let r = 0; r < rows; r++) sum += (q[r * cols + i] as number) * (q[r * cols + j] as number);
        expect(sum).toBeCloseTo(i === j ? 1 : 0, 12);
      }
    }
    // The last input column lies in span(Q): its residual after projection is zero.
    const residual = Float64Array.from({ length: rows }, (_, r) => a[r * cols + cols - 1] as number);
    for (let j = 0; j < cols; j++) {
      let p = 0;
      for (let r = 0; r < rows; r++) p += (q[r * cols + j] as number) * (residual[r] as number);
      for (let r = 0; r < rows; r++) residual[r] = (residual[r] as number) - p * (q[r * cols + j] as number);
    }
    expect(Math.max(...residual.map(Math.abs))).toBeLessThan(1e-10);
  });

  it("SeededRandom is deterministic and roughly standard normal", () => {
    const a = new SeededRandom(42).gaussianMatrix(1, 20_000);
    const b = new SeededRandom(42).gaussianMatrix(1, 20_000);
    expect(a).toEqual(b);
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    const variance = a.reduce((x, y) => x + (y - mean) ** 2, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  });

  it("randomizedSvd matches an exact SVD of a small matrix with a decaying spectrum", () => {
    const rows = 80;
    const cols = 50;
    const rng = new SeededRandom(11);
    const a = rng.gaussianMatrix(rows, cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) a[r * cols + c] = (a[r * cols + c] as number) * 0.85 ** c;
    const exact = exactSingularValues(a, rows, cols);
    const k = 8;
    const svd = randomizedSvd(denseToCsr(a, rows, cols), k, { oversample: 10, powerIterations: 2, seed: 5 });
    expect(svd.rank).toBe(k);
    for (let i = 0; i < k; i++) {
      expect(Math.abs((svd.singularValues[i] as number) - (exact[i] as number)) / (exact[i] as number)).toBeLessThan(1e-3);
    }
    // ‖A·v_i‖ = σ_i and the v_i are orthonormal.
    for (let i = 0; i < k; i++) {
      let av = 0;
      for (let r = 0; r < rows; r++) {
        let sum = 0;
        for (let c = 0; c < cols; c++) sum += (a[r * cols + c] as number) * (svd.rightVectors[c * k + i] as number);
        av += sum * sum;
      }
      expect(Math.sqrt(av)).toBeCloseTo(svd.singularValues[i] as number, 2);
      for (let j = 0; j < k; j++) {
        let dot = 0;
        for (let c = 0; c < cols; c++) dot += (svd.rightVectors[c * k + i] as number) * (svd.rightVectors[c * k + j] as number);
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 10);
      }
    }
  });

  it("randomizedSvd is exact when rank + oversample covers the matrix (flat spectrum, sparse input)", () => {
    const rows = 40;
    const cols = 25;
    const rng = new SeededRandom(19);
    const a = new Float64Array(rows * cols);
    for (let i = 0; i < a.length; i++) a[i] = rng.next() < 0.3 ? rng.gaussian() : 0;
    const exact = exactSingularValues(a, rows, cols);
    const svd = randomizedSvd(denseToCsr(a, rows, cols), 10, { oversample: 20, powerIterations: 1, seed: 1 });
    for (let i = 0; i < 10; i++) expect(svd.singularValues[i]).toBeCloseTo(exact[i] as number, 8);
  });
});

describe("the WebAssembly kernel of the LSA (src/core/index/lsa-kernel.ts)", () => {
  /** Runs `work` with the plain loops, then with the kernel; restores the default. */
  function both<T>(work: () => T): { js: T; wasm: T } {
    try {
      LSA_KERNEL.use = "js";
      const js = work();
      LSA_KERNEL.use = "auto";
      return { js, wasm: work() };
    } finally {
      LSA_KERNEL.use = "auto";
    }
  }
  const bits = (array: Float64Array | Float32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString("base64");

  it("runs here (WebAssembly SIMD), or the comparison below would compare the plain loops with themselves", () => {
    expect(LsaKernel.create([16])).toBeDefined();
  });

  it("gives the randomized SVD bit for bit, odd sizes and tails included", () => {
    const rng = new SeededRandom(7);
    for (const [rows, cols, rank] of [[57, 31, 5], [120, 43, 9], [33, 33, 32]] as const) {
      const a = new Float64Array(rows * cols);
      for (let i = 0; i < a.length; i++) a[i] = rng.next() < 0.25 ? rng.gaussian() : 0;
      const { js, wasm } = both(() => randomizedSvd(denseToCsr(a, rows, cols), rank, { oversample: 7, powerIterations: 2, seed: 3 }));
      expect(bits(wasm.singularValues)).toBe(bits(js.singularValues));
      expect(bits(wasm.rightVectors)).toBe(bits(js.rightVectors));
    }
  });

  it("trains the same model and folds in the same vectors, bit for bit", () => {
    const { js, wasm } = both(() => {
      const model = trainLsa(TOY_CORPUS, { dimensions: 5, minDocFreq: 2 });
      const bags = TOY_CORPUS.map((text, i) => termBag(analyze(text), 1 + (i % 3) / 2));
      const vectors = model.embedBags(bags);
      // Every toy text has terms the model knows: a vector of zeros would compare nothing.
      expect(vectors.every((vector) => vector.some((x) => x !== 0))).toBe(true);
      return { bytes: model.serialize().toString("base64"), vectors: vectors.map(bits), plain: bags.map((bag) => bits(model.embedBag(bag))) };
    });
    expect(wasm.bytes).toBe(js.bytes);
    expect(wasm.vectors).toEqual(js.vectors);
    expect(wasm.vectors).toEqual(wasm.plain);
  });
});

// ---------------------------------------------------------------------------------------------
// LSA on synthetic corpora
// ---------------------------------------------------------------------------------------------

describe("trainLsa on a toy corpus", () => {
  const options = { dimensions: 4, minDocFreq: 2 };
  const model = trainLsa(TOY_CORPUS, options);

  it("is deterministic: identical bytes and id for the same input", () => {
    const again = trainLsa([...TOY_CORPUS], { ...options });
    expect(again.id).toBe(model.id);
    expect(Buffer.compare(again.serialize(), model.serialize())).toBe(0);
    expect(model.id).toMatch(/^lsa:v1:d4:[0-9a-f]{16}$/);
  });

  it("changes id with the data or the options", () => {
    expect(trainLsa(TOY_CORPUS.slice(1), options).id).not.toBe(model.id);
    expect(trainLsa(TOY_CORPUS, { ...options, seed: 99 }).id).not.toBe(model.id);
    expect(trainLsa(TOY_CORPUS, { ...options, dimensions: 3 }).id).toMatch(/^lsa:v1:d3:/);
  });

  it("round-trips through serialize/deserialize with identical embeddings", () => {
    const bytes = model.serialize();
    const copy = LsaModel.deserialize(bytes);
    expect(copy.id).toBe(model.id);
    expect(copy.dimensions).toBe(model.dimensions);
    expect(copy.terms).toEqual(model.terms);
    expect(copy.options).toEqual(model.options);
    for (const text of ["pastor", "o barco e o peixe", ...TOY_CORPUS]) {
      expect(copy.embedText(text)).toEqual(model.embedText(text));
    }
    expect(Buffer.compare(copy.serialize(), bytes)).toBe(0);
    // Unaligned input (a Buffer slice at an odd offset) works too.
    const shifted = Buffer.concat([Buffer.from([0]), bytes]).subarray(1);
    expect(deserializeLsa(shifted).embedText("ovelha")).toEqual(model.embedText("ovelha"));
  });

  it("rejects bytes that are not a model", () => {
    expect(() => LsaModel.deserialize(Buffer.from("not a model at all"))).toThrow();
    const truncated = model.serialize().subarray(0, 100);
    expect(() => LsaModel.deserialize(truncated)).toThrow();
  });

  it("gives unit-length vectors with `dimensions` entries", () => {
    for (const text of TOY_CORPUS) {
      const v = model.embedText(text);
      expect(v).toHaveLength(model.dimensions);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it("gives an all-zero vector when no term is known", () => {
    for (const text of ["", "xyzzy plugh", "o a de que", "123 456"]) {
      const v = model.embedText(text);
      expect(v).toHaveLength(model.dimensions);
      expect(norm(v)).toBe(0);
    }
  });

  it("places a query near documents of its topic without any shared term", () => {
    const query = model.embedText("pastor");
    const sameTopic = model.embedText("ovelha rebanho");
    const otherTopic = model.embedText("barco peixe");
    expect(cosine(query, sameTopic)).toBeGreaterThan(cosine(query, otherTopic) + 0.5);
    const sea = model.embedText("mar");
    expect(cosine(sea, otherTopic)).toBeGreaterThan(cosine(sea, sameTopic) + 0.5);
  });

  it("clamps dimensions to the corpus and still works on a tiny rank-deficient corpus", () => {
    const tiny = trainLsa(["ovelha pastor", "ovelha pastor", "barco peixe", "barco peixe"], {
      dimensions: 256,
      maxDocFreqRatio: 1,
    });
    expect(tiny.dimensions).toBeLessThanOrEqual(4);
    expect(norm(tiny.embedText("pastor"))).toBeCloseTo(1, 5);
    expect(cosine(tiny.embedText("pastor"), tiny.embedText("ovelha"))).toBeCloseTo(1, 5);
    expect(cosine(tiny.embedText("pastor"), tiny.embedText("peixe"))).toBeCloseTo(0, 5);
  });

  it("refuses a corpus with no usable term", () => {
    expect(() => trainLsa([])).toThrow(RangeError);
    expect(() => trainLsa(["pastor", "ovelha"])).toThrow(/no term/);
  });

  it("createLsaEmbedder folds in every text, queries and documents alike", async () => {
    const embedder = createLsaEmbedder(model);
    expect(embedder.id).toBe(model.id);
    expect(embedder.dimensions).toBe(model.dimensions);
    const texts = ["pastor", "barco no mar", "zzz"];
    const [queries, documents] = await Promise.all([embedder.embed(texts, "query"), embedder.embed(texts, "document")]);
    expect(queries).toEqual(texts.map((text) => model.embedText(text)));
    expect(documents).toEqual(queries);
    const restoring = createLsaEmbedder(model, { restoreAccents: (word) => (word === "pascoa" ? "pastor" : word) });
    const [restored] = await restoring.embed(["pascoa"], "query");
    expect(restored).toEqual(model.embedText("pastor"));
  });
});

// ---------------------------------------------------------------------------------------------
// LSA on the real corpus
// ---------------------------------------------------------------------------------------------

const CORPUS = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

describe("trainLsa on the real corpus (por-blivre context windows)", () => {
  let model: LsaModel;
  let keys: string[];
  let windows: string[];
  let vectors: Float32Array[];

  beforeAll(async () => {
    const verses = await loadUsfxFile(CORPUS);
    windows = buildContextWindows(verses, 2).map((entry) => entry.window);
    keys = verses.map((verse) => `${verse.book} ${verse.chapter}:${verse.verse}`);
    const started = performance.now();
    model = trainLsa(windows, {}, (stats) => {
      console.log(
        `LSA training on ${stats.documents} windows: ${(stats.totalMs / 1000).toFixed(1)} s ` +
          `(analysis ${(stats.analyzeMs / 1000).toFixed(1)} s, SVD ${(stats.svdMs / 1000).toFixed(1)} s), ` +
          `${stats.vocabulary} terms, ${stats.nonZeros} non-zeros`,
      );
    });
    const trainedMs = performance.now() - started;
    vectors = windows.map((window) => model.embedText(window));
    console.log(
      `LSA ${model.id}: trained in ${(trainedMs / 1000).toFixed(1)} s, ` +
        `documents folded in ${((performance.now() - started - trainedMs) / 1000).toFixed(1)} s, ` +
        `model ${model.serialize().length} bytes`,
    );
  }, 180_000);

  function ranking(query: string): number[] {
    const q = model.embedText(query);
    const scores = vectors.map((v) => cosine(q, v));
    return Array.from(scores.keys()).sort((a, b) => (scores[b] as number) - (scores[a] as number));
  }

  function rankOf(order: readonly number[], targets: readonly string[]): number {
    return order.findIndex((index) => targets.includes(keys[index] as string));
  }

  it("has the default shape", () => {
    expect(windows).toHaveLength(31_102);
    expect(model.dimensions).toBe(256);
    expect(model.id).toMatch(/^lsa:v1:d256:[0-9a-f]{16}$/);
    expect(model.terms.length).toBeGreaterThan(5_000);
  });

  it('"amai os vossos inimigos" finds MAT 5:44 or LUK 6:27/6:35 in the top 20', () => {
    const rank = rankOf(ranking("amai os vossos inimigos"), ["MAT 5:44", "LUK 6:27", "LUK 6:35"]);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(20);
  });

  it('"o Senhor é o meu pastor" returns shepherd passages, and PSA 23:1 far above chance', () => {
    const order = ranking("o Senhor é o meu pastor");
    const shepherdish = order.slice(0, 20).filter((index) => /pastor|ovelha|rebanho|apascent/iu.test(windows[index] as string));
    expect(shepherdish.length).toBeGreaterThanOrEqual(15);
    // Dense alone ranks Ezekiel 34 / Jeremiah 23 / John 10 first (whole windows about
    // shepherds); PSA 23:1's window mixes topics. Random vectors would put it near 15,000.
    expect(rankOf(order, ["PSA 23:1"])).toBeLessThan(1_000);
  });

  it("learns term neighbourhoods: sheep near shepherd and flock, healing near sickness", () => {
    const neighbours = (word: string, count: number): string[] => {
      const q = model.embedText(word);
      return model.terms
        .map((term) => [term, cosine(q, model.embedTerms([term]))] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(([term]) => term);
    };
    expect(neighbours("ovelhas", 10)).toEqual(expect.arrayContaining(["pastor", "rebanh"]));
    expect(neighbours("cura", 10)).toEqual(expect.arrayContaining(["enferm"]));
  });

  it("ranks the feeding of the multitude for a paraphrase", () => {
    const rank = rankOf(ranking("Jesus multiplicou os pães e os peixes"), ["MAT 14:19", "MRK 6:41", "LUK 9:16", "JHN 6:11"]);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(20);
  });
});
