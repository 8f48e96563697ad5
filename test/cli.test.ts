import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { realBibleIndex, ROOT } from "./support/bible-index.js";
import { storeEnvFor } from "./support/store.js";
import { pastorFromSources, type CliRun } from "./support/cli.js";
import { tempDir, writeFile } from "./support/usfx.js";
import { careNotice } from "../src/core/reading/crisis.js";

let dataDir: string;
beforeAll(async () => {
  ({ dataDir } = await realBibleIndex());
}, 180_000);

/** Runs the real `pastor` CLI (TypeScript sources through tsx) in a child process, on the shared Bible index. */
function pastor(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return pastorFromSources(args, { DATA_DIR: dataDir, ...storeEnvFor(dataDir), ...env });
}

describe("pastor verses", () => {
  it("prints Jo 3:16-18 from the corpus (the end-to-end proof)", async () => {
    const { code, stdout } = await pastor(["verses", "Jo 3:16-18"]);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      "João 3:16  Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito, para que todo aquele que nele crê não pereça, mas tenha a vida eterna.",
    );
    expect(lines[2]).toMatch(/^João 3:18 {2}Quem nele crê não é condenado/);
  });

  it("reports a reference outside the book as not existing", async () => {
    const { code, stderr } = await pastor(["verses", "João 30:1"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/pastor: .*30/);
  });

  it("reports text that is not a reference", async () => {
    const { code, stderr } = await pastor(["verses", "Livro Inexistente 3:16"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^pastor: /);
  });
});

describe("pastor search: what the chat would do instead", () => {
  it("says a greeting would get the chat's greeting, not the out-of-scope refusal, and refuses an empty question", async () => {
    const greeting = await pastor(["search", "Bom dia, pastor!", "--k", "2"]);
    expect(greeting.code).toBe(0);
    expect(greeting.stderr).toContain("aviso: a mensagem é só um cumprimento, agradecimento ou despedida; o chat responderia com uma saudação, sem buscar versículos");
    expect(greeting.stderr).not.toContain("fora do tema");
    const question = await pastor(["search", "bom dia, estou com medo do futuro", "--k", "2"]);
    expect(question.stderr).not.toContain("cumprimento");
    const empty = await pastor(["search", "  "]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^pastor: a pergunta está vazia/m);
  });

  it("says when the chat would answer with a doubt, and prints the results", async () => {
    const doubted = await pastor(["search", "meu gato n come faz 2 dias, tenho q levar no vet?", "--k", "2"]);
    expect(doubted.code).toBe(0);
    expect(doubted.stderr).toMatch(/aviso: a busca não tem certeza de que a Bíblia trate desta pergunta \(probabilidade de estar fora do tema 0\.\d\d\); o chat diria essa dúvida antes da resposta/);
    expect(doubted.stdout).toMatch(/^1\. /m);
    const json = await pastor(["search", "meu gato n come faz 2 dias, tenho q levar no vet?", "--k", "2", "--json"]);
    expect(JSON.parse(json.stdout).scope).toMatchObject({ inScope: true, doubtful: true });
    const plain = await pastor(["search", "estou com medo do futuro", "--k", "2"]);
    expect(plain.stderr).not.toContain("não tem certeza");
  });
});

describe("pastor search: a person at risk", () => {
  it("sees the numbers to call on stderr first, in text and in JSON, and the results stay on stdout", async () => {
    const text = await pastor(["search", "tenho vontade de me matar", "--k", "2"]);
    expect(text.code).toBe(0);
    expect(text.stderr.split("\n")[0]).toBe(`${careNotice("self_harm").title}. ${careNotice("self_harm").text}`);
    expect(text.stderr).toContain("  ligue 188: CVV — Centro de Valorização da Vida (24 horas, todos os dias, gratuito; também por chat no site, https://cvv.org.br)");
    const json = await pastor(["search", "meu marido me bate", "--k", "2", "--json"]);
    expect(json.stderr).toContain("  ligue 190: Polícia Militar (em perigo agora)");
    expect((JSON.parse(json.stdout) as { results: unknown[] }).results).toHaveLength(2);
    const story = await pastor(["search", "por que Caim matou Abel?", "--k", "2"]);
    expect(story.stderr).not.toContain("ligue");
  });
});

describe("pastor search --json", () => {
  it("prints the documented shape", async () => {
    const { code, stdout } = await pastor(["search", "amai vossos inimigos", "--k", "3", "--json"]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { query: string; mode: string; results: Record<string, unknown>[] };
    expect(json.query).toBe("amai vossos inimigos");
    expect(json.mode).toBe("hybrid");
    expect(json.results).toHaveLength(3);
    expect(json.results[0]).toMatchObject({
      ref: expect.stringMatching(/^[1-3A-Z]{3} \d+:\d+$/),
      reference: expect.any(String),
      book: expect.any(String),
      chapter: expect.any(Number),
      verse: expect.any(Number),
      text: expect.any(String),
      via: expect.any(Array),
      matchedTerms: expect.any(Array),
    });
  });

  it("takes --collection biblia as the Bible, the default (same output as without it)", async () => {
    const plain = await pastor(["search", "amai vossos inimigos", "--k", "3", "--json"]);
    const named = await pastor(["search", "amai vossos inimigos", "--k", "3", "--json", "--collection", "biblia"]);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe(plain.stdout);
    const reload = await pastor(["reload", "--collection", "biblia"]);
    expect(reload.code).toBe(2);
    expect(reload.stderr).toMatch(/^pastor: a Bíblia não é recarregada por `pastor reload`: use `pastor index`$/m);
  });

  it("rejects a bad option with a clear message", async () => {
    const { code, stderr } = await pastor(["search", "fé", "--mode", "magic"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^pastor: valor inválido para --mode <modo>: "magic" \(use hybrid, lexical ou dense\)$/m);
  });

  it("stops on an invalid setting, naming the variable", async () => {
    const { code, stderr } = await pastor(["search", "fé"], { TOP_K: "abc" });
    expect(code).toBe(2);
    expect(stderr).toMatch(/TOP_K/);
  });
});

describe("pastor eval", () => {
  it("prints overall and per-type metrics as JSON", async () => {
    const dir = tempDir();
    const file = writeFile(
      dir,
      "q.jsonl",
      [
        JSON.stringify({ id: "a", type: "reference", query: "Rm 8:28", relevant: ["ROM 8:28"] }),
        JSON.stringify({ id: "b", type: "lexical", query: "no princípio criou Deus os céus e a terra", relevant: ["GEN 1:1"] }),
        JSON.stringify({ id: "c", type: "offtopic", query: "qual a capital da França?", relevant: [] }),
      ].join("\n"),
    );
    const { code, stdout } = await pastor(["eval", "--queries", file, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { queries: number; overall: Record<string, number>; byType: Record<string, Record<string, number>>; offtopic: { n: number } };
    expect(report.queries).toBe(3);
    expect(report.overall.n).toBe(2);
    expect(report.byType.reference).toMatchObject({ n: 1, "hit@10": 1, "mrr@10": 1 });
    expect(report.byType.lexical!["mrr@10"]).toBe(1);
    expect(report.offtopic.n).toBe(1);
  });

  it("names the file and line of a bad query file", async () => {
    const dir = tempDir();
    const file = writeFile(dir, "bad.jsonl", `${JSON.stringify({ query: "x", type: "lexical", relevant: [] })}\n{não é json\n`);
    const { code, stderr } = await pastor(["eval", "--queries", file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}:2:`);
  });

  it("searches a follow-up with its `previous` question, as the chat does, and names the line of a `previous` that is not text", async () => {
    const dir = tempDir();
    const followUp = { query: "pode explicar melhor?", type: "followup", relevant: ["MAT 5:44", "LUK 6:27", "LUK 6:35"] };
    const file = writeFile(dir, "followup.jsonl", `${JSON.stringify({ ...followUp, previous: "o que Jesus disse sobre amar os inimigos?" })}\n${JSON.stringify(followUp)}\n`);
    const { code, stdout } = await pastor(["eval", "--queries", file, "--json", "--per-query"]);
    expect(code).toBe(0);
    const [withPrevious, alone] = (JSON.parse(stdout) as { perQuery: { hit: number }[] }).perQuery;
    expect(withPrevious!.hit).toBe(1);
    expect(alone!.hit).toBe(0);
    const bad = writeFile(dir, "bad-previous.jsonl", `${JSON.stringify({ ...followUp, previous: 5 })}\n`);
    const refused = await pastor(["eval", "--queries", bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:1: o campo "previous" deve ser um texto`);
  });

  it.each(["JOA 3:16", "JHN 3", "jhn 3:16", "JHN 3:0"])("names the file and line of a relevant verse it cannot match (%s), which would score 0 silently", async (wrong) => {
    const dir = tempDir();
    const lines = [{ query: "amor", type: "lexical", relevant: ["JHN 3:16"] }, { query: "amai vossos inimigos", type: "lexical", relevant: ["MAT 5:44", wrong] }];
    const file = writeFile(dir, "typo.jsonl", `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const { code, stderr } = await pastor(["eval", "--queries", file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}:2: versículo relevante inválido: "${wrong}"`);
  });
});

describe("pastor reload and pastor search --collection", () => {
  it("indexes the sample collection, finds a header keyword in chunk 0, and says when nothing changed", async () => {
    const env = { DATA_DIR: tempDir("pastor-cli-collections-"), COLLECTIONS_DIR: path.join(ROOT, "collections") };
    const first = await pastor(["reload", "--collection", "exemplo", "--json"], env);
    expect(first.code).toBe(0);
    const [summary] = JSON.parse(first.stdout) as { collection: string; added: number; documents: number }[];
    expect(summary).toMatchObject({ collection: "exemplo", added: 4, documents: 4 });
    expect(first.stderr).toMatch(/bloco de metadados ignorado/);

    const again = await pastor(["reload"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/exemplo: 4 documentos, \d+ trechos \(novos 0, alterados 0, sem mudanças 4/);

    // "pericorese" is only in the lesson's metadata block (its Keywords line).
    const search = await pastor(["search", "--collection", "exemplo", "pericorese", "--json"], env);
    expect(search.code).toBe(0);
    const body = JSON.parse(search.stdout) as {
      collection: string;
      results: { source: string; chunk: number; matchedTerms: string[]; lexicalScore: number; citation: string }[];
    };
    expect(body.collection).toBe("exemplo");
    expect(body.results[0]).toMatchObject({ source: "teologia/a-trindade.md", chunk: 0, matchedTerms: ["pericores"] });
    expect(body.results[0]!.lexicalScore).toBeGreaterThan(0);

    // The gate's decision, as `pastor search --json` gives it for the Bible: a cake recipe is out of the lessons' scope.
    const cake = await pastor(["search", "--collection", "exemplo", "como fazer um bolo de chocolate?", "--json"], env);
    expect(cake.code).toBe(0);
    expect((JSON.parse(cake.stdout) as { scope?: { inScope: boolean } }).scope).toMatchObject({ inScope: false });
    expect((JSON.parse(search.stdout) as { scope?: { inScope: boolean } }).scope).toMatchObject({ inScope: true });
    const cakeText = await pastor(["search", "--collection", "exemplo", "como fazer um bolo de chocolate?"], env);
    expect(cakeText.stderr).toMatch(/aviso: pergunta fora do tema \(confiança \d\.\d\d.*\); o chat responderia com a recusa, sem trechos/);

    const missing = await pastor(["search", "--collection", "nenhuma", "x"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/pastor: Coleção "nenhuma" não encontrada\. Coleções disponíveis: exemplo\./);
  });

  it("reads a collection never read before its first search, once, as it indexes the Bible (no `pastor reload` needed)", async () => {
    // An index of its own (with Chroma, a collection prefix of its own: the test above read "exemplo" into the shared one).
    const fresh = tempDir("pastor-cli-collection-first-");
    const env = { DATA_DIR: fresh, COLLECTIONS_DIR: path.join(ROOT, "collections"), ...storeEnvFor(fresh) };
    const first = await pastor(["search", "--collection", "exemplo", "pericorese", "--json"], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^pastor: a coleção "exemplo" ainda não foi lida; lendo sua fonte antes de responder \(só desta vez\)…$/m);
    expect(first.stderr).toMatch(/^pastor: coleção pronta: 4 documentos, \d+ trechos em \d+ ms\.$/m);
    const body = JSON.parse(first.stdout) as { results: { source: string; chunk: number }[] };
    expect(body.results[0]).toMatchObject({ source: "teologia/a-trindade.md", chunk: 0 });

    const second = await pastor(["search", "--collection", "exemplo", "pericorese", "--json"], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(/ainda não foi lida/);
    expect(second.stdout).toBe(first.stdout);
  });
});
