import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pastorFromSources } from "./support/cli.js";
import { createTinyModel, type TinyModel } from "./support/tiny-model.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

let model: TinyModel;
let env: Record<string, string>;
let queries: string;
beforeAll(async () => {
  model = await createTinyModel({ hiddenSize: 16, seed: 5 });
  const corpusDir = tempDir("pastor-compare-corpus-");
  writeFile(
    corpusDir,
    "por-blivre.usfx.xml",
    makeUsfx({
      PSA: {
        name: "Salmos",
        chapters: [["O Senhor é o meu pastor, nada me faltará.", "Deitar-me faz em verdes pastos, guia-me mansamente a águas tranquilas.", "Refrigera a minha alma; guia-me pelas veredas da justiça."]],
      },
      JHN: {
        name: "João",
        chapters: [["Porque Deus amou o mundo de tal maneira, que deu o seu Filho.", "Eu sou o bom pastor; o bom pastor dá a sua vida pelas ovelhas.", "Não se turbe o vosso coração; credes em Deus, crede também em mim."]],
      },
      MAT: {
        name: "Mateus",
        chapters: [["Amai os vossos inimigos e orai pelos que vos perseguem.", "Não andeis ansiosos pelo dia de amanhã.", "Vinde a mim, todos os que estais cansados e sobrecarregados."]],
      },
    }),
  );
  env = { DATA_DIR: tempDir("pastor-compare-data-"), CORPUS_DIR: corpusDir, VECTOR_STORE: "sqlite" };
  queries = writeFile(
    tempDir(),
    "q.jsonl",
    [
      JSON.stringify({ id: "a", type: "lexical", query: "o bom pastor", relevant: ["JHN 1:2"] }),
      JSON.stringify({ id: "b", type: "semantic", query: "estou ansioso com o amanhã", relevant: ["MAT 1:2"] }),
    ].join("\n"),
  );
}, 60_000);
afterAll(async () => model?.cleanup());

describe("pastor eval --compare", () => {
  it("evaluates the corpus LSA and a transformers.js model on the same queries, side by side", async () => {
    const { code, stdout, stderr } = await pastorFromSources(["eval", "--queries", queries, "--compare", `lsa,${model.dir}`, "--json"], env);
    expect(stderr).not.toMatch(/erro/);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { queries: number; compare: { model: string; embedder: string; hybrid: { mode: string; overall: { n: number } }; dense: { mode: string; overall: { n: number } } }[] };
    expect(json.queries).toBe(2);
    expect(json.compare.map((side) => side.model)).toEqual(["lsa", model.dir]);
    expect(json.compare[0]!.embedder).toMatch(/^lsa:/);
    expect(json.compare[1]!.embedder).toMatch(/^transformers:tiny-bert/);
    for (const side of json.compare) {
      expect(side.hybrid).toMatchObject({ mode: "hybrid", overall: { n: 2 } });
      expect(side.dense).toMatchObject({ mode: "dense", overall: { n: 2 } });
    }

    // The table names both sides, and a second run reuses their vectors.
    const table = await pastorFromSources(["eval", "--queries", queries, "--compare", `lsa,${model.dir}`], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\[1\] lsa → lsa:/);
    expect(table.stdout).toMatch(/\[2\] .* → transformers:tiny-bert/);
    expect(table.stdout).toMatch(/^geral\s+2\s/m);
  }, 180_000);
});
