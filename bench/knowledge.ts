/**
 * The knowledge index (resources/knowledge/, src/core/knowledge/), read at start and looked up on
 * every question: the load (the keys and the records' lines; with the dictionary test it reads
 * by default, and with a test handed in, as the gate's would be), the first read of the details,
 * and the time of a whole question's lookup over the project's evaluation questions.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadKnowledge } from "../src/adapters/sources/knowledge-files.js";
import { ROOT } from "./chat.js";

function questions(): string[] {
  const dir = path.join(ROOT, "eval");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => readFileSync(path.join(dir, name), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { query?: unknown }).query)
    .filter((text): text is string => typeof text === "string");
}

const ms = (started: number) => Number((performance.now() - started).toFixed(1));

export async function runKnowledgeBench(): Promise<Record<string, unknown>> {
  const dir = path.join(ROOT, "resources", "knowledge");
  let started = performance.now();
  await loadKnowledge({ dir, isWord: () => false });
  const loadWithGivenWordTestMs = ms(started);
  started = performance.now();
  const knowledge = await loadKnowledge({ dir });
  const loadWithDictionaryMs = ms(started);
  started = performance.now();
  await knowledge.details("aaron_1");
  const firstDetailsMs = ms(started);
  const list = questions();
  for (const question of list) knowledge.lookup(question);
  const times = list.map((question) => {
    const at = performance.now();
    knowledge.lookup(question);
    return performance.now() - at;
  });
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3));
  return { questions: list.length, loadWithGivenWordTestMs, loadWithDictionaryMs, firstDetailsMs, lookupMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99) } };
}
