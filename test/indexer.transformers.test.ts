import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { indexCorpus } from "../src/app/index/indexer.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { readSettings } from "../src/config/settings.js";
import { createTinyModel, type TinyModel } from "./support/tiny-model.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

let model: TinyModel | undefined;
const dirs: string[] = [];
afterAll(async () => {
  await model?.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("indexing with a transformers.js model (EMBEDDING_MODEL = a local folder)", () => {
  it("stores one vector per verse under the model's id and serves hybrid search with it", async () => {
    model = await createTinyModel({ hiddenSize: 16 });
    const corpusDir = tempDir();
    const dataDir = tempDir();
    dirs.push(corpusDir, dataDir);
    writeFile(
      corpusDir,
      "mini.usfx.xml",
      makeUsfx({
        PSA: { name: "Salmos", chapters: [["O Senhor é o meu pastor, nada me faltará.", "Deitar-me faz em verdes pastos."]] },
        JHN: { name: "João", chapters: [["Porque Deus amou o mundo de tal maneira.", "Eu sou o bom pastor."]] },
      }),
    );
    const store = SqliteUnitStore.bible(dataDir);
    const summary = await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 2, dense: { kind: "transformers", model: model.dir } });
    expect(summary.embedder).toMatch(/^transformers:/);
    expect(summary.vectorsComputed).toBe(4);
    const vectors = store.loadVectors(summary.denseModel!);
    expect(vectors.size).toBe(4);
    for (const vector of vectors.values()) expect(vector).toHaveLength(16);

    const again = await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 2, dense: { kind: "transformers", model: model.dir } });
    expect(again.vectorsComputed).toBe(0); // same model, same corpus: nothing to redo

    const { engine, embedder } = await loadEngine(store, readSettings({ DATA_DIR: dataDir, EMBEDDING_MODEL: model.dir }));
    expect(embedder?.id).toBe(summary.embedder);
    expect(engine.denseAvailable).toBe(true);
    const response = await engine.search("bom pastor", { k: 4 });
    expect(response.mode).toBe("hybrid");
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results.some((r) => r.via.includes("dense"))).toBe(true);
    store.close();
  }, 60_000);

  it("serves lexical search, and says which model failed to load and why, when EMBEDDING_MODEL names a folder that is not a model", async () => {
    const corpusDir = tempDir();
    const dataDir = tempDir();
    dirs.push(corpusDir, dataDir);
    writeFile(corpusDir, "mini.usfx.xml", makeUsfx({ JHN: { name: "João", chapters: [["Eu sou o bom pastor.", "Deus amou o mundo."]] } }));
    const store = SqliteUnitStore.bible(dataDir);
    await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 2, dense: { kind: "none", reason: "teste" } });
    const missing = `${tempDir()}/nao-e-um-modelo`;
    const { engine, embedder, denseOffReason } = await loadEngine(store, readSettings({ DATA_DIR: dataDir, EMBEDDING_MODEL: missing }));
    expect(embedder).toBeUndefined();
    // The adapter's message, once (it names the model and the folder), and what search does instead.
    expect(denseOffReason).toBe(`Não foi possível carregar o modelo de embeddings '${missing}': a pasta '${missing}' não existe (busca só léxica)`);
    const response = await engine.search("bom pastor", { k: 2 });
    expect(response.mode).toBe("lexical");
    expect(response.results[0]?.ref).toBe("JHN 1:1");
    store.close();
  }, 60_000);
});
