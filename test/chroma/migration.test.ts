import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { loadIndexedVerses, type IndexedVerse } from "../../src/adapters/index/bible-units.js";
import { loadChromaModule, type ChromaMetadata } from "../../src/adapters/index/chroma-client.js";
import { SLOT_SPAN } from "../../src/adapters/index/chroma-space.js";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { listDocuments, loadChunks, type StoredChunk, type StoredDocument } from "../../src/adapters/index/document-units.js";
import { freshChromaPrefix } from "../support/store.js";

/**
 * A space of the version-1 Chroma layout (the Bible's `<prefix>_verses` with `source:<file>`
 * records; a collection's `<prefix>.<name>.chunks` with `doc:<id>` records), written here record
 * by record as the version-1 store wrote them, from the same data as the SQLite fixture
 * (test/fixtures/index-v1/expected.json), is moved to the units layout at its first use.
 */
const expected = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "fixtures", "index-v1", "expected.json"), "utf8")) as {
  bible: { sources: { file: string; sha256: string; verseCount: number; status: string; indexedAt: string | null }[]; verses: IndexedVerse[] };
  licoes: { documents: StoredDocument[]; chunks: StoredChunk[] };
};

const closers: (() => void)[] = [];
afterAll(() => closers.forEach((close) => close()));

async function client() {
  const { ChromaClient } = await loadChromaModule();
  const { hostname, port } = new URL(inject("chromaUrl"));
  return new ChromaClient({ host: hostname, port: Number(port), ssl: false });
}

async function collection(name: string) {
  return (await client()).getOrCreateCollection({ name, configuration: { hnsw: { space: "cosine" } }, embeddingFunction: null });
}

const vectorsName = (space: string, key: string) => `${space}vec_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;

/** Writes the Bible's version-1 records: verse records by slot·2³² + ord, source records, and vectors for some verses. */
async function writeLegacyBible(prefix: string): Promise<{ slots: Map<string, number>; vectorIds: number[] }> {
  const slots = new Map(expected.bible.sources.map((source, i) => [source.file, i + 1]));
  const meta = await collection(`${prefix}_meta`);
  await meta.upsert({
    ids: expected.bible.sources.map((source) => `source:${source.file}`),
    embeddings: expected.bible.sources.map(() => [1]),
    metadatas: expected.bible.sources.map((source) => ({
      kind: "source",
      file: source.file,
      sha256: source.sha256,
      slot: slots.get(source.file)!,
      status: source.status,
      verseCount: source.verseCount,
      indexedAt: source.indexedAt ?? "",
    })),
  });
  await meta.upsert({ ids: ["manifest:generation"], embeddings: [[1]], metadatas: [{ kind: "manifest", key: "generation", value: "7" }] });
  const verses = await collection(`${prefix}_verses`);
  const ids = expected.bible.verses.map((verse) => slots.get(verse.source)! * SLOT_SPAN + verse.ord);
  await verses.upsert({
    ids: ids.map(String),
    embeddings: ids.map(() => [1]),
    documents: expected.bible.verses.map((verse) => verse.text),
    metadatas: expected.bible.verses.map(({ id: _id, text: _text, ...verse }) => ({ ...verse, slot: slots.get(verse.source)! }) as ChromaMetadata),
  });
  const vectorIds = ids.slice(0, 3);
  const vectors = await collection(vectorsName(`${prefix}_`, "m1"));
  await vectors.upsert({ ids: vectorIds.map(String), embeddings: vectorIds.map((_, i) => [1, i, 0]), metadatas: vectorIds.map((id) => ({ slot: Math.floor(id / SLOT_SPAN) })) });
  return { slots, vectorIds };
}

async function writeLegacyCollection(prefix: string, name: string): Promise<Map<string, number>> {
  const space = `${prefix}.${name}.`;
  const slots = new Map(expected.licoes.documents.map((document, i) => [document.sourceId, i + 1]));
  const meta = await collection(`${space}meta`);
  await meta.upsert({
    ids: expected.licoes.documents.map((document) => `doc:${document.sourceId}`),
    embeddings: expected.licoes.documents.map(() => [1]),
    metadatas: expected.licoes.documents.map((document) => ({ kind: "document", ...document, slot: slots.get(document.sourceId)!, indexedAt: document.indexedAt ?? "" }) as ChromaMetadata),
  });
  const chunks = await collection(`${space}chunks`);
  await chunks.upsert({
    ids: expected.licoes.chunks.map((chunk) => String(slots.get(chunk.sourceId)! * SLOT_SPAN + chunk.chunk)),
    embeddings: expected.licoes.chunks.map(() => [1]),
    documents: expected.licoes.chunks.map((chunk) => chunk.text),
    metadatas: expected.licoes.chunks.map((chunk) => {
      const metadata: ChromaMetadata = { slot: slots.get(chunk.sourceId)!, chunk: chunk.chunk, title: chunk.title, body: chunk.body, terms: chunk.terms.join(" ") };
      if (chunk.page !== undefined) metadata.page = chunk.page;
      if (chunk.pageEnd !== undefined) metadata.pageEnd = chunk.pageEnd;
      return metadata;
    }),
  });
  return slots;
}

async function names(prefix: string): Promise<string[]> {
  return (await (await client()).listCollections({ limit: 1000 })).map((c) => c.name).filter((name) => name.startsWith(prefix)).sort();
}

describe("a version-1 space on Chroma", () => {
  it("moves the Bible's verses to units at the first read: the same verses and ids, vectors kept, old records gone", async () => {
    const prefix = freshChromaPrefix();
    const { slots, vectorIds } = await writeLegacyBible(prefix);
    const store = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix });
    closers.push(() => store.close());

    const verses = await loadIndexedVerses(store);
    expect(store.migrated).toEqual({ from: "verses", sources: 2, units: expected.bible.verses.length });
    expect(verses).toEqual(expected.bible.verses.map((verse) => ({ ...verse, id: slots.get(verse.source)! * SLOT_SPAN + verse.ord })));
    expect(await store.listSources()).toEqual(
      expected.bible.sources.map((source) => ({ id: source.file, sha256: source.sha256, unitCount: source.verseCount, status: source.status, indexedAt: source.indexedAt, fields: {} })),
    );
    expect(await store.getManifest("generation")).toBe("7");
    expect([...(await store.loadVectors("m1")).keys()].sort()).toEqual([...vectorIds].sort());
    expect((await store.unitsMissingVectors("m1")).map((unit) => unit.id)).not.toContain(vectorIds[0]);
    expect(await names(`${prefix}_`)).toEqual([`${prefix}_meta`, `${prefix}_units`, vectorsName(`${prefix}_`, "m1")].sort());

    // Another replica opening the space finds nothing left to move, and the same verses.
    const again = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix });
    closers.push(() => again.close());
    expect(await loadIndexedVerses(again)).toEqual(verses);
    expect(again.migrated).toBeUndefined();
  });

  it("moves a collection's chunks to units: the same documents and chunks (pages, block), keyed as before", async () => {
    const prefix = freshChromaPrefix();
    const slots = await writeLegacyCollection(prefix, "licoes");
    const root = await ChromaUnitStore.open({ url: inject("chromaUrl"), prefix });
    closers.push(() => root.close());
    const store = root.collectionStore("licoes");

    expect(await listDocuments(store)).toEqual(expected.licoes.documents);
    expect(store.migrated).toEqual({ from: "chunks", sources: expected.licoes.documents.length, units: expected.licoes.chunks.length });
    expect(await loadChunks(store)).toEqual(expected.licoes.chunks.map((chunk) => ({ ...chunk, id: slots.get(chunk.sourceId)! * SLOT_SPAN + chunk.chunk })));
    expect(await names(`${prefix}.licoes.`)).toEqual([`${prefix}.licoes.meta`, `${prefix}.licoes.units`]);
  });
});
