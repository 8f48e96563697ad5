/**
 * Quality as a contract: the registry of evaluation sets, the figures each set is measured by,
 * and the comparison of a run with the committed baseline (`pastor eval --check`). A figure
 * that drops beyond its tolerance fails the check; a change that moves a figure updates the
 * baseline in the same commit, saying why. Pure: reading the files and running the search is
 * `app/retrieval/quality-check.ts`'s job.
 */
import { scoreRanking } from "./metrics.js";
import type { EvalQuery } from "./eval.js";

/**
 * How a set is read: `retrieval` (pastor eval's format), `care` (the reading of a person at risk),
 * `kinds` (messages of a named kind, none of which may be refused; `relevant` may be empty, e.g.
 * a question about the assistant, and such a line counts only for refusals and the kind read),
 * `quotations` (sayings checked against the Bible, each `in_bible`, `misquote` or
 * `not_in_bible`: the verdict is scored too).
 */
export type SetFormat = "retrieval" | "care" | "kinds" | "quotations";

/** tune: settings were chosen on it; seen: measured and its questions read; held-out: measured, never read. */
export type SetStatus = "tune" | "seen" | "held-out";

export interface RegisteredSet {
  file: string;
  format: SetFormat;
  status: SetStatus;
  added: string;
  purpose: string;
}

export interface Registry {
  sets: RegisteredSet[];
}

/** Figures of one set, by name; each name says which way is better (`FIGURE_DIRECTION`). */
export type SetFigures = Record<string, number>;

/**
 * Which way each figure is better: "up" (hit@10, a refusal of an off-topic question, a notice
 * shown to a person at risk) or "down" (a real question refused, a notice shown wrongly).
 */
export const FIGURE_DIRECTION: Readonly<Record<string, "up" | "down">> = {
  "hit@10": "up",
  "ndcg@10": "up",
  answerable: "up",
  offtopic: "up",
  offtopicRefused: "up",
  wronglyRefused: "down",
  selfHarmNoticed: "up",
  violenceNoticed: "up",
  topicNoticed: "up",
  safeNoticed: "down",
  selfHarm: "up",
  violence: "up",
  topic: "up",
  safe: "up",
  kindRead: "up",
  verdictRight: "up",
  sayingClaimed: "down",
  verseDenied: "down",
};

/** Scores (0..1) may move by this much; counts must not move the wrong way at all. */
export interface Tolerance {
  score: number;
  count: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { score: 0.005, count: 0 };

/** Figures that are shares (compared with `Tolerance.score`); the others are counts. */
const SCORES = new Set(["hit@10", "ndcg@10"]);

export interface Baseline {
  tolerance: Tolerance;
  /** Per-set tolerances where a set needs its own (none by default). */
  tolerances?: Record<string, Partial<Tolerance>>;
  sets: Record<string, SetFigures>;
}

/** One query's outcome in a retrieval set: its ranked verse ids (`BOOK C:V`) and whether the gate refused it. */
export interface RetrievalOutcome {
  ranked: readonly string[];
  refused: boolean;
  /** The kind of message it was read as (`reading/kinds.ts`), for a kinds set. */
  kind?: string;
  /** A saying's verdict and the verses it named (`stages/quotation.ts`), for a quotations set. */
  verdict?: { verdict: string; verses: readonly string[] };
}

/** The figures of a retrieval set: hit@10 and nDCG@10 over the answerable questions, refusals of both kinds. */
export function retrievalFigures(queries: readonly EvalQuery[], outcomes: readonly RetrievalOutcome[], format: SetFormat = "retrieval"): SetFigures {
  let answerable = 0;
  let hit = 0;
  let ndcg = 0;
  let offtopic = 0;
  let offtopicRefused = 0;
  let wronglyRefused = 0;
  queries.forEach((query, i) => {
    const outcome = outcomes[i]!;
    if ((format === "kinds" || format === "quotations") && query.relevant.length === 0) {
      if (outcome.refused) wronglyRefused++;
      return;
    }
    if (query.type === "offtopic" || query.relevant.length === 0) {
      offtopic++;
      if (outcome.refused) offtopicRefused++;
      return;
    }
    answerable++;
    if (outcome.refused) wronglyRefused++;
    const metrics = scoreRanking(outcome.ranked, new Set(query.relevant), 10);
    hit += metrics.hit;
    ndcg += metrics.ndcg;
  });
  const figures: SetFigures = {};
  if (answerable > 0) Object.assign(figures, { answerable, "hit@10": round(hit / answerable), "ndcg@10": round(ndcg / answerable) });
  if (answerable > 0 || format === "kinds" || format === "quotations") figures.wronglyRefused = wronglyRefused;
  if (offtopic > 0) Object.assign(figures, { offtopic, offtopicRefused });
  if (format === "kinds") figures.kindRead = queries.filter((query, i) => outcomes[i]!.kind !== undefined && KIND_OF_TYPE[query.type] === outcomes[i]!.kind).length;
  if (format === "quotations") Object.assign(figures, quotationFigures(queries, outcomes));
  return figures;
}

/** The reading (`reading/kinds.ts`) each type of a kinds set expects. */
const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  about_assistant: "about_assistant",
  saying_not_in_bible: "quotation_check",
  misquote: "quotation_check",
  quotation_other_wording: "quotation_check",
  explain_passage: "explain_passage",
  quote_passage: "quote_passage",
  sermon_prep: "study_prep",
};

/**
 * A quotations set's verdicts: right (a verse, in other words or misquoted, found as a verse
 * among its relevant ones; a saying called absent), a saying presented as a verse (claimed),
 * a verse called absent (denied). `unsure` is neither right nor a grave error.
 */
function quotationFigures(queries: readonly EvalQuery[], outcomes: readonly RetrievalOutcome[]): SetFigures {
  let right = 0;
  let claimed = 0;
  let denied = 0;
  queries.forEach((query, i) => {
    const verdict = outcomes[i]!.verdict;
    const said = verdict?.verdict ?? "none";
    if (query.type === "not_in_bible") {
      if (said === "absent") right++;
      if (said === "found" || said === "near") claimed++;
    } else {
      if ((said === "found" || said === "near") && verdict!.verses.some((verse) => query.relevant.includes(verse))) right++;
      if (said === "absent") denied++;
    }
  });
  return { verdictRight: right, sayingClaimed: claimed, verseDenied: denied };
}

/** A labelled message of a care set and how it was read (`none`, or the kind and whether the writer is at risk). */
export interface CareOutcome {
  label: "self_harm" | "violence" | "topic" | "none";
  noticed: boolean;
}

/** The figures of a care set: the notice shown to the writers at risk and to the subject, and shown wrongly. */
export function careFigures(outcomes: readonly CareOutcome[]): SetFigures {
  const count = (label: CareOutcome["label"], noticed?: boolean) => outcomes.filter((o) => o.label === label && (noticed === undefined || o.noticed === noticed)).length;
  return {
    selfHarm: count("self_harm"),
    selfHarmNoticed: count("self_harm", true),
    violence: count("violence"),
    violenceNoticed: count("violence", true),
    topic: count("topic"),
    topicNoticed: count("topic", true),
    safe: count("none"),
    safeNoticed: count("none", true),
  };
}

export interface FigureChange {
  set: string;
  figure: string;
  baseline: number | undefined;
  current: number | undefined;
  /** `regression`: beyond tolerance the wrong way; `improvement`: beyond it the right way; `missing`: a set or figure gone. */
  verdict: "regression" | "improvement" | "missing" | "new";
}

/** Every figure that moved beyond its tolerance, each set's figures against the baseline's. */
export function compareWithBaseline(baseline: Baseline, current: Readonly<Record<string, SetFigures>>): FigureChange[] {
  const changes: FigureChange[] = [];
  const names = new Set([...Object.keys(baseline.sets), ...Object.keys(current)]);
  for (const set of [...names].sort()) {
    const before = baseline.sets[set];
    const now = current[set];
    if (!before || !now) {
      changes.push({ set, figure: "*", baseline: undefined, current: undefined, verdict: before ? "missing" : "new" });
      continue;
    }
    const tolerance = { ...baseline.tolerance, ...baseline.tolerances?.[set] };
    for (const figure of new Set([...Object.keys(before), ...Object.keys(now)])) {
      const was = before[figure];
      const is = now[figure];
      if (was === undefined || is === undefined) {
        changes.push({ set, figure, baseline: was, current: is, verdict: was === undefined ? "new" : "missing" });
        continue;
      }
      const allowed = SCORES.has(figure) ? tolerance.score : tolerance.count;
      const better = (FIGURE_DIRECTION[figure] ?? "up") === "up" ? is - was : was - is;
      // A share compared to 4 decimals: 0.005 means half a point of a percentage.
      if (better < -allowed - 1e-9) changes.push({ set, figure, baseline: was, current: is, verdict: "regression" });
      else if (better > allowed + 1e-9) changes.push({ set, figure, baseline: was, current: is, verdict: "improvement" });
    }
  }
  return changes;
}

/** Figures weighed by each set's answerable questions (hit@10, nDCG@10) and summed (refusals), over the sets given. */
export function pooledFigures(sets: readonly SetFigures[]): SetFigures {
  let answerable = 0;
  let hit = 0;
  let ndcg = 0;
  let offtopic = 0;
  let offtopicRefused = 0;
  let wronglyRefused = 0;
  for (const figures of sets) {
    const n = figures.answerable ?? 0;
    answerable += n;
    hit += (figures["hit@10"] ?? 0) * n;
    ndcg += (figures["ndcg@10"] ?? 0) * n;
    offtopic += figures.offtopic ?? 0;
    offtopicRefused += figures.offtopicRefused ?? 0;
    wronglyRefused += figures.wronglyRefused ?? 0;
  }
  return {
    answerable,
    "hit@10": answerable > 0 ? round(hit / answerable) : 0,
    "ndcg@10": answerable > 0 ? round(ndcg / answerable) : 0,
    wronglyRefused,
    offtopic,
    offtopicRefused,
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** The results page (docs/RESULTS.md): every set's figures, by format and status, generated by the check. */
export function resultsPage(registry: Registry, figures: Readonly<Record<string, SetFigures>>, hash: string): string {
  const name = (set: RegisteredSet) => set.file.replace(/\.jsonl$/, "");
  const cell = (value: number | undefined, digits = 3) => (value === undefined ? "" : Number.isInteger(value) ? String(value) : value.toFixed(digits));
  const lines = [
    "# Results",
    "",
    "Generated by `pastor eval --check --results docs/RESULTS.md` on the index `pastor index` builds from",
    "`corpus/` (embedded LSA model); never edited by hand. The figures are the ones `eval/baseline.json`",
    "holds and CI checks. Sets and their status: `eval/registry.json` (tune: settings were chosen on it;",
    "seen: its questions were read; held-out: measured, never read); their stories: `eval/README.md`.",
    "",
    `Hash of every ranking and gate decision: \`${hash.slice(0, 16)}\`.`,
    "",
  ];
  for (const status of ["held-out", "seen", "tune"] as const) {
    const retrieval = registry.sets.filter((set) => set.format === "retrieval" && set.status === status && figures[name(set)]);
    if (retrieval.length === 0) continue;
    const pooled = pooledFigures(retrieval.map((set) => figures[name(set)]!));
    lines.push(`## Retrieval, ${status}`, "", "| set | answerable | hit@10 | nDCG@10 | wrongly refused | off-topic refused | purpose |", "| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for (const set of retrieval) {
      const f = figures[name(set)]!;
      const off = f.offtopic ? `${f.offtopicRefused} / ${f.offtopic}` : "";
      lines.push(`| ${name(set)} | ${cell(f.answerable)} | ${cell(f["hit@10"])} | ${cell(f["ndcg@10"])} | ${cell(f.wronglyRefused)} | ${off} | ${set.purpose} |`);
    }
    const off = pooled.offtopic ? `${pooled.offtopicRefused} / ${pooled.offtopic}` : "";
    lines.push(`| **all ${status}** | ${pooled.answerable} | ${cell(pooled["hit@10"])} | ${cell(pooled["ndcg@10"])} | ${pooled.wronglyRefused} | ${off} | |`, "");
  }
  const care = registry.sets.filter((set) => set.format === "care" && figures[name(set)]);
  if (care.length > 0) {
    lines.push("## The reading of a person at risk", "", "| set | status | self-harm noticed | violence noticed | subject noticed | safe noticed (wrongly) |", "| --- | --- | ---: | ---: | ---: | ---: |");
    for (const set of care) {
      const f = figures[name(set)]!;
      lines.push(`| ${name(set)} | ${set.status} | ${f.selfHarmNoticed} / ${f.selfHarm} | ${f.violenceNoticed} / ${f.violence} | ${f.topicNoticed} / ${f.topic} | ${f.safeNoticed} / ${f.safe} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
