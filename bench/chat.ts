/**
 * Chat load benchmark: N concurrent chat streams (stub provider, its default 15 ms between
 * chunks) against a real server process over loopback. Reports time to first token and to
 * the end of the stream (p50/p95), errors, and the server's RSS, at 1, 50 and 200 streams.
 *
 *   npx tsx bench/chat.ts      (also part of `npm run bench`)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { indexCorpus } from "../src/app/index/indexer.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const QUESTIONS = [
  "estou com medo do futuro",
  "o que Jesus disse sobre amar os inimigos?",
  "João 3:16",
  "como posso perdoar quem me feriu?",
  "a parábola do semeador",
  "Salmo 23",
];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

/**
 * One chat stream: time to the first token and to the end; `error` says what went wrong, if
 * anything. The client is node:http, not fetch: the benchmark shares the server's 2 cores,
 * and fetch's web streams cost the measuring process more CPU per chunk (the first burst's
 * TTFT p95 ≈ 0.8× with node:http, same server, side by side).
 */
export function oneStream(url: string, message: string): Promise<{ ttft: number; total: number; ok: boolean; error?: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const body = JSON.stringify({ message });
    const failed = (error: string) => resolve({ ttft: 0, total: 0, ok: false, error });
    const request = http.request(
      `${url}/api/chat`,
      { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          failed(`http ${response.statusCode}`);
          return;
        }
        response.setEncoding("utf8");
        let ttft = 0;
        // The end of the last chunk: an event name may be cut between two chunks.
        let tail = "";
        let done = false;
        let errorEvent = false;
        response.on("data", (chunk: string) => {
          const text = tail + chunk;
          if (ttft === 0 && text.includes("event: token")) ttft = performance.now() - started;
          if (text.includes("event: error")) errorEvent = true;
          if (text.includes("event: done")) done = true;
          tail = text.slice(-16);
        });
        response.on("end", () => {
          const total = performance.now() - started;
          if (errorEvent) resolve({ ttft, total, ok: false, error: "error event" });
          else resolve(done ? { ttft, total, ok: true } : { ttft, total, ok: false, error: "no done event" });
        });
        response.on("error", (error) => failed(error.message));
      },
    );
    request.on("error", (error) => failed(error.message));
    request.end(body);
  });
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const status = (await (await fetch(`${url}/api/status`)).json()) as { lexicalReady: boolean; embedding: { enabled: boolean } };
      if (status.lexicalReady && status.embedding.enabled) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("server did not become ready");
}

export async function runChatBench(levels: readonly number[] = [1, 50, 200]): Promise<Record<string, unknown>> {
  const dataDir = path.join(tmpdir(), `pastor-chat-bench-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const store = SqliteUnitStore.bible(dataDir);
  await indexCorpus({ store, corpusDir: path.join(ROOT, "corpus"), contextWindow: 2, batchSize: 2048, dense: { kind: "lsa" } });
  store.close();

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), "serve"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", AUTO_INDEX: "false", LLM_PROVIDER: "stub" },
    stdio: ["ignore", "ignore", "ignore"],
  });
  try {
    await waitForHealth(url, child);
    const idleRssMb = rssMb(child.pid!);
    const results: Record<string, unknown> = {};
    let peakRssMb = idleRssMb;
    for (const concurrency of levels) {
      const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(child.pid!))), 50);
      const started = performance.now();
      const streams = await Promise.all(Array.from({ length: concurrency }, (_, i) => oneStream(url, QUESTIONS[i % QUESTIONS.length]!)));
      clearInterval(sampler);
      const ok = streams.filter((s) => s.ok);
      results[`${concurrency} streams`] = {
        ttftMs: { p50: percentile(ok.map((s) => s.ttft), 50), p95: percentile(ok.map((s) => s.ttft), 95) },
        totalMs: { p50: percentile(ok.map((s) => s.total), 50), p95: percentile(ok.map((s) => s.total), 95) },
        errors: streams.length - ok.length,
        wallMs: Math.round(performance.now() - started),
        serverRssMb: rssMb(child.pid!),
      };
    }
    return { provider: "stub (15 ms between chunks)", idleRssMb, peakRssMb, ...results };
  } finally {
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runChatBench(), null, 2));
}
