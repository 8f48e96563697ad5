import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSettings } from "../src/config/settings.js";
import { localCitationCheck } from "../src/app/grounding/answer-engine.js";
import { CollectionService } from "../src/app/collection-service.js";
import { DEFAULT_POOL_SCHEDULE, SearchPool, type PoolSchedule } from "../src/app/grounding/search-pool.js";
import { silentLogger } from "../src/http/logger.js";
import { startServer, type RunningServer } from "../src/http/main.js";
import { realBibleIndex } from "./support/bible-index.js";
import { parseSse, postChat } from "./support/server.js";
import { storeEnvFor } from "./support/store.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

/**
 * Search off the event loop (SEARCH_WORKERS): the real server (`startServer`) with its search
 * workers against the same server with search in process, on the real Bible index, with the
 * deterministic stub provider.
 */
type Server = RunningServer & { url: string };

async function start(dataDir: string, env: Record<string, string>): Promise<Server> {
  // STREAM_FLUSH_MS 0: every stub delta its own token event, so that answers compare byte for
  // byte across servers (with pieces, how deltas group depends on timing; stream-pieces.test.ts).
  const settings = readSettings({ DATA_DIR: dataDir, AUTO_INDEX: "false", PORT: "0", RATE_LIMIT: "false", STREAM_FLUSH_MS: "0", ...storeEnvFor(dataDir), ...env });
  const server = await startServer(settings, { env: { LLM_PROVIDER: "stub" }, logger: silentLogger });
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}

/** Waits (polling, no deadline of its own: the test's timeout bounds it) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const QUESTIONS = [
  "estou com medo do futuro",
  "o que Jesus disse sobre amar os inimigos?",
  "João 3:16",
  "como posso perdoar quem me feriu?",
  "qual a melhor receita de bolo de cenoura?",
  "xqzw",
];

/** The first worker's next request blocks its thread until the returned flag is set. */
async function holdFirstWorker(): Promise<SharedArrayBuffer> {
  const flag = new SharedArrayBuffer(4);
  await pooled.searchPool!.holdNextTask(0, flag);
  return flag;
}

/**
 * An answer's body without its conversation id: each server issues its own (one it did not
 * issue is replaced), so two servers' answers differ there and nowhere else.
 */
const withoutConversationId = (body: string) => body.replace(/"conversationId":"[A-Za-z0-9_-]+"/g, '"conversationId":"…"');

const ask = async (server: Server, message: string, history: unknown[] = []) =>
  withoutConversationId(await (await postChat(server.url, { message, history })).text());

let inProcess: Server;
let pooled: Server;
const previousHost = process.env.HOST;
beforeAll(async () => {
  process.env.HOST = "127.0.0.1";
  const { dataDir } = await realBibleIndex();
  [inProcess, pooled] = await Promise.all([start(dataDir, { SEARCH_WORKERS: "0" }), start(dataDir, { SEARCH_WORKERS: "2" })]);
}, 180_000);
afterAll(async () => {
  await inProcess?.close();
  await pooled?.close();
  if (previousHost === undefined) delete process.env.HOST;
  else process.env.HOST = previousHost;
});

describe("search workers", () => {
  it("answer byte for byte as search in process: sources, refusals, tokens, citations, history", async () => {
    expect(inProcess.searchPool).toBeUndefined();
    expect(pooled.searchPool?.size).toBe(2);
    const history = [
      { role: "user", content: "quem foi Moisés?" },
      { role: "assistant", content: "Moisés conduziu o povo (Êxodo 3:10)." },
    ];
    // All at once, so that both workers take questions.
    const [expected, actual] = await Promise.all([
      Promise.all([...QUESTIONS.map((q) => ask(inProcess, q)), ask(inProcess, QUESTIONS[1]!, history)]),
      Promise.all([...QUESTIONS.map((q) => ask(pooled, q)), ask(pooled, QUESTIONS[1]!, history)]),
    ]);
    expect(actual).toEqual(expected);
    // The set covers answers with sources and an out-of-scope refusal.
    const done = expected.map((body) => parseSse(body).at(-1)!);
    expect(done.every((event) => event.event === "done")).toBe(true);
    const refusals = done.map((event) => (event.data as { refusal?: string }).refusal);
    expect(refusals).toContain(undefined);
    expect(refusals).toContain("out_of_scope");

    for (const ref of ["Jo 3:16-18", "Sl 23", "Jo 30:1"]) {
      const [a, b] = await Promise.all([inProcess, pooled].map(async (s) => {
        const response = await fetch(`${s.url}/api/verses?ref=${encodeURIComponent(ref)}`, { headers: { "X-Request-Id": "pedido-1" } });
        return `${response.status} ${await response.text()}`;
      }));
      expect(b).toBe(a);
    }
  }, 120_000);

  it("answer over a document collection byte for byte as in process, its search and gate in the workers", async () => {
    // The repository's sample collection (COLLECTIONS_DIR defaults to ./collections), indexed by one
    // server; the other finds it unchanged and has its workers load it from the same index.
    await inProcess.collections.reload("exemplo");
    await pooled.collections.reload("exemplo");
    const lessonQuestions = ["o que é a Trindade?", "como interpretar uma parábola?", "como fazer um bolo de chocolate?"];
    const askCollection = async (server: Server, message: string) =>
      withoutConversationId(await (await postChat(server.url, { message, collection: "exemplo" })).text());
    const [expected, actual] = await Promise.all([
      Promise.all(lessonQuestions.map((q) => askCollection(inProcess, q))),
      Promise.all(lessonQuestions.map((q) => askCollection(pooled, q))),
    ]);
    expect(actual).toEqual(expected);
    const done = expected.map((body) => parseSse(body));
    // The set covers an answer with excerpts and the gate's refusal of a cake recipe.
    expect((done[0]![0]!.data as { sources: unknown[] }).sources.length).toBeGreaterThan(0);
    expect(done[2]!.at(-1)!.data).toMatchObject({ refusal: "out_of_scope" });

    // What the service reports comes from the workers' load: the same as the one in process.
    const strip = (status: ReturnType<CollectionService["status"]>) => status.map(({ lastReload: _reload, ...rest }) => rest);
    expect(strip(pooled.collections.status())).toEqual(strip(inProcess.collections.status()));
    expect(pooled.collections.get("exemplo")!.chunks).toBeGreaterThan(0);
    const [searchedHere, searchedThere] = await Promise.all(
      [inProcess, pooled].map((server) => server.collections.search("exemplo", "Trindade", { k: 3, discipline: "teologia" })),
    );
    expect(searchedThere).toEqual(searchedHere);

    // The question is searched in a worker: one held in a search holds the answer too.
    const pool = pooled.searchPool!;
    const flag = await holdFirstWorker();
    let answered = false;
    const held = askCollection(pooled, lessonQuestions[0]!).then((body) => ((answered = true), body));
    await until(() => pool.status().busy === 1);
    expect(answered).toBe(false);
    Atomics.store(new Int32Array(flag), 0, 1);
    expect(await held).toBe(expected[0]);
  }, 120_000);

  it("show in /api/status and /api/metrics", async () => {
    const status = (await (await fetch(`${pooled.url}/api/status`)).json()) as { searchWorkers: unknown; versesIndexed: number; dense: { enabled: boolean } };
    expect(status.searchWorkers).toEqual({ size: 2, busy: 0, queued: 0, restarts: 0 });
    expect(status.versesIndexed).toBe(31_102);
    expect(status.dense.enabled).toBe(true);
    const local = (await (await fetch(`${inProcess.url}/api/status`)).json()) as { searchWorkers: unknown };
    expect(local.searchWorkers).toEqual({ size: 0, busy: 0, queued: 0, restarts: 0 });
    const metrics = await (await fetch(`${pooled.url}/api/metrics`)).text();
    expect(metrics).toContain("pastor_search_workers 2");
    expect(metrics).toContain("pastor_search_workers_busy 0");
  });

  it("keep /api/health and /api/status answering while a worker's thread is blocked in a search", async () => {
    const pool = pooled.searchPool!;
    const flag = await holdFirstWorker();
    const answer = ask(pooled, QUESTIONS[0]!);
    await until(() => pool.status().busy === 1);

    const health = await fetch(`${pooled.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const status = (await (await fetch(`${pooled.url}/api/status`)).json()) as { searchWorkers: { busy: number } };
    expect(status.searchWorkers.busy).toBe(1);
    // The search is still held: health answered before it, not after.
    expect(pool.status().busy).toBe(1);

    Atomics.store(new Int32Array(flag), 0, 1);
    expect(await answer).toBe(await ask(inProcess, QUESTIONS[0]!));
  }, 60_000);

  it("replace a worker that dies, failing only its question with a Portuguese error event", async () => {
    const pool = pooled.searchPool!;
    await holdFirstWorker();
    const answer = ask(pooled, QUESTIONS[1]!);
    await until(() => pool.status().busy === 1);
    const dying = pool.workers[0]!;
    await dying.terminate();

    const events = parseSse(await answer);
    expect(events).toEqual([
      {
        event: "error",
        data: {
          code: "search_failed",
          message: "A resposta foi interrompida porque um processo de busca parou; ele já foi reiniciado. Tente de novo.",
        },
      },
    ]);
    expect(pool.status().restarts).toBe(1);
    expect(pool.workers[0]).not.toBe(dying);

    // The replacement loads the index before it takes questions; answers stay identical.
    const expected = await Promise.all(QUESTIONS.slice(0, 3).map((q) => ask(inProcess, q)));
    const afterCrash = await Promise.all(QUESTIONS.slice(0, 3).map((q) => ask(pooled, q)));
    expect(afterCrash).toEqual(expected);
    const metrics = await (await fetch(`${pooled.url}/api/metrics`)).text();
    expect(metrics).toContain('pastor_llm_errors_total{code="search_failed"} 1');
  }, 120_000);
});

describe("a worker that dies while an answer streams", () => {
  it("ends that answer with the Portuguese error event after the tokens already sent, and is replaced", async () => {
    const pool = pooled.searchPool!;
    const restarts = pool.status().restarts;
    const response = await postChat(pooled.url, { message: QUESTIONS[0], conversationId: "c2" });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let body = "";
    while (!body.includes("event: token")) body += (await reader.read()).value ?? "";
    // The answer's citation check runs in the worker with the fewest: the first, both idle.
    await holdFirstWorker();
    await until(() => pool.status().busy === 1);
    await pool.workers[0]!.terminate();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) body += chunk.value;

    const events = parseSse(body);
    expect(events[0]!.event).toBe("sources");
    expect(events.filter((e) => e.event === "token").length).toBeGreaterThan(0);
    expect(events.some((e) => e.event === "done")).toBe(false);
    expect(events.at(-1)).toEqual({
      event: "error",
      data: { code: "search_failed", message: "A resposta foi interrompida porque um processo de busca parou; ele já foi reiniciado. Tente de novo." },
    });
    expect(pool.status().restarts).toBe(restarts + 1);
    expect(await ask(pooled, QUESTIONS[2]!)).toBe(await ask(inProcess, QUESTIONS[2]!));
  }, 120_000);
});

describe("search workers and the index's life", () => {
  it("load the new engine after a reindex, and stop with the server", async () => {
    const corpusDir = tempDir("pastor-pool-corpus-");
    const john = { name: "João", chapters: [["No princípio era o Verbo, e o Verbo estava com Deus.", "Ele estava no princípio com Deus."]] };
    writeFile(corpusDir, "por-blivre.usfx.xml", makeUsfx({ JHN: john }));
    const server = await start(tempDir("pastor-pool-data-"), { SEARCH_WORKERS: "1", CORPUS_DIR: corpusDir, EMBEDDING_MODEL: "none" });
    let exited = 0;
    try {
      const verses = async (ref: string) => {
        const response = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent(ref)}`);
        return { status: response.status, body: (await response.json()) as { verses?: { text: string }[] } };
      };
      expect((await postChat(server.url, { message: "Verbo" })).status).toBe(503);

      await server.service.startIndexing();
      expect((await server.service.status()).versesIndexed).toBe(2);
      expect((await verses("Jo 1:2")).body.verses?.[0]?.text).toBe("Ele estava no princípio com Deus.");
      expect((await verses("Rm 1:1")).status).toBe(404);

      const romans = { name: "Romanos", chapters: [["Paulo, servo de Jesus Cristo, chamado para apóstolo."]] };
      writeFile(corpusDir, "por-blivre.usfx.xml", makeUsfx({ JHN: john, ROM: romans }));
      const reindexed = server.service.startIndexing();
      // The first status that says "not indexing" already counts the new engine's verses: the
      // workers' reload is part of the indexing (the web app stops polling on "ready").
      let firstIdle: Awaited<ReturnType<typeof server.service.status>> | undefined;
      while (!firstIdle) {
        const now = await server.service.status();
        if (!now.indexing) firstIdle = now;
        else await new Promise((resolve) => setImmediate(resolve));
      }
      expect(firstIdle.versesIndexed).toBe(3);
      await reindexed;
      // Counted, looked up and searched by the worker's new engine.
      expect((await server.service.status()).versesIndexed).toBe(3);
      expect((await verses("Rm 1:1")).body.verses?.[0]?.text).toBe("Paulo, servo de Jesus Cristo, chamado para apóstolo.");
      const sources = parseSse(await (await postChat(server.url, { message: "Paulo servo apóstolo" })).text())[0]!;
      expect((sources.data as { sources: { reference: string }[] }).sources.map((s) => s.reference)).toContain("Romanos 1:1");

      for (const worker of server.searchPool!.workers) worker.once("exit", () => (exited += 1));
    } finally {
      await server.close();
    }
    expect(exited).toBe(1);
    expect(server.searchPool!.status().restarts).toBe(0);
  }, 120_000);
});

describe("a replacement worker", () => {
  it("loads the Bible's engine and every collection served before it takes a question", async () => {
    const { dataDir } = await realBibleIndex();
    const settings = readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir) });
    // The sample collection, indexed and searched in this thread: what the workers must answer.
    const here = new CollectionService(settings);
    await here.open();
    await here.reload("exemplo");
    const pool = new SearchPool(settings, 1);
    try {
      await pool.load();
      const host = pool.collectionHost();
      const summary = await host.load("exemplo", undefined as never);
      expect(summary).toEqual(here.get("exemplo"));
      const question = ["o que é a Trindade?", [], settings.TOP_K] as const;
      const expected = await here.prepare("exemplo", question[0], question[1]);
      expect(await host.prepare("exemplo", ...question)).toEqual(expected);

      await pool.workers[0]!.terminate();
      await until(() => pool.status().restarts === 1);
      // The only worker is the replacement: the question waits for its loads, then is answered alike.
      expect(await host.prepare("exemplo", ...question)).toEqual(expected);
      expect(expected.kind).toBe("passages");
    } finally {
      await pool.close();
      await here.close();
    }
  }, 120_000);
});

describe("a worker's order of work", () => {
  /**
   * One worker holding two requests at once: the first question blocks it (the test's hold),
   * a second question is already in its port, a third waits in the pool with an answer's later
   * citation delta and another answer's first one. Returns the order in which they finished.
   */
  async function orderOfWork(schedule: PoolSchedule): Promise<string[]> {
    const { dataDir } = await realBibleIndex();
    const pool = new SearchPool(readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir) }), 1, undefined, schedule);
    try {
      const engine = pool.answerEngine(await pool.load());
      const options = { topK: 5, contextWindow: 1 };
      const prepared = await engine.prepare(QUESTIONS[1]!, [], options);
      if (prepared.kind !== "passages") throw new Error("expected passages");
      const first = engine.checkCitations(prepared.passages);
      const deltas = ["Jesus disse: amai ", "os vossos inimigos (Mateus 5:44).", "Segundo Mateus 5:44, "];
      const inThisThread = localCitationCheck(prepared.passages, engine.versification);
      const expected = [inThisThread.push(deltas[0]!), inThisThread.push(deltas[1]!)];
      expect(await first.push(deltas[0]!)).toBe(expected[0]);

      const done: string[] = [];
      const track = <T>(label: string, work: Promise<T>) => work.then((value) => (done.push(label), value));
      const flag = new SharedArrayBuffer(4);
      await pool.holdNextTask(0, flag);
      // The worker takes the first question and blocks in it; the second waits in its port.
      const asked = [track("q1", engine.prepare(QUESTIONS[0]!, [], options))];
      await until(() => pool.status().busy === 1);
      asked.push(track("q2", engine.prepare(QUESTIONS[3]!, [], options)));
      expect(pool.status().queued).toBe(0);
      asked.push(track("q3", engine.prepare(QUESTIONS[2]!, [], options)));
      const later = track("first answer, later delta", Promise.resolve(first.push(deltas[1]!)));
      const second = engine.checkCitations(prepared.passages);
      const opening = track("second answer, first delta", Promise.resolve(second.push(deltas[2]!)));
      expect(pool.status().queued).toBe(1);
      Atomics.store(new Int32Array(flag), 0, 1);
      await Promise.all([...asked, later, opening]);

      // Reordered, each answer's check still releases what the check in this thread does.
      expect(await later).toBe(expected[1]);
      expect(await opening).toBe(localCitationCheck(prepared.passages, engine.versification).push(deltas[2]!));
      await first.finish();
      await second.finish();
      return done;
    } finally {
      await pool.close();
    }
  }

  it("runs an answer's first citation check before waiting questions, and waiting questions before later checks", async () => {
    expect(await orderOfWork({ inFlight: 2, patienceMs: 60_000 })).toEqual([
      "q1",
      "q2",
      "second answer, first delta",
      "q3",
      "first answer, later delta",
    ]);
  }, 120_000);

  it("lets a later check that has waited its patience go before waiting questions", async () => {
    expect(await orderOfWork({ inFlight: 2, patienceMs: 0 })).toEqual([
      "q1",
      "q2",
      "second answer, first delta",
      "first answer, later delta",
      "q3",
    ]);
  }, 120_000);

  it("sends a burst of questions to the worker up to its in-flight count by default, the rest waiting in the pool", async () => {
    const { dataDir } = await realBibleIndex();
    const pool = new SearchPool(readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir) }), 1);
    try {
      const engine = pool.answerEngine(await pool.load());
      const flag = new SharedArrayBuffer(4);
      await pool.holdNextTask(0, flag);
      const burst = DEFAULT_POOL_SCHEDULE.inFlight + 3;
      const question = (i: number) => QUESTIONS[i % QUESTIONS.length]!;
      const options = { topK: 5, contextWindow: 1 };
      const asked = Array.from({ length: burst }, (_, i) => engine.prepare(question(i), [], options));
      await until(() => pool.status().busy === 1);
      // One runs (blocked), the others of the in-flight count wait in the worker's port.
      expect(pool.status().queued).toBe(burst - DEFAULT_POOL_SCHEDULE.inFlight);
      Atomics.store(new Int32Array(flag), 0, 1);
      const prepared = await Promise.all(asked);
      expect(pool.status().queued).toBe(0);
      // Each reply is matched to its own question, as when asked alone.
      for (const [i, answer] of prepared.entries()) expect(answer).toEqual(await engine.prepare(question(i), [], options));
    } finally {
      await pool.close();
    }
  }, 120_000);
});
