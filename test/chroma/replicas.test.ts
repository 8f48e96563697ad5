import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../support/bible-index.js";
import { parseSse, postChat } from "../support/server.js";
import { freshChromaPrefix } from "../support/store.js";
import { makeUsfx, tempDir, writeFile } from "../support/usfx.js";

/**
 * Two real API processes (`pastor serve`, like a deployment's replicas) against one Chroma:
 * both start with AUTO_INDEX (the lock lets one index; the other loads its work), both
 * answer, and a reindex through one is served by the other after its next poll. They share one
 * temporary DATA_DIR (the collections' SQLite files), as replicas on one volume would.
 */
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        }),
    ),
  );
  rmSync(corpusDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const corpusDir = tempDir("pastor-replicas-corpus-");
const dataDir = tempDir("pastor-replicas-data-");
const prefix = freshChromaPrefix();
const genesis = (light: string) =>
  makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia.", light]] } });

/** Starts `pastor serve` from the sources; resolves with its URL once it listens. */
function serve(name: string): Promise<{ url: string; logs: () => string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      VECTOR_STORE: "chroma",
      CHROMA_URL: inject("chromaUrl"),
      CHROMA_COLLECTION_PREFIX: prefix,
      CHROMA_POLL_MS: "300",
      CORPUS_DIR: corpusDir,
      DATA_DIR: dataDir,
      EMBEDDING_MODEL: "none",
      AUTO_INDEX: "true",
      REINDEX_TOKEN: "segredo",
      LLM_PROVIDER: "stub",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Pastor Online em http:\/\/localhost:(\d+)/.exec(stderr);
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, logs: () => stderr });
    });
    child.once("exit", (code) => reject(new Error(`${name} saiu com o código ${code}:\n${stderr}`)));
  });
}

interface Status {
  versesIndexed: number;
  indexing: boolean;
  store: { available: boolean };
}
const status = async (url: string) => (await (await fetch(`${url}/api/status`)).json()) as Status;
const verse = async (url: string, ref: string) => {
  const response = await fetch(`${url}/api/verses?ref=${encodeURIComponent(ref)}`);
  return response.ok ? ((await response.json()) as { verses: { text: string }[] }).verses[0]?.text : `HTTP ${response.status}`;
};

describe("two API processes against one Chroma", () => {
  it("both answer, one indexes at a time, and a reindex by one is seen by the other", async () => {
    writeFile(corpusDir, "gen.usfx.xml", genesis("E disse Deus: Haja luz."));
    const [a, b] = await Promise.all([serve("A"), serve("B")]);

    for (const replica of [a, b]) {
      await expect.poll(async () => (await status(replica.url)).versesIndexed, { timeout: 60_000, interval: 250 }).toBe(3);
      const events = parseSse(await (await postChat(replica.url, { message: "Gênesis 1:3" })).text());
      expect(events[0]!.event).toBe("sources");
      expect(events.at(-1)!.event).toBe("done");
    }
    // Both started with AUTO_INDEX: whichever lost the race for the lock left the work to the other.
    const logs = a.logs() + b.logs();
    expect(logs.match(/"message":"indexed"/g)?.length ?? 0).toBeGreaterThanOrEqual(1);

    writeFile(corpusDir, "gen.usfx.xml", genesis("E disse Deus: Haja luz; e houve luz."));
    const reindex = await fetch(`${a.url}/api/reindex`, { method: "POST", headers: { "X-Reindex-Token": "segredo" } });
    expect(reindex.status).toBe(202);
    await expect.poll(() => verse(b.url, "Gn 1:3"), { timeout: 60_000, interval: 250 }).toBe("E disse Deus: Haja luz; e houve luz.");
    await expect.poll(() => verse(a.url, "Gn 1:3"), { timeout: 60_000, interval: 250 }).toBe("E disse Deus: Haja luz; e houve luz.");
    const answer = parseSse(await (await postChat(b.url, { message: "Gênesis 1:3" })).text());
    expect((answer[0]!.data as { sources: { text: string }[] }).sources[0]!.text).toBe("E disse Deus: Haja luz; e houve luz.");
  });
});
