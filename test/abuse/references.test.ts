/**
 * Issue 43, the abuse suite's references: hostile verse ranges (item 2) and the references a
 * model writes (items 4 and 7), each against the real app on loopback over the real Bible index,
 * asserting the outcome, the time, the memory the serving process keeps (RSS before and after
 * within `RSS_BUDGET_BYTES`) and `/api/health` answering within 1 s throughout (probed from a
 * process of its own). The model is the only stand-in (`ScriptedProvider`: the paid remote part).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/chat/llm.js";
import { findProjectRoot } from "../../src/project-root.js";
import { measure, RSS_BUDGET_BYTES, watchHealth, type HealthReport } from "../support/abuse.js";
import { realBibleIndex } from "../support/bible-index.js";
import { parseSse, postChat, ScriptedProvider, startTestServer, type SseEvent, type TestServer } from "../support/server.js";

/** Generous bounds for a loaded 2-core machine; the bugs took 67 s (verses) and ≈ 10 s (chat). */
const VERSES_MS = 5_000;
const CHAT_MS = 8_000;
const HEALTH_MS = 1_000;

/** The answer the model writes, chosen per question (the test sets it before asking). */
let script: (request: GenerateRequest) => string = () => "Amém.";
/** The scripted answer in pieces of 1-3 characters, as a model streams it. */
const provider = new ScriptedProvider((request) => pieces(script(request)));

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = 1 + (k % 3);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

let server: TestServer;
const dirs: string[] = [];

beforeAll(async () => {
  const { dataDir } = await realBibleIndex();
  const collectionsDir = mkdtempSync(path.join(tmpdir(), "pastor-abuse-collections-"));
  dirs.push(collectionsDir);
  cpSync(path.join(findProjectRoot(), "collections", "exemplo"), path.join(collectionsDir, "exemplo"), { recursive: true });
  server = await startTestServer(dataDir, provider, { COLLECTIONS_DIR: collectionsDir, REINDEX_TOKEN: "segredo" });
  const reload = await fetch(`${server.url}/api/reload`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Reindex-Token": "segredo" },
    body: JSON.stringify({ collection: "exemplo" }),
  });
  expect(reload.status).toBe(200);
  // Warm the paths measured below, so their RSS is the hostile input's, not the first use's.
  await (await fetch(`${server.url}/api/verses?ref=${encodeURIComponent("Sl 23")}`)).text();
  await chat({ message: "João 3:16" });
  await chat({ message: "o que é a Trindade?", collection: "exemplo" });
}, 240_000);

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function chat(body: Record<string, unknown>): Promise<SseEvent[]> {
  const response = await postChat(server.url, body);
  expect(response.status).toBe(200);
  return parseSse(await response.text());
}

function answerText(events: SseEvent[]): string {
  return events
    .filter((e) => e.event === "token")
    .map((e) => (e.data as { text: string }).text)
    .join("");
}

function done(events: SseEvent[]): { citations: string[] } {
  const last = events.at(-1)!;
  expect(last.event).toBe("done");
  return last.data as { citations: string[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the probe runs before the hostile input (its process starts) and at least in all. */
const PROBE_LEAD_MS = 400;
const PROBE_MIN_MS = 1_200;

/**
 * Runs one hostile input with the health probe around it (started before it, running at least
 * `PROBE_MIN_MS` in all, so its probes overlap the input); asserts time, memory and health.
 */
async function hostile<T>(work: () => Promise<T>, maxMs: number): Promise<{ value: T; ms: number; health: HealthReport; rssGained: number }> {
  const watch = await watchHealth(server.url, { everyMs: 50, timeoutMs: 3_000 });
  await sleep(PROBE_LEAD_MS);
  const measured = await measure(work);
  await sleep(Math.max(0, PROBE_MIN_MS - PROBE_LEAD_MS - measured.ms));
  const health = await watch.stop();
  expect(health.probes, "health probes").toBeGreaterThanOrEqual(5);
  const rssGained = measured.rssAfter - measured.rssBefore;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `${expect.getState().currentTestName}: ${measured.ms.toFixed(0)} ms; /api/health max ${health.maxMs.toFixed(0)} ms, p95 ${health.p95Ms.toFixed(0)} ms over ${health.probes} probes; ` +
      `RSS ${mb(measured.rssBefore)} → ${mb(measured.rssAfter)} MB (peak ${mb(measured.rssPeak)})`,
  );
  expect(measured.ms, "time").toBeLessThan(maxMs);
  expect(health.failures, "health probes that failed").toBe(0);
  expect(health.maxMs, "slowest /api/health").toBeLessThan(HEALTH_MS);
  expect(rssGained, "RSS kept").toBeLessThan(RSS_BUDGET_BYTES);
  return { value: measured.value, ms: measured.ms, health, rssGained };
}

const REPEATS = "Sl " + Array.from({ length: 800 }, () => "1-150").join(";");

describe("item 2: a reference's verses are counted before any is listed", () => {
  it("GET /api/verses with the 4.8 KB repro is refused at once (413 reference_too_long)", async () => {
    expect(REPEATS.length).toBeGreaterThan(4_700);
    // twenty at once, as a page anywhere could send them (no auth, no rate limit on this route)
    const { value } = await hostile(
      () =>
        Promise.all(
          Array.from({ length: 20 }, async () => {
            const response = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent(REPEATS)}`);
            return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
          }),
        ),
      VERSES_MS,
    );
    for (const answer of value) {
      expect(answer.status).toBe(413);
      expect(answer.body.error.code).toBe("reference_too_long");
      expect(answer.body.error.message).toMatch(/limite é 1000/u);
    }
  });

  it("the same repeats within the length limit serve the first 200 verses with a notice", async () => {
    const ref = "Sl " + Array.from({ length: 160 }, () => "1-150").join(";");
    expect(ref.length).toBeLessThanOrEqual(1000);
    const { value: all } = await hostile(
      () =>
        Promise.all(
          Array.from({ length: 20 }, async () => {
            const response = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent(ref)}`);
            return { status: response.status, body: (await response.json()) as { verses: { reference: string }[]; total: number; truncated: boolean; notice: string } };
          }),
        ),
      VERSES_MS,
    );
    const value = all[0]!;
    expect(all.every((answer) => answer.status === 200 && answer.body.verses.length === 200)).toBe(true);
    expect(value.status).toBe(200);
    expect(value.body.verses).toHaveLength(200);
    expect(value.body.verses[0]!.reference).toBe("Salmos 1:1");
    expect(value.body.total).toBe(2461); // Salmos 1-150 in the Bíblia Livre: the repeats are one span
    expect(value.body.truncated).toBe(true);
    expect(value.body.notice).toBe("Mostrando os primeiros 200 de 2.461 versículos. Peça um trecho menor para ler o restante.");
  });

  it("more than 50 distinct spans are refused (413 too_many_references)", async () => {
    const ref = "Sl " + Array.from({ length: 120 }, (_, i) => String(i + 1)).join(";");
    const { value } = await hostile(async () => {
      const response = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent(ref)}`);
      return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
    }, VERSES_MS);
    expect(value.status).toBe(413);
    expect(value.body.error).toMatchObject({ code: "too_many_references", message: "A consulta pede 120 trechos; o limite é 50 por consulta." });
  });

  it("a short reference to the whole book of Genesis lists 200 verses, not 1,533", async () => {
    const { value } = await hostile(async () => {
      const response = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent("Gn 1-50")}`);
      return (await response.json()) as { verses: { reference: string }[]; total: number; truncated: boolean };
    }, VERSES_MS);
    expect(value.verses).toHaveLength(200);
    expect(value.verses.at(-1)!.reference).toBe("Gênesis 8:16"); // chapters 1-7 hold 184 verses
    expect(value.total).toBe(1533);
    expect(value.truncated).toBe(true);
  });

  it("the same string as a chat message answers from its first verses and leaves the search worker free", async () => {
    const message = "Sl " + Array.from({ length: 660 }, () => "1-150").join(";");
    expect(message.length).toBeLessThanOrEqual(4000);
    script = (request) => `Bem-aventurado o homem (${request.passages?.[0]?.reference ?? ""}).`;
    const { value } = await hostile(async () => {
      const hostileAnswer = chat({ message });
      // asked right behind it: the worker that took the hostile question must be free at once
      const started = performance.now();
      const next = await chat({ message: "João 3:16" });
      const nextMs = performance.now() - started;
      return { events: await hostileAnswer, next, nextMs };
    }, CHAT_MS);
    const sources = (value.events[0]!.data as { sources: { reference: string }[] }).sources;
    // A message that is only references is quoted: the passage whole, up to 30 verses, however many it names.
    const psalms = [6, 12, 8, 8].flatMap((verses, i) => Array.from({ length: verses }, (_, v) => `Salmos ${i + 1}:${v + 1}`));
    expect(sources.map((s) => s.reference)).toEqual(psalms.slice(0, 30));
    expect(answerText(value.events)).toBe("Bem-aventurado o homem (Salmos 1:1).");
    expect(done(value.events).citations).toEqual(["Salmos 1:1"]);
    expect(done(value.next).citations).toEqual(["João 3:16"]);
    expect(value.nextMs).toBeLessThan(CHAT_MS / 2);
  });
});

/** The forms of item 7, none of them consulted (the question is "João 3:16"). */
const UNCONSULTED = [
  "Veja também Apocalipse, capítulo 22.",
  "Veja também Apocalipse, capítulo 22, versículo 21.",
  "Leia no capítulo 22 de Apocalipse, versículo 21, a bênção final.",
  "Leia o versículo 21 do capítulo 22 do Apocalipse hoje.",
  "Compare Ap XXII, 21 com o resto.",
  "Lembre \u202e12:22 pA\u202c sempre.",
  "Veja Apocalipse 22, 21.",
  "Medite em Apocalipse 22:20 e seguintes.",
];

/** What must not reach the reader of an answer that consulted no verse of Apocalipse. */
function expectNoApocalypse(text: string): void {
  expect(text).not.toMatch(/Apocalipse|\bAp\b|XXII|pA|22|\b21\b|\b20\b|seguintes/u);
  expect(text).not.toMatch(/ {2}| [.,;:]|\(\)|Veja\s*[.,]|também\s*[.,]/u);
  expect(text).not.toMatch(/\p{Bidi_Control}/u);
}

describe("items 4 and 7: every reference a model writes is checked, in the Bible and in a collection", () => {
  it("the Bible: each form of item 7 that was not consulted is gone, whole, with clean text around it", async () => {
    script = () => `Deus amou o mundo (João 3:16). ${UNCONSULTED.join(" ")} Amém.`;
    const { value } = await hostile(() => chat({ message: "João 3:16" }), CHAT_MS);
    const text = answerText(value);
    expectNoApocalypse(text);
    expect(text.startsWith("Deus amou o mundo (João 3:16).")).toBe(true);
    expect(text).toContain("a bênção final.");
    expect(text).toContain("Compare com o resto.");
    expect(text.endsWith("Amém.")).toBe(true);
    expect(done(value).citations).toEqual(["João 3:16"]);
  });

  it("a document collection: a real verse stays plain text (never a citation), one that does not exist goes", async () => {
    script = () => `A Trindade é um só Deus [1]. Leia Apocalipse 22:21 e João 3:99 [1]. Veja o versículo 40 do capítulo 22 do Apocalipse. Amém.`;
    const { value } = await hostile(() => chat({ message: "o que é a Trindade?", collection: "exemplo" }), CHAT_MS);
    const sources = (value[0]!.data as { sources: { kind: string; citation: string }[] }).sources;
    expect(sources.length).toBeGreaterThan(0);
    const excerpt = sources[0]!.citation;
    const text = answerText(value);
    expect(text).toBe(`A Trindade é um só Deus [${excerpt}]. Leia Apocalipse 22:21 [${excerpt}]. Amém.`);
    // the answer's citations are the excerpts': the browser shows the verse as plain text
    expect(done(value).citations).toEqual([excerpt]);
  });

  it("a document collection: the forms of item 7 that do not exist go, whole", async () => {
    script = () =>
      "A Trindade é um só Deus [1]. Veja também Apocalipse, capítulo 23. Leia no capítulo 22 de Apocalipse, versículo 99, a bênção. " +
      "Compare Ap XXX, 1 com o resto. Lembre \u202e99:3 oJ\u202c sempre. Amém.";
    const { value } = await hostile(() => chat({ message: "o que é a Trindade?", collection: "exemplo" }), CHAT_MS);
    const text = answerText(value);
    expect(text).not.toMatch(/Apocalipse|\bAp\b|XXX|oJ|99|23/u);
    expect(text).not.toMatch(/ {2}| [.,;:]|Veja\s*[.,]|também\s*[.,]/u);
    expect(text).toContain("a bênção.");
    expect(text).toContain("Compare com o resto.");
    expect(done(value).citations.every((c) => !/\d+:\d+/u.test(c))).toBe(true);
  });
});
