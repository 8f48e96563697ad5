import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBaseline, readRegistry, runQualitySets, setName } from "../src/app/quality-check.js";
import { careFigures, compareWithBaseline, DEFAULT_TOLERANCE, pooledFigures, retrievalFigures, type Baseline } from "../src/core/retrieval/quality.js";
import type { EvalQuery } from "../src/core/retrieval/eval.js";
import { openBibleEngine, ROOT } from "./support/bible-index.js";

const EVAL_DIR = path.join(ROOT, "eval");

const query = (id: string, type: string, relevant: string[]): EvalQuery => ({ id, type, query: id, relevant });

describe("the figures of a set", () => {
  it("scores hit@10 and nDCG@10 over the answerable questions and counts both kinds of refusal", () => {
    const queries = [query("a", "lexical", ["GEN 1:1"]), query("b", "semantic", ["JHN 3:16"]), query("c", "offtopic", []), query("d", "offtopic", [])];
    const figures = retrievalFigures(queries, [
      { ranked: ["GEN 1:1"], refused: false },
      { ranked: ["GEN 1:2", "JHN 3:16"], refused: true },
      { ranked: [], refused: true },
      { ranked: ["GEN 1:1"], refused: false },
    ]);
    expect(figures).toEqual({ answerable: 2, "hit@10": 1, "ndcg@10": 0.8155, wronglyRefused: 1, offtopic: 2, offtopicRefused: 1 });
  });

  it("reads a kinds set's line without verses as a message that must not be refused, never as off-topic", () => {
    const queries = [query("a", "about_assistant", []), query("b", "misquote", ["1TI 6:10"])];
    const outcomes = [
      { ranked: [], refused: true, kind: "about_assistant" },
      { ranked: ["1TI 6:10"], refused: false, kind: "question" },
    ];
    // kindRead: the first read as what its type expects, the misquote not read as a saying to check.
    expect(retrievalFigures(queries, outcomes, "kinds")).toEqual({ answerable: 1, "hit@10": 1, "ndcg@10": 1, wronglyRefused: 1, kindRead: 1 });
    expect(retrievalFigures(queries, outcomes)).toEqual({ answerable: 1, "hit@10": 1, "ndcg@10": 1, wronglyRefused: 0, offtopic: 1, offtopicRefused: 1 });
  });

  it("counts the notices a care set's writers got, by label", () => {
    expect(
      careFigures([
        { label: "self_harm", noticed: true },
        { label: "self_harm", noticed: false },
        { label: "none", noticed: true },
        { label: "topic", noticed: true },
      ]),
    ).toEqual({ selfHarm: 2, selfHarmNoticed: 1, violence: 0, violenceNoticed: 0, topic: 1, topicNoticed: 1, safe: 1, safeNoticed: 1 });
  });

  it("pools sets weighing each by its answerable questions", () => {
    expect(pooledFigures([{ answerable: 1, "hit@10": 1, "ndcg@10": 1 }, { answerable: 3, "hit@10": 0, "ndcg@10": 0.5, offtopic: 2, offtopicRefused: 1 }])).toEqual({
      answerable: 4,
      "hit@10": 0.25,
      "ndcg@10": 0.625,
      wronglyRefused: 0,
      offtopic: 2,
      offtopicRefused: 1,
    });
  });
});

describe("the comparison with the baseline", () => {
  const baseline: Baseline = {
    tolerance: DEFAULT_TOLERANCE,
    tolerances: { loose: { score: 0.05 } },
    sets: {
      dev: { answerable: 34, "hit@10": 1, "ndcg@10": 0.72, wronglyRefused: 0, offtopic: 3, offtopicRefused: 3 },
      loose: { answerable: 10, "hit@10": 0.5, "ndcg@10": 0.3 },
      gone: { answerable: 1, "hit@10": 1, "ndcg@10": 1 },
    },
  };

  it("fails a score that drops beyond the tolerance and a count that moves the wrong way, and names improvements", () => {
    const changes = compareWithBaseline(baseline, {
      dev: { answerable: 34, "hit@10": 0.998, "ndcg@10": 0.71, wronglyRefused: 1, offtopic: 3, offtopicRefused: 3 },
      loose: { answerable: 10, "hit@10": 0.46, "ndcg@10": 0.4 },
      fresh: { answerable: 2, "hit@10": 1, "ndcg@10": 1 },
    });
    expect(changes).toEqual([
      { set: "dev", figure: "ndcg@10", baseline: 0.72, current: 0.71, verdict: "regression" },
      { set: "dev", figure: "wronglyRefused", baseline: 0, current: 1, verdict: "regression" },
      { set: "fresh", figure: "*", baseline: undefined, current: undefined, verdict: "new" },
      { set: "gone", figure: "*", baseline: undefined, current: undefined, verdict: "missing" },
      { set: "loose", figure: "ndcg@10", baseline: 0.3, current: 0.4, verdict: "improvement" },
    ]);
  });
});

describe("pastor eval --check on the real index", () => {
  it("registers every eval file and holds a baseline for every registered set", async () => {
    const registry = await readRegistry(EVAL_DIR);
    const { readdir } = await import("node:fs/promises");
    const files = (await readdir(EVAL_DIR)).filter((file) => file.endsWith(".jsonl")).sort();
    expect(registry.sets.map((set) => set.file).sort()).toEqual(files);
    const baseline = await readBaseline(path.join(EVAL_DIR, "baseline.json"));
    expect(Object.keys(baseline.sets).sort()).toEqual(registry.sets.map(setName).sort());
  });

  it("measures every registered set with no figure below the baseline's tolerance", async () => {
    const registry = await readRegistry(EVAL_DIR);
    const baseline = await readBaseline(path.join(EVAL_DIR, "baseline.json"));
    const { engine, close } = await openBibleEngine();
    try {
      const run = await runQualitySets(engine, registry, EVAL_DIR);
      const failing = compareWithBaseline(baseline, run.figures).filter((change) => change.verdict === "regression" || change.verdict === "missing");
      expect(failing).toEqual([]);
    } finally {
      await close();
    }
  }, 900_000);
});
