/**
 * Two processes on one SQLite file (two `pastor serve` on one DATA_DIR, or a CLI reload beside
 * a server): their write transactions wait for each other instead of failing with "database is
 * locked". Real processes, a real file, opened at the same moment on an empty DATA_DIR.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { ROOT } from "./support/bible-index.js";
import { tempDir } from "./support/usfx.js";

function writer(dataDir: string, name: string, count: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "test/support/collection-writer.ts"), dataDir, "licoes", name, String(count)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

describe("two processes writing one collection store", () => {
  it("both finish every read-then-write transaction, and every write is there", async () => {
    const dataDir = tempDir("pastor-sqlite-concurrency-");
    const results = await Promise.all(["a", "b", "c"].map((name) => writer(dataDir, name, 300)));
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
    const store = SqliteUnitStore.collection(dataDir, "licoes");
    try {
      expect((await store.listSources()).length).toBe(75);
      expect(store.unitCount()).toBe(225);
      for (const name of ["a", "b", "c"]) expect(store.getManifest(`writer_${name}`)).toBe("299");
    } finally {
      store.close();
    }
  });
});
