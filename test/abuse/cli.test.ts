import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RSS_BUDGET_BYTES, rssOf } from "../support/abuse.js";
import { ROOT } from "../support/bible-index.js";
import type { CliRun } from "../support/cli.js";
import { makeUsfx, tempDir } from "../support/usfx.js";

/**
 * Issue 43, item 10, through the real `pastor` CLI (a child process, from the sources): file
 * names, document titles and data quoted in error messages that hold ESC sequences (clear the
 * screen, move the cursor, set the window title), CR and LF (forge lines), C1 controls, BEL,
 * bidirectional overrides and NUL. Whatever the CLI prints of them is escaped (`\x1b`, `\r`,
 * `\u202e`), NUL dropped, and `--json` keeps the same values. Each run is timed and its peak
 * RSS compared with the same command on plain names.
 */

/** Every character a terminal could act on but the line breaks the CLI itself writes. */
// eslint-disable-next-line no-control-regex -- the characters this test looks for
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

interface MeasuredRun extends CliRun {
  ms: number;
  peakRss: number;
}

/** Runs `pastor` from its sources, timing it and sampling the child's RSS every 20 ms. */
function pastorMeasured(args: string[], env: Record<string, string>): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let peakRss = 0;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssOf(child.pid!));
      } catch {
        // Exited between two samples.
      }
    }, 20);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(sampler);
      resolve({ code, stdout, stderr, ms: performance.now() - started, peakRss });
    });
  });
}

/** The hostile run's bounds: under `maxMs`, and within 100 MB of the same command on plain input. */
function expectBounded(hostile: MeasuredRun, plain: MeasuredRun, maxMs = 60_000): void {
  expect(hostile.ms).toBeLessThan(maxMs);
  expect(hostile.peakRss).toBeGreaterThan(0);
  expect(hostile.peakRss - plain.peakRss).toBeLessThan(RSS_BUDGET_BYTES);
  // The figures of the closing note of issue 43.
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.info(`abuse (${expect.getState().currentTestName}): ${Math.round(hostile.ms)} ms, peak RSS ${mb(hostile.peakRss)} MB (plain input: ${mb(plain.peakRss)} MB)`);
}

function corpus(files: Record<string, string>): { DATA_DIR: string; CORPUS_DIR: string; EMBEDDING_MODEL: string } {
  const root = tempDir("pastor-abuse-cli-");
  const dir = path.join(root, "corpus");
  mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return { DATA_DIR: path.join(root, "data"), CORPUS_DIR: dir, EMBEDDING_MODEL: "none" };
}

const GOOD = makeUsfx({ JHN: { name: "João", chapters: [["No princípio era a Palavra.", "Ela estava no princípio com Deus."]] } });
/** A chapter number that quotes a right-to-left override and a C1 CSI (both legal in XML): the parser's error quotes them. */
const BAD = makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra."]] } }).replace('<c id="1"/>', '<c id="&#x202E;&#x9B;2J"/>');

/** ESC sequences (clear the screen, cursor home), CR, BEL, a C1 CSI and bidi overrides, in names a Linux disk accepts. */
const FORGED = "boa\u001b[2J\u001b[H\u202eforjada\rlinha\u009b31m.usfx.xml";
const TITLED = "ruim\u001b]0;titulo\u0007\u2066.usfx.xml";

describe("pastor index with file names that hold control characters", () => {
  it("prints them escaped, one line each, names the bad one's line, exits 1, and --json keeps the names", async () => {
    const plain = await pastorMeasured(["index"], corpus({ "boa.usfx.xml": GOOD, "ruim.usfx.xml": BAD }));
    expect(plain.code).toBe(1);
    const env = corpus({ [FORGED]: GOOD, [TITLED]: BAD });
    const text = await pastorMeasured(["index"], env);
    expectBounded(text, plain);
    expect(text.code).toBe(1);
    expect(text.stdout).not.toMatch(RAW);
    expect(text.stderr).not.toMatch(RAW);
    // One line per file, the total and the snapshot saved: no line forged by the CR.
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        "boa\\x1b[2J\\x1b[H\\u202eforjada\\rlinha\\x9b31m.usfx.xml: 2 versículos (indexado)",
        "ruim\\x1b]0;titulo\\x07\\u2066.usfx.xml: 0 versículos (falhou)",
        expect.stringMatching(/^2 versículos no índice; 2 gravados agora;/),
        expect.stringMatching(/^retrato do índice salvo /),
      ]),
    );
    expect(text.stderr).toMatch(/^erro: ruim\\x1b\]0;titulo\\x07\\u2066\.usfx\.xml:\d+:\d+: .*"\\u202e\\x9b2J"/m);

    const json = await pastorMeasured(["index", "--json"], env);
    expectBounded(json, plain);
    expect(json.code).toBe(1);
    expect(json.stdout).not.toMatch(RAW);
    const summary = JSON.parse(json.stdout) as { sources: { file: string }[]; errors: { file: string; message: string }[] };
    // The same names, as JSON escapes: a script reading them gets the real file names.
    expect(summary.sources.map((source) => source.file).sort()).toEqual([FORGED, TITLED].sort());
    expect(summary.errors[0]!.file).toBe(TITLED);
    expect(summary.errors[0]!.message).not.toMatch(RAW);
  }, 240_000);
});

describe("pastor eval with a query file whose verse holds NUL and ESC", () => {
  it("names the file and line on one stderr line, escaped, NUL dropped, exit 1", async () => {
    const root = tempDir("pastor-abuse-eval-");
    const queries = (name: string, relevant: string) => {
      const file = path.join(root, name);
      writeFileSync(file, `${JSON.stringify({ id: "q1", query: "amor", type: "tema", relevant: [relevant] })}\n`);
      return file;
    };
    const env = { DATA_DIR: path.join(root, "data"), CORPUS_DIR: path.join(root, "sem-corpus") };
    const plain = await pastorMeasured(["eval", "--queries", queries("plain.jsonl", "JHN x 3:16")], env);
    expect(plain.code).toBe(1);
    const hostile = await pastorMeasured(["eval", "--queries", queries("q\u001b[31m.jsonl", "JHN\u0000\u001b[2J\u001b[H\u202e 3:16")], env);
    expectBounded(hostile, plain);
    expect(hostile.code).toBe(1);
    expect(hostile.stdout).toBe("");
    expect(hostile.stderr).not.toMatch(RAW);
    expect(hostile.stderr).not.toContain("\u0000");
    const lines = hostile.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('q\\x1b[31m.jsonl');
    expect(lines[0]).toContain('versículo relevante inválido: "JHN\\x1b[2J\\x1b[H\\u202e 3:16"');
  }, 120_000);
});

describe("pastor reload and search --collection with a lesson named and titled with control characters", () => {
  it("escapes the file name in the warning and the title in the results; --json keeps them", async () => {
    const lesson = (title: string) =>
      `[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]\nTítulo: ${title}\nKeywords: graça\n====== FIM DOS METADADOS ======\n\n# Graça\n\nA graça de Deus alcança o pecador.\nLinha dois\u001b[2K\rsobre a graça.\n`;
    /** A block with a line that is no field: the lesson is indexed by its text, with a warning naming the file. */
    const broken = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]\nlinha solta\n====== FIM DOS METADADOS ======\n\nA graça basta.\n";
    const workspace = (files: Record<string, string>) => {
      const root = tempDir("pastor-abuse-collection-");
      const folder = path.join(root, "colecoes", "estudos");
      mkdirSync(folder, { recursive: true });
      for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
      return { DATA_DIR: path.join(root, "data"), COLLECTIONS_DIR: path.join(root, "colecoes"), EMBEDDING_MODEL: "none" };
    };
    const plainEnv = workspace({ "licao.md": lesson("Graça divina"), "quebrada.md": broken });
    const plain = await pastorMeasured(["reload"], plainEnv);
    expect(plain.code).toBe(0);
    const lessonName = "licao\u001b[2J\u202eforjada.md";
    const brokenName = "quebrada\u001b]0;x\u0007\r.md";
    const env = workspace({ [lessonName]: lesson("Graça\u001b[2J\u001b[H\u202e divina\u0000"), [brokenName]: broken });

    const reload = await pastorMeasured(["reload"], env);
    expectBounded(reload, plain);
    expect(reload.stdout).not.toMatch(RAW);
    expect(reload.stderr).not.toMatch(RAW);
    expect(reload.stdout).toMatch(/^estudos: 2 documentos/m);
    expect(reload.stderr).toMatch(/^(aviso|erro): quebrada\\x1b\]0;x\\x07\\r\.md: bloco de metadados ignorado/m);

    const plainSearch = await pastorMeasured(["search", "--collection", "estudos", "graça"], plainEnv);
    const search = await pastorMeasured(["search", "--collection", "estudos", "graça"], env);
    expectBounded(search, plainSearch);
    expect(search.code).toBe(0);
    expect(search.stdout).not.toMatch(RAW);
    expect(search.stderr).not.toMatch(RAW);
    expect(search.stdout).toContain("licao\\x1b[2J\\u202eforjada.md");
    // Each hit is its heading and one line of excerpt: the lesson's own line breaks and CR forge nothing.
    const lines = search.stdout.trimEnd().split("\n");
    expect(lines.filter((line) => /^\d+\. /.test(line))).toHaveLength(lines.length / 2);
    // The excerpt's CR, a line break, became a space; its ESC is escaped; the title's NUL is gone.
    expect(search.stdout).toContain("Linha dois\\x1b[2K sobre a graça.");
    expect(search.stdout).toContain("1. Graça\\x1b[2J\\x1b[H\\u202e divina (licao\\x1b[2J\\u202eforjada.md, trecho 1)");

    const json = await pastorMeasured(["search", "--collection", "estudos", "graça", "--json"], env);
    expect(json.stdout).not.toMatch(RAW);
    const body = JSON.parse(json.stdout) as { results: { source: string }[] };
    expect(body.results.map((result) => result.source)).toContain(lessonName);
  }, 300_000);
});
