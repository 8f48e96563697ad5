/**
 * USFX parsing benchmark: the Bíblia Livre (4.7 MB) and the World English Bible fixture
 * (20 MB uncompressed), read from disk (gunzip included), and the WEB again from bytes already
 * gunzipped in memory (parser cost alone).
 *
 *   npx tsx bench/parse.ts
 *
 * `runParseBench()` is also imported by bench/run.ts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { readUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { parseUsfx } from "../src/core/sources/usfx.js";
import type { Verse } from "../src/core/types.js";

const BLIVRE = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));
const WEB_GZ = fileURLToPath(new URL("../test/fixtures/usfx/engwebp_usfx.xml.gz", import.meta.url));

async function count(verses: AsyncIterable<Verse>): Promise<number> {
  let n = 0;
  for await (const _verse of verses) n++;
  return n;
}

async function timed(run: () => Promise<number>): Promise<{ ms: number; verses: number }> {
  const started = performance.now();
  const verses = await run();
  return { ms: performance.now() - started, verses };
}

/** Splits a buffer into 64 KiB chunks, as a file stream would deliver it. */
function* chunksOf(bytes: Buffer, size = 64 * 1024): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function* fromChunks(bytes: Buffer): AsyncGenerator<Buffer> {
  yield* chunksOf(bytes);
}

/** Runs the benchmark; times in milliseconds, rates in verses per second, memory in MiB. */
export async function runParseBench(): Promise<Record<string, number>> {
  // Warm-up (JIT), not measured.
  await count(readUsfxFile(BLIVRE));

  const blivre = await timed(() => count(readUsfxFile(BLIVRE)));
  const webFile = await timed(() => count(readUsfxFile(WEB_GZ)));

  const gunzipStarted = performance.now();
  const webBytes = gunzipSync(readFileSync(WEB_GZ));
  const gunzipMs = performance.now() - gunzipStarted;
  const webMemory = await timed(() => count(parseUsfx(fromChunks(webBytes), { source: "engwebp_usfx.xml" })));

  const perSecond = (r: { ms: number; verses: number }): number => Math.round((r.verses / r.ms) * 1000);
  return {
    blivreMs: Math.round(blivre.ms),
    blivreVerses: blivre.verses,
    blivreVersesPerSec: perSecond(blivre),
    webGzFileMs: Math.round(webFile.ms),
    webVerses: webFile.verses,
    webGzFileVersesPerSec: perSecond(webFile),
    webGunzipOnlyMs: Math.round(gunzipMs),
    webInMemoryMs: Math.round(webMemory.ms),
    webInMemoryVersesPerSec: perSecond(webMemory),
    webInMemoryMBPerSec: Math.round((webBytes.length / 1024 / 1024 / webMemory.ms) * 1000 * 10) / 10,
    // resourceUsage().maxRSS is in KiB: the process's peak resident set so far.
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (invokedDirectly) {
  const results = await runParseBench();
  const lines = [
    `Bíblia Livre (4.7 MB, disco):        ${results.blivreMs} ms, ${results.blivreVerses} versículos, ${results.blivreVersesPerSec} versículos/s`,
    `WEB engwebp (20 MB, .gz do disco):    ${results.webGzFileMs} ms, ${results.webVerses} versículos, ${results.webGzFileVersesPerSec} versículos/s`,
    `WEB engwebp (só gunzip em memória):   ${results.webGunzipOnlyMs} ms`,
    `WEB engwebp (bytes já em memória):    ${results.webInMemoryMs} ms, ${results.webInMemoryVersesPerSec} versículos/s, ${results.webInMemoryMBPerSec} MB/s`,
    `Pico de RSS:                          ${results.peakRssMiB} MiB`,
  ];
  console.log(lines.join("\n"));
}
