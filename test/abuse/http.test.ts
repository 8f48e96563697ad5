import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../../src/adapters/index/sqlite-unit-store.js";
import { parseDenseChoice } from "../../src/app/index/dense.js";
import { indexCorpus } from "../../src/app/index/indexer.js";
import { readSettings } from "../../src/config/settings.js";
import { createJsonLogger } from "../../src/http/logger.js";
import { startServer, type RunningServer } from "../../src/http/main.js";
import { measure, RSS_BUDGET_BYTES, watchHealth } from "../support/abuse.js";
import { conversationIdOf, ISSUED_CONVERSATION_ID } from "../support/server.js";
import { makeUsfx, tempDir, writeFile } from "../support/usfx.js";

/**
 * Issue 43, items 8–10 against the real server (`startServer`, the path of `pastor serve`) on a
 * small corpus of its own: a page on another origin, a text/plain body, failed attempts that
 * would drain the admin's rate bucket, guessed conversation ids, and control characters in
 * what the API answers and logs. Each hostile burst is timed, the server's RSS (this process)
 * compared before and after, and /api/health probed from another process throughout.
 */

const CORPUS = makeUsfx({
  GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia."]] },
  JHN: { name: "João", chapters: [["No princípio era a Palavra, e a Palavra estava com Deus.", "Ela estava no princípio com Deus."]] },
});

let dataDir: string;
let corpusDir: string;
const logLines: Record<string, unknown>[] = [];
const logger = createJsonLogger((line) => logLines.push(JSON.parse(line) as Record<string, unknown>));

beforeAll(async () => {
  const root = tempDir("pastor-abuse-http-");
  corpusDir = path.join(root, "corpus");
  dataDir = path.join(root, "data");
  mkdirSync(corpusDir);
  mkdirSync(dataDir);
  writeFile(corpusDir, "pequena.usfx.xml", CORPUS);
  const store = SqliteUnitStore.bible(dataDir);
  try {
    await indexCorpus({ store, corpusDir, contextWindow: 2, batchSize: 512, dense: parseDenseChoice("none") });
  } finally {
    store.close();
  }
}, 120_000);

type Server = RunningServer & { url: string };
const running: Server[] = [];

/** The real server on `host` (HOST), over the small corpus, with the offline stub. */
async function start(env: Record<string, string> = {}, host = "127.0.0.1"): Promise<Server> {
  const previous = process.env.HOST;
  process.env.HOST = host;
  try {
    const settings = readSettings({
      DATA_DIR: dataDir,
      CORPUS_DIR: corpusDir,
      COLLECTIONS_DIR: path.join(dataDir, "sem-colecoes"),
      EMBEDDING_MODEL: "none",
      AUTO_INDEX: "false",
      PORT: "0",
      WARM_UP_ROUNDS: "0",
      SEARCH_WORKERS: "0",
      CHAT_RATE_PER_MINUTE: "100000",
      // The bursts below are far faster than any admin: only the test of the buckets sets a real rate.
      ADMIN_RATE_PER_MINUTE: "100000",
      ...env,
    });
    const server = await startServer(settings, { env: { LLM_PROVIDER: "stub" }, logger });
    const started = { ...server, url: `http://127.0.0.1:${server.port}` };
    running.push(started);
    return started;
  } finally {
    if (previous === undefined) delete process.env.HOST;
    else process.env.HOST = previous;
  }
}

afterAll(async () => {
  for (const server of running) {
    // A reindex a test started ends before its store closes.
    for (let waited = 0; server.service.indexing && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    await server.close();
  }
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A POST with exactly these headers (node:http: Host, Origin and Sec-Fetch-Site as a browser or an attacker sets them). */
function post(url: string, route: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${route}`, { method: "POST", headers: { ...headers, ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }) } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string; message: string; requestId?: string } }).error;

/**
 * Runs a hostile burst against `server` and checks the issue's bounds: /api/health answered
 * every probe within 1 s, the server's RSS grew by less than 100 MB, and it took less than
 * `maxMs`. Returns the burst's value and figures.
 */
async function withinBounds<T>(server: Server, maxMs: number, work: () => Promise<T>): Promise<{ value: T; ms: number; rssGrowthMb: number; healthMaxMs: number }> {
  const health = await watchHealth(server.url);
  const measured = await measure(work);
  const report = await health.stop();
  expect(report.probes).toBeGreaterThan(0);
  expect(report.failures).toBe(0);
  expect(report.maxMs).toBeLessThan(1000);
  expect(measured.rssAfter - measured.rssBefore).toBeLessThan(RSS_BUDGET_BYTES);
  expect(measured.ms).toBeLessThan(maxMs);
  const rssGrowthMb = (measured.rssAfter - measured.rssBefore) / 2 ** 20;
  // The figures of the closing note of issue 43.
  console.info(`abuse (${expect.getState().currentTestName}): ${Math.round(measured.ms)} ms, RSS ${rssGrowthMb >= 0 ? "+" : ""}${rssGrowthMb.toFixed(1)} MB, /api/health max ${Math.round(report.maxMs)} ms over ${report.probes} probes`);
  return { value: measured.value, ms: measured.ms, rssGrowthMb, healthMaxMs: report.maxMs };
}

const indexRuns = async (server: Server) => ((await (await fetch(`${server.url}/api/status`)).json()) as { lastIndex: unknown }).lastIndex;

describe("admin routes from another origin (item 8)", () => {
  it("refuse a page elsewhere with 403 and JSON, whatever it sends, and let the server's own page and curl through", async () => {
    const server = await start();
    const host = new URL(server.url).host;
    const before = await indexRuns(server);
    const { value: answers } = await withinBounds(server, 20_000, async () => {
      const hostile = () => [
        // A form a page elsewhere submits: text/plain, the browser's Origin and Sec-Fetch-Site.
        post(server.url, "/api/reindex", { Origin: "https://mal.example", "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" }, '{"x":"y"}'),
        // fetch(..., { mode: "no-cors", method: "POST" }) without a body.
        post(server.url, "/api/reindex", { Origin: "https://mal.example", "Sec-Fetch-Site": "cross-site" }),
        // A sandboxed frame or a file:// page.
        post(server.url, "/api/reload", { Origin: "null", "Content-Type": "application/json" }, "{}"),
        // Only Sec-Fetch-Site (a browser that left Origin out).
        post(server.url, "/api/reload", { "Sec-Fetch-Site": "same-site" }),
        // A sibling site of the same host name on another port is another origin.
        post(server.url, "/api/reindex", { Origin: "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site" }),
      ];
      const refused = [];
      for (let round = 0; round < 20; round++) refused.push(...(await Promise.all(hostile())));
      return refused;
    });
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(errorOf(answer)).toMatchObject({
        code: "cross_origin",
        message: "Pedidos de reindexação ou recarga só são aceitos da origem do próprio servidor.",
        requestId: expect.any(String),
      });
    }
    // Nothing was started by them.
    expect(server.service.indexing).toBe(false);
    expect(await indexRuns(server)).toEqual(before);

    // DNS rebinding: a page whose name resolves to 127.0.0.1 is "same origin" to itself, but names its own host.
    const rebound = await post(server.url, "/api/reindex", { Host: `mal.example:${server.port}`, Origin: `http://mal.example:${server.port}`, "Sec-Fetch-Site": "same-origin" });
    expect(rebound.status).toBe(403);
    expect(errorOf(rebound).code).toBe("admin_host_refused");

    // The server's own page, and a script on this machine without browser headers, are served.
    const own = await post(server.url, "/api/reload", { Origin: `http://${host}`, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" }, '{"collection":"nenhuma"}');
    expect(own.status).toBe(404);
    expect(errorOf(own).code).toBe("collection_not_found");
    const curl = await post(server.url, "/api/reindex", {});
    expect(curl.status).toBe(202);
    await expect.poll(() => server.service.indexing, { timeout: 60_000 }).toBe(false);
  }, 120_000);

  it("refuse a body that is not declared JSON with 415 before reading it (text/plain, form encodings)", async () => {
    const server = await start({ REINDEX_TOKEN: "segredo" });
    const token = { "X-Reindex-Token": "segredo" };
    const { value: answers } = await withinBounds(server, 20_000, async () => {
      const bodies: [Record<string, string>, string][] = [
        [{ "Content-Type": "text/plain" }, '{"collection":"exemplo"}'],
        [{ "Content-Type": "text/plain;charset=UTF-8" }, ""],
        [{ "Content-Type": "application/x-www-form-urlencoded" }, "collection=exemplo"],
        [{ "Content-Type": "multipart/form-data; boundary=x" }, '--x\r\nContent-Disposition: form-data; name="collection"\r\n\r\nexemplo\r\n--x--\r\n'],
        [{ "Content-Type": "application/jsonp" }, "{}"],
        // A body with no type at all.
        [{}, '{"collection":"exemplo"}'],
      ];
      const out = [];
      for (const route of ["/api/reindex", "/api/reload"]) {
        for (const [headers, body] of bodies) out.push(await post(server.url, route, { ...token, ...headers }, body));
      }
      return out;
    });
    for (const answer of answers) {
      expect(answer.status).toBe(415);
      expect(errorOf(answer)).toMatchObject({ code: "unsupported_media_type", message: "O corpo de um pedido de reindexação ou recarga deve ser JSON (Content-Type: application/json)." });
    }
    expect(server.service.indexing).toBe(false);
    // JSON, with its charset parameter, is read.
    const json = await post(server.url, "/api/reload", { ...token, "Content-Type": "application/json; charset=utf-8" }, '{"collection":"nenhuma"}');
    expect(json.status).toBe(404);
  }, 120_000);
});

describe("the admin's rate bucket (item 8)", () => {
  it("is not drained by failed attempts from the same client: after 300 of them the real admin reindexes at once", async () => {
    const server = await start({ REINDEX_TOKEN: "segredo", ADMIN_RATE_PER_MINUTE: "3" });
    const { value: failed, ms } = await withinBounds(server, 30_000, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        const answers = await Promise.all([
          post(server.url, "/api/reindex", {}),
          post(server.url, "/api/reindex", { "X-Reindex-Token": `palpite-${i}` }),
          post(server.url, "/api/reload", { "X-Reindex-Token": "segredo", Origin: "https://mal.example", "Content-Type": "application/json" }, "{}"),
        ]);
        statuses.push(...answers.map((answer) => answer.status));
      }
      return statuses;
    });
    // The first 3 refusals are said as such, the rest are held back (429) in the refusals' own bucket.
    expect(failed.filter((status) => status !== 429)).toHaveLength(3);
    expect(failed.every((status) => [401, 403, 429].includes(status))).toBe(true);
    expect(ms).toBeGreaterThan(0);

    // The real admin, from the same address, is let through at once: its bucket is untouched.
    const admin = await post(server.url, "/api/reindex", { "X-Reindex-Token": "segredo" });
    expect(admin.status).toBe(202);
    await expect.poll(() => server.service.indexing, { timeout: 60_000 }).toBe(false);
    const reload = await post(server.url, "/api/reload", { "X-Reindex-Token": "segredo", "Content-Type": "application/json" }, '{"collection":"nenhuma"}');
    expect(reload.status).toBe(404);
    const again = await post(server.url, "/api/reindex", { "X-Reindex-Token": "segredo" });
    expect(again.status).toBe(202);
    await expect.poll(() => server.service.indexing, { timeout: 60_000 }).toBe(false);
    // The admin's own rate still holds (3 a minute).
    const fourth = await post(server.url, "/api/reindex", { "X-Reindex-Token": "segredo" });
    expect(fourth.status).toBe(429);
    expect(errorOf(fourth).message).toMatch(/^Muitos pedidos de reindexação ou recarga em pouco tempo\. Tente de novo em \d+ s\.$/);
  }, 180_000);
});

describe("a server listening beyond the loopback without REINDEX_TOKEN (item 8)", () => {
  it("generates a token at start, says it once in Portuguese in the log, and requires it", async () => {
    logLines.length = 0;
    const server = await start({}, "0.0.0.0");
    const lines = logLines.filter((line) => String(line.message).includes("X-Reindex-Token"));
    expect(lines).toHaveLength(1);
    const said = String(lines[0]!.message);
    expect(said).toMatch(/^REINDEX_TOKEN não foi definido e o servidor escuta em 0\.0\.0\.0, além do endereço local: POST \/api\/reindex e \/api\/reload exigem nesta execução o cabeçalho X-Reindex-Token: [A-Za-z0-9_-]{32} \(gerado agora e mostrado só esta vez; defina REINDEX_TOKEN para um token fixo\)\.$/);
    const token = /X-Reindex-Token: ([A-Za-z0-9_-]{32})/.exec(said)![1]!;

    const { value } = await withinBounds(server, 20_000, async () => ({
      missing: await post(server.url, "/api/reindex", {}),
      wrong: await post(server.url, "/api/reindex", { "X-Reindex-Token": randomBytes(24).toString("base64url") }),
      status: await (await fetch(`${server.url}/api/status`)).text(),
      granted: await post(server.url, "/api/reindex", { "X-Reindex-Token": token }),
    }));
    expect(value.missing.status).toBe(401);
    expect(errorOf(value.missing).code).toBe("reindex_token_missing");
    expect(value.wrong.status).toBe(403);
    expect(value.granted.status).toBe(202);
    // Said once: in no other log line, nor in what the API shows.
    expect(value.status).not.toContain(token);
    await expect.poll(() => server.service.indexing, { timeout: 60_000 }).toBe(false);
    expect(logLines.filter((line) => JSON.stringify(line).includes(token))).toHaveLength(1);
  }, 120_000);
});

describe("conversation ids (item 9)", () => {
  it("are issued by the server: a guessed or forged one reads nothing and overwrites nothing", async () => {
    const server = await start();
    const chat = async (body: Record<string, unknown>) =>
      (await fetch(`${server.url}/api/chat`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).text();
    const sourcesOf = (id: string) => fetch(`${server.url}/api/sources?conversationId=${encodeURIComponent(id)}`);

    // Alice asks; she chose her id, the server gives her its own.
    const alice = conversationIdOf(await chat({ message: "João 1:1", conversationId: "alice" }));
    expect(alice).toMatch(ISSUED_CONVERSATION_ID);
    expect(alice).not.toBe("alice");
    const hers = (await (await sourcesOf(alice)).json()) as { sources: { reference: string }[] };
    expect(hers.sources[0]).toMatchObject({ reference: "João 1:1" });

    // Someone guesses: the name she tried, ids of the issued shape, hers with one character changed.
    const flip = (id: string, at: number) => id.slice(0, at) + (id[at] === "A" ? "B" : "A") + id.slice(at + 1);
    const guesses = ["alice", "conv-1", "c1", ...Array.from({ length: 400 }, () => randomBytes(33).toString("base64url")), ...[0, 10, 21, 22, 30, 43].map((at) => flip(alice, at))];
    const { value } = await withinBounds(server, 30_000, async () => {
      const read = [];
      for (let i = 0; i < guesses.length; i += 20) read.push(...(await Promise.all(guesses.slice(i, i + 20).map(async (id) => (await sourcesOf(id)).status))));
      // And tries to overwrite her sources under each forged id.
      const written = [];
      for (const id of ["alice", ...[0, 21, 22, 43].map((at) => flip(alice, at))]) written.push(conversationIdOf(await chat({ message: "Gênesis 1:1", conversationId: id })));
      return { read, written };
    });
    expect(value.read).toEqual(guesses.map(() => 404));
    for (const given of value.written) {
      expect(given).toMatch(ISSUED_CONVERSATION_ID);
      expect(given).not.toBe(alice);
    }
    expect(new Set(value.written).size).toBe(value.written.length);
    // Her sources are still hers, and her id carries on her conversation.
    expect(((await (await sourcesOf(alice)).json()) as { sources: { reference: string }[] }).sources[0]).toMatchObject({ reference: "João 1:1" });
    expect(conversationIdOf(await chat({ message: "João 1:2", conversationId: alice }))).toBe(alice);
    expect(((await (await sourcesOf(alice)).json()) as { sources: { reference: string }[] }).sources[0]).toMatchObject({ reference: "João 1:2" });
  }, 120_000);
});

describe("control characters in what the API answers and logs (item 10)", () => {
  it("JSON errors and log lines carry no NUL and no raw control or bidirectional character", async () => {
    logLines.length = 0;
    const server = await start({ REINDEX_TOKEN: "segredo" });
    const hostileName = "a\u0000b\u001b[2J\u001b[H\u202eforjado\r\nlinha";
    const { value: answers } = await withinBounds(server, 20_000, async () => {
      const out = [];
      for (let i = 0; i < 50; i++) {
        out.push(await post(server.url, "/api/reload", { "X-Reindex-Token": "segredo", "Content-Type": "application/json" }, JSON.stringify({ collection: hostileName })));
        out.push(await post(server.url, "/api/chat", { "Content-Type": "application/json" }, JSON.stringify({ message: "oi", collection: hostileName })));
      }
      const route = await fetch(`${server.url}/api/%00a%00b%1B%5B2J%1B%5BH%E2%80%AEforjado%0D%0Alinha`);
      return { out, route: { status: route.status, body: await route.text(), headers: {} } };
    });
    // eslint-disable-next-line no-control-regex -- the characters this test looks for
    const raw = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const answer of [...answers.out, answers.route]) {
      expect(answer.status).toBe(404);
      const { message } = errorOf(answer);
      expect(message).not.toMatch(raw);
      expect(message).toContain("a" + "b\\x1b[2J\\x1b[H\\u202eforjado\\r\\nlinha");
    }
    await expect.poll(() => logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      for (const value of Object.values(line)) if (typeof value === "string") expect(value).not.toMatch(raw);
    }
  }, 120_000);
});
