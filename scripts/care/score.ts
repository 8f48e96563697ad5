/**
 * How the reading of a person at risk (src/core/reading/crisis.ts) does on a labelled set:
 *
 *   npx tsx scripts/care/score.ts eval/crisis-blind4.jsonl [--show] [--patterns-only]
 *
 * Each line is `{"id", "message", "label"}` with the label `self_harm`, `violence` (the writer
 * at risk now), `topic` (the subject, asked about) or `none`. Prints, per label, what the
 * reading made of the messages (`self_harm`, `violence`: personal; `topic:…`: the subject;
 * `none`), then the figures that matter: the notice shown to the writers at risk, the chosen
 * passages given to them, and the notice shown to messages that are not a crisis. `--show`
 * lists every message read otherwise than labelled; `--patterns-only` reads without the
 * classifiers (as before they were fitted).
 */
import { readFileSync } from "node:fs";
import { crisisOf } from "../../src/core/reading/crisis.js";

interface Row {
  id: string;
  message: string;
  label: "self_harm" | "violence" | "topic" | "none";
}

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  console.error("uso: npx tsx scripts/care/score.ts <arquivo.jsonl> [--show] [--patterns-only]");
  process.exit(2);
}
const rows = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Row);

const table: Record<string, Record<string, number>> = {};
const misread: string[] = [];
for (const row of rows) {
  const crisis = crisisOf(row.message, flags.includes("--patterns-only") ? null : undefined);
  const read = !crisis ? "none" : crisis.personal ? crisis.kind : `topic:${crisis.kind}`;
  const counts = (table[row.label] ??= {});
  counts[read] = (counts[read] ?? 0) + 1;
  const right = row.label === "topic" ? read.startsWith("topic:") : read === row.label;
  if (!right) misread.push(`${row.id}\t${row.label} → ${read}\t${row.message}`);
}

const total = (label: string) => Object.values(table[label] ?? {}).reduce((sum, n) => sum + n, 0);
const count = (label: string, read: (value: string) => boolean) =>
  Object.entries(table[label] ?? {}).reduce((sum, [value, n]) => sum + (read(value) ? n : 0), 0);
const shown = (value: string) => value !== "none";
const figures = {
  messages: rows.length,
  byLabel: table,
  "self_harm: notice shown": `${count("self_harm", shown)} / ${total("self_harm")}`,
  "self_harm: chosen passages": `${count("self_harm", (value) => value === "self_harm")} / ${total("self_harm")}`,
  "violence: notice shown": `${count("violence", shown)} / ${total("violence")}`,
  "violence: chosen passages": `${count("violence", (value) => value === "violence")} / ${total("violence")}`,
  "topic: notice shown": `${count("topic", shown)} / ${total("topic")}`,
  "topic: searched as asked": `${count("topic", (value) => !["self_harm", "violence"].includes(value))} / ${total("topic")}`,
  "none: notice shown (wrongly)": `${count("none", shown)} / ${total("none")}`,
};
console.log(JSON.stringify(figures, null, 2));
if (flags.includes("--show")) console.log(misread.join("\n"));
