/**
 * A collection read from a MySQL/MariaDB lessons table (issue 6), on a private MariaDB server:
 * rows indexed as `db:{discipline}/{slug}`, an UPDATE re-chunks that row alone, a DELETE removes
 * it, and a server that went away fails the reload with a MysqlSourceError while everything
 * already indexed stays.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConnection, type Connection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLessonsTable, MysqlSourceError } from "../src/adapters/sources/mysql-source.js";
import { chunkIdsOf, listDocuments, loadChunks } from "../src/adapters/index/document-units.js";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { reloadCollection, type CollectionLogger } from "../src/app/index/collection-indexer.js";
import { loadCollection } from "../src/app/retrieval/collection-load.js";
import { discoverCollections, type CollectionSource } from "../src/app/index/collection-sources.js";
import { readSettings, type Settings } from "../src/config/settings.js";
import { analyze } from "../src/core/analysis/index.js";
import { startMariaDb, type TestMariaDb } from "./support/mariadb.js";

const TRINDADE = [
  "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]",
  "Disciplina: Teologia Sistemática",
  "Título: A Trindade",
  "Keywords: trindade, pericorese",
  "====== FIM DOS METADADOS ======",
  "",
  "# A Trindade",
  "",
  "Um só Deus em três pessoas: Pai, Filho e Espírito Santo. ".repeat(12),
].join("\n");
const GRACA = "Pela graça sois salvos, por meio da fé; e isto não vem de vós, é dom de Deus. ".repeat(6);
const EXODO = "A saída do Egito: Moisés, as dez pragas, a Páscoa e a travessia do mar. ".repeat(5);

/** [discipline, slug, title, content] */
const ROWS: [string, string, string, string][] = [
  ["Teologia Sistemática", "trindade", "A Trindade", TRINDADE],
  ["Teologia Sistemática", "graca", "Graça e fé", GRACA],
  ["Antigo Testamento", "exodo", "Êxodo", EXODO],
];
const IDS = ["db:Antigo Testamento/exodo", "db:Teologia Sistemática/graca", "db:Teologia Sistemática/trindade"];

let db: TestMariaDb | undefined;
let conn: Connection | undefined;
let root: string;
let settings: Settings;
let store: SqliteUnitStore;
let source: CollectionSource;
const events: string[] = [];
const logger: CollectionLogger = {
  info: (event) => events.push(event),
  warn: (event) => events.push(event),
  error: (event) => events.push(event),
};

async function chunkIdsBySource(): Promise<Map<string, number[]>> {
  const ids = new Map<string, number[]>();
  for (const chunk of (await loadChunks(store))) ids.set(chunk.sourceId, [...(ids.get(chunk.sourceId) ?? []), chunk.id]);
  return ids;
}

const reload = () => reloadCollection(source, { store, settings, logger });

beforeAll(async () => {
  db = await startMariaDb();
  conn = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database, charset: "UTF8MB4_UNICODE_CI" });
  await createLessonsTable(db.url);
  await conn.query("INSERT INTO lessons (discipline, slug, title, content) VALUES ?", [ROWS]);
  root = await mkdtemp(join(tmpdir(), "pastor-collections-mysql-"));
  settings = readSettings({
    DATA_DIR: join(root, "data"),
    COLLECTIONS_DIR: join(root, "sem-pastas"),
    MYSQL_URL: db.url,
    MYSQL_COLLECTION: "aulas",
    DB_CHUNK_WORDS: "40",
    DB_CHUNK_OVERLAP: "5",
  });
  const sources = discoverCollections(settings);
  expect(sources).toEqual([{ kind: "mysql", name: "aulas", url: db.url, table: "lessons" }]);
  source = sources[0]!;
  store = SqliteUnitStore.collection(settings.DATA_DIR, "aulas");
}, 120_000);

afterAll(async () => {
  await conn?.end().catch(() => undefined);
  await db?.stop();
  store?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("reloadCollection on a MySQL table", () => {
  it("indexes every row as db:{discipline}/{slug}, the row's discipline kept", async () => {
    const summary = await reload();
    expect(summary).toMatchObject({ collection: "aulas", documents: 3, added: 3, changed: 0, unchanged: 0, removed: 0, skipped: 0, dense: "lsa" });
    expect((await listDocuments(store)).map((d) => d.sourceId)).toEqual(IDS);
    const chunks = (await loadChunks(store));
    expect(chunks.length).toBe(summary.chunks);
    for (const chunk of chunks) {
      expect(chunk.sourceId).toBe(`db:${chunk.discipline}/${chunk.slug}`);
      expect(chunk.text.startsWith("Título: ")).toBe(true);
    }
    const trindade = chunks.filter((c) => c.slug === "trindade");
    expect(trindade[0]!.title).toBe("A Trindade");
    expect(trindade[0]!.terms).toContain(analyze("pericorese")[0]);
    expect(chunks.find((c) => c.slug === "exodo")!.title).toBe("Êxodo");
    expect(store.vectorCount(summary.denseModel!)).toBe(summary.chunks);
    const loaded = await loadCollection("aulas", store, settings);
    const response = await loaded.search.search("travessia do mar");
    expect(response.results[0]?.sourceId).toBe("db:Antigo Testamento/exodo");
    expect(response.results[0]?.citation).toMatch(/^Êxodo \(db:Antigo Testamento\/exodo, trecho \d+\)$/);
  });

  it("re-chunks only the updated row", async () => {
    const before = (await chunkIdsBySource());
    const unchanged = await reload();
    expect(unchanged).toMatchObject({ unchanged: 3, added: 0, changed: 0, removed: 0, vectorsComputed: 0 });
    expect((await chunkIdsBySource())).toEqual(before);

    await conn!.query("UPDATE lessons SET content = ? WHERE slug = 'graca'", [`${GRACA} Justificação pela fé somente.`]);
    const summary = await reload();
    expect(summary).toMatchObject({ documents: 3, added: 0, changed: 1, unchanged: 2, removed: 0 });
    const after = (await chunkIdsBySource());
    for (const id of IDS) {
      if (id === "db:Teologia Sistemática/graca") {
        for (const chunkId of after.get(id)!) expect(before.get(id)).not.toContain(chunkId);
      } else {
        expect(after.get(id)).toEqual(before.get(id));
      }
    }
    expect((await loadChunks(store)).filter((c) => c.slug === "graca").flatMap((c) => c.terms)).toContain(analyze("justificação")[0]);
  });

  it("removes a deleted row with its chunks", async () => {
    await conn!.query("DELETE FROM lessons WHERE slug = 'exodo'");
    const summary = await reload();
    expect(summary).toMatchObject({ documents: 2, removed: 1, unchanged: 2, added: 0, changed: 0 });
    expect(await chunkIdsOf(store, "db:Antigo Testamento/exodo")).toEqual([]);
    expect(store.vectorCount(summary.denseModel!)).toBe(store.unitCount());
  });

  it("throws MysqlSourceError when the server is down, and loses nothing already indexed", async () => {
    const documents = (await listDocuments(store));
    const chunks = (await loadChunks(store));
    const model = store.getManifest("lsa_model")!;
    const password = db!.password;
    await conn!.end();
    conn = undefined;
    await db!.stop();
    db = undefined;
    const error = await reload().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(MysqlSourceError);
    expect((error as MysqlSourceError).code).toBe("mysql_unreachable");
    expect((error as MysqlSourceError).message).not.toContain(password);
    expect(await listDocuments(store)).toEqual(documents);
    expect(await loadChunks(store)).toEqual(chunks);
    expect(store.vectorCount(model)).toBe(chunks.length);
    const loaded = await loadCollection("aulas", store, settings);
    expect(loaded.documents).toBe(2);
    expect((await loaded.search.search("justificação")).results[0]?.sourceId).toBe("db:Teologia Sistemática/graca");
  });
});
