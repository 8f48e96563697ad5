/**
 * Citation check benchmark (issue #16): the property check of test/citations.property.test.ts
 * at scale, and what the streaming check costs per token, before (the implementation of the
 * merge base, loaded from git, beside the current one) and after.
 *
 *   npx tsx bench/citations.ts [cases]
 *
 * `runCitationsBench()` is also imported by bench/run.ts. Figures: generated cases, planted
 * references, leaks (disallowed references left in any form: must be 0), over-blocks (allowed
 * references not kept or not cited: must be 0), stream/batch mismatches (must be 0), cases/s,
 * and microseconds per token of the stream filter on two workloads (ordinary answers, and the
 * generated answers), before and after.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CitationStreamFilter } from "../src/core/grounding/citations.js";
import { SHOWN, generateCase, judge, seeded, tokenisations } from "../test/support/citation-generator.js";

/** The filter, now (`end`) or at the baseline commit (where `end` was still called `flush`). */
type FilterClass = new (shown: typeof SHOWN) => { push(delta: string): string; end?(): string; flush?(): string };

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The commit the issue #16 work started from: its citations.ts is "before". */
const BASE = "f601428";

/** The stream filter as it was at BASE (its own imports pointed at today's unchanged modules), or undefined without git. */
async function baselineFilter(): Promise<{ filter: FilterClass; cleanup: () => void } | undefined> {
  let source: string;
  try {
    source = execFileSync("git", ["show", `${BASE}:src/core/grounding/citations.ts`], { cwd: ROOT, encoding: "utf8" });
  } catch {
    return undefined;
  }
  const src = (path: string) => pathToFileURL(join(ROOT, "src/core", path)).href;
  source = source
    .replace('"../bible/references.js"', JSON.stringify(src("bible/references.ts")))
    .replace('"./passages.js"', JSON.stringify(src("grounding/passages.ts")))
    .replace('"./text-chars.js"', JSON.stringify(src("grounding/text-chars.ts")));
  const dir = mkdtempSync(join(tmpdir(), "citations-baseline-"));
  const file = join(dir, "citations.ts");
  writeFileSync(file, source);
  const module = (await import(pathToFileURL(file).href)) as { CitationStreamFilter: FilterClass };
  return { filter: module.CitationStreamFilter, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const ORDINARY =
  "Segundo **João 3:16**, Deus amou o mundo de tal maneira (veja também Rm 3:99 e 1 Co 13:4). O amor de Deus é o " +
  "tema central, como lemos em João 3:17; ele não enviou o Filho para condenar.\n\n- Romanos 6:23: o dom gratuito\n";

/** Microseconds per token of streaming `text` in 4-character tokens, best of `rounds`. */
function perToken(Filter: FilterClass, text: string, rounds = 5): number {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; i += 4) tokens.push(text.slice(i, i + 4));
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    const filter = new Filter(SHOWN);
    for (const token of tokens) filter.push(token);
    if (filter.end) filter.end();
    else filter.flush?.();
    best = Math.min(best, ((performance.now() - started) * 1000) / tokens.length);
  }
  return Math.round(best * 10) / 10;
}

export async function runCitationsBench(cases = 2000): Promise<unknown> {
  const random = seeded(2026);
  let planted = 0;
  let splits = 0;
  const leaks: string[] = [];
  const overBlocks: string[] = [];
  const mismatches: string[] = [];
  const generated: string[] = [];
  const started = performance.now();
  for (let n = 0; n < cases; n++) {
    const c = generateCase(random);
    planted += c.planted.length;
    const ways = tokenisations(random, 4);
    splits += ways.length;
    const v = judge(c, ways);
    leaks.push(...v.leaks);
    overBlocks.push(...v.overBlocks);
    mismatches.push(...v.mismatches);
    if (generated.length < 40) generated.push(c.answer);
  }
  const seconds = (performance.now() - started) / 1000;

  const ordinary = ORDINARY.repeat(40);
  const odd = generated.join("\n\n");
  const baseline = await baselineFilter();
  const cost = {
    tokenChars: 4,
    ordinaryAnswerChars: ordinary.length,
    generatedAnswerChars: odd.length,
    usPerTokenOrdinary: { before: baseline ? perToken(baseline.filter, ordinary) : null, after: perToken(CitationStreamFilter, ordinary) },
    usPerTokenGenerated: { before: baseline ? perToken(baseline.filter, odd) : null, after: perToken(CitationStreamFilter, odd) },
    before: baseline ? `${BASE}:src/core/grounding/citations.ts` : "unavailable (no git)",
  };
  baseline?.cleanup();
  return {
    cases,
    plantedReferences: planted,
    streamedSplitsPerCase: splits / cases,
    leaks: leaks.length,
    overBlocks: overBlocks.length,
    streamBatchMismatches: mismatches.length,
    casesPerSecond: Math.round(cases / seconds),
    examples: [...leaks, ...overBlocks, ...mismatches].slice(0, 5),
    cost,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await runCitationsBench(Number(process.argv[2] ?? 2000)), null, 2));
}
