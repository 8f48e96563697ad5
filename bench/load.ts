/**
 * Load benchmark (issue 15): 50 and 200 concurrent chat streams against a real server
 * process on 127.0.0.1, with the stub provider (15 ms between chunks) and with a local fake
 * OpenAI-compatible server streaming 40 tokens 20 ms apart. While the streams run, GET
 * /api/health is timed every 50 ms from a separate process. Prints TTFT p50/p95/p99, errors (by kind), health p95
 * and the server's peak RSS. The per-client rate limit is off (every stream comes from
 * 127.0.0.1); the LLM concurrency cap and queue keep their defaults.
 *
 *   npx tsx bench/load.ts      (also the `load` section of `npm run bench`)
 *
 * Every scenario runs twice, SEARCH_WORKERS=0 (search on the event loop) and the default pool
 * (LOAD_BENCH_WORKERS=N for another size), printed side by side with ratios.
 *
 * Targets (2 cores): 0 errors at 200 streams, TTFT p95 <= 300 ms at 50, health p95 <= 20 ms,
 * peak RSS <= 600 MB.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SqliteStore } from "../src/adapters/store/sqlite-store.js";
import { indexCorpus } from "../src/app/indexer.js";
import { startFakeLlmServer } from "../test/support/fake-llm-servers.js";
import { freePort, oneStream, percentile, QUESTIONS, ROOT, rssMb, waitForHealth } from "./chat.js";

const LEVELS = [50, 200] as const;
/**
 * The checkout whose server is measured (default this one): LOAD_BENCH_SERVER_ROOT=/path/to/an
 * older checkout (with node_modules) gives the before figures under the same conditions.
 * LOAD_BENCH_ONLY=stub skips the fake-provider scenario.
 */
const SERVER_ROOT = process.env.LOAD_BENCH_SERVER_ROOT ?? ROOT;
const FAKE_TOKENS = 40;
const FAKE_DELAY_MS = 20;

/**
 * Times GET /api/health every 50 ms from a process of its own while `work` runs, so that the
 * figure is the server's and not this busy process's (it reads every stream and, in the
 * OpenAI scenario, also serves the fake provider).
 */
const PROBE = `
const url = process.argv[1];
const times = [];
let running = true;
process.stdin.on("data", () => (running = false));
(async () => {
  while (running) {
    const started = performance.now();
    try { await (await fetch(url)).text(); times.push(performance.now() - started); } catch { times.push(-1); }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stdout.write(JSON.stringify(times));
  process.exit(0);
})();
`;

async function healthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; healthMs: number[]; healthFailures: number }> {
  const probe = spawn(process.execPath, ["-e", PROBE, `${url}/api/health`], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  probe.stdout.on("data", (data: Buffer) => (output += data.toString()));
  const exited = new Promise<void>((resolve) => probe.once("exit", () => resolve()));
  const result = await work;
  probe.stdin.write("stop\n");
  await exited;
  // The first probe pays for the probe's own fetch set-up: left out.
  const times = (JSON.parse(output || "[]") as number[]).slice(1);
  return { result, healthMs: times.filter((t) => t >= 0), healthFailures: times.filter((t) => t < 0).length };
}

async function scenario(dataDir: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(SERVER_ROOT, "src/cli/main.ts"), "serve"], {
    cwd: SERVER_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", AUTO_INDEX: "false", RATE_LIMIT: "false", ...env },
    stdio: ["ignore", "ignore", "ignore"],
  });
  try {
    await waitForHealth(url, child);
    // One warm-up answer: the first search loads lazily built structures.
    await oneStream(url, QUESTIONS[0]!);
    const idleRssMb = rssMb(child.pid!);
    let peakRssMb = idleRssMb;
    const figures: Record<string, unknown> = { idleRssMb };
    for (const concurrency of LEVELS) {
      const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(child.pid!))), 50);
      const started = performance.now();
      const { result: streams, healthMs, healthFailures } = await healthDuring(
        url,
        Promise.all(Array.from({ length: concurrency }, (_, i) => oneStream(url, QUESTIONS[i % QUESTIONS.length]!))),
      );
      clearInterval(sampler);
      const ok = streams.filter((s) => s.ok);
      const errors: Record<string, number> = {};
      for (const stream of streams) if (stream.error) errors[stream.error] = (errors[stream.error] ?? 0) + 1;
      const ttft = ok.map((s) => s.ttft);
      figures[`${concurrency} streams`] = {
        ttftMs: { p50: percentile(ttft, 50), p95: percentile(ttft, 95), p99: percentile(ttft, 99) },
        totalMs: { p50: percentile(ok.map((s) => s.total), 50), p95: percentile(ok.map((s) => s.total), 95) },
        errors: streams.length - ok.length,
        errorKinds: errors,
        healthMs: { p50: percentile(healthMs, 50), p95: percentile(healthMs, 95), max: percentile(healthMs, 100), probes: healthMs.length, failures: healthFailures },
        wallMs: Math.round(performance.now() - started),
      };
    }
    figures.peakRssMb = peakRssMb;
    return figures;
  } finally {
    child.kill("SIGTERM");
  }
}

/** The figures compared before/after the search pool, as `[label, path into a scenario's figures]`. */
const COMPARED: [string, string[]][] = [
  ...LEVELS.flatMap((level): [string, string[]][] => [
    [`${level} streams TTFT p50 ms`, [`${level} streams`, "ttftMs", "p50"]],
    [`${level} streams TTFT p95 ms`, [`${level} streams`, "ttftMs", "p95"]],
    [`${level} streams TTFT p99 ms`, [`${level} streams`, "ttftMs", "p99"]],
    [`${level} streams errors`, [`${level} streams`, "errors"]],
    [`${level} streams health p95 ms`, [`${level} streams`, "healthMs", "p95"]],
    [`${level} streams health max ms`, [`${level} streams`, "healthMs", "max"]],
  ]),
  ["idle RSS MB", ["idleRssMb"]],
  ["peak RSS MB", ["peakRssMb"]],
];

function at(figures: Record<string, unknown>, keys: string[]): number {
  let value: unknown = figures;
  for (const key of keys) value = (value as Record<string, unknown> | undefined)?.[key];
  return typeof value === "number" ? value : Number.NaN;
}

/** One line per figure: in-process (SEARCH_WORKERS=0), with the pool (the default), after / before. */
function compare(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const [label, keys] of COMPARED) {
    const [b, a] = [at(before, keys), at(after, keys)];
    const ratio = b > 0 ? `${(a / b).toFixed(2)}×` : "—";
    rows[label] = `${b} → ${a} (${ratio})`;
  }
  return rows;
}

/**
 * Each provider twice in one run: search on the event loop (SEARCH_WORKERS=0, as before the
 * pool) and in the search workers (SEARCH_WORKERS unset: its default, or the value given to
 * the bench in LOAD_BENCH_WORKERS), then the two side by side with ratios.
 */
export async function runLoadBench(): Promise<Record<string, unknown>> {
  const dataDir = path.join(tmpdir(), `pastor-load-bench-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const store = SqliteStore.open(dataDir);
  await indexCorpus({ store, corpusDir: path.join(ROOT, "corpus"), contextWindow: 2, batchSize: 2048, dense: { kind: "lsa" } });
  store.close();
  const fake = await startFakeLlmServer("openai");
  fake.script({ chunks: Array.from({ length: FAKE_TOKENS }, (_, i) => `palavra${i} `), delayMs: FAKE_DELAY_MS });
  const pooled: Record<string, string> = process.env.LOAD_BENCH_WORKERS ? { SEARCH_WORKERS: process.env.LOAD_BENCH_WORKERS } : {};
  const providers: [string, string, Record<string, string>][] = [
    ["stub", "stub (15 ms between chunks)", { LLM_PROVIDER: "stub" }],
  ];
  if (process.env.LOAD_BENCH_ONLY !== "stub") {
    providers.push([
      "openaiFake",
      `fake OpenAI-compatible server (${FAKE_TOKENS} tokens, ${FAKE_DELAY_MS} ms apart)`,
      { LLM_PROVIDER: "openai", LLM_MODEL: "gpt-4o-mini", OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: fake.apiKey },
    ]);
  }
  try {
    const figures: Record<string, unknown> = { server: SERVER_ROOT, searchWorkers: process.env.LOAD_BENCH_WORKERS ?? "default (availableParallelism - 1, 1..4)" };
    for (const [name, provider, env] of providers) {
      const before = await scenario(dataDir, { ...env, SEARCH_WORKERS: "0" });
      const after = await scenario(dataDir, { ...env, ...pooled });
      figures[name] = { provider, inProcess: before, pool: after, "in-process → pool (ratio)": compare(before, after) };
    }
    return figures;
  } finally {
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runLoadBench(), null, 2));
}
