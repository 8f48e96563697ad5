/**
 * Property test of the USFX parser (issue 43): random documents, mutated documents and random
 * bytes (test/support/usfx-generator.ts, seeded), delivered whole or in chunks that split
 * characters, half of them under low limits. Whatever the input, the parser
 * - rejects with a UsfxError of a known code naming the source, or resolves; never anything else;
 * - yields only verses within the bounds (core/bible/bounds.ts) and the limits, so nothing
 *   downstream can allocate by a number from the file: a versification built from them has at
 *   most MAX_CHAPTER chapters a book and MAX_VERSE verses a chapter;
 * - finishes each input within a bound, and the process's memory stays flat over the run.
 * USFX_PROPERTY_RUNS sets how many inputs run (3,000 by default; the figures of a long run are
 * in the issue's closing note).
 */
import { describe, expect, it } from "vitest";
import { MAX_CHAPTER, MAX_VERSE, withinVerseBounds } from "../src/core/bible/bounds.js";
import { buildVersification } from "../src/core/bible/references.js";
import { parseUsfx, USFX_LIMITS, UsfxError, type UsfxErrorCode } from "../src/core/sources/usfx.js";
import type { Verse } from "../src/core/types.js";
import { generateInput, seeded, type GeneratedInput } from "./support/usfx-generator.js";

const RUNS = Number(process.env.USFX_PROPERTY_RUNS ?? 3_000);
const CODES: ReadonlySet<UsfxErrorCode> = new Set([
  "xml_malformed",
  "doctype_refused",
  "not_usfx",
  "empty_file",
  "no_books",
  "chapter_out_of_range",
  "verse_out_of_range",
  "bridge_too_long",
  "too_many_verses",
  "too_large",
  "io",
]);
const PER_INPUT_MS = 2_000;

async function* deliver(chunks: readonly (string | Buffer)[]): AsyncGenerator<string | Buffer> {
  yield* chunks;
}

type Outcome = { verses: Verse[] } | { error: unknown };

async function run(input: GeneratedInput): Promise<Outcome> {
  const verses: Verse[] = [];
  try {
    for await (const verse of parseUsfx(deliver(input.chunks), { source: "gerado.usfx.xml", ...(input.limits ? { limits: input.limits } : {}) })) verses.push(verse);
    return { verses };
  } catch (error) {
    return { error };
  }
}

/** What is wrong with one outcome (empty when nothing is). */
function problems(input: GeneratedInput, outcome: Outcome, ms: number): string[] {
  const found: string[] = [];
  if (ms > PER_INPUT_MS) found.push(`took ${Math.round(ms)} ms`);
  if ("error" in outcome) {
    const error = outcome.error;
    if (!(error instanceof UsfxError)) return [...found, `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`];
    if (!CODES.has(error.code)) found.push(`unknown code ${error.code}`);
    if (error.file !== "gerado.usfx.xml" || !error.message.startsWith("gerado.usfx.xml")) found.push(`error does not name the source: ${error.message}`);
    if (error.line !== undefined && !(error.line >= 1 && (error.column ?? -1) >= 0)) found.push(`bad position ${error.line}:${error.column}`);
    if (error.message.length > 400) found.push(`message of ${error.message.length} characters`);
    return found;
  }
  const limits = { ...USFX_LIMITS, ...input.limits };
  const { verses } = outcome;
  if (verses.length > limits.versesPerFile) found.push(`${verses.length} verses`);
  for (const verse of verses) {
    if (!withinVerseBounds(verse)) found.push(`verse out of bounds: ${verse.book} ${verse.chapter}:${verse.verse}-${verse.verseEnd}`);
    if (verse.text.length > limits.verseChars) found.push(`verse text of ${verse.text.length} characters`);
    // The parser's markers (U+0001, U+0002) never leak into the text.
    if (verse.text.includes("\u0001") || verse.text.includes("\u0002")) found.push(`marker left in ${JSON.stringify(verse.text)}`);
    if (verse.source !== "gerado.usfx.xml") found.push(`source ${verse.source}`);
  }
  for (const [book, chapters] of buildVersification(verses)) {
    if (chapters.length > MAX_CHAPTER) found.push(`${book}: a versification of ${chapters.length} chapters`);
    if (chapters.some((count) => count > MAX_VERSE)) found.push(`${book}: a chapter of more than ${MAX_VERSE} verses`);
  }
  return found;
}

describe("USFX parser on random input (seeded)", () => {
  it(`${RUNS} documents, mutations and random bytes: only UsfxErrors, only bounded verses, each in bounded time and memory`, async () => {
    const random = seeded(43);
    const outcomes = new Map<string, number>();
    const failures: string[] = [];
    let verses = 0;
    let slowest = 0;
    const rssStart = process.memoryUsage().rss;
    let rssPeak = rssStart;
    for (let n = 0; n < RUNS; n++) {
      const input = generateInput(random);
      const started = performance.now();
      const outcome = await run(input);
      const ms = performance.now() - started;
      slowest = Math.max(slowest, ms);
      const key = "error" in outcome ? (outcome.error instanceof UsfxError ? outcome.error.code : "other") : "parsed";
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if ("verses" in outcome) verses += outcome.verses.length;
      for (const problem of problems(input, outcome, ms)) {
        if (failures.length < 20) failures.push(`#${n} (${input.kind}): ${problem}\n  input: ${JSON.stringify(Buffer.concat(input.chunks.map((c) => Buffer.from(c))).toString("utf8").slice(0, 300))}`);
      }
      if (n % 100 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    if (process.env.USFX_PROPERTY_RUNS) console.info(JSON.stringify({ runs: RUNS, verses, slowestMs: Math.round(slowest), rssGrowthMB: Math.round((rssPeak - rssStart) / 2 ** 20), outcomes: Object.fromEntries(outcomes) }));
    expect(failures).toEqual([]);
    // The generator reaches every bound and every kind of malformed input, and parses a fair share.
    for (const code of ["chapter_out_of_range", "verse_out_of_range", "bridge_too_long", "too_many_verses", "too_large", "xml_malformed", "not_usfx", "doctype_refused"]) {
      expect(outcomes.get(code) ?? 0, code).toBeGreaterThan(0);
    }
    expect(outcomes.get("parsed") ?? 0).toBeGreaterThan(RUNS / 20);
    expect(verses).toBeGreaterThan(RUNS);
    expect(rssPeak - rssStart).toBeLessThan(256 * 2 ** 20);
  }, Math.max(300_000, RUNS * 20));
});
