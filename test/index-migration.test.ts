import { createHash } from "node:crypto";
import { cpSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadIndexedVerses } from "../src/adapters/index/bible-units.js";
import { listDocuments, loadChunks } from "../src/adapters/index/document-units.js";
import { SCHEMA_VERSION, SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import type { UnitStore } from "../src/adapters/index/store.js";
import { loadCollection } from "../src/app/retrieval/collection-load.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { readSettings } from "../src/config/settings.js";
import { createJsonLogger } from "../src/http/logger.js";
import { startServer } from "../src/http/main.js";
import { tempDir } from "./support/usfx.js";

/**
 * Data directories written by the version-1 code (the Bible's `sources`/`verses`, a collection's
 * `documents`/`chunks`, each with its vectors and LSA model): test/fixtures/index-v1, made as its
 * README says, with what that code read back from them in `expected.json`.
 */
const FIXTURE = path.join(import.meta.dirname, "fixtures", "index-v1");
const expected = JSON.parse(readFileSync(path.join(FIXTURE, "expected.json"), "utf8")) as {
  bible: {
    sources: { file: string; sha256: string; verseCount: number; status: string; indexedAt: string | null }[];
    verses: unknown[];
    vectorKey: string;
    vectors: number;
    vectorsHash: string;
    manifest: Record<string, string>;
  };
  licoes: { documents: unknown[]; chunks: unknown[]; vectorKey: string; vectors: number; vectorsHash: string };
};

const dirs: string[] = [];
const stores: SqliteUnitStore[] = [];
afterAll(() => {
  stores.forEach((store) => store.close());
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function copyOfFixture(): string {
  const dataDir = tempDir("pastor-v1-");
  dirs.push(dataDir);
  cpSync(FIXTURE, dataDir, { recursive: true });
  return dataDir;
}

function open<T extends SqliteUnitStore>(store: T): T {
  stores.push(store);
  return store;
}

function vectorsHash(vectors: Map<number, Float32Array>): string {
  const hash = createHash("sha256");
  for (const [id, vector] of [...vectors].sort((a, b) => a[0] - b[0])) hash.update(`${id}:`).update(Buffer.from(vector.buffer));
  return hash.digest("hex");
}

function tables(store: SqliteUnitStore): string[] {
  return (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
    (row) => row.name,
  );
}

const ALL_TABLES = ["manifest", "models", "snapshots", "unit_sources", "unit_vectors", "units"];

describe("a version-1 data directory", () => {
  it("migrates the Bible's file when it is opened: the same verses, ids, vectors, model and manifest; nothing to re-index", async () => {
    const dataDir = copyOfFixture();
    const store = open(SqliteUnitStore.bible(dataDir));
    expect(store.migrated).toEqual({ from: "verses", sources: 2, units: expected.bible.verses.length, vectors: expected.bible.vectors });
    expect(tables(store)).toEqual(ALL_TABLES);
    expect(store.getManifest("schema_version")).toBe(String(SCHEMA_VERSION));

    expect(await loadIndexedVerses(store)).toEqual(expected.bible.verses);
    expect(store.listSources()).toEqual(
      expected.bible.sources.map((source) => ({ id: source.file, sha256: source.sha256, unitCount: source.verseCount, status: source.status, indexedAt: source.indexedAt, fields: {} })),
    );
    // The interrupted file stays partial, with the verses it had: the next run resumes it.
    expect(store.listSources().find((source) => source.id === "b.usfx.xml")?.status).toBe("partial");
    expect(store.committedUnitCount("b.usfx.xml")).toBe(10);
    expect(vectorsHash(store.loadVectors(expected.bible.vectorKey))).toBe(expected.bible.vectorsHash);
    for (const [key, value] of Object.entries(expected.bible.manifest)) if (key !== "schema_version") expect(store.getManifest(key)).toBe(value);

    // It serves as it did: the stored LSA model matches the sources, so the dense side is on.
    const { engine } = await loadEngine(store, readSettings({ DATA_DIR: dataDir }));
    expect(engine.size).toBe(expected.bible.verses.length);
    expect(engine.denseAvailable).toBe(true);
    const response = await engine.search("o Senhor é o meu pastor", { k: 3 });
    // The fixture's Psalm 23 is its only chapter of Psalms (numbered 1 there).
    expect(response.results[0]).toMatchObject({ book: "PSA", chapter: 1, verse: 1 });
    expect(response.results[0]!.text).toContain("pastor");
  });

  it("migrates a collection's file: the same documents, chunks (pages and block included), ids and vectors", async () => {
    const dataDir = copyOfFixture();
    const store = open(SqliteUnitStore.collection(dataDir, "licoes"));
    expect(store.migrated).toEqual({ from: "chunks", sources: expected.licoes.documents.length, units: expected.licoes.chunks.length, vectors: expected.licoes.vectors });
    expect(tables(store)).toEqual(ALL_TABLES);
    expect(await listDocuments(store)).toEqual(expected.licoes.documents);
    expect(await loadChunks(store)).toEqual(expected.licoes.chunks);
    expect(vectorsHash(store.loadVectors(expected.licoes.vectorKey))).toBe(expected.licoes.vectorsHash);

    const loaded = await loadCollection("licoes", store, readSettings({ DATA_DIR: dataDir }));
    expect(loaded).toMatchObject({ documents: expected.licoes.documents.length, chunks: expected.licoes.chunks.length, dense: "lsa" });
    const response = await loaded.search.search("arca da aliança", { mode: "lexical" });
    expect(response.results[0]).toMatchObject({ sourceId: "apostila.pdf", chunk: 1, page: 2, pageEnd: 3 });
  });

  it("is migrated once: opened again, there is nothing to move and the data is the same", async () => {
    const dataDir = copyOfFixture();
    const first = open(SqliteUnitStore.bible(dataDir));
    const verses = await loadIndexedVerses(first);
    first.close();
    const again: UnitStore = open(SqliteUnitStore.bible(dataDir));
    expect(again.migrated).toBeUndefined();
    expect(await loadIndexedVerses(again)).toEqual(verses);
  });

  it("is served by `pastor serve` as it was, and the server's log says what was moved", async () => {
    const dataDir = copyOfFixture();
    const lines: Record<string, unknown>[] = [];
    const previousHost = process.env.HOST;
    process.env.HOST = "127.0.0.1";
    const server = await startServer(readSettings({ DATA_DIR: dataDir, AUTO_INDEX: "false", PORT: "0", SEARCH_WORKERS: "1" }), {
      env: { LLM_PROVIDER: "stub" },
      logger: createJsonLogger((line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
    });
    try {
      expect(lines.filter((line) => line.message === "index_migrated")).toEqual([
        expect.objectContaining({ level: "info", collection: "biblia", from: "verses", sources: 2, units: expected.bible.verses.length }),
      ]);
      const status = (await (await fetch(`http://127.0.0.1:${server.port}/api/status`)).json()) as { versesIndexed: number; dense: unknown };
      expect(status.versesIndexed).toBe(expected.bible.verses.length);
    } finally {
      await server.close();
      if (previousHost === undefined) delete process.env.HOST;
      else process.env.HOST = previousHost;
    }
  });
});
