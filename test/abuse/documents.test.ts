/**
 * The abuse suite (issue 43), documents' part: hostile collection files against the real server
 * (`startServer`, the code path of `pastor serve`: search workers, the collections' reloads,
 * the chat) on loopback, each file generated here. Every repro asserts its outcome, how long it
 * took, the memory the server's process kept (RSS before and after within 100 MB) and that
 * `/api/health` answered within 1 s throughout (probed from a process of its own).
 *
 * - Item 3: PDFs whose content stream inflates a thousandfold (a 120 KB file, 40 MB of text
 *   operators; a 1.2 MB file, 400 MB), read in a worker and stopped at MAX_CONTENT_CHARS; one
 *   of path operators only, stopped at PDF_TIMEOUT_MS; none read again at the next start while
 *   its bytes are the same, read again once they change.
 * - Item 5: a lesson with a 3.8-million-character run without spaces: chunks, the `sources`
 *   event, the prompt and the conversations' record stay bounded.
 * - Item 11: `pastor reload` exits 1 naming the documents that failed; folders `Exemplo` and
 *   `exemplo` are a configuration error naming both, never two stores.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSettings } from "../../src/config/settings.js";
import { collectionKey, isBibleCollection } from "../../src/core/types.js";
import { mulberry32 } from "../../src/core/index/linalg.js";
import { createJsonLogger } from "../../src/http/logger.js";
import { startServer, type RunningServer } from "../../src/http/main.js";
import { measure, RSS_BUDGET_BYTES, watchHealth, type HealthReport, type Measured } from "../support/abuse.js";
import { ROOT } from "../support/bible-index.js";
import { pastorFromSources } from "../support/cli.js";
import { startFakeLlmServer, type FakeLlmServer } from "../support/fake-llm-servers.js";
import { inflatingPdf } from "../support/hostile-pdf.js";
import { generatedLesson } from "../support/lessons.js";
import { parseSse, postChat } from "../support/server.js";
import { storeEnvFor } from "../support/store.js";
import { makeUsfx } from "../support/usfx.js";

const TOKEN = "token-do-teste-de-abuso";
const MB = 1024 * 1024;
const dirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A one-book Bible, so that AUTO_INDEX has a corpus to index at start (in a moment). */
let corpusDir: string;
let fake: FakeLlmServer;
const logLines: Record<string, unknown>[] = [];
const logger = createJsonLogger((line) => logLines.push(JSON.parse(line) as Record<string, unknown>));
const previousHost = process.env.HOST;

beforeAll(async () => {
  process.env.HOST = "127.0.0.1";
  corpusDir = tempDir("abuse-docs-corpus-");
  writeFileSync(path.join(corpusDir, "mini.usfx.xml"), makeUsfx({ JON: { name: "Jonas", chapters: [["E veio a palavra do Senhor a Jonas.", "Levanta-te e vai a Nínive."]] } }));
  fake = await startFakeLlmServer("openai");
});

afterAll(async () => {
  await fake?.close();
  if (previousHost === undefined) delete process.env.HOST;
  else process.env.HOST = previousHost;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Server = RunningServer & { url: string };

async function start(dataDir: string, collectionsDir: string, env: Record<string, string> = {}): Promise<Server> {
  const settings = readSettings({
    DATA_DIR: dataDir,
    COLLECTIONS_DIR: collectionsDir,
    CORPUS_DIR: corpusDir,
    AUTO_INDEX: "false",
    PORT: "0",
    WARM_UP_ROUNDS: "0",
    SEARCH_WORKERS: "1",
    REINDEX_TOKEN: TOKEN,
    CHAT_RATE_PER_MINUTE: "10000",
    ADMIN_RATE_PER_MINUTE: "10000",
    ...storeEnvFor(dataDir),
    ...env,
  });
  const providerEnv = { LLM_PROVIDER: "openai", LLM_MODEL: "gpt-4o-mini", OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: fake.apiKey };
  const server = await startServer(settings, { env: providerEnv, logger });
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}

interface Watched<T> extends Measured<T> {
  health: HealthReport;
}

/** Runs `work` against the server, its health probed from another process and this process's RSS sampled. */
async function underWatch<T>(url: string, work: () => Promise<T>): Promise<Watched<T>> {
  const watch = await watchHealth(url);
  let measured: Measured<T> | undefined;
  try {
    measured = await measure(work);
  } finally {
    const health = await watch.stop();
    if (measured) Object.assign(measured, { health });
  }
  return measured as Watched<T>;
}

/** The bounds every hostile input is held to: health within 1 s throughout, RSS kept within 100 MB. */
function expectServerHeld(watched: Watched<unknown>): void {
  expect(watched.health.failures, JSON.stringify(watched.health)).toBe(0);
  expect(watched.health.probes).toBeGreaterThan(0);
  expect(watched.health.maxMs, JSON.stringify(watched.health)).toBeLessThan(1000);
  expect(watched.rssAfter - watched.rssBefore, `RSS ${Math.round(watched.rssBefore / MB)} → ${Math.round(watched.rssAfter / MB)} MB (peak ${Math.round(watched.rssPeak / MB)})`).toBeLessThan(RSS_BUDGET_BYTES);
}

interface ReloadSummary {
  collection: string;
  documents: number;
  chunks: number;
  skipped: number;
  skippedDocuments: string[];
  warnings: { code: string; sourceId: string; message: string }[];
  ms: number;
}

async function reload(url: string, body: Record<string, unknown> = {}): Promise<{ status: number; body: { collections?: ReloadSummary[]; error?: { code: string; message: string } } }> {
  const response = await fetch(`${url}/api/reload`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Reindex-Token": TOKEN },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { collections?: ReloadSummary[]; error?: { code: string; message: string } } };
}

interface CollectionStatusJson {
  name: string;
  documents: number;
  reloading: boolean;
  lastReload: { ms: number; skipped: number } | null;
  error: { code: string; message: string } | null;
}

async function collectionsOf(url: string): Promise<CollectionStatusJson[]> {
  return ((await (await fetch(`${url}/api/collections`)).json()) as { collections: CollectionStatusJson[] }).collections;
}

async function makePdf(lines: string[], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([420, 595]);
  lines.forEach((line, i) => page.drawText(line, { x: 40, y: 540 - i * 20, size: 12, font }));
  return doc.save();
}

function writeLessons(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(path.join(dir, `aula-${i + 1}.md`), generatedLesson(i).content);
}

describe("PDFs whose content stream inflates a thousandfold (item 3)", () => {
  let dataDir: string;
  let collectionsDir: string;
  let lessons: string;
  let server: Server;

  beforeAll(async () => {
    dataDir = tempDir("abuse-pdf-data-");
    collectionsDir = tempDir("abuse-pdf-collections-");
    lessons = path.join(collectionsDir, "aulas");
    writeLessons(lessons, 3);
    writeFileSync(path.join(lessons, "apostila.pdf"), await makePdf(["A graça de Deus e a fé da igreja.", "Oração e louvor."], "Apostila de teste"));
    server = await start(dataDir, collectionsDir);
    // The collection served before the hostile files arrive (its first load is not theirs to pay).
    expect((await reload(server.url, { collection: "aulas" })).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("stops both at MAX_CONTENT_CHARS in a worker: named, the other lessons kept, /api/health within 1 s, memory back", async () => {
    // The two files: 143 KB inflating to 40 MB (20-30 s blocked), 1.4 MB (more than 5 minutes).
    writeFileSync(path.join(lessons, "bomba-40mb.pdf"), await inflatingPdf({ inflatedBytes: 40 * MB }));
    writeFileSync(path.join(lessons, "bomba-400mb.pdf"), await inflatingPdf({ inflatedBytes: 400 * MB }));
    const watched = await underWatch(server.url, () => reload(server.url, { collection: "aulas" }));
    expect(watched.value.status).toBe(200);
    const [summary] = watched.value.body.collections!;
    expect(summary).toMatchObject({ collection: "aulas", documents: 4, skipped: 2, skippedDocuments: ["bomba-400mb.pdf", "bomba-40mb.pdf"] });
    for (const file of ["bomba-400mb.pdf", "bomba-40mb.pdf"]) {
      const warning = summary!.warnings.find((w) => w.sourceId === file)!;
      expect(warning.code).toBe("document_too_large");
      expect(warning.message).toBe(
        `${file}: documento grande demais (o texto do PDF passa de 4.000.000 caracteres, o limite, já na página 1; a leitura foi interrompida ali). Documento ignorado.`,
      );
    }
    // Extracted whole on the main thread, the two took 40 s and about 7 minutes here.
    expect(watched.ms).toBeLessThan(90_000);
    expectServerHeld(watched);
    console.info(`abuse item 3 (inflating PDFs): reload ${Math.round(watched.ms)} ms; health max ${Math.round(watched.health.maxMs)} ms, p95 ${Math.round(watched.health.p95Ms)} ms over ${watched.health.probes} probes; RSS ${Math.round(watched.rssBefore / MB)} → ${Math.round(watched.rssAfter / MB)} MB, peak ${Math.round(watched.rssPeak / MB)} MB`);
  }, 180_000);

  it("does not read them again after a restart while their bytes are the same, and reads one again once it changes", async () => {
    // A new server on the same data: what a restart with AUTO_INDEX does (its `collections.reload()`), asked here.
    await server.close();
    server = await start(dataDir, collectionsDir);
    const watched = await underWatch(server.url, () => reload(server.url, { collection: "aulas" }));
    const [summary] = watched.value.body.collections!;
    expect(summary).toMatchObject({ documents: 4, skippedDocuments: ["bomba-400mb.pdf", "bomba-40mb.pdf"] });
    for (const warning of summary!.warnings.filter((w) => w.sourceId.startsWith("bomba-"))) {
      expect(warning.message).toMatch(/documento grande demais .* Documento ignorado\. \(Não foi lido de novo: falhou antes com este mesmo conteúdo; será relido quando o arquivo mudar\.\)$/);
    }
    // Neither was read: the seconds they cost are not spent again.
    expect(summary!.ms).toBeLessThan(5000);
    expectServerHeld(watched);
    console.info(`abuse item 3 (restart): the reload took ${summary!.ms} ms; health max ${Math.round(watched.health.maxMs)} ms`);

    // The 40 MB one changes (now 41 MB of operators): read again, and stopped again; the other still remembered.
    writeFileSync(path.join(lessons, "bomba-40mb.pdf"), await inflatingPdf({ inflatedBytes: 41 * MB }));
    const changed = await underWatch(server.url, () => reload(server.url, { collection: "aulas" }));
    const byFile = new Map(changed.value.body.collections![0]!.warnings.map((w) => [w.sourceId, w.message]));
    expect(byFile.get("bomba-40mb.pdf")).toMatch(/^bomba-40mb\.pdf: documento grande demais .* Documento ignorado\.$/);
    expect(byFile.get("bomba-400mb.pdf")).toMatch(/\(Não foi lido de novo: falhou antes com este mesmo conteúdo; será relido quando o arquivo mudar\.\)$/);
    expectServerHeld(changed);
  }, 180_000);
});

describe("a PDF of endless path operators (item 3, the time limit)", () => {
  it("is stopped after PDF_TIMEOUT_MS, named in Portuguese, /api/health within 1 s, memory back", async () => {
    const collectionsDir = tempDir("abuse-pdf-slow-collections-");
    const lessons = path.join(collectionsDir, "lentas");
    writeLessons(lessons, 2);
    const server = await start(tempDir("abuse-pdf-slow-data-"), collectionsDir, { PDF_TIMEOUT_MS: "3000" });
    try {
      // The collection served before the hostile file arrives.
      expect((await reload(server.url, { collection: "lentas" })).status).toBe(200);
      // No text to count: 400 MB of path operators the content-stream parser would chew on for minutes.
      writeFileSync(path.join(lessons, "sem-fim.pdf"), await inflatingPdf({ inflatedBytes: 400 * MB, kind: "paths" }));
      const watched = await underWatch(server.url, () => reload(server.url, { collection: "lentas" }));
      expect(watched.value.status).toBe(200);
      const [summary] = watched.value.body.collections!;
      expect(summary).toMatchObject({ documents: 2, skippedDocuments: ["sem-fim.pdf"] });
      expect(summary!.warnings.find((w) => w.sourceId === "sem-fim.pdf")).toEqual({
        code: "pdf_timeout",
        sourceId: "sem-fim.pdf",
        message:
          "sem-fim.pdf: a leitura do PDF passou de 3 s (o limite, PDF_TIMEOUT_MS) e foi interrompida; o arquivo tem conteúdo demais para ler (ou está montado para travar a leitura). Documento ignorado.",
      });
      expect(watched.ms).toBeLessThan(30_000);
      expectServerHeld(watched);
      console.info(`abuse item 3 (endless PDF): reload ${Math.round(watched.ms)} ms; health max ${Math.round(watched.health.maxMs)} ms; RSS ${Math.round(watched.rssBefore / MB)} → ${Math.round(watched.rssAfter / MB)} MB, peak ${Math.round(watched.rssPeak / MB)} MB`);

      // The next reload does not wait for it again.
      const again = await reload(server.url, { collection: "lentas" });
      expect(again.body.collections![0]!.ms).toBeLessThan(3000);
      expect(again.body.collections![0]!.warnings[0]!.message).toContain("Não foi lido de novo");
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("a lesson with a 3.8-million-character run without spaces (item 5)", () => {
  let server: Server;
  const RUN = 3_800_000;

  let lessons: string;

  beforeAll(async () => {
    const collectionsDir = tempDir("abuse-run-collections-");
    lessons = path.join(collectionsDir, "licoes");
    writeLessons(lessons, 3);
    server = await start(tempDir("abuse-run-data-"), collectionsDir, { EMBEDDING_MODEL: "none" });
    // The collection served before the hostile lesson arrives.
    expect((await reload(server.url, { collection: "licoes" })).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("is cut into chunks of at most DB_CHUNK_CHARS while /api/health answers within 1 s", async () => {
    // Random letters, no space: 3.8 million characters of one "word".
    const random = mulberry32(43);
    const run = Buffer.alloc(RUN);
    for (let i = 0; i < RUN; i++) run[i] = 97 + Math.floor(random() * 26);
    writeFileSync(path.join(lessons, "sem-espacos.md"), `# A graça sem espaços\n\nA graça de Deus e a fé ${run.toString("latin1")} graça de Deus e fé da igreja.\n`);
    const watched = await underWatch(server.url, () => reload(server.url, { collection: "licoes" }));
    expect(watched.value.status).toBe(200);
    const [summary] = watched.value.body.collections!;
    // 3.8 million characters in pieces of 6,000: about 634 chunks, not one.
    expect(summary).toMatchObject({ documents: 4, skipped: 0 });
    expect(summary!.chunks).toBeGreaterThan(Math.floor(RUN / 6000));
    expect(watched.ms).toBeLessThan(60_000);
    expectServerHeld(watched);
    console.info(`abuse item 5 (3.8M-character run): reload ${Math.round(watched.ms)} ms, ${summary!.chunks} chunks; health max ${Math.round(watched.health.maxMs)} ms; RSS ${Math.round(watched.rssBefore / MB)} → ${Math.round(watched.rssAfter / MB)} MB`);
  }, 120_000);

  it("keeps every sources event, prompt and conversation record bounded over 25 conversations", async () => {
    fake.reset();
    fake.script({ chunks: ["A graça de Deus [1]."] });
    const watched = await underWatch(server.url, async () => {
      const answers: { sourcesBytes: number; conversationId: string; longest: number }[] = [];
      for (let i = 0; i < 25; i++) {
        const response = await postChat(server.url, { message: "o que é a graça de Deus?", collection: "licoes" });
        const body = await response.text();
        expect(response.status).toBe(200);
        const sources = parseSse(body).find((event) => event.event === "sources")!;
        const data = sources.data as { conversationId: string; sources: { text: string; sourceId: string }[] };
        answers.push({
          sourcesBytes: Buffer.byteLength(JSON.stringify(data)),
          conversationId: data.conversationId,
          longest: Math.max(...data.sources.map((source) => source.text.length)),
        });
      }
      return answers;
    });
    const answers = watched.value;
    // The run's chunks are among the sources (the lesson's words sit beside it), each at most 6,000 characters.
    for (const answer of answers) {
      expect(answer.longest).toBeLessThanOrEqual(6000);
      expect(answer.sourcesBytes).toBeLessThan(64 * 1024); // it was 3.8 MB
    }
    // What the model was sent: the question with its excerpts, bounded the same way.
    expect(fake.requests.length).toBe(25);
    for (const request of fake.requests) expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThan(80 * 1024);
    // The conversation's record: what /api/sources gives back is the same bounded sources.
    const last = answers.at(-1)!;
    const record = (await (await fetch(`${server.url}/api/sources?conversationId=${encodeURIComponent(last.conversationId)}`)).json()) as { sources: { text: string }[] };
    expect(record.sources.length).toBeGreaterThan(0);
    expect(Math.max(...record.sources.map((source) => source.text.length))).toBeLessThanOrEqual(6000);
    // 25 conversations cost +167 MB before.
    expectServerHeld(watched);
    console.info(`abuse item 5 (3.8M-character run): 25 answers in ${Math.round(watched.ms)} ms, sources event ≤ ${Math.max(...answers.map((a) => a.sourcesBytes))} bytes; RSS ${Math.round(watched.rssBefore / MB)} → ${Math.round(watched.rssAfter / MB)} MB; health max ${Math.round(watched.health.maxMs)} ms`);
  }, 120_000);
});

describe("collection folders whose names differ only by case (item 11)", () => {
  it("compares names by case, accents and Unicode normalisation", () => {
    expect(collectionKey("Exemplo")).toBe(collectionKey("exemplo"));
    expect(collectionKey("Ex\u00e9mplo")).toBe(collectionKey("Exe\u0301mplo")); // NFC and NFD
    expect(collectionKey("EXÉMPLO")).toBe("exemplo");
    expect(isBibleCollection("Bíblia")).toBe(true);
    expect(isBibleCollection(" BI\u0301BLIA ")).toBe(true);
    expect(isBibleCollection("exemplo")).toBe(false);
  });

  it("are a configuration error naming both, never two stores; the other collection is served, under any case", async () => {
    const collectionsDir = tempDir("abuse-names-collections-");
    const sample = path.join(ROOT, "collections", "exemplo");
    cpSync(sample, path.join(collectionsDir, "exemplo"), { recursive: true });
    cpSync(sample, path.join(collectionsDir, "Exemplo"), { recursive: true });
    writeLessons(path.join(collectionsDir, "outra"), 2);
    const dataDir = tempDir("abuse-names-data-");
    logLines.length = 0;
    const server = await start(dataDir, collectionsDir, { EMBEDDING_MODEL: "none" });
    try {
      const clashLogged = logLines.filter((line) => line.code === "collection_name_clash");
      expect(clashLogged).toHaveLength(1);
      expect(clashLogged[0]!.level).toBe("error");

      const watched = await underWatch(server.url, () => reload(server.url));
      expect(watched.value.status).toBe(200);
      expect(watched.value.body.collections!.map((summary) => summary.collection)).toEqual(["outra"]);
      expectServerHeld(watched);
      expect((await collectionsOf(server.url)).map((status) => status.name)).toEqual(["outra"]);
      const stores = existsSync(path.join(dataDir, "collections")) ? readdirSync(path.join(dataDir, "collections")) : [];
      expect(stores.filter((file) => collectionKey(file).startsWith("exemplo"))).toEqual([]);

      const named = await reload(server.url, { collection: "Exemplo" });
      expect(named.status).toBeGreaterThanOrEqual(400);
      expect(named.body.error!.code).toBe("collection_name_clash");
      expect(named.body.error!.message).toContain('Pastas "Exemplo" e "exemplo"');
      expect(named.body.error!.message).toContain("só diferem por maiúsculas ou acentos");

      // "OUTRA" is the collection "outra", as "Biblia" is the Bible.
      const answer = await postChat(server.url, { message: "aconselhamento no luto", collection: "OUTRA" });
      expect(answer.status).toBe(200);
      expect(parseSse(await answer.text()).map((event) => event.event)).toContain("sources");
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("pastor reload's exit code (item 11)", () => {
  it("exits 1 naming the documents that failed and the folders whose names clash; 2 when the one asked clashes; 0 when all is read", async () => {
    const collectionsDir = tempDir("abuse-cli-collections-");
    writeLessons(path.join(collectionsDir, "outra"), 2);
    writeFileSync(path.join(collectionsDir, "outra", "quebrado.pdf"), "%PDF-1.7\nisto não é um PDF de verdade\n");
    cpSync(path.join(ROOT, "collections", "exemplo"), path.join(collectionsDir, "exemplo"), { recursive: true });
    cpSync(path.join(ROOT, "collections", "exemplo"), path.join(collectionsDir, "Exemplo"), { recursive: true });
    const dataDir = tempDir("abuse-cli-data-");
    const env = { DATA_DIR: dataDir, COLLECTIONS_DIR: collectionsDir, EMBEDDING_MODEL: "none", ...storeEnvFor(dataDir) };

    const all = await pastorFromSources(["reload"], env);
    expect(all.code).toBe(1);
    expect(all.stdout).toMatch(/^outra: 2 documentos, \d+ trechos/m);
    expect(all.stderr).toMatch(/^erro: Pastas "Exemplo" e "exemplo" em .* só diferem por maiúsculas ou acentos/m);
    expect(all.stderr).toMatch(/^erro: coleção "outra": 1 documento não foi indexado \(veja os avisos\): quebrado\.pdf$/m);

    const clash = await pastorFromSources(["reload", "--collection", "exemplo"], env);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/Pastas "Exemplo" e "exemplo"/);

    rmSync(path.join(collectionsDir, "outra", "quebrado.pdf"));
    const clean = await pastorFromSources(["reload", "--collection", "outra", "--json"], env);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject([{ collection: "outra", documents: 2, skippedDocuments: [] }]);
  }, 120_000);
});
