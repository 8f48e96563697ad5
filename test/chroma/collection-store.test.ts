import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { UnitStore } from "../../src/adapters/index/store.js";
import { chunkIdsOf, listDocuments, loadChunks } from "../../src/adapters/index/document-units.js";
import { SqliteUnitStore } from "../../src/adapters/index/sqlite-unit-store.js";
import { writeDocuments } from "../support/documents.js";
import { loadChromaModule } from "../../src/adapters/index/chroma-client.js";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { reloadCollection } from "../../src/app/index/collection-indexer.js";
import { loadCollection } from "../../src/app/retrieval/collection-load.js";
import type { CollectionSource } from "../../src/app/index/collection-sources.js";
import { readSettings } from "../../src/config/settings.js";
import { generatedLesson, LESSON_QUERIES, writeGeneratedLessons } from "../support/lessons.js";
import { freshChromaPrefix } from "../support/store.js";
import { tempDir } from "../support/usfx.js";

/**
 * The collection store on Chroma against the SQLite one: the same reloads (added, changed,
 * removed) give the same chunks, the same vectors and the same ranking for every query.
 */
const dirs: string[] = [];
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const settings = readSettings({ EMBEDDING_MODEL: "lsa" });

async function ranking(name: string, store: UnitStore): Promise<string[][]> {
  const loaded = await loadCollection(name, store, settings);
  const out: string[][] = [];
  for (const query of LESSON_QUERIES) {
    const response = await loaded.search.search(query);
    out.push(response.results.map((hit) => `${hit.sourceId}#${hit.chunk}:${hit.via}`));
  }
  return out;
}

const withoutIds = async (store: UnitStore) => (await loadChunks(store)).map(({ id: _id, ...chunk }) => chunk);

describe("ChromaCollectionStore", () => {
  it("holds what the SQLite store holds after the same reloads, and ranks the same", async () => {
    const folder = tempDir("pastor-colstore-src-");
    const dataDir = tempDir("pastor-colstore-data-");
    dirs.push(folder, dataDir);
    await writeGeneratedLessons(folder, 24, 300);
    const source: CollectionSource = { kind: "folder", name: "aulas", dir: folder };
    const sqlite = SqliteUnitStore.collection(dataDir, "aulas");
    const root = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix: freshChromaPrefix() });
    const chroma = root.collectionStore("aulas");
    closers.push(() => sqlite.close(), () => root.close());

    const both = async () => {
      const [a, b] = [await reloadCollection(source, { store: sqlite, settings }), await reloadCollection(source, { store: chroma, settings })];
      const strip = ({ ms: _ms, ...summary }: typeof a) => summary;
      expect(strip(b)).toEqual(strip(a));
      expect(await withoutIds(chroma)).toEqual(await withoutIds(sqlite));
      expect(await chroma.vectorCount(a.denseModel!)).toBe(await sqlite.vectorCount(a.denseModel!));
      expect(await ranking("aulas", chroma)).toEqual(await ranking("aulas", sqlite));
      return b;
    };

    expect(await both()).toMatchObject({ added: 24, dense: "lsa" });
    // One lesson changed, one gone, one new.
    writeFileSync(path.join(folder, generatedLesson(3).path), generatedLesson(3).content.replace("Aula 4", "Aula quatro revista") + " reforma protestante\n");
    rmSync(path.join(folder, generatedLesson(5).path));
    const added = generatedLesson(40, 300);
    writeFileSync(path.join(folder, added.path), added.content);
    expect(await both()).toMatchObject({ added: 1, changed: 1, removed: 1, unchanged: 22 });
    expect(await await chunkIdsOf(chroma, generatedLesson(5).path)).toEqual([]);
    expect((await listDocuments(chroma)).map((d) => d.sourceId)).toEqual((await listDocuments(sqlite)).map((d) => d.sourceId));

    // Unchanged: nothing rewritten, nothing re-embedded.
    const again = await reloadCollection(source, { store: chroma, settings });
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 24, vectorsComputed: 0 });
  });

  it("serves no chunk of a document left half-written, and the next reload rewrites it", async () => {
    const folder = tempDir("pastor-colstore-partial-");
    dirs.push(folder);
    await writeGeneratedLessons(folder, 4, 200);
    const source: CollectionSource = { kind: "folder", name: "meias", dir: folder };
    const prefix = freshChromaPrefix();
    const root = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix });
    closers.push(() => root.close());
    const store = root.collectionStore("meias");
    await reloadCollection(source, { store, settings });
    const victim = generatedLesson(1).path;
    const before = (await loadChunks(store)).filter((chunk) => chunk.sourceId === victim).length;
    expect(before).toBeGreaterThan(0);

    // A crash inside upsertDocument, after the old chunks went: the record is partial with an empty hash.
    const { ChromaClient } = await loadChromaModule();
    const { hostname, port } = new URL(inject("chromaUrl"));
    const meta = await new ChromaClient({ host: hostname, port: Number(port), ssl: false }).getCollection({ name: `${prefix}.meias.meta` });
    await meta.update({ ids: [`unit-source:${victim}`], metadatas: [{ status: "partial", sha256: "" }] });
    expect((await loadChunks(store)).some((chunk) => chunk.sourceId === victim)).toBe(false);

    const healed = await reloadCollection(source, { store, settings });
    expect(healed).toMatchObject({ changed: 1, unchanged: 3 });
    expect((await loadChunks(store)).filter((chunk) => chunk.sourceId === victim)).toHaveLength(before);
  });

  it("keeps collections apart, even when one name starts another", async () => {
    const root = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix: freshChromaPrefix() });
    closers.push(() => root.close());
    const short = root.collectionStore("a");
    const long = root.collectionStore("a_vec_b");
    const vector = Float32Array.from([1, 0]);
    // The longer name first: were names joined with "_", the shorter one's "a_vec_" prefix would take its vectors.
    for (const [store, id] of [[long, "b.md"], [short, "a.md"]] as const) {
      await writeDocuments(store, { sourceId: id, discipline: "d", slug: id, title: id, sha256: "1", chunks: [{ chunk: 0, title: id, text: id, body: id, terms: "x" }] });
      const [chunk] = await loadChunks(store);
      await store.saveVectors(`modelo-${id}`, [{ id: chunk!.id, vector }]);
    }
    // Each saved its own model's vectors, which drops "other models" of that collection only.
    expect(await short.vectorCount("modelo-a.md")).toBe(1);
    expect(await long.vectorCount("modelo-b.md")).toBe(1);
    expect((await loadChunks(short)).map((c) => c.sourceId)).toEqual(["a.md"]);
    expect((await loadChunks(long)).map((c) => c.sourceId)).toEqual(["b.md"]);
    await root.registerCollection("a", "folder");
    await root.registerCollection("a_vec_b", "folder");
    expect(await root.indexedCollections()).toEqual([
      { name: "a", kind: "folder" },
      { name: "a_vec_b", kind: "folder" },
    ]);
  });
});

describe("a data directory indexed before VECTOR_STORE=chroma", () => {
  it("says the collection is not in the shared store yet (never a silent empty index), until it is reloaded there", async () => {
    const { CollectionService } = await import("../../src/app/collection-service.js");
    const folder = tempDir("pastor-colstore-migrate-src-");
    const dataDir = tempDir("pastor-colstore-migrate-data-");
    dirs.push(folder, dataDir);
    await writeGeneratedLessons(path.join(folder, "aulas"), 3, 120);
    const local = new CollectionService(readSettings({ DATA_DIR: dataDir, COLLECTIONS_DIR: folder, EMBEDDING_MODEL: "none" }));
    await local.open();
    await local.reload("aulas");
    await local.close();

    const warnings: string[] = [];
    const logger = { info: () => undefined, error: () => undefined, warn: (event: string) => void warnings.push(event) };
    const shared = new CollectionService(
      readSettings({ DATA_DIR: dataDir, COLLECTIONS_DIR: folder, EMBEDDING_MODEL: "none", VECTOR_STORE: "chroma", CHROMA_URL: inject("chromaUrl"), CHROMA_COLLECTION_PREFIX: freshChromaPrefix() }),
      logger,
    );
    await shared.open();
    try {
      expect(shared.status()[0]).toMatchObject({ name: "aulas", documents: 0, error: { code: "collection_not_in_store" } });
      expect(shared.status()[0]!.error!.message).toContain("recarregue-a");
      expect(warnings).toContain("collection_not_in_store");
      await shared.reload("aulas");
      expect(shared.status()[0]).toMatchObject({ name: "aulas", documents: 3, error: null });
    } finally {
      await shared.close();
    }
  });
});

describe("two replicas reloading one collection", () => {
  it("lets one write at a time: the other is refused with index_locked naming the holder, and nothing is marked broken", async () => {
    const { CollectionService, CollectionReloadError } = await import("../../src/app/collection-service.js");
    const folder = tempDir("pastor-colstore-lock-src-");
    dirs.push(folder);
    await writeGeneratedLessons(path.join(folder, "aulas"), 2, 120);
    const prefix = freshChromaPrefix();
    const root = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix });
    closers.push(() => root.close());
    const held = await root.collectionStore("aulas").tryLockIndexing("replica-a", 60_000);
    expect(held.acquired).toBe(true);
    const service = new CollectionService(
      readSettings({ DATA_DIR: tempDir("pastor-colstore-lock-data-"), COLLECTIONS_DIR: folder, EMBEDDING_MODEL: "none", VECTOR_STORE: "chroma", CHROMA_URL: inject("chromaUrl"), CHROMA_COLLECTION_PREFIX: prefix }),
    );
    await service.open();
    try {
      const refused = await service.reload("aulas").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CollectionReloadError);
      expect(refused).toMatchObject({ code: "index_locked" });
      expect((refused as Error).message).toContain("replica-a");
      expect(service.status()[0]).toMatchObject({ documents: 0, error: null });
      if (held.acquired) await held.lock.release();
      await service.reload("aulas");
      expect(service.status()[0]).toMatchObject({ documents: 2, error: null });
    } finally {
      await service.close();
    }
  });
});
