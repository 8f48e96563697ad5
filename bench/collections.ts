/**
 * Document collections at size: 1,000 generated lessons (about 400 words each) and 300
 * long ones (about 2,000 words: several chunks each), read from a folder: cold reload,
 * no-op reload, load for serving, query latency per mode; then the same 1,000 lessons
 * as rows of a real MariaDB table (started privately, as the tests do): read round trip
 * and cold reload through mysql2. Skipped with a note when MariaDB is not installed. The
 * 1,000 lessons also go to a real Chroma server (VECTOR_STORE=chroma), when it is installed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConnection } from "mysql2/promise";
import { createLessonsTable, readMysqlLessons } from "../src/adapters/sources/mysql-source.js";
import { ChromaUnitStore } from "../src/adapters/index/chroma-unit-store.js";
import type { UnitStore } from "../src/adapters/index/store.js";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { reloadCollection } from "../src/app/index/collection-indexer.js";
import { loadCollection } from "../src/app/retrieval/collection-load.js";
import type { CollectionSource } from "../src/app/index/collection-sources.js";
import { readSettings } from "../src/config/settings.js";
import type { DocumentSearchMode } from "../src/core/retrieval/document-search.js";
import { generatedLesson, LESSON_QUERIES, writeGeneratedLessons } from "../test/support/lessons.js";
import { chromaInstalled, startChromaServer } from "../test/support/chroma.js";
import { startMariaDb } from "../test/support/mariadb.js";

function percentiles(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return { p50: Math.round(at(0.5) * 100) / 100, p95: Math.round(at(0.95) * 100) / 100 };
}

type OpenStore = (dataDir: string, name: string) => { store: UnitStore; close: () => unknown };
const sqliteStore: OpenStore = (dataDir, name) => {
  const store = SqliteUnitStore.collection(dataDir, name);
  return { store, close: () => store.close() };
};

async function folderCollection(root: string, name: string, count: number, words: number, open: OpenStore = sqliteStore): Promise<Record<string, unknown>> {
  const dir = join(root, name);
  await writeGeneratedLessons(dir, count, words);
  const settings = readSettings({ DATA_DIR: join(root, "data") });
  const { store, close } = open(settings.DATA_DIR, name);
  try {
    const source: CollectionSource = { kind: "folder", name, dir };
    const cold = await reloadCollection(source, { store, settings });
    const noop = await reloadCollection(source, { store, settings });
    let started = performance.now();
    const loaded = await loadCollection(name, store, settings);
    const loadMs = Math.round(performance.now() - started);
    // The first question after a load: what the load left to build lazily, a user pays here.
    started = performance.now();
    await loaded.search.search(LESSON_QUERIES[0]!, { mode: "hybrid" });
    const firstQueryMs = Math.round((performance.now() - started) * 10) / 10;
    const latency: Record<string, { p50: number; p95: number }> = {};
    for (const mode of ["lexical", "hybrid"] as DocumentSearchMode[]) {
      const samples: number[] = [];
      for (let round = 0; round < 20; round++) {
        for (const query of LESSON_QUERIES) {
          started = performance.now();
          await loaded.search.search(query, { mode });
          samples.push(performance.now() - started);
        }
      }
      latency[mode] = percentiles(samples.slice(LESSON_QUERIES.length)); // first round warms up
    }
    return {
      lessons: count,
      wordsPerLesson: words,
      chunks: cold.chunks,
      coldReloadMs: cold.ms,
      noopReloadMs: noop.ms,
      loadForServingMs: loadMs,
      firstQueryMs,
      queryMs: latency,
    };
  } finally {
    await close();
  }
}

/** The 1,000 lessons again on a real Chroma server (VECTOR_STORE=chroma), beside the SQLite figures. */
async function chromaCollection(root: string): Promise<Record<string, unknown>> {
  if (!chromaInstalled()) return { skipped: "ChromaDB não instalado (npm run setup:chroma)" };
  const server = await startChromaServer();
  try {
    const chroma = await ChromaUnitStore.open({ url: server.url, prefix: "bench" });
    return await folderCollection(root, "mil-chroma", 1000, 400, (_dataDir, name) => ({ store: chroma.collectionStore(name), close: () => chroma.close() }));
  } finally {
    await server.dispose();
  }
}

async function mysqlCollection(root: string, count: number): Promise<Record<string, unknown>> {
  let db;
  try {
    db = await startMariaDb();
  } catch (error) {
    return { skipped: `MariaDB indisponível: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  try {
    const connection = await createConnection({ uri: db.url, charset: "utf8mb4" });
    try {
      await createLessonsTable(connection);
      for (let start = 0; start < count; start += 200) {
        const rows = Array.from({ length: Math.min(200, count - start) }, (_, k) => generatedLesson(start + k)).map((l) => [
          l.discipline,
          l.slug,
          l.title,
          l.content,
        ]);
        await connection.query("INSERT INTO lessons (discipline, slug, title, content) VALUES ?", [rows]);
      }
    } finally {
      await connection.end();
    }
    const reads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await readMysqlLessons({ url: db.url, collection: "mysql" });
      reads.push(performance.now() - started);
    }
    const settings = readSettings({ DATA_DIR: join(root, "data") });
    const store = SqliteUnitStore.collection(settings.DATA_DIR, "mysql");
    try {
      const source: CollectionSource = { kind: "mysql", name: "mysql", url: db.url };
      const cold = await reloadCollection(source, { store, settings });
      const noop = await reloadCollection(source, { store, settings });
      return { rows: count, serverStartMs: db.startMs, readRoundTripMs: percentiles(reads), coldReloadMs: cold.ms, noopReloadMs: noop.ms };
    } finally {
      store.close();
    }
  } finally {
    await db.stop();
  }
}

export async function runCollectionsBench(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), "pastor-bench-collections-"));
  try {
    return {
      lessons1000: await folderCollection(root, "mil", 1000, 400),
      lessons1000OnChroma: await chromaCollection(root),
      longLessons300: await folderCollection(root, "longas", 300, 2000),
      mariadb1000: await mysqlCollection(root, 1000),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runCollectionsBench(), null, 2));
}
