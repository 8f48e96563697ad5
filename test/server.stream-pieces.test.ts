import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSettings } from "../src/config/settings.js";
import { LlmError, type LlmProvider } from "../src/core/chat/llm.js";
import { startServer, type RunningServer } from "../src/http/main.js";
import { silentLogger } from "../src/http/logger.js";
import { coalesceDeltas, withStreamPieces } from "../src/http/stream-pieces.js";
import { realBibleIndex } from "./support/bible-index.js";
import { startFakeLlmServer, type FakeLlmServer } from "./support/fake-llm-servers.js";
import { parseSse, postChat } from "./support/server.js";
import { storeEnvFor } from "./support/store.js";

/**
 * The answer's text in pieces (STREAM_FLUSH_MS): the first delta at once, then at most one
 * piece per window, the same text in the same order, errors after the text before them, and a
 * reader that leaves stops the provider. Then the whole route against a fake OpenAI-compatible
 * server that streams a token every 20 ms.
 */

async function* spaced(deltas: readonly string[], gapMs: number, onEnd?: () => void): AsyncGenerator<string> {
  try {
    for (const [index, delta] of deltas.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      yield delta;
    }
  } finally {
    onEnd?.();
  }
}

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of source) pieces.push(piece);
  return pieces;
}

const WORDS = Array.from({ length: 30 }, (_, i) => `palavra${i} `);

describe("coalesceDeltas", () => {
  it("passes every delta as it comes with a window of 0", async () => {
    expect(await collect(coalesceDeltas(spaced(WORDS, 1), 0))).toEqual(WORDS);
  });

  it("sends the first delta at once and joins the later ones, the same text in order", async () => {
    const pieces = await collect(coalesceDeltas(spaced(WORDS, 10), 100));
    expect(pieces[0]).toBe(WORDS[0]);
    expect(pieces.join("")).toBe(WORDS.join(""));
    // 29 gaps of ≥ 10 ms after the first piece, one piece per 100 ms at most: a handful, never one a delta.
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(pieces.length).toBeLessThanOrEqual(10);
  });

  it("joins what a provider sends at once without waiting for the window when the stream ends", async () => {
    const started = performance.now();
    const pieces = await collect(coalesceDeltas(spaced(["a", "b", "c"], 0), 60_000));
    expect(pieces.join("")).toBe("abc");
    expect(pieces[0]).toBe("a");
    // The last piece goes as soon as the provider has ended, not a minute later.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("throws a provider error after the text that came before it", async () => {
    const failure = new LlmError("llm_rate_limited", "openai", { status: 429 });
    async function* failing(): AsyncGenerator<string> {
      yield "Primeira ";
      yield "parte";
      throw failure;
    }
    const pieces: string[] = [];
    let caught: unknown;
    try {
      for await (const piece of coalesceDeltas(failing(), 50)) pieces.push(piece);
    } catch (error) {
      caught = error;
    }
    expect(pieces.join("")).toBe("Primeira parte");
    expect(caught).toBe(failure);
  });

  it("stops the provider's stream when the reader leaves", async () => {
    let ended = false;
    for await (const piece of coalesceDeltas(spaced(WORDS, 5, () => (ended = true)), 50)) {
      expect(piece).toBe(WORDS[0]);
      break;
    }
    while (!ended) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ended).toBe(true);
  });

  it("leaves the provider as it is with a window of 0", () => {
    const provider: LlmProvider = { id: "stub", model: "m", stream: () => spaced(["x"], 0) };
    expect(withStreamPieces(provider, 0)).toBe(provider);
    expect(withStreamPieces(provider, 50)).not.toBe(provider);
  });
});

describe("the chat route with STREAM_FLUSH_MS", () => {
  let dataDir: string;
  let fake: FakeLlmServer;
  const servers: RunningServer[] = [];

  async function start(flushMs: number): Promise<string> {
    const settings = readSettings({ DATA_DIR: dataDir, AUTO_INDEX: "false", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "false", STREAM_FLUSH_MS: String(flushMs), ...storeEnvFor(dataDir) });
    const server = await startServer(settings, {
      env: { LLM_PROVIDER: "openai", LLM_MODEL: "gpt-4o-mini", OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: fake.apiKey },
      logger: silentLogger,
    });
    servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  }

  beforeAll(async () => {
    ({ dataDir } = await realBibleIndex());
    fake = await startFakeLlmServer("openai");
    fake.script({ chunks: WORDS, delayMs: 20 });
  }, 180_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await fake?.close();
  });

  it("writes the same answer in fewer token events, the first one at once", async () => {
    const answer = async (url: string) => {
      const response = await postChat(url, { message: "o que Jesus disse sobre amar os inimigos?" });
      expect(response.status).toBe(200);
      const events = parseSse(await response.text());
      const tokens = events.filter((event) => event.event === "token").map((event) => (event.data as { text: string }).text);
      return { tokens, done: events.at(-1) };
    };
    const each = await answer(await start(0));
    const pieces = await answer(await start(80));
    expect(pieces.tokens.join("")).toBe(WORDS.join(""));
    expect(pieces.tokens.join("")).toBe(each.tokens.join(""));
    expect(pieces.done).toEqual(each.done);
    // Without pieces, about one event a delta (the citation check may hold a few characters back).
    expect(each.tokens.length).toBeGreaterThanOrEqual(WORDS.length - 3);
    expect(WORDS[0]!.startsWith(pieces.tokens[0]!)).toBe(true);
    // 30 tokens 20 ms apart (≈ 600 ms), one piece per 80 ms at most after the first.
    expect(pieces.tokens.length).toBeLessThanOrEqual(WORDS.length / 2);
  }, 60_000);
});
