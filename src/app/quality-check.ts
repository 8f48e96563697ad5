/**
 * `pastor eval --check`: every registered evaluation set measured on the loaded engine (the
 * retrieval sets searched as the chat searches them, the care sets read as the chat reads a
 * message), its figures compared with `eval/baseline.json`, and a hash of every ranking and
 * gate decision (what a restructuring must leave unchanged). The figures and the comparison
 * are `core/retrieval/quality.ts`'s; this module reads the files and runs the sets.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { crisisOf } from "../core/reading/crisis.js";
import { parseEvalFile } from "../core/retrieval/eval.js";
import { retrievalQuery } from "../core/reading/follow-up.js";
import type { SearchEngine } from "../core/retrieval/engine.js";
import { parseJsonLines } from "../core/sources/jsonl.js";
import {
  careFigures,
  retrievalFigures,
  type Baseline,
  type CareOutcome,
  type Registry,
  type RegisteredSet,
  type RetrievalOutcome,
  type SetFigures,
} from "../core/retrieval/quality.js";

export interface QualityRun {
  figures: Record<string, SetFigures>;
  /** SHA-256 over every retrieval query's ranked references, scores, lists and gate decision, in registry order. */
  hash: string;
  ms: number;
}

export async function readRegistry(evalDir: string): Promise<Registry> {
  return JSON.parse(await readFile(path.join(evalDir, "registry.json"), "utf8")) as Registry;
}

export async function readBaseline(file: string): Promise<Baseline> {
  return JSON.parse(await readFile(file, "utf8")) as Baseline;
}

export async function writeBaseline(file: string, baseline: Baseline): Promise<void> {
  await writeFile(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** Set name as the baseline keys it: the file without `.jsonl`. */
export function setName(set: Pick<RegisteredSet, "file">): string {
  return set.file.replace(/\.jsonl$/, "");
}

/** Measures every registered set (or those `only` names) on the engine. */
export async function runQualitySets(
  engine: SearchEngine,
  registry: Registry,
  evalDir: string,
  options: { only?: readonly string[]; onSet?: (name: string, figures: SetFigures) => void } = {},
): Promise<QualityRun> {
  const started = performance.now();
  const hash = createHash("sha256");
  const figures: Record<string, SetFigures> = {};
  for (const set of registry.sets) {
    const name = setName(set);
    if (options.only && !options.only.includes(name)) continue;
    const text = await readFile(path.join(evalDir, set.file), "utf8");
    figures[name] = set.format === "care" ? careSet(text, set.file) : await retrievalSet(engine, text, set, hash);
    options.onSet?.(name, figures[name]);
  }
  return { figures, hash: hash.digest("hex"), ms: Math.round(performance.now() - started) };
}

async function retrievalSet(engine: SearchEngine, text: string, set: RegisteredSet, hash: ReturnType<typeof createHash>): Promise<SetFigures> {
  const queries = parseEvalFile(text, set.file);
  const outcomes: RetrievalOutcome[] = [];
  for (const query of queries) {
    // A follow-up is searched as the chat searches it: with the question before it.
    const history = query.previous === undefined ? [] : [{ role: "user" as const, content: query.previous }];
    const response = await engine.search(retrievalQuery(query.query, history), { k: 10 });
    const ranked = response.results.map((r) => `${r.book} ${r.chapter}:${r.verse}`);
    const quotation = response.reading?.quotation;
    outcomes.push({
      ranked,
      refused: response.scope?.inScope === false,
      ...(response.reading ? { kind: response.reading.kind } : {}),
      ...(quotation ? { verdict: { verdict: quotation.verdict, verses: quotation.verses } } : {}),
    });
    const scope = response.scope ? `${response.scope.inScope}:${response.scope.outOfScopeProbability.toFixed(8)}` : "";
    hash.update(`${query.query}\n${response.results.map((r) => `${r.ref} ${r.score.toFixed(8)} ${r.via.join(",")}`).join(";")}\n${scope}\n`);
  }
  return retrievalFigures(queries, outcomes, set.format);
}

function careSet(text: string, file: string): SetFigures {
  const rows = parseJsonLines(text, (line) => new Error(`${file}:${line}: linha não é JSON válido`)).map(({ value }) => value as { message: string; label: CareOutcome["label"] });
  return careFigures(rows.map((row) => ({ label: row.label, noticed: crisisOf(row.message) !== undefined })));
}
