import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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
  for (const dir of [corpusDir, dataDir, ...scratch]) rmSync(dir, { recursive: true, force: true });
});
const scratch: string[] = [];

const corpusDir = tempDir("pastor-replicas-corpus-");
const dataDir = tempDir("pastor-replicas-data-");
const prefix = freshChromaPrefix();
const genesis = (light: string) =>
  makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia.", light]] } });

/** Starts `pastor serve` from the sources; resolves with its URL once it listens. */
function serve(name: string, env: Record<string, string> = {}): Promise<{ url: string; logs: () => string }> {
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
      ...env,
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
  snapshot: { state: "loaded" | "rebuilt" } | null;
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
    // The indexing replica saved the snapshot before bumping the generation: both serve an engine read from it.
    for (const replica of [a, b]) await expect.poll(async () => (await status(replica.url)).snapshot?.state, { timeout: 60_000, interval: 250 }).toBe("loaded");
  });
});

interface CollectionsStatus {
  collections: { name: string; documents: number; chunks: number; sourceHere: boolean; dense: { enabled: boolean } }[];
}
const collectionsOf = async (url: string) => ((await (await fetch(`${url}/api/collections`)).json()) as CollectionsStatus).collections;

/** The first excerpt the chat over `collection` shows, and the citations its answer kept. */
async function firstExcerpt(url: string, collection: string, message: string): Promise<{ sourceId: string; text: string; cited: string[] }> {
  const events = parseSse(await (await postChat(url, { message, collection })).text());
  expect(events[0]!.event).toBe("sources");
  const [first] = (events[0]!.data as { sources: { sourceId: string; text: string }[] }).sources;
  const done = events.at(-1)!;
  expect(done.event).toBe("done");
  return { sourceId: first!.sourceId, text: first!.text, cited: (done.data as { citations: string[] }).citations };
}

function put(root: string, file: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, "licoes", file)), { recursive: true });
  writeFileSync(path.join(root, "licoes", file), content);
}

describe("a document collection on the shared Chroma", () => {
  it("is indexed by the replica that has its folder and served by one that has none, new versions within CHROMA_POLL_MS", async () => {
    const lessons = tempDir("pastor-replicas-lessons-");
    const empty = tempDir("pastor-replicas-empty-");
    scratch.push(lessons, empty);
    const lesson = (body: string) => `# Dons espirituais\n\n${body}\n`;
    put(lessons, "dons/dons.md", lesson("Os dons espirituais são dados pelo Espírito para a edificação da igreja."));
    put(lessons, "oracao/oracao.md", "# Oração\n\nA oração é conversa com Deus, em secreto e em comunidade.\n");
    // A prefix of its own: the replicas above indexed the checkout's collections/ under theirs.
    const own = { CORPUS_DIR: tempDir("pastor-replicas-nobible-"), AUTO_INDEX: "false", EMBEDDING_MODEL: "lsa", CHROMA_COLLECTION_PREFIX: freshChromaPrefix() };
    scratch.push(own.CORPUS_DIR);
    const dataA = tempDir("pastor-replicas-data-a-");
    const dataB = tempDir("pastor-replicas-data-b-");
    scratch.push(dataA, dataB);
    const a = await serve("A", { ...own, COLLECTIONS_DIR: lessons, DATA_DIR: dataA });
    const b = await serve("B", { ...own, COLLECTIONS_DIR: empty, DATA_DIR: dataB });
    expect(await collectionsOf(b.url)).toEqual([]);

    const reload = (url: string) =>
      fetch(`${url}/api/reload`, { method: "POST", headers: { "X-Reindex-Token": "segredo", "Content-Type": "application/json" }, body: JSON.stringify({ collection: "licoes" }) });
    const first = await reload(a.url);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { collections: { added: number }[] }).collections[0]!.added).toBe(2);

    // B lists it, searches it and answers over it with checked citations, from the store alone.
    await expect.poll(async () => (await collectionsOf(b.url)).map((c) => [c.name, c.documents, c.sourceHere]), { timeout: 10_000, interval: 100 }).toEqual([["licoes", 2, false]]);
    expect((await collectionsOf(b.url))[0]!.dense.enabled).toBe(true);
    const before = await firstExcerpt(b.url, "licoes", "o que são os dons espirituais?");
    expect(before.sourceId).toBe("dons/dons.md");
    expect(before.text).toContain("edificação da igreja");
    expect(before.cited.length).toBeGreaterThan(0);

    // A changes one lesson and reloads: B serves the new text after its next poll (300 ms here).
    put(lessons, "dons/dons.md", lesson("Os dons espirituais servem ao próximo e são distribuídos conforme o Espírito quer."));
    const changed = await reload(a.url);
    expect(((await changed.json()) as { collections: { changed: number; unchanged: number }[] }).collections[0]).toMatchObject({ changed: 1, unchanged: 1 });
    // Polled for at most 5 s: a few CHROMA_POLL_MS periods, where serving the old text for good would fail.
    await expect
      .poll(async () => (await firstExcerpt(b.url, "licoes", "o que são os dons espirituais?")).text, { timeout: 5000, interval: 50 })
      .toContain("conforme o Espírito quer");
    expect(b.logs()).toContain("collection generation changed");

    // A reload on B (which has no source) loads the newest indexed version and says why it read nothing.
    const onB = await reload(b.url);
    expect(onB.status).toBe(200);
    const summary = ((await onB.json()) as { collections: { documents: number; warnings: { code: string }[] }[] }).collections[0]!;
    expect(summary.documents).toBe(2);
    expect(summary.warnings.map((w) => w.code)).toEqual(["source_not_here"]);
  });
});
