/**
 * How a document excerpt reads in the browser (src/core/documents/citation.ts): its lesson's
 * title rather than its file name, and its text without the index metadata block.
 */
import { describe, expect, it } from "vitest";
import { readableExcerpt, readableTitle } from "../src/core/documents/citation.js";

const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";

describe("readableExcerpt", () => {
  it("drops a metadata block left at the start of an excerpt, up to its end marker or the first heading", () => {
    expect(readableExcerpt(`${HEADER} Disciplina: Teologia Título: X ====== FIM DOS METADADOS ====== Corpo da aula.`)).toBe("Corpo da aula.");
    expect(readableExcerpt(`${HEADER}\nDisciplina: Teologia\nKeywords: a, b\n\n# A Aula\n\nCorpo.`)).toBe("# A Aula\n\nCorpo.");
  });

  it("without an end marker or heading marks, drops the block up to where its title starts the body", () => {
    const text = `${HEADER} Disciplina: Teologia Título: A Inspiração das Escrituras Keywords: inspiração, cânon A Inspiração das Escrituras Quando dizemos…`;
    expect(readableExcerpt(text)).toBe("A Inspiração das Escrituras Quando dizemos…");
  });

  it("leaves any other text as it is", () => {
    expect(readableExcerpt("# A Trindade ## Introdução A palavra [Trindade]")).toBe("# A Trindade ## Introdução A palavra [Trindade]");
    expect(readableExcerpt("Veja [nota] no fim.")).toBe("Veja [nota] no fim.");
  });
});

describe("readableTitle", () => {
  it("keeps a lesson's own title", () => {
    expect(readableTitle({ title: "A Trindade", sourceId: "teologia/a-trindade.md" }, "# A Trindade")).toBe("A Trindade");
  });

  it("reads the title of a metadata block the indexing could not use", () => {
    const text = `${HEADER} Disciplina: Teologia Sistemática Título: A Inspiração das Escrituras Keywords: inspiração, cânon # A Inspiração das Escrituras Quando…`;
    expect(readableTitle({ title: "inspiracao-das-escrituras", sourceId: "teologia/inspiracao-das-escrituras.md" }, text)).toBe("A Inspiração das Escrituras");
  });

  it("takes the opening heading's words that spell the file's name, accents and all", () => {
    const text = "# Como Ler a Bíblia com Proveito Muitas pessoas começam…";
    expect(readableTitle({ title: "como-ler-a-biblia", sourceId: "como-ler-a-biblia.md" }, text)).toBe("Como Ler a Bíblia");
  });

  it("spells the file's name as words when nothing better is there", () => {
    expect(readableTitle({ title: "notas-soltas", sourceId: "x/notas-soltas.txt" }, "Texto sem título.")).toBe("Notas soltas");
    expect(readableTitle({ title: "", sourceId: "db:teologia/aula_1" }, "Texto.")).toBe("Aula 1");
  });
});
