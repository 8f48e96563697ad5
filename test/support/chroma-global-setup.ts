import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { indexBibleInto } from "./bible-index.js";
import { startChromaServer, type ChromaServer } from "./chroma.js";
import { chromaPrefixFor } from "./store.js";
import { tempDir } from "./usfx.js";

/**
 * Global setup of `npm run test:chroma`: one real Chroma server on loopback for the whole
 * run (each test index gets its own collection prefix on it), and the real Bible index built
 * into it once (the SQLite run builds it once per test file instead).
 */
let server: ChromaServer | undefined;
let bibleDataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startChromaServer();
  console.log(`[chroma] server at ${server.url}, data in ${server.dataPath}`);
  bibleDataDir = tempDir("pastor-bible-chroma-");
  const store = await ChromaUnitStore.open({ url: server.url, prefix: chromaPrefixFor(bibleDataDir) });
  const started = performance.now();
  const summary = await indexBibleInto(store);
  console.log(`[chroma] Bible indexed: ${summary.versesTotal} verses, ${summary.vectorsComputed} vectors, ${Math.round(performance.now() - started)} ms`);
  project.provide("chromaUrl", server.url);
  project.provide("bibleDataDir", bibleDataDir);
}

export async function teardown(): Promise<void> {
  await server?.dispose();
  if (bibleDataDir) rmSync(bibleDataDir, { recursive: true, force: true });
}
