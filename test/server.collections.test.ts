import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CollectionService, type CollectionStatus } from "../src/app/collection-service.js";
import type { IndexProgress } from "../src/app/index/indexer.js";
import { readSettings } from "../src/config/settings.js";
import { findProjectRoot } from "../src/project-root.js";
import { freePort } from "./support/net.js";
import { parseSse, ScriptedProvider, startTestServer, type TestServer } from "./support/server.js";

/**
 * The collections over HTTP: the real app on loopback, a copy of the shipped sample
 * collection in a temporary COLLECTIONS_DIR, a scripted model (the only stand-in: it is the
 * paid remote part) whose answer cites excerpts shown and not shown.
 */
const dirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

let server: TestServer;
let collectionsDir: string;
const provider = new ScriptedProvider(["A Trindade é um só Deus em três pessoas [1", "]. Veja também [9] e ", "(db:teologia/aula-inventada, trecho 2)."]);

beforeAll(async () => {
  collectionsDir = tempDir("pastor-collections-");
  cpSync(path.join(findProjectRoot(), "collections", "exemplo"), path.join(collectionsDir, "exemplo"), { recursive: true });
  server = await startTestServer(tempDir("pastor-data-"), provider, {
    COLLECTIONS_DIR: collectionsDir,
    REINDEX_TOKEN: "segredo",
  });
});

afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function reload(body: unknown, token = "segredo"): Promise<Response> {
  return fetch(`${server.url}/api/reload`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Reindex-Token": token },
    body: JSON.stringify(body),
  });
}

async function chat(body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/chat`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

describe("collections over the API", () => {
  it("lists the discovered collection, empty until it is reloaded", async () => {
    const response = await fetch(`${server.url}/api/collections`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { default: string; collections: { name: string; chunks: number }[] };
    expect(body.default).toBe("biblia");
    expect(body.collections).toEqual([expect.objectContaining({ name: "exemplo", chunks: 0 })]);
    const refused = await chat({ message: "o que é a Trindade?", collection: "exemplo" });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("collection_not_ready");
  });

  it("guards POST /api/reload with the token and validates the body", async () => {
    expect((await fetch(`${server.url}/api/reload`, { method: "POST" })).status).toBe(401);
    expect((await reload({}, "errado")).status).toBe(403);
    // A body that is not declared JSON is refused before it is read (a page's form or text/plain fetch).
    const plain = await fetch(`${server.url}/api/reload`, { method: "POST", headers: { "X-Reindex-Token": "segredo" }, body: "{}" });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
    const bad = await fetch(`${server.url}/api/reload`, { method: "POST", headers: { "X-Reindex-Token": "segredo", "Content-Type": "application/json" }, body: "{oops" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    const unknown = await reload({ collection: "nenhuma" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("exemplo");
    const bible = await reload({ collection: "Biblia" });
    expect(bible.status).toBe(400);
    expect(((await bible.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "bible_reload", message: expect.stringContaining("/api/reindex") });
  });

  it("reloads a collection, then a second reload costs nothing", async () => {
    const first = await reload({ collection: "exemplo" });
    expect(first.status).toBe(200);
    const [summary] = ((await first.json()) as { collections: { added: number; unchanged: number; warnings: { code: string }[] }[] }).collections;
    expect(summary!.added).toBe(4);
    expect(summary!.warnings.map((w) => w.code)).toContain("meta_block_malformed");
    const second = ((await (await reload({ collection: "exemplo" })).json()) as { collections: { added: number; changed: number; unchanged: number }[] })
      .collections[0]!;
    expect(second).toMatchObject({ added: 0, changed: 0, unchanged: 4 });
    const status = (await (await fetch(`${server.url}/api/status`)).json()) as { collections: { name: string; documents: number; dense: { enabled: boolean } }[] };
    expect(status.collections).toEqual([expect.objectContaining({ name: "exemplo", documents: 4, dense: expect.objectContaining({ enabled: true }) })]);
  });

  it("answers from the collection: excerpts as sources, [n] rewritten to the citation, unseen sources removed", async () => {
    const response = await chat({ message: "o que é a Trindade?", collection: "exemplo" });
    expect(response.status).toBe(200);
    const events = parseSse(await response.text());
    const conversationId = (events[0]!.data as { conversationId: string }).conversationId;
    expect(events.map((e) => e.event)).toEqual(["sources", ...events.slice(1, -1).map(() => "token"), "done"]);
    const sources = (events[0]!.data as { collection: string; sources: { kind: string; number: number; sourceId: string; citation: string }[] });
    expect(sources.collection).toBe("exemplo");
    expect(sources.sources[0]).toMatchObject({ kind: "document", number: 1, sourceId: "teologia/a-trindade.md" });
    const text = events
      .filter((e) => e.event === "token")
      .map((e) => (e.data as { text: string }).text)
      .join("");
    const citation = sources.sources[0]!.citation;
    expect(text).toContain(`[${citation}]`);
    expect(text).not.toContain("[9]");
    expect(text).not.toContain("aula-inventada");
    expect(events.at(-1)!.data).toEqual({ citations: [citation], kind: "question" });
    // The model was shown the excerpts as data, numbered.
    const prompt = provider.requests.at(-1)!;
    expect(prompt.messages.at(-1)!.content).toContain('<trecho n="1"');

    const consulted = (await (await fetch(`${server.url}/api/sources?conversationId=${conversationId}`)).json()) as { sources: { citation: string; cited: boolean }[] };
    expect(consulted.sources.find((s) => s.citation === citation)!.cited).toBe(true);
  });

  it("names the collections there are when asked for one that does not exist", async () => {
    const response = await chat({ message: "olá", collection: "nada" });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("collection_not_found");
    expect(body.error.message).toContain("biblia");
    expect(body.error.message).toContain("exemplo");
  });

  it("takes \"Biblia\" (any case, spaces around) as the Bible, like no collection at all", async () => {
    // This server has no Bible index: the Bible's answer is 503 index_not_ready, a collection's would differ.
    const answer = async (body: Record<string, unknown>) => {
      const response = await chat({ message: "João 3:16", ...body });
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      return { status: response.status, code: error.code, message: error.message };
    };
    const plain = await answer({});
    expect(plain).toMatchObject({ status: 503, code: "index_not_ready" });
    expect(await answer({ collection: " Biblia " })).toEqual(plain);
    expect(await answer({ collection: "biblia" })).toEqual(plain);
  });

  it("keeps serving the last index when the source fails, and says so in the status", async () => {
    writeFileSync(path.join(collectionsDir, "exemplo", "nova.md"), "Título: nada\n\nUma lição curta sobre oração e jejum.");
    rmSync(path.join(collectionsDir, "exemplo"), { recursive: true, force: true });
    // The folder is gone: the collection is no longer discovered, so the API says it does not exist…
    expect((await reload({ collection: "exemplo" })).status).toBe(404);
    // …while what was indexed is still served.
    const response = await chat({ message: "o que é a Trindade?", collection: "exemplo" });
    expect(response.status).toBe(200);
    expect(parseSse(await response.text())[0]!.event).toBe("sources");
  });
});

describe("a collection whose source is down", () => {
  it("fails the reload with the source's code, reports it in the status, and names no password", async () => {
    const { CollectionService, CollectionReloadError } = await import("../src/app/collection-service.js");
    const { readSettings } = await import("../src/config/settings.js");
    const port = await freePort(); // nobody listens there
    const settings = readSettings({
      DATA_DIR: tempDir("pastor-down-"),
      COLLECTIONS_DIR: tempDir("pastor-none-"),
      MYSQL_URL: `mysql://pastor:senha-secreta@127.0.0.1:${port}/aulas`,
      MYSQL_COLLECTION: "aulas",
    });
    const collections = new CollectionService(settings);
    await collections.open();
    try {
      const failure = await collections.reload("aulas").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CollectionReloadError);
      expect((failure as InstanceType<typeof CollectionReloadError>).code).toBe("mysql_unreachable");
      const [status] = collections.status();
      expect(status).toMatchObject({ name: "aulas", kind: "mysql", error: { code: "mysql_unreachable" } });
      expect(status!.error!.message).not.toContain("senha-secreta");
    } finally {
      await collections.close();
    }
  });
});

describe("a collection whose index file cannot be read at boot", () => {
  it("is logged and left out while the others are served; a reload after the file is fixed brings it back", async () => {
    const { CollectionService } = await import("../src/app/collection-service.js");
    const { readSettings } = await import("../src/config/settings.js");
    const collectionsDir = tempDir("pastor-bad-index-src-");
    for (const name of ["boa", "ruim"]) {
      mkdirSync(path.join(collectionsDir, name));
      writeFileSync(path.join(collectionsDir, name, "aula.md"), `# Aula ${name}\n\nA graça de Deus na vida da igreja.\n`);
    }
    const dataDir = tempDir("pastor-bad-index-data-");
    mkdirSync(path.join(dataDir, "collections"));
    const broken = path.join(dataDir, "collections", "ruim.sqlite");
    writeFileSync(broken, "isto não é um banco SQLite ".repeat(100));
    const errors: { event: string; fields: Record<string, unknown> }[] = [];
    const logger = { info: () => undefined, warn: () => undefined, error: (event: string, fields: Record<string, unknown> = {}) => void errors.push({ event, fields }) };
    const collections = new CollectionService(readSettings({ DATA_DIR: dataDir, COLLECTIONS_DIR: collectionsDir, EMBEDDING_MODEL: "none" }), logger);
    await collections.open();
    try {
      expect(collections.names()).toEqual(["boa"]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.fields).toMatchObject({ collection: "ruim", code: "collection_load_failed" });
      expect(String(errors[0]!.fields.message)).toContain('não foi possível ler o índice da coleção "ruim"');
      rmSync(broken);
      await collections.reload();
      expect(collections.names()).toEqual(["boa", "ruim"]);
      expect(collections.get("ruim")?.chunks).toBeGreaterThan(0);
    } finally {
      await collections.close();
    }
  });
});

describe("a collection's reload progress", () => {
  it("is reported to the listener and shown in the status while the reload runs, and cleared after", async () => {
    const lessons = tempDir("pastor-progress-lessons-");
    cpSync(path.join(findProjectRoot(), "collections", "exemplo"), path.join(lessons, "exemplo"), { recursive: true });
    const service = new CollectionService(readSettings({ DATA_DIR: tempDir("pastor-progress-"), COLLECTIONS_DIR: lessons }));
    await service.open();
    try {
      const seen: { collection: string; report: IndexProgress; status: CollectionStatus["progress"]; reloading: boolean }[] = [];
      await service.reload("exemplo", (collection, report) => {
        const status = service.status().find((s) => s.name === collection)!;
        seen.push({ collection, report, status: status.progress, reloading: status.reloading });
      });
      expect(seen.map((s) => s.report.phase).filter((phase, i, all) => phase !== all[i - 1])).toEqual(["scanning", "lexical", "training", "dense", "done"]);
      for (const { collection, report, status, reloading } of seen) {
        expect(collection).toBe("exemplo");
        expect(reloading).toBe(true);
        expect(status).toEqual({ phase: report.phase, done: report.done, total: report.total, counts: report.counts ?? "verses" });
      }
      expect(seen.find((s) => s.report.phase === "lexical" && s.report.done === 4)?.status).toEqual({ phase: "lexical", done: 4, total: 4, counts: "documents" });
      const after = service.status().find((s) => s.name === "exemplo")!;
      expect(after).toMatchObject({ reloading: false, progress: null, documents: 4 });
    } finally {
      await service.close();
    }
  });
});
