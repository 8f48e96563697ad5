/**
 * Fits the two classifiers of the reading of a person at risk (src/core/reading/crisis.ts)
 * and writes them into src/core/reading/crisis-model.ts:
 *
 *   npx tsx scripts/care/train.ts
 *
 * Reads the labelled messages of training/care/*.jsonl (written by helpers blind to every
 * evaluation set and to the detector) and of the evaluation sets already used to tune the
 * patterns (TUNED_SETS below; never the held-out ones). One classifier tells the writer at risk
 * of self-harm from every other message, one the writer at risk of violence; `topic` messages
 * (the subject, asked about) are negatives of both. Features: crisisFeatures (stems, pairs of
 * stems, what the patterns found); a stem or pair seen in fewer than MIN_COUNT messages is left
 * out.
 *
 * Each threshold is chosen on 5-fold cross-validated probabilities: the lowest one at which the
 * patterns and both classifiers together would show the notice to at most MAX_FALSE_NOTICE_RATE
 * of the messages that are not a writer at risk (`none` and `topic`). A notice shown wrongly
 * costs a box above a normal answer, but it also replaces the question's search with the
 * passages of consolation. Prints the cross-validated figures and what the thresholds cost.
 * MAX_FALSE_NOTICE_RATE=…, L2=… and MIN_COUNT=… to measure others; MODEL_OUT=path writes elsewhere.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crisisFeatures, crisisOf } from "../../src/core/reading/crisis.js";
import type { CrisisModels } from "../../src/core/reading/crisis-model.js";
import { fitLogistic, predict, type LogisticModel } from "../../src/core/reading/logistic.js";
import { findProjectRoot } from "../../src/project-root.js";

type Label = "self_harm" | "violence" | "topic" | "none";
interface Row {
  message: string;
  label: Label;
}

/** The evaluation sets read to tune the patterns: training data now. The later sets stay held out. */
const TUNED_SETS = ["crisis-blind.jsonl", "crisis-blind2.jsonl", "crisis-blind3.jsonl"];
const MAX_FALSE_NOTICE_RATE = Number(process.env.MAX_FALSE_NOTICE_RATE ?? 0.02);
const L2 = Number(process.env.L2 ?? 0.003);
const MIN_COUNT = Number(process.env.MIN_COUNT ?? 2);
/** Weight of a writer at risk against a safe message in the fit (the ordinary questions make the safe ones many). */
const POSITIVE_WEIGHT = Number(process.env.POSITIVE_WEIGHT ?? 1);
/** Whether the ordinary questions are fitted on (as negatives) or only hold the threshold to their budget. */
const ORDINARY_IN_FIT = process.env.ORDINARY_IN_FIT === "1";
const FOLDS = 5;

const root = findProjectRoot();
const readRows = (file: string): Row[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Row);
const trainingDir = join(root, "training/care");
const files = [
  ...readdirSync(trainingDir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => join(trainingDir, name)),
  ...TUNED_SETS.map((name) => join(root, "eval", name)),
];
/**
 * The questions the out-of-scope gate is trained on (training/scope/: the Bible, faith and
 * everyday life, none of them written as a crisis) are negatives too, with a budget of their
 * own (MAX_FALSE_NOTICE_RATE_ORDINARY): they are what most people ask.
 */
const MAX_FALSE_NOTICE_RATE_ORDINARY = Number(process.env.MAX_FALSE_NOTICE_RATE_ORDINARY ?? 0.0025);
const ordinaryFiles = ["training/scope/questions.jsonl", "training/scope/handwritten.jsonl"].map((name) => join(root, name));
const ordinary: Row[] = ordinaryFiles.flatMap((file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => ({ message: (JSON.parse(line) as { query: string }).query, label: "none" as const, ordinary: true })),
);
const rows: (Row & { ordinary?: boolean })[] = [...files.flatMap(readRows), ...ordinary];
const features = rows.map((row) => crisisFeatures(row.message));
const byLabel = Object.fromEntries((["self_harm", "violence", "topic", "none"] as const).map((label) => [label, rows.filter((row) => row.label === label).length]));
console.log(JSON.stringify({ files: [...files, ...ordinaryFiles].map((file) => file.slice(root.length + 1)), messages: rows.length, byLabel }));

/** The feature names seen in at least MIN_COUNT of these rows. */
function namesOf(indices: readonly number[]): string[] {
  const counts = new Map<string, number>();
  for (const i of indices) for (const name of Object.keys(features[i]!)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].filter(([, n]) => n >= MIN_COUNT).map(([name]) => name).sort();
}

function fit(indices: readonly number[], positive: Label): LogisticModel {
  const names = namesOf(indices);
  const labels = indices.map((i) => (rows[i]!.label === positive ? 1 : 0) as 0 | 1);
  const model = fitLogistic(names, indices.map((i) => features[i]!), labels, { l2: L2, epochs: 2000, positiveWeight: POSITIVE_WEIGHT });
  // Only the weights that matter are shipped.
  const kept = model.features.map((name, j) => [name, model.weights[j]!] as const).filter(([, weight]) => Math.abs(weight) >= 0.005);
  return { features: kept.map(([name]) => name), weights: kept.map(([, weight]) => weight), bias: model.bias };
}

/** Cross-validated probabilities of both classifiers, fold by the row's index (deterministic). */
const heldOut = rows.map(() => ({ selfHarm: 0, violence: 0 }));
for (let fold = 0; fold < FOLDS; fold++) {
  // The ordinary questions are fitted on only with ORDINARY_IN_FIT=1; otherwise every fold's
  // model is measured on all of them (they never were its training rows).
  const train = rows.map((_, i) => i).filter((i) => i % FOLDS !== fold && (ORDINARY_IN_FIT || !rows[i]!.ordinary));
  const test = rows.map((_, i) => i).filter((i) => (i % FOLDS === fold && !rows[i]!.ordinary) || (rows[i]!.ordinary && (ORDINARY_IN_FIT ? i % FOLDS === fold : fold === 0)));
  const selfHarm = fit(train, "self_harm");
  const violence = fit(train, "violence");
  for (const i of test) heldOut[i] = { selfHarm: predict(selfHarm, features[i]!), violence: predict(violence, features[i]!) };
}

/** What the patterns alone make of each row. */
const patterns = rows.map((row) => crisisOf(row.message, null));
const atRisk = (label: Label) => label === "self_harm" || label === "violence";

/** Whether the notice would be shown (patterns, then the classifiers at these thresholds). */
function noticeShown(i: number, selfHarmThreshold: number, violenceThreshold: number): boolean {
  return patterns[i] !== undefined || heldOut[i]!.selfHarm >= selfHarmThreshold || heldOut[i]!.violence >= violenceThreshold;
}

function costOf(selfHarmThreshold: number, violenceThreshold: number) {
  let falseNotices = 0;
  let safe = 0;
  let ordinaryNotices = 0;
  const caught = { self_harm: 0, violence: 0 };
  for (let i = 0; i < rows.length; i++) {
    const label = rows[i]!.label;
    const shown = noticeShown(i, selfHarmThreshold, violenceThreshold);
    if (atRisk(label)) {
      if (shown) caught[label as "self_harm" | "violence"]++;
    } else if (rows[i]!.ordinary) {
      if (noticeShown(i, selfHarmThreshold, violenceThreshold)) ordinaryNotices++;
    } else {
      safe++;
      // A subject question the patterns read as the subject gets the notice by design.
      const bySubject = patterns[i] !== undefined && !patterns[i]!.personal;
      if (shown && !(label === "topic" && bySubject)) falseNotices++;
    }
  }
  return { falseNotices, safe, caught, ordinaryNotices };
}

// The lowest thresholds within the budget, on one grid, searching both at once.
const grid = Array.from({ length: 96 }, (_, i) => Number((0.04 + i * 0.01).toFixed(2)));
const budget = Math.floor(MAX_FALSE_NOTICE_RATE * rows.filter((row) => !atRisk(row.label) && !row.ordinary).length);
const ordinaryBudget = Math.floor(MAX_FALSE_NOTICE_RATE_ORDINARY * ordinary.length);
// Most writers at risk caught; then fewest wrong notices; then the highest thresholds.
let best: { selfHarm: number; violence: number; caught: number; falseNotices: number } | undefined;
for (const selfHarmThreshold of grid) {
  for (const violenceThreshold of grid) {
    const cost = costOf(selfHarmThreshold, violenceThreshold);
    if (cost.falseNotices > budget || cost.ordinaryNotices > ordinaryBudget) continue;
    const caught = cost.caught.self_harm + cost.caught.violence;
    const better = !best || caught > best.caught || (caught === best.caught && cost.falseNotices <= best.falseNotices);
    if (better) best = { selfHarm: selfHarmThreshold, violence: violenceThreshold, caught, falseNotices: cost.falseNotices };
  }
}
if (!best) throw new Error("no thresholds within the budget");
const patternsOnly = costOf(2, 2);
const chosen = costOf(best.selfHarm, best.violence);
console.log(
  JSON.stringify(
    {
      crossValidated: {
        budget: `${budget} wrong notices of ${chosen.safe} safe messages (${MAX_FALSE_NOTICE_RATE * 100} %)`,
        ordinaryBudget: `${ordinaryBudget} notices of ${ordinary.length} ordinary questions (${MAX_FALSE_NOTICE_RATE_ORDINARY * 100} %)`,
        patternsOnly: { caught: patternsOnly.caught, falseNotices: patternsOnly.falseNotices, ordinaryNotices: patternsOnly.ordinaryNotices },
        withClassifiers: {
          thresholds: { selfHarm: best.selfHarm, violence: best.violence },
          caught: chosen.caught,
          falseNotices: chosen.falseNotices,
          ordinaryNotices: chosen.ordinaryNotices,
        },
        atRisk: { self_harm: byLabel.self_harm, violence: byLabel.violence },
      },
    },
    null,
    2,
  ),
);

const all = rows.map((_, i) => i).filter((i) => ORDINARY_IN_FIT || !rows[i]!.ordinary);
const models: CrisisModels = {
  selfHarm: { ...fit(all, "self_harm"), threshold: Number(best.selfHarm.toFixed(2)) },
  violence: { ...fit(all, "violence"), threshold: Number(best.violence.toFixed(2)) },
};
const out = process.env.MODEL_OUT ?? join(root, "src/core/reading/crisis-model.ts");
writeFileSync(
  out,
  `/** Generated by scripts/care/train.ts: the classifiers of core/reading/crisis.ts. Do not edit. */
import type { LogisticModel } from "./logistic.js";

/** Two classifiers (the writer at risk of self-harm, of violence), each with its threshold. */
export interface CrisisModels {
  selfHarm: LogisticModel & { threshold: number };
  violence: LogisticModel & { threshold: number };
}

export const CRISIS_MODELS: CrisisModels | null = ${JSON.stringify(models)};
`,
);
console.log(`written ${out}: ${models.selfHarm.features.length} + ${models.violence.features.length} weights`);
