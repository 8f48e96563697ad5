import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStubProvider } from "../../src/adapters/chat/stub.js";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { indexCorpus } from "../../src/app/index/indexer.js";
import { startChromaServer, type ChromaServer } from "../support/chroma.js";
import { parseSse, postChat, startTestServer, type TestServer } from "../support/server.js";
import { freshChromaPrefix } from "../support/store.js";
import { makeUsfx, tempDir, writeFile } from "../support/usfx.js";

/**
 * Chroma goes down under a running API and comes back on the same port and data folder:
 * /api/status says so in Portuguese, the chat answers with one clear `error` event, the
 * process never crashes, and it recovers by itself (and a replica that starts while Chroma
 * is down starts anyway and recovers too).
 */
let chroma: ChromaServer;
const servers: TestServer[] = [];
const dataDir = "/pastor-down-test"; // names the index only: with Chroma nothing is written there
const prefix = freshChromaPrefix();
let corpusDir: string;

interface Status {
  versesIndexed: number;
  lexicalReady: boolean;
  store: { kind: string; available: boolean; error: { code: string; message: string } | null };
}

beforeAll(async () => {
  chroma = await startChromaServer();
  corpusDir = tempDir("pastor-down-corpus-");
  writeFile(
    corpusDir,
    "a.usfx.xml",
    makeUsfx({ JHN: { name: "João", chapters: [["No princípio era o Verbo.", "Ele estava no princípio com Deus.", "Todas as coisas foram feitas por ele."]] } }),
  );
  const store = await ChromaUnitStore.open({ url: chroma.url, prefix });
  await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 10, dense: { kind: "none", reason: "teste" } });
  store.close();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await chroma?.dispose();
  if (corpusDir) rmSync(corpusDir, { recursive: true, force: true });
});

async function start(): Promise<TestServer> {
  const server = await startTestServer(dataDir, createStubProvider({ chunkDelayMs: 0 }), {
    CHROMA_URL: chroma.url,
    CHROMA_COLLECTION_PREFIX: prefix,
    CHROMA_POLL_MS: "300",
    EMBEDDING_MODEL: "none",
  });
  servers.push(server);
  return server;
}

const status = async (server: TestServer) => (await (await fetch(`${server.url}/api/status`)).json()) as Status;
const chat = async (server: TestServer) => parseSse(await (await postChat(server.url, { message: "João 1:1" })).text());

describe("Chroma down and back", () => {
  it("reports it, refuses the chat with an error event, and recovers by itself", async () => {
    const server = await start();
    expect((await status(server)).store).toEqual({ kind: "chroma", available: true, error: null });
    expect((await chat(server)).at(-1)!.event).toBe("done");

    await chroma.stop();
    await expect.poll(async () => (await status(server)).store.available, { timeout: 15_000, interval: 200 }).toBe(false);
    const down = await status(server);
    expect(down.store.error).toMatchObject({ code: "store_unavailable", message: expect.stringMatching(/ChromaDB\) não responde/) });
    expect(down.lexicalReady).toBe(true); // the engine in memory is kept, not served
    const refused = await chat(server);
    expect(refused).toEqual([{ event: "error", data: { code: "store_unavailable", message: down.store.error!.message } }]);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    // A replica that starts while Chroma is down starts anyway, and says why it cannot answer.
    const late = await start();
    const lateStatus = await status(late);
    expect(lateStatus.store.available).toBe(false);
    expect(lateStatus.versesIndexed).toBe(0);
    expect((await chat(late))[0]).toMatchObject({ event: "error", data: { code: "store_unavailable" } });

    await chroma.start();
    for (const replica of [server, late]) {
      await expect.poll(async () => (await status(replica)).store.available, { timeout: 15_000, interval: 200 }).toBe(true);
      expect((await status(replica)).versesIndexed).toBe(3);
      const answer = await chat(replica);
      expect(answer[0]!.event).toBe("sources");
      expect(answer.at(-1)!.event).toBe("done");
    }
  });
});
