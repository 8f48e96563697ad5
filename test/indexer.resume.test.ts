import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadVerses } from "../src/adapters/index/bible-units.js";
import { openTestStore, SLOWER, STORE, storeEnvFor } from "./support/store.js";
import { tempDir } from "./support/usfx.js";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = tempDir("pastor-resume-");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `pastor index` in a real child process; resolves with its output when it exits. */
function runIndex(options: { killAfterVerses?: number } = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/cli/main.ts"), "index", "--json"], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        CORPUS_DIR: path.join(root, "corpus"),
        EMBEDDING_MODEL: "none",
        INDEX_BATCH_SIZE: "500",
        PASTOR_PROGRESS_LINES: "1",
        ...storeEnvFor(dataDir),
        // With Chroma the killed process leaves its indexing lock behind: let it expire soon.
        INDEX_LOCK_TTL_MS: "1500",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const done = [...stdout.matchAll(/progress (\d+)\/\d+/g)].map((m) => Number(m[1]));
      if (options.killAfterVerses !== undefined && Math.max(0, ...done) >= options.killAfterVerses && !child.killed) {
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe("kill -9 in the middle of indexing", () => {
  it("loses nothing committed and resumes where it stopped", async () => {
    const killed = await runIndex({ killAfterVerses: 10_000 });
    expect(killed.signal).toBe("SIGKILL");

    const store = await openTestStore(dataDir);
    const committed = await store.unitCount();
    const [source] = await store.listSources();
    await store.close();
    expect(committed).toBeGreaterThanOrEqual(10_000);
    expect(committed).toBeLessThan(31_102);
    expect(committed % 500).toBe(0); // whole batches only
    expect(source!.status).toBe("partial");

    if (STORE === "chroma") await new Promise((resolve) => setTimeout(resolve, 1600)); // the dead process's lock expires
    const resumed = await runIndex();
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout.slice(resumed.stdout.indexOf("{"))) as {
      sources: { action: string }[];
      versesIndexed: number;
      versesTotal: number;
    };
    expect(summary.sources[0]!.action).toBe("resumed");
    expect(summary.versesIndexed).toBe(31_102 - committed);
    expect(summary.versesTotal).toBe(31_102);

    const after = await openTestStore(dataDir);
    const ords = (await loadVerses(after)).map((v) => v.ord);
    expect({ n: new Set(ords).size, lo: Math.min(...ords), hi: Math.max(...ords) }).toEqual({ n: 31_102, lo: 0, hi: 31_101 });
    expect((await after.listSources())[0]!.status).toBe("complete");
    await after.close();
  }, 120_000 * SLOWER);
});
