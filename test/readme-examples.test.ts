import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/bible-index.js";
import { ensureBuilt, PASTOR_BIN, pastorBuilt, run, type CliRun } from "./support/cli.js";
import { tempDir } from "./support/usfx.js";

/**
 * The README cannot drift from the product: every command of its ```bash blocks and every
 * example of `pastor --help` and `pastor <command> --help` runs here, in order, through the
 * compiled bin/pastor.js (what `npx pastor` starts), on a DATA_DIR that starts empty — as on
 * a fresh clone. A command that cannot run in a test is listed in NOT_RUN with the reason;
 * `pastor` commands other than `serve` can never be listed there.
 */

/** Commands not run here, each with why (and where what it does is tested instead). */
const NOT_RUN: { command: RegExp; reason: string }[] = [
  { command: /^npm install$/, reason: "instala as dependências: o teste já roda numa cópia instalada" },
  { command: /^npm test$/, reason: "roda todas as suítes, inclusive esta" },
  {
    command: /^(\w+=\S+ )*npm start$/,
    reason: "inicia o servidor, que não termina; a porta ocupada é testada em test/cli.unix.test.ts, o servidor em test/server*.test.ts e test/e2e",
  },
  { command: /^(\w+=\S+ )*pastor serve$/, reason: "o mesmo servidor, pelo exemplo de `pastor serve --help`" },
  { command: /^curl /, reason: "precisa do servidor rodando; a API de chat é testada em test/server.test.ts e test/e2e/chat.test.ts" },
  { command: /^npm run setup:chroma$/, reason: "instala o ChromaDB (≈ 420 MB); roda no `bash .ci/run`" },
  { command: /^node chroma\/node_modules\/chromadb\/dist\/cli\.mjs run /, reason: "o servidor ChromaDB, que não termina; `npm run test:chroma` o inicia" },
];

const PASTOR_COMMAND = /^(npx )?pastor(\s|$)/;

/**
 * The commands of a Markdown text's ```bash blocks: lines ending in `\` joined, comments
 * (a `#` after a space, outside quotes) dropped, `a && b` split in two.
 */
function bashCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```bash\n([^]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .map(withoutComment)
      .flatMap((line) => line.split(" && "))
      .map((command) => command.trim())
      .filter(Boolean),
  );
}

function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === "#" && (i === 0 || /\s/.test(line[i - 1]!))) {
      return line.slice(0, i);
    }
  }
  return line;
}

/** The lines of the "Exemplo:"/"Exemplos:" section of a help text. */
function helpExamples(help: string): string[] {
  const section = /\nExemplos?:\n((?: {2}.+\n?)+)/.exec(help);
  return section ? section[1]!.split("\n").map((line) => line.trim()).filter(Boolean) : [];
}

/** Runs a README or help command the way a shell would, with `npx pastor`/`pastor` being the compiled bin/pastor.js. */
function runCommand(command: string, env: Record<string, string>): Promise<CliRun> {
  const line = command.replace(PASTOR_COMMAND, `'${process.execPath}' '${PASTOR_BIN}'$2`);
  return run("bash", ["-c", line], env);
}

/** What a few commands must print besides succeeding: the first-five-minutes promises. */
const EXPECTED: Record<string, (result: CliRun, dataDir: string) => void> = {
  'npx pastor verses "Jo 3:16"': ({ stdout, stderr }, dataDir) => {
    expect(stdout).toBe(
      "João 3:16  Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito, para que todo aquele que nele crê não pereça, mas tenha a vida eterna.\n",
    );
    expect(stderr).toBe("aviso: o índice está vazio: versículos lidos direto de corpus/por-blivre.usfx.xml.\n");
    expect(existsSync(dataDir)).toBe(false); // reading a verse builds nothing
  },
  'npx pastor search "o que Jesus disse sobre amar os inimigos?"': ({ stdout, stderr }) => {
    const top3 = [...stdout.matchAll(/^\d+\. (.+?) \(/gm)].map((m) => m[1]).slice(0, 3);
    expect(top3).toContain("Mateus 5:44");
    expect(stderr.match(/o índice está vazio; indexando/g)).toHaveLength(1);
    expect(stderr).toMatch(/^pastor: índice pronto: 31102 versículos em [\d.]+ s\.$/m);
  },
  'npx pastor search "estou com medo do futuro" --k 10 --json': ({ stdout, stderr }) => {
    expect((JSON.parse(stdout) as { results: unknown[] }).results).toHaveLength(10);
    expect(stderr).toBe(""); // the index exists now: no notice again
  },
  "npx pastor eval --queries eval/dev.jsonl": ({ stdout }) => {
    expect(stdout).toMatch(/^modo: hybrid · 37 perguntas\n/);
  },
};

const readme = bashCommands(readFileSync(path.join(ROOT, "README.md"), "utf8"));
const dataDir = path.join(tempDir("pastor-readme-"), "data");
/** A fresh DATA_DIR and every other setting at its default (the project's corpus/, collections/, LSA). */
const env = {
  DATA_DIR: dataDir,
  ...Object.fromEntries(["CORPUS_DIR", "COLLECTIONS_DIR", "EMBEDDING_MODEL", "VECTOR_STORE", "TOP_K", "MYSQL_URL", "NO_COLOR"].map((name) => [name, ""])),
};

describe("the README's bash blocks", () => {
  it("are all either pastor commands (run below) or listed in NOT_RUN, whose every entry is still needed", () => {
    const unlisted = readme.filter((command) => !PASTOR_COMMAND.test(command) && !NOT_RUN.some((entry) => entry.command.test(command)));
    expect(unlisted).toEqual([]);
    const excludedPastor = readme.filter((command) => PASTOR_COMMAND.test(command) && NOT_RUN.some((entry) => entry.command.test(command)));
    expect(excludedPastor).toEqual([]);
    for (const expected of Object.keys(EXPECTED)) expect(readme, "an EXPECTED command left the README").toContain(expected);
    expect(readme.filter((command) => PASTOR_COMMAND.test(command)).length).toBeGreaterThanOrEqual(5);
  });
});

describe("every README and --help example, on a fresh DATA_DIR", () => {
  const examples: string[] = [];
  beforeAll(async () => {
    ensureBuilt();
    const main = await pastorBuilt(["--help"], env);
    const section = /\nComandos:\n([^]*?)\n\n/.exec(main.stdout)![1]!;
    const commands = [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((name) => name !== "help");
    examples.push(...helpExamples(main.stdout));
    for (const name of commands) examples.push(...helpExamples((await pastorBuilt([name, "--help"], env)).stdout));
  }, 300_000);

  it("lists examples for pastor and for each command", () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
    const notRun = examples.filter((command) => NOT_RUN.some((entry) => entry.command.test(command)));
    expect(notRun).toEqual(["PORT=8081 pastor serve"]);
  });

  it.each(readme.filter((command) => PASTOR_COMMAND.test(command)))("README: %s", async (command) => {
    const result = await runCommand(command, env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toBe("");
    expect(result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    EXPECTED[command]?.(result, dataDir);
  }, 300_000);

  it("pastor --help examples, one by one", async () => {
    for (const command of examples.filter((example) => !NOT_RUN.some((entry) => entry.command.test(example)))) {
      const result = await runCommand(command, env);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      expect(result.stdout, command).not.toBe("");
    }
  }, 300_000);
});
