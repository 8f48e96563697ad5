import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStubProvider } from "../src/adapters/chat/stub.js";
import { LlmError } from "../src/core/chat/llm.js";
import { NO_EVIDENCE_MESSAGE } from "../src/core/grounding/prompt.js";
import { realBibleIndex } from "./support/bible-index.js";
import { conversationIdOf, ISSUED_CONVERSATION_ID, parseSse, postChat, ScriptedProvider, startTestServer, type TestServer } from "./support/server.js";

let dataDir: string;
let stub: TestServer;
beforeAll(async () => {
  ({ dataDir } = await realBibleIndex());
  stub = await startTestServer(dataDir, createStubProvider({ chunkDelayMs: 0 }), { CORS_ORIGINS: "https://igreja.example" });
}, 180_000);
afterAll(async () => {
  await stub?.close();
});

async function withProvider<T>(provider: ScriptedProvider, work: (server: TestServer) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const server = await startTestServer(dataDir, provider, env);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

describe("GET /api/health and /api/status", () => {
  it("answers ok while the process serves", async () => {
    const response = await fetch(`${stub.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("shows sources, verses, the dense model, the provider and the lexical index", async () => {
    const status = (await (await fetch(`${stub.url}/api/status`)).json()) as Record<string, unknown>;
    expect(status.sources).toEqual([
      expect.objectContaining({ file: "por-blivre.usfx.xml", sha256: "769f34e34d7275971a8427965f1299e3bb89b1622cec221e273cc62e94bfb727", verses: 31_102 }),
    ]);
    expect(status.versesIndexed).toBe(31_102);
    expect(status.lexicalReady).toBe(true);
    expect(status.embedding).toEqual({ enabled: true, model: expect.stringMatching(/^lsa:/) });
    expect(status.llm).toEqual({ provider: "stub", model: "extrativo" });
    expect(status.indexing).toBe(false);
  });
});

describe("POST /api/chat", () => {
  it("streams sources, tokens and done, in order, for 'João 3:16'", async () => {
    const response = await postChat(stub.url, { message: "João 3:16", conversationId: "conv-1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = await response.text();
    const events = parseSse(body);
    expect(events[0]!.event).toBe("sources");
    expect(events.at(-1)!.event).toBe("done");
    expect(events.slice(1, -1).every((e) => e.event === "token")).toBe(true);
    const sources = (events[0]!.data as { sources: { reference: string; text: string; book: string; chapter: number; verse: number }[] }).sources;
    expect(sources[0]).toMatchObject({ reference: "João 3:16", book: "João", chapter: 3, verse: 16 });
    expect(sources[0]!.text).toMatch(/^Porque Deus amou o mundo/);
    const text = events.slice(1, -1).map((e) => (e.data as { text: string }).text).join("");
    expect(text).toContain("João 3:16");
    expect((events.at(-1)!.data as { citations: string[] }).citations).toContain("João 3:16");
    // "conv-1" was never issued by this server: the answer comes with a new id of its own.
    expect(conversationIdOf(body)).toMatch(ISSUED_CONVERSATION_ID);
    expect(body.startsWith(`event: sources\ndata: {"conversationId":"${conversationIdOf(body)}","sources":[{`)).toBe(true);
  });

  it("writes the exact bytes of a no-evidence answer, without calling the model", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withProvider(provider, async (server) => {
      const response = await postChat(server.url, { message: "o que é que nós somos" });
      const body = await response.text();
      expect(conversationIdOf(body)).toMatch(ISSUED_CONVERSATION_ID);
      expect(body).toBe(
        `event: sources\ndata: {"conversationId":"${conversationIdOf(body)}","sources":[]}\n\n` +
          `event: token\ndata: ${JSON.stringify({ text: NO_EVIDENCE_MESSAGE })}\n\n` +
          'event: done\ndata: {"citations":[],"kind":"no_evidence","refusal":"no_evidence"}\n\n',
      );
      expect(provider.requests).toHaveLength(0);
    });
  });

  it("removes invented references from the tokens and the citations, split across tokens", async () => {
    const provider = new ScriptedProvider(["Deus amou o mundo (Jo", "ão 3:", "16). Veja também Ato", "s 99", ":1 e Gênesis 50", ":1."]);
    await withProvider(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "João 3:16" })).text());
      const text = events.filter((e) => e.event === "token").map((e) => (e.data as { text: string }).text).join("");
      expect(text).toContain("João 3:16");
      expect(text).not.toMatch(/Atos|99|Gênesis 50/);
      expect((events.at(-1)!.data as { citations: string[] }).citations).toEqual(["João 3:16"]);
      for (const event of events.filter((e) => e.event === "token")) expect((event.data as { text: string }).text).not.toMatch(/Ato|Gênesis/);
    });
  });

  it("sends the windows as data and the history cut to the last 10 exchanges", async () => {
    const provider = new ScriptedProvider(["Certo."]);
    const history = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `turno ${i}` }));
    await withProvider(provider, async (server) => {
      await (await postChat(server.url, { message: "amai vossos inimigos", history })).text();
      const request = provider.requests[0]!;
      const contents = request.messages.map((m) => m.content);
      expect(contents.some((c) => c.includes("turno 9"))).toBe(false);
      expect(contents.some((c) => c.includes("turno 10"))).toBe(true);
      expect(contents.some((c) => c.includes("turno 29"))).toBe(true);
      expect(request.messages.length).toBeLessThanOrEqual(21);
      const last = contents.at(-1)!;
      expect(last).toContain("amai vossos inimigos");
      expect(last).toMatch(/<fontes>[\s\S]*Mateus 5:44[\s\S]*<\/fontes>/);
    });
  });

  it("turns a provider failure into an error event in Portuguese, and keeps serving", async () => {
    const provider = new ScriptedProvider(["Começo "], 0, new LlmError("llm_rate_limited", "openai", { status: 429 }));
    await withProvider(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "amor ao próximo" })).text());
      const error = events.at(-1)!;
      expect(error.event).toBe("error");
      expect(error.data).toMatchObject({ code: "llm_rate_limited", message: expect.stringMatching(/pedidos demais/) });
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    });
  });

  it("aborts the upstream request when the client disconnects mid-answer", async () => {
    const provider = new ScriptedProvider(Array.from({ length: 200 }, (_, i) => `palavra${i} `), 20);
    await withProvider(provider, async (server) => {
      const controller = new AbortController();
      const response = await postChat(server.url, { message: "amor ao próximo" }, { signal: controller.signal });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.read();
      controller.abort();
      await expect.poll(() => provider.aborted, { timeout: 5000 }).toBe(true);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    });
  });

  it.each([
    ["not JSON", "{mensagem", 400, "invalid_json"],
    ["a message that is not text", { message: 42 }, 400, "invalid_request"],
    ["no message", { history: [] }, 400, "invalid_request"],
    ["an empty message", { message: "   " }, 400, "empty_message"],
    ["history of the wrong type", { message: "oi", history: "x" }, 400, "invalid_request"],
    ["a message over 4,000 characters", { message: "a".repeat(4001) }, 413, "message_too_long"],
  ])("refuses %s with a JSON error naming the problem", async (_label, body, status, code) => {
    const response = await postChat(stub.url, body);
    expect(response.status).toBe(status);
    const json = (await response.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe(code);
    expect(json.error.message.length).toBeGreaterThan(10);
  });
});

describe("GET /api/verses and /api/sources", () => {
  it("returns the verses of a range with their strongest cross references, credited", async () => {
    const response = await fetch(`${stub.url}/api/verses?ref=${encodeURIComponent("Jo 3:16-18")}`);
    expect(response.status).toBe(200);
    const json = (await response.json()) as { verses: { reference: string; crossReferences: { reference: string; votes: number }[] }[]; attribution: string };
    expect(json.verses.map((v) => v.reference)).toEqual(["João 3:16", "João 3:17", "João 3:18"]);
    expect(json.verses[0]!.crossReferences[0]).toEqual({ reference: "Romanos 5:8", votes: expect.any(Number) });
    expect(json.attribution).toMatch(/OpenBible\.info/);
  });

  it.each([
    ["", 400, "missing_ref"],
    ["?ref=Livro%20Nenhum%203:1", 400, "invalid_reference"],
    ["?ref=Jo%C3%A3o%2030:1", 404, "reference_not_found"],
  ])("answers %s with a clear error", async (query, status, code) => {
    const response = await fetch(`${stub.url}/api/verses${query}`);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
  });

  it("keeps the sources of the last answer per conversation", async () => {
    const a = conversationIdOf(await (await postChat(stub.url, { message: "Salmo 23:1" })).text());
    const b = conversationIdOf(await (await postChat(stub.url, { message: "João 3:16" })).text());
    expect(b).not.toBe(a);
    const sourcesOfA = (await (await fetch(`${stub.url}/api/sources?conversationId=${a}`)).json()) as { sources: { reference: string; cited: boolean }[] };
    expect(sourcesOfA.sources[0]).toMatchObject({ reference: "Salmos 23:1", cited: true });
    // The id the server issued carries on the conversation: its next answer replaces the sources.
    expect(conversationIdOf(await (await postChat(stub.url, { message: "Romanos 8:28", conversationId: a })).text())).toBe(a);
    const next = (await (await fetch(`${stub.url}/api/sources?conversationId=${a}`)).json()) as { sources: { reference: string }[] };
    expect(next.sources[0]).toMatchObject({ reference: "Romanos 8:28" });
    expect((await fetch(`${stub.url}/api/sources?conversationId=desconhecida`)).status).toBe(404);
    expect((await fetch(`${stub.url}/api/sources`)).status).toBe(400);
  });
});

describe("POST /api/reindex", () => {
  it("requires the token when one is set (401 without, 403 wrong)", async () => {
    await withProvider(
      new ScriptedProvider([]),
      async (server) => {
        expect((await fetch(`${server.url}/api/reindex`, { method: "POST" })).status).toBe(401);
        const wrong = await fetch(`${server.url}/api/reindex`, { method: "POST", headers: { "X-Reindex-Token": "errado" } });
        expect(wrong.status).toBe(403);
        expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("reindex_token_invalid");
      },
      { REINDEX_TOKEN: "segredo" },
    );
  });

  it("starts a reindex (202) and refuses a second one while it runs (409)", async () => {
    await withProvider(
      new ScriptedProvider([]),
      async (server) => {
        const first = await fetch(`${server.url}/api/reindex`, { method: "POST", headers: { "X-Reindex-Token": "segredo" } });
        expect(first.status).toBe(202);
        const second = await fetch(`${server.url}/api/reindex`, { method: "POST", headers: { "X-Reindex-Token": "segredo" } });
        expect(second.status).toBe(409);
        await expect.poll(async () => ((await (await fetch(`${server.url}/api/status`)).json()) as { indexing: boolean }).indexing, { timeout: 60_000 }).toBe(false);
        const status = (await (await fetch(`${server.url}/api/status`)).json()) as { lastIndex: { versesIndexed: number }; errors: unknown[] };
        expect(status.errors).toEqual([]);
        expect(status.lastIndex.versesIndexed).toBe(0); // nothing changed: nothing re-done
        expect(status.errors).toEqual([]);
      },
      { REINDEX_TOKEN: "segredo", CORPUS_DIR: "corpus" },
    );
  });
});

describe("CORS", () => {
  it("allows CORS_ORIGINS only", async () => {
    const allowed = await fetch(`${stub.url}/api/health`, { headers: { Origin: "https://igreja.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://igreja.example");
    const other = await fetch(`${stub.url}/api/health`, { headers: { Origin: "https://outro.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("load and faults", () => {
  it("a slow client that never reads does not block another", async () => {
    const provider = new ScriptedProvider(Array.from({ length: 400 }, () => "palavra ".repeat(50)));
    await withProvider(provider, async (server) => {
      const controller = new AbortController();
      const slow = await postChat(server.url, { message: "amor ao próximo" }, { signal: controller.signal });
      expect(slow.status).toBe(200); // headers arrived; the body is never read
      const fast = await fetch(`${server.url}/api/verses?ref=${encodeURIComponent("Sl 23:1")}`);
      expect(fast.status).toBe(200);
      const chat = parseSse(await (await postChat(server.url, { message: "Salmo 23:1" })).text());
      expect(chat.at(-1)!.event).toBe("done");
      controller.abort();
    });
  });
});
