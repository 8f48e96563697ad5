/**
 * Indexing document collections (issue 6) on real files: a temp COLLECTIONS_DIR with lessons
 * (with, without and with a broken metadata block), a real 3-page PDF (pdf-lib) and an oversized
 * file, a temp DATA_DIR. Incremental reloads (unchanged documents untouched, one edited document
 * re-chunked alone, a deleted one removed), a failing source that loses nothing, the per-collection
 * LSA model reused when nothing changed, and a generated 1,000-lesson collection timed.
 */
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DocumentReadError } from "../src/adapters/sources/document-errors.js";
import { DEFAULT_MAX_CONTENT_CHARS as FOLDER_MAX } from "../src/adapters/sources/folder.js";
import { DEFAULT_MAX_CONTENT_CHARS as MYSQL_MAX } from "../src/adapters/sources/mysql-source.js";
import { CollectionStoreError, collectionStoreFile } from "../src/adapters/index/collection-names.js";
import { chunkIdsOf, listDocuments, loadChunks } from "../src/adapters/index/document-units.js";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { writeDocuments } from "./support/documents.js";
import { reloadCollection, type CollectionLogger, type CollectionReloadSummary } from "../src/app/index/collection-indexer.js";
import { loadCollection } from "../src/app/retrieval/collection-load.js";
import type { IndexProgress } from "../src/app/index/indexer.js";
import { discoverCollections, type CollectionSource } from "../src/app/index/collection-sources.js";
import { readSettings, SettingsError, type Settings } from "../src/config/settings.js";
import { analyze } from "../src/core/analysis/index.js";
import { MAX_CONTENT_CHARS } from "../src/core/sources/chunker.js";
import { mulberry32 } from "../src/core/index/linalg.js";
import { createTinyModel, type TinyModel } from "./support/tiny-model.js";
import { LESSON_QUERIES, writeGeneratedLessons } from "./support/lessons.js";

const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
const END = "====== FIM DOS METADADOS ======";

/** n words of filler prose, deterministic, cycling over a small vocabulary. */
function prose(n: number, seed: number, vocabulary: readonly string[] = FILLER): string {
  const random = mulberry32(seed);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
  return words.join(" ");
}
const FILLER = [
  "Deus", "graça", "fé", "igreja", "oração", "palavra", "Cristo", "Espírito", "povo", "aliança", "promessa",
  "salvação", "amor", "verdade", "vida", "reino", "justiça", "esperança", "perdão", "comunhão", "servo", "lei",
];

const TRINDADE = `${HEADER}
Disciplina: Teologia Sistemática
Título: A Trindade
Keywords: pericorese, consubstancialidade
${END}

# A Trindade

${prose(90, 1)}
`;
const LEGACY_V1 = `# Como ler a Bíblia\n\n${prose(60, 2)} hermenêutica\n`;
const LEGACY_V2 = `# Como ler a Bíblia\n\n${prose(70, 3)} hermenêutica contexto\n`;
const BROKEN = `${HEADER}\nTítulo: Bloco sem fim\n\n# Inspiração\n\n${prose(30, 4)} teopneustos inspiração\n`;
const PARABOLAS = `${HEADER}
Título: As parábolas de Jesus
Keywords: parábola, semeador
${END}

${prose(50, 5)}
`;

/** Lines drawn on each page of the generated PDF (about 30 words a page). */
const PDF_PAGES: string[][] = [1, 2, 3].map((page) => [
  `Capítulo ${page}: ${prose(9, 10 + page)}`,
  prose(10, 20 + page),
  `${prose(9, 30 + page)} tabernáculo`,
]);

async function makePdf(pages: string[][], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 30, y: 800 - i * 20, size: 9, font }));
  }
  return doc.save();
}

interface LogRecord {
  level: "info" | "warn" | "error";
  event: string;
  fields: Record<string, unknown>;
}

function recordingLogger(): CollectionLogger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const log = (level: LogRecord["level"]) => (event: string, fields: Record<string, unknown> = {}) => {
    records.push({ level, event, fields });
  };
  return { records, info: log("info"), warn: log("warn"), error: log("error") };
}

let root: string;
let collectionsDir: string;
let courseDir: string;
let settings: Settings;
let store: SqliteUnitStore;
let source: CollectionSource;
let logger: ReturnType<typeof recordingLogger>;

const ALL = ["apostila.pdf", "grande.md", "hermeneutica/parabolas.md", "teologia/legado.md", "teologia/quebrado.md", "teologia/trindade.md"];
const INDEXED = ALL.filter((id) => id !== "grande.md");

async function chunkIdsBySource(): Promise<Map<string, number[]>> {
  const ids = new Map<string, number[]>();
  for (const chunk of (await loadChunks(store))) ids.set(chunk.sourceId, [...(ids.get(chunk.sourceId) ?? []), chunk.id]);
  return ids;
}

async function reload(extra: { logger?: CollectionLogger } = {}): Promise<CollectionReloadSummary> {
  return reloadCollection(source, { store, settings, logger: extra.logger ?? logger });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pastor-collections-"));
  collectionsDir = join(root, "collections");
  courseDir = join(collectionsDir, "curso");
  await mkdir(join(courseDir, "teologia"), { recursive: true });
  await mkdir(join(courseDir, "hermeneutica"), { recursive: true });
  await mkdir(join(collectionsDir, ".oculta"), { recursive: true });
  await writeFile(join(courseDir, "teologia", "trindade.md"), TRINDADE);
  await writeFile(join(courseDir, "teologia", "legado.md"), LEGACY_V1);
  await writeFile(join(courseDir, "teologia", "quebrado.md"), BROKEN);
  await writeFile(join(courseDir, "hermeneutica", "parabolas.md"), PARABOLAS);
  await writeFile(join(courseDir, "apostila.pdf"), await makePdf(PDF_PAGES, "Apostila do Tabernáculo"));
  await writeFile(join(courseDir, "grande.md"), "palavra ".repeat(3000)); // 24,000 characters > 20,000
  settings = readSettings({
    DATA_DIR: join(root, "data"),
    COLLECTIONS_DIR: collectionsDir,
    DB_CHUNK_WORDS: "40",
    DB_CHUNK_OVERLAP: "5",
    MAX_CONTENT_CHARS: "20000",
  });
  const sources = discoverCollections(settings);
  expect(sources).toEqual([{ kind: "folder", name: "curso", dir: courseDir }]);
  source = sources[0]!;
  store = SqliteUnitStore.collection(settings.DATA_DIR, "curso");
  logger = recordingLogger();
});

afterAll(async () => {
  store?.close();
  await rm(root, { recursive: true, force: true });
});

describe("reloadCollection on a folder", () => {
  let first: CollectionReloadSummary;
  let firstModel: string | undefined;

  it("indexes every document on the first reload, skipping the oversized one with a warning naming it", async () => {
    first = await reload();
    expect(store.file).toBe(join(settings.DATA_DIR, "collections", "curso.sqlite"));
    expect(first).toMatchObject({
      collection: "curso",
      documents: 5,
      added: 5,
      changed: 0,
      unchanged: 0,
      removed: 0,
      skipped: 1,
      dense: "lsa",
    });
    expect(first.chunks).toBe(store.unitCount());
    expect(first.chunks).toBeGreaterThan(5);
    expect((await listDocuments(store)).map((d) => d.sourceId)).toEqual(INDEXED);
    expect((await listDocuments(store)).every((d) => d.status === "complete")).toBe(true);
    const tooLarge = first.warnings.find((w) => w.code === "document_too_large");
    expect(tooLarge?.sourceId).toBe("grande.md");
    expect(tooLarge?.message).toContain("grande.md");
    expect(logger.records.some((r) => r.level === "warn" && r.event === "document_too_large" && r.fields.sourceId === "grande.md")).toBe(true);
    firstModel = first.denseModel;
    expect(firstModel).toMatch(/^lsa:/);
  });

  it("indexes the broken-block document as legacy (body searchable) and logs meta_block_malformed at ERROR naming it", async () => {
    const logged = logger.records.filter((r) => r.event === "meta_block_malformed");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: "error", fields: { collection: "curso", sourceId: "teologia/quebrado.md" } });
    expect(String(logged[0]!.fields.detail)).toMatch(/marcador de fim/);
    expect(String(logged[0]!.fields.message)).toContain("teologia/quebrado.md");
    expect(first.warnings.some((w) => w.code === "meta_block_malformed" && w.sourceId === "teologia/quebrado.md")).toBe(true);

    const broken = (await loadChunks(store)).filter((c) => c.sourceId === "teologia/quebrado.md");
    expect(broken.length).toBeGreaterThan(0);
    expect(broken[0]!.metaText).toBeUndefined();
    expect(broken[0]!.discipline).toBe("teologia");
    expect(broken.flatMap((c) => c.terms)).toContain(analyze("teopneustos")[0]);

    const loaded = await loadCollection("curso", store, settings);
    const response = await loaded.search.search("teopneustos", { mode: "lexical" });
    expect(response.results[0]?.sourceId).toBe("teologia/quebrado.md");
  });

  it("puts the title line first in every chunk, the block's keywords in chunk 0 only, and the block's discipline", async () => {
    const chunks = (await loadChunks(store));
    for (const chunk of chunks) expect(chunk.text.startsWith("Título: ")).toBe(true);
    const trindade = chunks.filter((c) => c.sourceId === "teologia/trindade.md");
    expect(trindade.length).toBeGreaterThanOrEqual(2);
    const keyword = analyze("pericorese")[0]!;
    expect(trindade[0]!.terms).toContain(keyword);
    for (const chunk of trindade.slice(1)) expect(chunk.terms).not.toContain(keyword);
    expect(trindade.every((c) => c.title === "A Trindade" && c.discipline === "Teologia Sistemática")).toBe(true);
    expect(trindade[0]!.text.startsWith("Título: A Trindade\n\n")).toBe(true);
    // Terms are exactly the analyser's output over the chunk text.
    for (const chunk of chunks) expect(chunk.terms).toEqual(analyze(chunk.text));
    // Stable order: discipline, source id, chunk.
    const order = chunks.map((c) => [c.discipline, c.sourceId, c.chunk] as const);
    const sorted = [...order].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] - b[2]));
    expect(order).toEqual(sorted);
  });

  it("keeps the PDF's page numbers on its chunks", async () => {
    const pdf = (await loadChunks(store)).filter((c) => c.sourceId === "apostila.pdf");
    expect(pdf.length).toBeGreaterThanOrEqual(2);
    expect(pdf[0]!.title).toBe("Apostila do Tabernáculo");
    for (const chunk of pdf) expect(chunk.page).toBeGreaterThanOrEqual(1);
    expect(new Set(pdf.flatMap((c) => [c.page, c.pageEnd ?? c.page]))).toEqual(new Set([1, 2, 3]));
    expect(pdf.some((c) => c.pageEnd !== undefined && c.pageEnd > c.page!)).toBe(true);
  });

  it("stores an LSA vector for every chunk", () => {
    expect(store.vectorCount(firstModel!)).toBe(store.unitCount());
    expect(store.getManifest("lsa_model")).toBe(firstModel);
  });

  it("does nothing on a second reload when nothing changed (same chunk ids, same model, no vector computed)", async () => {
    const idsBefore = (await loadChunks(store)).map((c) => c.id);
    const second = await reload();
    expect(second).toMatchObject({ documents: 5, added: 0, changed: 0, unchanged: 5, removed: 0, skipped: 1, dense: "lsa", vectorsComputed: 0 });
    expect(second.denseModel).toBe(firstModel);
    expect((await loadChunks(store)).map((c) => c.id)).toEqual(idsBefore);
    expect(store.vectorCount(firstModel!)).toBe(store.unitCount());
    // The broken block is reported again only when the document is re-read: not for an unchanged one.
    expect(second.warnings.map((w) => w.code)).toEqual(["document_too_large"]);
  });

  it("re-chunks only the edited document, retrains LSA and recomputes every vector", async () => {
    const before = (await chunkIdsBySource());
    await writeFile(join(courseDir, "teologia", "legado.md"), LEGACY_V2);
    const summary = await reload();
    expect(summary).toMatchObject({ added: 0, changed: 1, unchanged: 4, removed: 0 });
    const after = (await chunkIdsBySource());
    for (const id of INDEXED) {
      if (id === "teologia/legado.md") {
        for (const chunkId of after.get(id)!) expect(before.get(id)).not.toContain(chunkId);
      } else {
        expect(after.get(id)).toEqual(before.get(id));
      }
    }
    const legacyTerms = (await loadChunks(store)).filter((c) => c.sourceId === "teologia/legado.md").flatMap((c) => c.terms);
    expect(legacyTerms).toContain(analyze("contexto")[0]);
    expect(summary.denseModel).not.toBe(firstModel);
    expect(summary.vectorsComputed).toBe(store.unitCount());
    expect(store.vectorCount(summary.denseModel!)).toBe(store.unitCount());
    expect(store.vectorCount(firstModel!)).toBe(0);
    firstModel = summary.denseModel;
  });

  it("removes a deleted document with its chunks and vectors", async () => {
    const gone = await chunkIdsOf(store, "hermeneutica/parabolas.md");
    expect(gone.length).toBeGreaterThan(0);
    await unlink(join(courseDir, "hermeneutica", "parabolas.md"));
    const summary = await reload();
    expect(summary).toMatchObject({ documents: 4, added: 0, changed: 0, unchanged: 4, removed: 1 });
    expect(await chunkIdsOf(store, "hermeneutica/parabolas.md")).toEqual([]);
    const remaining = new Set((await loadChunks(store)).map((c) => c.id));
    for (const id of gone) expect(remaining.has(id)).toBe(false);
    const vectors = store.loadVectors(summary.denseModel!);
    for (const id of gone) expect(vectors.has(id)).toBe(false);
    expect(vectors.size).toBe(store.unitCount());
  });

  it("removes a previously indexed document that became oversized, and says so", async () => {
    await writeFile(join(courseDir, "teologia", "legado.md"), `${LEGACY_V2}${"graça ".repeat(4000)}`);
    const summary = await reload();
    expect(summary).toMatchObject({ documents: 3, removed: 1, skipped: 2, unchanged: 3 });
    expect(summary.warnings.filter((w) => w.code === "document_too_large").map((w) => w.sourceId).sort()).toEqual([
      "grande.md",
      "teologia/legado.md",
    ]);
    const removed = summary.warnings.find((w) => w.code === "document_removed");
    expect(removed?.sourceId).toBe("teologia/legado.md");
    expect(removed?.message).toContain("teologia/legado.md");
    expect(await chunkIdsOf(store, "teologia/legado.md")).toEqual([]);
    // Back to a valid version: indexed again.
    await writeFile(join(courseDir, "teologia", "legado.md"), LEGACY_V2);
    expect(await reload()).toMatchObject({ documents: 4, added: 1, unchanged: 3, skipped: 1 });
  });

  it("throws a typed error for a source that fails entirely, and loses nothing already indexed", async () => {
    const documents = (await listDocuments(store));
    const chunks = (await loadChunks(store));
    const model = store.getManifest("lsa_model")!;
    const vectors = store.vectorCount(model);
    const moved = join(collectionsDir, "curso-movido");
    await rename(courseDir, moved);
    try {
      const error = await reload().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(DocumentReadError);
      expect((error as DocumentReadError).code).toBe("collection_not_found");
      expect(await listDocuments(store)).toEqual(documents);
      expect(await loadChunks(store)).toEqual(chunks);
      expect(store.vectorCount(model)).toBe(vectors);
      expect(store.getManifest("lsa_model")).toBe(model);
    } finally {
      await rename(moved, courseDir);
    }
  });

  it("re-chunks every document when the chunk settings change", async () => {
    const wider = readSettings({ ...envOf(settings), DB_CHUNK_WORDS: "80", DB_CHUNK_OVERLAP: "10" });
    const summary = await reloadCollection(source, { store, settings: wider, logger });
    expect(summary).toMatchObject({ changed: 4, unchanged: 0, added: 0 });
    // Back to the test settings.
    expect(await reload()).toMatchObject({ changed: 4, unchanged: 0 });
  });

  it("serves the collection with hybrid search, the dense side on", async () => {
    const loaded = await loadCollection("curso", store, settings);
    expect(loaded).toMatchObject({ name: "curso", documents: 4, chunks: store.unitCount() });
    expect(loaded.denseOffReason).toBeUndefined();
    expect(loaded.search.denseAvailable).toBe(true);
    const response = await loaded.search.search("tabernáculo");
    expect(response.mode).toBe("hybrid");
    expect(response.results[0]?.sourceId).toBe("apostila.pdf");
    expect(response.results[0]?.citation).toMatch(/^Apostila do Tabernáculo, pp?\. \d/);
  });
});

function envOf(current: Settings): Record<string, string> {
  return {
    DATA_DIR: current.DATA_DIR,
    COLLECTIONS_DIR: current.COLLECTIONS_DIR,
    DB_CHUNK_WORDS: String(current.DB_CHUNK_WORDS),
    DB_CHUNK_OVERLAP: String(current.DB_CHUNK_OVERLAP),
    MAX_CONTENT_CHARS: String(current.MAX_CONTENT_CHARS),
  };
}

describe("collection store", () => {
  it("refuses invalid collection names with a typed error", () => {
    for (const name of ["", "../fora", "com espaço", "-x", "ação", "a".repeat(65)]) {
      expect(() => SqliteUnitStore.collection(settings.DATA_DIR, name)).toThrow(CollectionStoreError);
      try {
        collectionStoreFile(settings.DATA_DIR, name);
      } catch (error) {
        expect((error as CollectionStoreError).code).toBe("invalid_collection_name");
      }
    }
    expect(collectionStoreFile("/dados", "Curso_2-b")).toBe(join("/dados", "collections", "Curso_2-b.sqlite"));
  });

  it("writes a document in one transaction: a failing write leaves the previous version whole", async () => {
    const scratch = SqliteUnitStore.collection(settings.DATA_DIR, "transacao");
    try {
      const chunk = (n: number, text: string) => ({ chunk: n, title: "T", text: `Título: T\n\n${text}`, body: text, terms: text });
      writeDocuments(scratch, { sourceId: "a.md", discipline: "d", slug: "a", title: "T", sha256: "1", chunks: [chunk(0, "um"), chunk(1, "dois")] });
      const before = (await loadChunks(scratch));
      // Two chunks with the same position violate UNIQUE(source_id, ord) mid-write.
      expect(() =>
        writeDocuments(scratch, { sourceId: "a.md", discipline: "d", slug: "a", title: "T", sha256: "2", chunks: [chunk(0, "três"), chunk(0, "quatro")] }),
      ).toThrow();
      expect(await loadChunks(scratch)).toEqual(before);
      expect((await listDocuments(scratch))[0]).toMatchObject({ sha256: "1", status: "complete", chunkCount: 2 });
      expect(scratch.removeSource("a.md")).toBe(true);
      expect(scratch.unitCount()).toBe(0);
    } finally {
      scratch.close();
    }
  });
});

describe("discoverCollections and settings", () => {
  it("lists the sub-folders (hidden ones and invalid names skipped) and the MySQL collection; a missing folder means none", async () => {
    await mkdir(join(collectionsDir, "nome inválido"), { recursive: true });
    await mkdir(join(collectionsDir, "Biblia"), { recursive: true }); // the Bible's name, in any case
    await writeFile(join(collectionsDir, "solto.md"), "não é uma coleção");
    const warnings: string[] = [];
    const withMysql = readSettings({ ...envOf(settings), MYSQL_URL: "mysql://u:p@127.0.0.1:3306/banco", MYSQL_COLLECTION: "aulas" });
    expect(discoverCollections(withMysql, (w) => warnings.push(w.code))).toEqual([
      { kind: "mysql", name: "aulas", url: "mysql://u:p@127.0.0.1:3306/banco", table: "lessons" },
      { kind: "folder", name: "curso", dir: courseDir },
    ]);
    expect(warnings.sort()).toEqual(["collection_name_invalid", "collection_name_reserved"]);
    await rm(join(collectionsDir, "nome inválido"), { recursive: true });
    await rm(join(collectionsDir, "Biblia"), { recursive: true });
    await unlink(join(collectionsDir, "solto.md"));
    expect(discoverCollections(readSettings({ COLLECTIONS_DIR: join(root, "nao-existe") }))).toEqual([]);
  });

  it("validates the collection settings with Portuguese messages", () => {
    const defaults = readSettings({});
    expect(defaults).toMatchObject({
      COLLECTIONS_DIR: "./collections",
      DB_CHUNK_WORDS: 500,
      DB_CHUNK_OVERLAP: 50,
      MAX_CONTENT_CHARS: 4_000_000,
      MYSQL_TABLE: "lessons",
      MYSQL_COLLECTION: "mysql",
    });
    expect(defaults.MYSQL_URL).toBeUndefined();
    expect(() => readSettings({ DB_CHUNK_WORDS: "100", DB_CHUNK_OVERLAP: "100" })).toThrow(/DB_CHUNK_OVERLAP.*menor que DB_CHUNK_WORDS/);
    expect(() => readSettings({ DB_CHUNK_WORDS: "30" })).toThrow(SettingsError);
    expect(() => readSettings({ MYSQL_TABLE: "aulas; DROP" })).toThrow(/MYSQL_TABLE/);
    expect(() => readSettings({ MYSQL_COLLECTION: "biblia" })).toThrow(/MYSQL_COLLECTION.*nome da Bíblia/);
    // One limit for every reader.
    expect(FOLDER_MAX).toBe(MAX_CONTENT_CHARS);
    expect(MYSQL_MAX).toBe(MAX_CONTENT_CHARS);
  });
});

describe("dense side per collection", () => {
  let tiny: TinyModel;
  beforeAll(async () => {
    tiny = await createTinyModel({ hiddenSize: 16, seed: 3 });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await tiny?.cleanup();
  });

  it("turns dense off with a reason for a one-chunk collection, and for EMBEDDING_MODEL=none", async () => {
    const dir = join(root, "pequena");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "unica.md"), "Uma só aula: graça e fé.");
    const small = SqliteUnitStore.collection(settings.DATA_DIR, "pequena");
    try {
      const summary = await reloadCollection({ kind: "folder", name: "pequena", dir }, { store: small, settings });
      expect(summary).toMatchObject({ documents: 1, chunks: 1, dense: "off" });
      expect(summary.denseOffReason).toMatch(/pelo menos 2/);
      const loaded = await loadCollection("pequena", small, settings);
      expect(loaded.denseOffReason).toMatch(/pelo menos 2/);
      expect((await loaded.search.search("graça")).results[0]?.sourceId).toBe("unica.md");

      await writeFile(join(dir, "outra.md"), "Outra aula: oração e esperança.");
      expect(await reloadCollection({ kind: "folder", name: "pequena", dir }, { store: small, settings })).toMatchObject({ dense: "lsa", chunks: 2 });

      const none = await reloadCollection({ kind: "folder", name: "pequena", dir }, { store: small, settings: { ...settings, EMBEDDING_MODEL: "none" } });
      expect(none.dense).toBe("off");
      expect(none.denseOffReason).toMatch(/EMBEDDING_MODEL=none/);
    } finally {
      small.close();
    }
  });

  it("embeds chunks with a transformers.js model folder, only the missing ones on reload", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("rede desativada nos testes");
    });
    const transformers = { ...settings, EMBEDDING_MODEL: tiny.dir };
    const summary = await reloadCollection(source, { store, settings: transformers });
    expect(summary).toMatchObject({ dense: "transformers", vectorsComputed: store.unitCount() });
    expect(store.vectorCount(summary.denseModel!)).toBe(store.unitCount());
    expect(await reloadCollection(source, { store, settings: transformers })).toMatchObject({ dense: "transformers", vectorsComputed: 0 });
    const loaded = await loadCollection("curso", store, transformers);
    expect(loaded.search.denseAvailable).toBe(true);
    // The LSA-configured load sees that the vectors are not LSA's: lexical, with the reason.
    const lsa = await loadCollection("curso", store, settings);
    expect(lsa.search.denseAvailable).toBe(false);
    expect(lsa.denseOffReason).toMatch(/recarregue/);
    // Back to LSA: the model for this fingerprint is retrained (same documents → same id).
    const back = await reloadCollection(source, { store, settings });
    expect(back.dense).toBe("lsa");
    expect(store.vectorCount(back.denseModel!)).toBe(store.unitCount());
    // A configured model that cannot be loaded is what the reason names, whatever the index holds.
    const missing = join(root, "nao-e-um-modelo");
    const broken = await loadCollection("curso", store, { ...settings, EMBEDDING_MODEL: missing });
    expect(broken.dense).toBe("off");
    expect(broken.denseOffReason).toBe(`Não foi possível carregar o modelo de embeddings '${missing}': a pasta '${missing}' não existe (busca só léxica)`);
  });
});

describe("a generated collection of 1,000 lessons", () => {
  it("prints the cold reload, no-op reload, load and query times", async () => {
    const dir = join(root, "mil");
    await writeGeneratedLessons(dir, 1000);
    const big = readSettings({ DATA_DIR: settings.DATA_DIR });
    const milStore = SqliteUnitStore.collection(big.DATA_DIR, "mil");
    try {
      const milSource: CollectionSource = { kind: "folder", name: "mil", dir };
      const reports: { cold: IndexProgress[]; noop: IndexProgress[] } = { cold: [], noop: [] };
      const cold = await reloadCollection(milSource, { store: milStore, settings: big, onProgress: (p) => reports.cold.push(p) });
      expect(cold).toMatchObject({ documents: 1000, added: 1000, dense: "lsa" });
      const noop = await reloadCollection(milSource, { store: milStore, settings: big, onProgress: (p) => reports.noop.push(p) });
      expect(noop).toMatchObject({ documents: 1000, unchanged: 1000, added: 0, changed: 0, vectorsComputed: 0 });

      // Progress in the Bible indexer's terms: documents read and written, then the model, then the chunks' vectors.
      const phases = (list: IndexProgress[]) => list.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1]);
      expect(phases(reports.cold)).toEqual(["scanning", "lexical", "training", "dense", "done"]);
      expect(phases(reports.noop)).toEqual(["scanning", "lexical", "dense", "done"]);
      for (const list of [reports.cold, reports.noop]) {
        // Every report says what it counts: a collection never reports verses.
        expect(list.filter((p) => p.counts === undefined)).toEqual([]);
        const lexical = list.filter((p) => p.phase === "lexical");
        expect(lexical.every((p) => p.counts === "documents" && p.total === 1000)).toBe(true);
        expect(lexical.map((p) => p.done)).toEqual([...lexical.map((p) => p.done)].sort((a, b) => a - b));
        expect(lexical.length).toBeGreaterThan(10); // reported along the way, not only at the end
        expect(lexical.at(-1)!.done).toBe(1000);
        expect(list.at(-1)).toEqual({ phase: "done", done: cold.chunks, total: cold.chunks, counts: "chunks" });
      }
      const dense = reports.cold.filter((p) => p.phase === "dense");
      expect(dense[0]).toEqual({ phase: "dense", done: 0, total: cold.chunks, counts: "chunks" });
      expect(dense.at(-1)!.done).toBe(cold.chunks);
      // A no-op reload has every vector already: done from the start, nothing embedded.
      expect(reports.noop.filter((p) => p.phase === "dense")).toEqual([{ phase: "dense", done: cold.chunks, total: cold.chunks, counts: "chunks" }]);

      let started = performance.now();
      const loaded = await loadCollection("mil", milStore, big);
      const loadMs = performance.now() - started;
      const queries = LESSON_QUERIES;
      await loaded.search.search(queries[0]!); // warm-up
      started = performance.now();
      for (const query of queries) await loaded.search.search(query);
      const queryMs = (performance.now() - started) / queries.length;
      console.log(
        `[1.000 aulas, ${cold.chunks} trechos, ~400 palavras] recarga a frio ${cold.ms} ms; recarga sem mudanças ${noop.ms} ms; ` +
          `carga para servir ${loadMs.toFixed(0)} ms; consulta híbrida ${queryMs.toFixed(1)} ms (média de ${queries.length})`,
      );
    } finally {
      milStore.close();
    }
  });
});
