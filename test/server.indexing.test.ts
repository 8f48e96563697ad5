import { afterAll, describe, expect, it } from "vitest";
import { createStubProvider } from "../src/adapters/chat/stub.js";
import { ROOT } from "./support/bible-index.js";
import { parseSse, postChat, startTestServer, type TestServer } from "./support/server.js";
import { SLOWER } from "./support/store.js";
import { tempDir } from "./support/usfx.js";
import path from "node:path";

let server: TestServer | undefined;
afterAll(async () => {
  await server?.close();
});

interface Status {
  indexing: boolean;
  versesIndexed: number;
  lexicalReady: boolean;
  progress: { phase: string; done: number; total: number } | null;
  embedding: { enabled: boolean };
}

describe("a server started on an empty index", () => {
  it("says the index is not ready, then answers during indexing from what is indexed, and reports progress", async () => {
    server = await startTestServer(tempDir("pastor-empty-"), createStubProvider({ chunkDelayMs: 0 }), {
      CORPUS_DIR: path.join(ROOT, "corpus"),
      INDEX_BATCH_SIZE: "2048",
      // No search workers: the final engine is loaded in this thread, blocking it for seconds. A
      // socket kept alive across that block would be closed by the server's keep-alive timer as
      // it wakes, under a poll already sent (ECONNRESET): the timeout outlasts the load.
      KEEP_ALIVE_TIMEOUT_MS: "60000",
    });
    const status = async () => (await (await fetch(`${server!.url}/api/status`)).json()) as Status;

    const before = await status();
    expect(before.lexicalReady).toBe(false);
    expect(before.versesIndexed).toBe(0);
    const early = await postChat(server.url, { message: "amai vossos inimigos" });
    expect(early.status).toBe(503);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe("index_not_ready");

    const indexing = server.service.startIndexing();
    const phases = new Set<string>();
    // The lexical side is served as soon as it is committed, while the dense model trains.
    await expect
      .poll(
        async () => {
          const now = await status();
          if (now.progress) phases.add(now.progress.phase);
          return now.lexicalReady && now.indexing;
        },
        { timeout: 60_000 * SLOWER, interval: 100 },
      )
      .toBe(true);
    const during = parseSse(await (await postChat(server.url, { message: "amai vossos inimigos" })).text());
    expect(during[0]!.event).toBe("sources");
    expect((during[0]!.data as { sources: unknown[] }).sources.length).toBeGreaterThan(0);
    expect(during.at(-1)!.event).toBe("done");

    // The first status that says "not indexing" already shows the final engine (with a search
    // pool, every worker has loaded it): the web app stops polling on it.
    let firstIdle: Status | undefined;
    while (!firstIdle) {
      const now = await status();
      if (!now.indexing) firstIdle = now;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(firstIdle).toMatchObject({ versesIndexed: 31_102, embedding: { enabled: true } });

    await indexing;
    const after = await status();
    expect(after.indexing).toBe(false);
    expect(after.versesIndexed).toBe(31_102);
    expect(after.embedding.enabled).toBe(true);
    expect(after.progress).toMatchObject({ phase: "done", done: 31_102, total: 31_102 });
    expect(phases.has("lexical") || phases.has("training") || phases.has("dense")).toBe(true);
  }, 120_000 * SLOWER);
});
