import { mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createTransformersEmbedder,
  EmbedderLoadError,
  type TransformersEmbedderOptions,
} from "../src/adapters/index/transformers-embedder.js";
import type { Embedder } from "../src/core/index/embedder.js";
import { createTinyModel, type TinyModel } from "./support/tiny-model.js";

// No test may reach the network: every fetch (transformers.js downloads through the global
// fetch) fails and is recorded.
const fetchSpy = vi.fn(async (..._args: unknown[]): Promise<Response> => {
  throw new TypeError("fetch failed", { cause: new Error("rede desativada nos testes") });
});

let model: TinyModel;
let embedder: Embedder;
const timings = { loadMs: 0, embedMs: 0 };

beforeAll(async () => {
  vi.stubGlobal("fetch", fetchSpy);
  model = await createTinyModel({ hiddenSize: 16, seed: 7, quantizedCopy: true });
  const started = performance.now();
  embedder = await createTransformersEmbedder({ model: model.dir });
  timings.loadMs = performance.now() - started;
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await model?.cleanup();
  console.info(`[tiny transformers model] load ${timings.loadMs.toFixed(0)} ms, embed (batch of 8) ${timings.embedMs.toFixed(1)} ms`);
});

const norm = (vector: ArrayLike<number>) => Math.hypot(...Array.from(vector));

/** Mean pooling over the sequence, then L2 normalisation, computed from the generated weights. */
function referenceEmbedding(tokens: string[], pooling: "mean" | "cls" = "mean"): number[] {
  const states = model.hiddenStates(tokens.map((token) => model.tokenId(token)));
  const pooled = new Array<number>(model.hiddenSize).fill(0);
  if (pooling === "cls") {
    states[0]!.forEach((value, index) => (pooled[index] = value));
  } else {
    for (const state of states) state.forEach((value, index) => (pooled[index]! += value / states.length));
  }
  const length = norm(pooled);
  return pooled.map((value) => value / length);
}

function expectClose(actual: Float32Array, expected: ArrayLike<number>, tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  for (let index = 0; index < actual.length; index++) {
    expect(Math.abs(actual[index]! - expected[index]!)).toBeLessThan(tolerance);
  }
}

describe("createTransformersEmbedder on a generated tiny model", () => {
  it("reads the dimensions from the model output", () => {
    expect(embedder.dimensions).toBe(model.hiddenSize);
  });

  it("names the model and the settings that change vectors in its id", () => {
    expect(embedder.id).toBe("transformers:tiny-bert:mean:norm:fp32");
    expect(embedder.id).toContain("tiny-bert");
  });

  it("returns unit-length Float32Arrays", async () => {
    const texts = ["Deus é amor", "O Senhor é meu pastor, nada me faltará.", "luz", "palavra desconhecida xyz"];
    const vectors = await embedder.embed(texts, "document");
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(model.hiddenSize);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it("is deterministic and tells different texts apart", async () => {
    const [first] = await embedder.embed(["No princípio era o Verbo"], "document");
    const [again] = await embedder.embed(["No princípio era o Verbo"], "document");
    const [other] = await embedder.embed(["A fé, a esperança e a caridade"], "document");
    expect(Array.from(again!)).toEqual(Array.from(first!));
    const cosine = first!.reduce((sum, value, index) => sum + value * other![index]!, 0);
    expect(cosine).toBeLessThan(0.99);
  });

  it("matches mean pooling computed directly from the generated weights", async () => {
    const [vector] = await embedder.embed(["Deus é amor"], "document");
    expectClose(vector!, referenceEmbedding(["[CLS]", "deus", "é", "amor", "[SEP]"]), 1e-4);
  });

  it("goes through the real tokenizer: lowercasing, punctuation, WordPiece pieces and [UNK]", async () => {
    const [vector] = await embedder.embed(["CARIDADES, Salvação! zzz"], "document");
    const tokens = ["[CLS]", "caridade", "##s", ",", "salvação", "!", "[UNK]", "[SEP]"];
    expectClose(vector!, referenceEmbedding(tokens), 1e-4);
  });

  it("returns one vector per text, in order, whatever the padding and batch split", async () => {
    const texts = [
      "Deus é amor",
      "luz",
      "O Senhor é meu pastor, nada me faltará.",
      "eu sou o caminho, a verdade e a vida",
      "paz",
      "graça e paz",
      "o pão da vida",
      "céu e terra",
    ];
    const started = performance.now();
    const together = await embedder.embed(texts, "document");
    timings.embedMs = performance.now() - started;

    const small = await createTransformersEmbedder({ model: model.dir, batchSize: 3 });
    const split = await small.embed(texts, "document");
    expect(together).toHaveLength(texts.length);
    expect(split).toHaveLength(texts.length);
    for (const [index, text] of texts.entries()) {
      const [alone] = await embedder.embed([text], "document");
      expectClose(together[index]!, alone!, 1e-5);
      expectClose(split[index]!, alone!, 1e-5);
    }
    expectClose(together[0]!, referenceEmbedding(["[CLS]", "deus", "é", "amor", "[SEP]"]), 1e-4);
    expect(await embedder.embed([], "query")).toEqual([]);
  });

  it("applies the query and document prefixes and records them in the id", async () => {
    const prefixed = await createTransformersEmbedder({ model: model.dir, queryPrefix: "jesus ", documentPrefix: "cristo " });
    expect(prefixed.id).toBe("transformers:tiny-bert:mean:norm:fp32:q=jesus%20:d=cristo%20");
    const [query] = await prefixed.embed(["amor"], "query");
    const [document] = await prefixed.embed(["amor"], "document");
    expectClose(query!, referenceEmbedding(["[CLS]", "jesus", "amor", "[SEP]"]), 1e-4);
    expectClose(document!, referenceEmbedding(["[CLS]", "cristo", "amor", "[SEP]"]), 1e-4);
  });

  it("supports CLS pooling, with its own id", async () => {
    const cls = await createTransformersEmbedder({ model: model.dir, pooling: "cls" });
    expect(cls.id).toBe("transformers:tiny-bert:cls:norm:fp32");
    const [vector] = await cls.embed(["Deus é amor"], "query");
    expectClose(vector!, referenceEmbedding(["[CLS]", "deus", "é", "amor", "[SEP]"], "cls"), 1e-4);
  });

  it("loads the file that belongs to the dtype (q8 → onnx/model_quantized.onnx)", async () => {
    const quantized = await createTransformersEmbedder({ model: model.dir, dtype: "q8" });
    expect(quantized.id).toBe("transformers:tiny-bert:mean:norm:q8");
    expect(quantized.dimensions).toBe(model.hiddenSize);
  });

  it("accepts a relative folder path", async () => {
    const relative = path.relative(process.cwd(), model.dir);
    const loaded = await createTransformersEmbedder({ model: relative });
    expect(loaded.id).toBe(embedder.id);
  });

  it("never touched the network", () => {
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe("createTransformersEmbedder load errors", () => {
  async function loadError(options: TransformersEmbedderOptions): Promise<EmbedderLoadError> {
    const error: unknown = await createTransformersEmbedder(options).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(EmbedderLoadError);
    const loadFailure = error as EmbedderLoadError;
    expect(loadFailure.code).toBe("embedder_load_failed");
    expect(loadFailure.message).toContain(`Não foi possível carregar o modelo de embeddings '${options.model}'`);
    return loadFailure;
  }

  it("a missing folder fails fast, in Portuguese, without the network", async () => {
    const missing = path.join(tmpdir(), "pasta-que-nao-existe-embeddings", "modelo");
    fetchSpy.mockClear();
    const started = performance.now();
    const error = await loadError({ model: missing });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.message).toContain("não existe");
    expect(error.model).toBe(missing);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("a folder without onnx/model.onnx names the missing file", async () => {
    const broken = await createTinyModel({ name: "sem-onnx" });
    try {
      await unlink(path.join(broken.dir, "onnx", "model.onnx"));
      const error = await loadError({ model: broken.dir });
      expect(error.message).toContain("falta o arquivo 'onnx/model.onnx'");
      expect(error.message).toContain(broken.dir);
    } finally {
      await broken.cleanup();
    }
  });

  it("a folder without the file for the requested dtype names it", async () => {
    const error = await loadError({ model: model.dir, dtype: "fp16" });
    expect(error.message).toContain("'onnx/model_fp16.onnx'");
  });

  it("a folder without tokenizer files lists them all", async () => {
    const broken = await createTinyModel({ name: "sem-tokenizador" });
    try {
      await unlink(path.join(broken.dir, "tokenizer.json"));
      await unlink(path.join(broken.dir, "tokenizer_config.json"));
      const error = await loadError({ model: broken.dir });
      expect(error.message).toContain("faltam os arquivos 'tokenizer.json', 'tokenizer_config.json'");
    } finally {
      await broken.cleanup();
    }
  });

  it("a corrupt ONNX file is reported through the same error type", async () => {
    const broken = await createTinyModel({ name: "onnx-corrompido" });
    try {
      await writeFile(path.join(broken.dir, "onnx", "model.onnx"), "isto não é um modelo ONNX");
      const error = await loadError({ model: broken.dir });
      expect(error.message).toContain("ONNX");
      expect(error.cause).toBeDefined();
    } finally {
      await broken.cleanup();
    }
  });

  it("a hub id missing from the cache with downloads disabled fails without the network", async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), "embeddings-cache-"));
    try {
      fetchSpy.mockClear();
      const error = await loadError({ model: "Xenova/modelo-inexistente", cacheDir, allowRemote: false });
      expect(error.message).toContain("download está desativado");
      expect(error.message).toContain(cacheDir);
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("a hub id that needs a download reports the network failure", async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), "embeddings-cache-"));
    try {
      fetchSpy.mockClear();
      const error = await loadError({ model: "Xenova/paraphrase-multilingual-MiniLM-L12-v2", cacheDir });
      expect(error.message).toContain("falha de rede");
      // The download was attempted through the (stubbed) fetch, never the real network.
      expect(fetchSpy).toHaveBeenCalled();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("rejects an invalid batch size", async () => {
    const error = await loadError({ model: model.dir, batchSize: 0 });
    expect(error.message).toContain("batchSize");
  });
});
