import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * What the abuse suite (issue 43) measures around each hostile input: whether the service kept
 * answering `/api/health` (probed from a process of its own, so a blocked server cannot hide
 * behind a blocked test), how long the input took, and how much memory the serving process
 * gained.
 */

export interface HealthWatch {
  /** Stops probing and reports every probe's latency (a probe that failed or timed out counts as `timeoutMs`). */
  stop(): Promise<HealthReport>;
}

export interface HealthReport {
  probes: number;
  failures: number;
  maxMs: number;
  p95Ms: number;
}

const PROBE = `
const [url, every, timeout] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const times = [];
let failures = 0;
let stopping = false;
process.stdin.on("data", () => (stopping = true));
(async () => {
  // One untimed probe first: a fresh process's first fetch (undici loading, connecting) is not the server's latency.
  try {
    await (await fetch(url + "/api/health", { signal: AbortSignal.timeout(timeout) })).text();
  } catch {}
  process.stdout.write("ready\\n");
  while (!stopping) {
    const started = performance.now();
    try {
      const response = await fetch(url + "/api/health", { signal: AbortSignal.timeout(timeout) });
      await response.text();
      if (!response.ok) failures++;
      times.push(performance.now() - started);
    } catch {
      failures++;
      times.push(timeout);
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  process.stdout.write(JSON.stringify({ times, failures }) + "\\n");
})();
`;

/**
 * Probes `url`/api/health every `everyMs` from a child process until `stop()`; call it before
 * the hostile request and stop it after. The first probe is answered before this resolves.
 */
export async function watchHealth(url: string, options: { everyMs?: number; timeoutMs?: number } = {}): Promise<HealthWatch> {
  const everyMs = options.everyMs ?? 100;
  const timeoutMs = options.timeoutMs ?? 5_000;
  // The probe's own fetch is compiled and connected before the hostile request starts.
  await fetch(`${url}/api/health`).then((response) => response.text());
  const child: ChildProcess = spawn(process.execPath, ["-e", PROBE, url, String(everyMs), String(timeoutMs)], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.startsWith("ready\n")) markReady();
  });
  const exited = new Promise((resolve) => child.once("exit", () => resolve(markReady())));
  // Probing has begun (the child's warm-up probe answered) before the hostile request starts.
  await ready;
  return {
    async stop() {
      child.stdin!.end("stop\n");
      await exited;
      const { times, failures } = JSON.parse(output.slice("ready\n".length)) as { times: number[]; failures: number };
      const sorted = [...times].sort((a, b) => a - b);
      return {
        probes: times.length,
        failures,
        maxMs: sorted.at(-1) ?? 0,
        p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
      };
    },
  };
}

/** The resident set size of a process, in bytes (Linux `/proc`; this process by default). */
export function rssOf(pid: number = process.pid): number {
  if (pid === process.pid) return process.memoryUsage().rss;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

export interface Measured<T> {
  value: T;
  ms: number;
  rssBefore: number;
  rssAfter: number;
  /** The largest RSS seen while `work` ran (sampled every 20 ms). */
  rssPeak: number;
}

/** Runs `work`, timing it and sampling the RSS of `pid` (this process by default) before, during and after. */
export async function measure<T>(work: () => Promise<T>, pid: number = process.pid): Promise<Measured<T>> {
  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssOf(pid));
    } catch {
      // The process ended: its peak so far stands.
    }
  }, 20);
  const started = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - started;
    const rssAfter = rssOf(pid);
    return { value, ms, rssBefore, rssAfter, rssPeak: Math.max(rssPeak, rssAfter) };
  } finally {
    clearInterval(sampler);
  }
}

/** 100 MB: the most RSS a hostile input may leave behind (issue 43). */
export const RSS_BUDGET_BYTES = 100 * 1024 * 1024;
