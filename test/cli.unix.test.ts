import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "./support/bible-index.js";
import { pastorFromSources, run, type CliRun } from "./support/cli.js";
import { makeUsfx, tempDir } from "./support/usfx.js";

/**
 * The CLI as a Unix tool, on small corpora of its own (no Bible index): exit codes (0 done,
 * 1 some input failed, 2 usage or configuration), Portuguese usage errors with suggestions,
 * help with examples, folder checks, the first-run index, stdout kept for results.
 */

const GOOD = makeUsfx({
  GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia."]] },
  JHN: { name: "João", chapters: [["No princípio era a Palavra.", "Ela estava no princípio com Deus."]] },
});
/** Line 4 opens a <p> that never closes: a USFX error naming bad.xml and a line. */
const BAD = '<?xml version="1.0" encoding="utf-8"?>\n<usfx>\n<book id="MAT"><h>Mateus</h>\n<c id="1"/><p>\n<v id="1"/>Livro da geração<ve/>\n</book>\n</usfx>\n';

/** A fresh DATA_DIR and a CORPUS_DIR holding these files. */
function workspace(files: Record<string, string>): { DATA_DIR: string; CORPUS_DIR: string; EMBEDDING_MODEL: string } {
  const root = tempDir("pastor-cli-unix-");
  const corpus = path.join(root, "corpus");
  mkdirSync(corpus);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(corpus, name), content);
  return { DATA_DIR: path.join(root, "data"), CORPUS_DIR: corpus, EMBEDDING_MODEL: "none" };
}

function pastor(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return pastorFromSources(args, { NO_COLOR: "", ...env });
}

const STACK_FRAME = /^\s+at .+\(.+:\d+:\d+\)$/m;

describe("usage errors", () => {
  it.each([
    [["serch", "amor"], "pastor: comando desconhecido: serch (você quis dizer search?)", "pastor --help"],
    [["search", "amor", "--jsn"], "pastor: opção desconhecida: --jsn (você quis dizer --json?)", "pastor search --help"],
    [["verses"], "pastor: falta o argumento <referência>", "pastor verses --help"],
    [["eval"], "pastor: informe --queries <arquivo>, ou --check para conferir todos os conjuntos registrados", "pastor eval --help"],
    [["search", "amor", "--k", "0"], 'pastor: valor inválido para --k <n>: "0" (deve ser um inteiro positivo)', "pastor search --help"],
    [["verses", "Jo 3:16", "Jo 3:17"], "pastor: argumentos demais para verses: esperava 1, recebeu 2", "pastor verses --help"],
  ])("%j: exit 2, the culprit named in Portuguese, a pointer to the help", async (args, message, help) => {
    const { code, stdout, stderr } = await pastor(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")).toEqual([message, `Veja \`${help}\`.`, ""]);
  });

  it("pastor help <command> is the command's help, on stdout, exit 0", async () => {
    const { code, stdout } = await pastor(["help", "verses"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Uso: pastor verses <referência> \[--json\]\n/);
    expect((await pastor(["help"])).code).toBe(0);
  });

  it("no command: the help on stderr, exit 2", async () => {
    const { code, stdout, stderr } = await pastor([]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^Uso: pastor <comando> \[opções\]/);
  });

  it("an option that needs another one: exit 2", async () => {
    const { code, stderr } = await pastor(["search", "amor", "--discipline", "teologia"]);
    expect(code).toBe(2);
    expect(stderr).toBe("pastor: --discipline só vale com --collection de uma coleção de documentos\n");
  });
});

describe("help", () => {
  it("pastor --help and every pastor <command> --help: Portuguese, on stdout, exit 0, with an example", async () => {
    const main = await pastor(["--help"]);
    expect(main.code).toBe(0);
    expect(main.stderr).toBe("");
    expect(main.stdout).toMatch(/^Uso: pastor <comando> \[opções\]\n/);
    expect(main.stdout).toMatch(/\nExemplos:\n {2}pastor verses "Jo 3:16"\n/);
    expect(main.stdout).toMatch(/Códigos de saída: 0 tudo certo; 1 alguma entrada falhou/);
    const section = /\nComandos:\n([^]*?)\n\n/.exec(main.stdout)![1]!;
    const commands = [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((name) => name !== "help");
    expect(commands).toEqual(["serve", "index", "search", "reload", "eval", "verses"]);
    const texts = [main.stdout];
    for (const name of commands) {
      const { code, stdout } = await pastor([name, "--help"]);
      texts.push(stdout);
      expect(code, name).toBe(0);
      expect(stdout, name).toMatch(new RegExp(`^Uso: pastor ${name}`));
      expect(stdout, name).toMatch(/\nOpções:\n[^]*-h, --help +mostra esta ajuda/);
      expect(stdout, name).toMatch(new RegExp(`\\nExemplos?:\\n {2}(\\w+=\\S+ )?pastor ${name}`));
    }
    for (const text of texts) expect(text).not.toMatch(/Usage|Options|Commands|Arguments|display help|\[options\]|default:/);
  });
});

describe("folders", () => {
  it("pastor index with a missing CORPUS_DIR exits 2 naming the folder", async () => {
    const env = workspace({});
    const missing = path.join(env.CORPUS_DIR, "nao-existe");
    const { code, stderr } = await pastor(["index"], { ...env, CORPUS_DIR: missing });
    expect(code).toBe(2);
    expect(stderr).toBe(`pastor: Configuração inválida: CORPUS_DIR = ${JSON.stringify(missing)}: a pasta não existe\n`);
  });

  it("an empty CORPUS_DIR is named too, by index and by a search that would build the index", async () => {
    const env = workspace({ "LEIA-ME.txt": "nada aqui" });
    for (const args of [["index"], ["search", "amor"]]) {
      const { code, stderr } = await pastor(args, env);
      expect(code, args[0]).toBe(2);
      expect(stderr, args[0]).toContain(`CORPUS_DIR = ${JSON.stringify(env.CORPUS_DIR)}: a pasta não tem arquivos USFX (*.xml, *.xml.gz)`);
    }
  });

  it("a DATA_DIR that cannot be written exits 2 naming it", async () => {
    const env = workspace({ "good.xml": GOOD });
    const blocker = path.join(env.CORPUS_DIR, "good.xml"); // a file: nothing can be created under it, not even by root
    const dataDir = path.join(blocker, "data");
    const { code, stderr } = await pastor(["index"], { ...env, DATA_DIR: dataDir });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^pastor: Configuração inválida: DATA_DIR = "${dataDir}": não é possível gravar o índice aqui`));
    expect(stderr).not.toMatch(STACK_FRAME);
  });
});

describe("pastor index with a malformed corpus file", () => {
  it("names the file and line, keeps the rest indexed, and exits 1", async () => {
    const env = workspace({ "good.xml": GOOD, "bad.xml": BAD });
    const { code, stdout, stderr } = await pastor(["index", "--json"], env);
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as { versesTotal: number; errors: { file: string; message: string }[] };
    expect(summary.versesTotal).toBe(4);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]!.file).toBe("bad.xml");
    expect(stderr).toMatch(/^erro: bad\.xml:\d+:\d+: /m);

    const lookup = await pastor(["verses", "Gn 1:1"], env);
    expect(lookup.code).toBe(0);
    expect(lookup.stdout).toBe("Gênesis 1:1  No princípio criou Deus os céus e a terra.\n");
  });
});

describe("first run on an empty DATA_DIR", () => {
  it("verses reads the corpus without building an index; search builds it once, with the notice on stderr", async () => {
    const env = workspace({ "good.xml": GOOD });
    const verses = await pastor(["verses", "Jo 1:1-2", "--json"], env);
    expect(verses.code).toBe(0);
    expect(JSON.parse(verses.stdout)).toEqual([
      { ref: "JHN 1:1", reference: "João 1:1", text: "No princípio era a Palavra." },
      { ref: "JHN 1:2", reference: "João 1:2", text: "Ela estava no princípio com Deus." },
    ]);
    expect(verses.stderr).toMatch(/^aviso: o índice está vazio: versículos lidos direto de .*good\.xml\.$/m);
    expect(() => readdirSync(env.DATA_DIR)).toThrow(); // nothing was created

    const first = await pastor(["search", "princípio", "--json"], env);
    expect(first.code).toBe(0);
    const results = (JSON.parse(first.stdout) as { results: { ref: string }[] }).results.map((r) => r.ref);
    expect(results).toEqual(expect.arrayContaining(["GEN 1:1", "JHN 1:1", "JHN 1:2"]));
    expect(first.stderr.match(/o índice está vazio; indexando/g)).toHaveLength(1);
    expect(first.stderr).toMatch(/^pastor: índice pronto: 4 versículos em [\d.]+ s\.$/m);

    const second = await pastor(["search", "princípio"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^1\. .+ \(lexical\)/);
    expect(second.stderr).not.toMatch(/indexando/);
  });

  it("eval builds the index first too, and its --json stdout stays pure JSON", async () => {
    const env = workspace({ "good.xml": GOOD });
    const queries = path.join(env.CORPUS_DIR, "..", "q.jsonl");
    writeFileSync(queries, `${JSON.stringify({ id: "a", type: "lexical", query: "a terra era sem forma", relevant: ["GEN 1:2"] })}\n`);
    const { code, stdout, stderr } = await pastor(["eval", "--queries", queries, "--json"], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ queries: 1, byType: { lexical: { n: 1, "hit@10": 1 } } });
    expect(stderr.match(/o índice está vazio; indexando/g)).toHaveLength(1);
  });

  it("a search that builds the index past a malformed file answers from the rest and exits 1", async () => {
    const env = workspace({ "good.xml": GOOD, "bad.xml": BAD });
    const { code, stdout, stderr } = await pastor(["search", "princípio", "--json"], env);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(stderr).toMatch(/^erro: bad\.xml:\d+:\d+: /m);
  });
});

describe("an index behind the corpus", () => {
  it("verses reads the changed file; search answers from the index and says to run pastor index", async () => {
    const env = workspace({ "good.xml": GOOD });
    expect((await pastor(["index"], env)).code).toBe(0);
    writeFileSync(path.join(env.CORPUS_DIR, "good.xml"), GOOD.replace("No princípio criou Deus", "No começo criou Deus"));

    const verses = await pastor(["verses", "Gn 1:1"], env);
    expect(verses.code).toBe(0);
    expect(verses.stdout).toBe("Gênesis 1:1  No começo criou Deus os céus e a terra.\n");
    expect(verses.stderr).toMatch(/aviso: o índice está desatualizado \(good\.xml mudou desde a última indexação\)/);

    const search = await pastor(["search", "criou"], env);
    expect(search.code).toBe(0);
    expect(search.stderr).toMatch(/aviso: o índice está desatualizado \(good\.xml mudou desde a última indexação\): rode `pastor index`/);
  });
});

describe("bars and colour", () => {
  /** Runs `pastor index` under a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
  function indexOnTerminal(env: Record<string, string>): Promise<CliRun> {
    const command = [process.execPath, "--import", "tsx", path.join(ROOT, "src/cli/main.ts"), "index"].map((part) => `'${part}'`).join(" ");
    return run("script", ["-qec", command, "/dev/null"], env);
  }

  it("draws the progress bar only on a terminal without NO_COLOR", async () => {
    const onTerminal = await indexOnTerminal({ ...workspace({ "good.xml": GOOD }), NO_COLOR: "" });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toMatch(/Índice léxico \(good\.xml\) \|/);
    expect(onTerminal.stdout).toContain("\u001b[");

    const noColor = await indexOnTerminal({ ...workspace({ "good.xml": GOOD }), NO_COLOR: "1" });
    expect(noColor.code).toBe(0);
    expect(noColor.stdout).toContain("good.xml: 4 versículos (indexado)");
    expect(noColor.stdout).not.toContain("\u001b[");

    const piped = await pastor(["index"], workspace({ "good.xml": GOOD }));
    expect(piped.code).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain("\u001b[");
  });
});

describe("pastor serve on a port already taken", () => {
  let blocker: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

  it("says so in Portuguese, names PORT, exits 2, no stack trace", async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker!.listen(0, "0.0.0.0", () => resolve((blocker!.address() as { port: number }).port)));
    const { code, stdout, stderr } = await pastor(["serve"], { ...workspace({ "good.xml": GOOD }), PORT: String(port), AUTO_INDEX: "false" });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`pastor: Configuração inválida: PORT = ${port}: a porta já está em uso por outro programa; escolha outra, por exemplo PORT=8081 npm start`);
    expect(stderr).not.toMatch(STACK_FRAME);
  });
});
