import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { versesMissingVectors } from "../../src/adapters/index/bible-units.js";
import { StoreError } from "../../src/adapters/index/store.js";
import { indexCorpus } from "../../src/app/index/indexer.js";
import { freePort } from "../support/chroma.js";
import { freshChromaPrefix } from "../support/store.js";
import { makeUsfx, tempDir, writeFile } from "../support/usfx.js";

const url = inject("chromaUrl");
const opened: ChromaUnitStore[] = [];
const dirs: string[] = [];
afterAll(() => {
  opened.forEach((store) => store.close());
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function corpus(): string {
  const dir = tempDir("pastor-chroma-corpus-");
  dirs.push(dir);
  return dir;
}

async function open(prefix: string, target = url): Promise<ChromaUnitStore> {
  const store = await ChromaUnitStore.open({ url: target, prefix });
  opened.push(store);
  return store;
}

describe("the indexing lock (one indexer at a time, with expiry)", () => {
  it("is held by one process, refused to others with the holder's name, taken over once expired", async () => {
    const prefix = freshChromaPrefix();
    const a = await open(prefix);
    const b = await open(prefix);

    const first = await a.tryLockIndexing("replica-a", 1500);
    expect(first.acquired).toBe(true);
    const refused = await b.tryLockIndexing("replica-b", 1500);
    expect(refused).toMatchObject({ acquired: false, owner: "replica-a" });
    if (!first.acquired || refused.acquired) throw new Error("unreachable");
    expect(refused.expiresAt).toBeGreaterThan(Date.now());
    expect(await first.lock.renew()).toBe(true);

    // A stops renewing (it died): after the expiry B takes the lock, and A learns it lost it.
    await new Promise((resolve) => setTimeout(resolve, 1700));
    const taken = await b.tryLockIndexing("replica-b", 60_000);
    expect(taken.acquired).toBe(true);
    expect(await first.lock.renew()).toBe(false);
    await first.lock.release(); // not A's any more: releasing must not free B's lock
    expect(await a.tryLockIndexing("replica-a", 60_000)).toMatchObject({ acquired: false, owner: "replica-b" });

    if (taken.acquired) await taken.lock.release();
    const again = await a.tryLockIndexing("replica-a", 60_000);
    expect(again.acquired).toBe(true);
    if (again.acquired) await again.lock.release();
  });

  it("makes a second indexer fail with index_locked (Portuguese) instead of writing", async () => {
    const corpusDir = corpus();
    writeFile(corpusDir, "a.usfx.xml", makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra."]] } }));
    const store = await open(freshChromaPrefix());
    const held = await store.tryLockIndexing("outra-replica", 60_000);
    expect(held.acquired).toBe(true);
    const run = indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 10, dense: { kind: "none", reason: "teste" } });
    await expect(run).rejects.toMatchObject({ code: "index_locked", message: expect.stringMatching(/Outra réplica \(outra-replica\) está indexando/) });
    expect(await store.unitCount()).toBe(0);
    if (held.acquired) await held.lock.release();
    const summary = await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 10, dense: { kind: "none", reason: "teste" } });
    expect(summary.versesTotal).toBe(1);
    // Replicas reload when the generation moves; a run that changes nothing leaves it alone.
    const generation = Number(await store.getManifest("generation"));
    expect(generation).toBeGreaterThan(0);
    await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 10, dense: { kind: "none", reason: "teste" } });
    expect(Number(await store.getManifest("generation"))).toBe(generation);
  });
});

describe("the trained model and the vectors", () => {
  it("stores a model larger than one record in pieces, and never returns a partial one", async () => {
    const store = await open(freshChromaPrefix());
    const data = randomBytes(3 * 1024 * 1024 + 17);
    await store.saveModel("lsa-for:x", data);
    expect((await store.loadModel("lsa-for:x"))?.equals(data)).toBe(true);
    expect(await store.loadModel("lsa-for:y")).toBeUndefined();
    await store.saveModel("lsa-for:y", Buffer.from("outro"));
    expect(await store.loadModel("lsa-for:x")).toBeUndefined(); // one model kept, as in SQLite
    expect((await store.loadModel("lsa-for:y"))?.toString()).toBe("outro");
  });

  it("round-trips vectors per model key (cosine space: equal to float32 rounding)", async () => {
    const corpusDir = corpus();
    writeFile(corpusDir, "a.usfx.xml", makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio.", "A terra era sem forma.", ""]] } }));
    const store = await open(freshChromaPrefix());
    await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 10, dense: { kind: "none", reason: "teste" } });
    const missing = await versesMissingVectors(store, "m1");
    expect(missing.map((m) => m.text)).toEqual(["No princípio.", "A terra era sem forma."]); // the empty verse needs none
    const unit = (values: number[]) => {
      const norm = Math.hypot(...values);
      return Float32Array.from(values.map((v) => v / norm));
    };
    await store.saveVectors("m1", [{ id: missing[0]!.id, vector: unit([1, 2, 3]) }]);
    expect((await versesMissingVectors(store, "m1")).map((m) => m.id)).toEqual([missing[1]!.id]);
    const loaded = await store.loadVectors("m1");
    loaded.get(missing[0]!.id)!.forEach((value, i) => expect(value).toBeCloseTo(unit([1, 2, 3])[i]!, 6));
    expect(await store.vectorCount("m1")).toBe(1);
    // Another model's vectors replace these (one vector per verse, as in SQLite).
    await store.saveVectors("m2", [{ id: missing[1]!.id, vector: unit([1, 0]) }]);
    expect(await store.vectorCount("m1")).toBe(0);
    expect(await store.vectorCount("m2")).toBe(1);
    // Removing the source removes its vectors.
    expect(await store.unitCount()).toBe(3);
    expect(await store.removeSource("a.usfx.xml")).toBe(true);
    expect(await store.unitCount()).toBe(0);
    expect(await store.vectorCount("m2")).toBe(0);
    expect(await store.removeSource("a.usfx.xml")).toBe(false);
  });
});

describe("a server that does not answer", () => {
  it("fails with store_unavailable and a Portuguese message naming the address, quickly", async () => {
    const port = await freePort();
    const store = await open("ninguem", `http://127.0.0.1:${port}`);
    const started = performance.now();
    const failure = await store.unitCount().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure).toMatchObject({ code: "store_unavailable", message: expect.stringMatching(new RegExp(`ChromaDB em http://127.0.0.1:${port} não responde`)) });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
