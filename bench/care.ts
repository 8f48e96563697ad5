/**
 * The reading of a person at risk (src/core/reading/crisis.ts), which runs on the event loop
 * for every chat message: time per message over the project's evaluation messages (the
 * questions of every eval set and the labelled crisis messages), with the patterns alone and
 * with the classifiers, side by side; and the first call, which builds the classifiers' maps.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { crisisOf } from "../src/core/reading/crisis.js";
import { ROOT } from "./chat.js";

function messages(): string[] {
  const dir = path.join(ROOT, "eval");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => readFileSync(path.join(dir, name), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { query?: unknown; message?: unknown })
    .map((row) => row.query ?? row.message)
    .filter((text): text is string => typeof text === "string");
}

function timed(list: readonly string[], read: (message: string) => unknown): { p50: number; p95: number; p99: number } {
  for (const message of list) read(message);
  const times = list.map((message) => {
    const started = performance.now();
    read(message);
    return performance.now() - started;
  });
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export async function runCareBench(): Promise<Record<string, unknown>> {
  const list = messages();
  const started = performance.now();
  crisisOf("primeira leitura");
  const firstCallMs = Number((performance.now() - started).toFixed(1));
  const patterns = timed(list, (message) => crisisOf(message, null));
  const withClassifiers = timed(list, (message) => crisisOf(message));
  return {
    messages: list.length,
    firstCallMs,
    msPerMessage: { patternsOnly: patterns, withClassifiers, "p95 ratio": `${(withClassifiers.p95 / patterns.p95).toFixed(2)}×` },
  };
}
