/**
 * The metadata block of a lesson: well-formed, tolerated variants, malformed markers and
 * unparseable blocks.
 */
import { describe, expect, it } from "vitest";
import { splitMetaBlock } from "../src/core/sources/meta-block.js";

const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
const END = "====== FIM DOS METADADOS ======";
const BODY = "# A Trindade\n\nDeus é um em essência e três em pessoas.\n";

const BLOCK = [
  "Disciplina: Teologia Sistemática",
  "Título: A Trindade",
  "Conceitos: unidade de essência, distinção de pessoas",
  "Keywords: trindade, pericorese, homoousios",
  "Objetivos: compreender a doutrina da Trindade",
].join("\n");

const LESSON = `${HEADER}\n${BLOCK}\n${END}\n\n${BODY}`;

describe("splitMetaBlock: documents without a block", () => {
  it("reads a document without markers as legacy, with no problem", () => {
    const content = "# Aula\n\nTítulo: isto é só texto do corpo.\n";
    const split = splitMetaBlock(content);
    expect(split).toEqual({ body: content });
  });

  it("keeps an empty document as an empty legacy body", () => {
    expect(splitMetaBlock("")).toEqual({ body: "" });
  });
});

describe("splitMetaBlock: well-formed block", () => {
  it("parses every field, the block text and the body", () => {
    const split = splitMetaBlock(LESSON);
    expect(split.problem).toBeUndefined();
    expect(split.meta).toEqual({
      discipline: "Teologia Sistemática",
      title: "A Trindade",
      concepts: "unidade de essência, distinção de pessoas",
      keywords: "trindade, pericorese, homoousios",
      objectives: "compreender a doutrina da Trindade",
      fields: {
        Disciplina: "Teologia Sistemática",
        Título: "A Trindade",
        Conceitos: "unidade de essência, distinção de pessoas",
        Keywords: "trindade, pericorese, homoousios",
        Objetivos: "compreender a doutrina da Trindade",
      },
    });
    expect(split.metaText).toBe(BLOCK);
    expect(split.body).toBe(BODY);
  });

  it("trims metaText and removes the body's leading blank lines only", () => {
    const content = `${HEADER}\n\n  \n${BLOCK}\n\n${END}\n\n   \n\n    codigo indentado\nfim\n\n`;
    const split = splitMetaBlock(content);
    expect(split.problem).toBeUndefined();
    expect(split.metaText).toBe(BLOCK);
    expect(split.body).toBe("    codigo indentado\nfim\n\n");
  });

  it("gives an empty body when nothing follows the end marker", () => {
    const split = splitMetaBlock(`${HEADER}\n${BLOCK}\n${END}\n\n  \n`);
    expect(split.problem).toBeUndefined();
    expect(split.meta?.title).toBe("A Trindade");
    expect(split.body).toBe("");
  });

  it("tolerates a BOM, leading blank lines and CRLF line endings", () => {
    const content = `\uFEFF\r\n  \r\n${LESSON.replace(/\n/g, "\r\n")}`;
    const split = splitMetaBlock(content);
    expect(split.problem).toBeUndefined();
    expect(split.meta?.title).toBe("A Trindade");
    expect(split.meta?.keywords).toBe("trindade, pericorese, homoousios");
    expect(split.metaText).toBe(BLOCK);
    expect(split.body).toBe(BODY);
    expect(split.body).not.toContain("\r");
  });

  it("tolerates an unaccented, lower-case header without brackets and a sloppy end marker", () => {
    const variants: [string, string][] = [
      ["[CONCEITOS E KEYWORDS DA AULA PARA INDEXACAO LEXICA]", "=== FIM DOS METADADOS ==="],
      ["  [conceitos e keywords da aula para indexação léxica]  ", "==========fim dos metadados=========="],
      ["Conceitos e Keywords da Aula para Indexacao Lexica", "===  Fim  dos  Metadados  ======="],
    ];
    for (const [header, end] of variants) {
      const split = splitMetaBlock(`${header}\n${BLOCK}\n${end}\n${BODY}`);
      expect(split.problem, `${header} / ${end}`).toBeUndefined();
      expect(split.meta?.title).toBe("A Trindade");
      expect(split.body).toBe(BODY);
    }
  });

  it("does not take an end marker with fewer than 3 '=' for the end marker", () => {
    const split = splitMetaBlock(`${HEADER}\n${BLOCK}\n== FIM DOS METADADOS ==\n${BODY}`);
    expect(split.problem?.code).toBe("meta_block_malformed");
    expect(split.body).toBe(`${HEADER}\n${BLOCK}\n== FIM DOS METADADOS ==\n${BODY}`);
  });

  it("matches field names case- and accent-insensitively, with synonyms", () => {
    const block = [
      "DISCIPLINA: Cristologia",
      "Titulo: As duas naturezas",
      "CONCEITOS: união hipostática",
      "Palavras-chave: kenosis, calcedônia",
      "objetivo: distinguir as naturezas",
    ].join("\n");
    const split = splitMetaBlock(`${HEADER}\n${block}\n${END}\ncorpo`);
    expect(split.problem).toBeUndefined();
    expect(split.meta).toMatchObject({
      discipline: "Cristologia",
      title: "As duas naturezas",
      concepts: "união hipostática",
      keywords: "kenosis, calcedônia",
      objectives: "distinguir as naturezas",
    });
    expect(split.meta?.fields["Palavras-chave"]).toBe("kenosis, calcedônia");
    expect(split.meta?.fields["Titulo"]).toBe("As duas naturezas");

    const upper = splitMetaBlock(`${HEADER}\nTÍTULO: Maiúsculo\n${END}\n`);
    expect(upper.meta?.title).toBe("Maiúsculo");
  });

  it("keeps unknown fields in `fields` only", () => {
    const split = splitMetaBlock(`${HEADER}\nTítulo: X\nProfessor: Fulano\n${END}\ncorpo`);
    expect(split.meta?.fields).toEqual({ Título: "X", Professor: "Fulano" });
    expect(split.meta?.title).toBe("X");
    expect(Object.keys(split.meta ?? {}).sort()).toEqual(["fields", "title"]);
  });

  it("continues a value on indented and on non-field lines, joined by single spaces", () => {
    const block = [
      "Título: A Trindade",
      "Conceitos: unidade de essência,",
      "  distinção de pessoas,",
      "pericorese",
      "Objetivos:",
      "- compreender João 3:16 no contexto",
      "",
      "- ver https://example.org/trindade",
      "Keywords: trindade",
    ].join("\n");
    const split = splitMetaBlock(`${HEADER}\n${block}\n${END}\ncorpo`);
    expect(split.problem).toBeUndefined();
    expect(split.meta?.concepts).toBe("unidade de essência, distinção de pessoas, pericorese");
    expect(split.meta?.objectives).toBe(
      "- compreender João 3:16 no contexto - ver https://example.org/trindade",
    );
    expect(split.meta?.keywords).toBe("trindade");
    expect(Object.keys(split.meta?.fields ?? {})).toEqual(["Título", "Conceitos", "Objetivos", "Keywords"]);
    // metaText keeps the original layout.
    expect(split.metaText).toBe(block);
  });

  it("treats an indented line with a colon as a continuation, not a new field", () => {
    const split = splitMetaBlock(`${HEADER}\nConceitos: graça\n  Nota: comum e especial\n${END}\n`);
    expect(split.meta?.concepts).toBe("graça Nota: comum e especial");
    expect(split.meta?.fields).toEqual({ Conceitos: "graça Nota: comum e especial" });
  });

  it("parses a block indented as a whole", () => {
    const split = splitMetaBlock(`${HEADER}\n  Título: Recuado\n  Keywords: a, b\n    c\n${END}\n`);
    expect(split.problem).toBeUndefined();
    expect(split.meta?.title).toBe("Recuado");
    expect(split.meta?.keywords).toBe("a, b c");
  });

  it("joins repeated fields and synonyms of one property", () => {
    const split = splitMetaBlock(`${HEADER}\nKeywords: a, b\nPalavras-chave: c\nKeywords: d\n${END}\n`);
    expect(split.meta?.keywords).toBe("a, b c d");
    expect(split.meta?.fields).toEqual({ Keywords: "a, b d", "Palavras-chave": "c" });
  });

  it("leaves an empty known field undefined", () => {
    const split = splitMetaBlock(`${HEADER}\nTítulo:\nKeywords: x\n${END}\n`);
    expect(split.problem).toBeUndefined();
    expect(split.meta?.title).toBeUndefined();
    expect(split.meta?.fields["Título"]).toBe("");
  });

  it("ends the block at the first end marker; later markers belong to the body", () => {
    const body = `texto\n${END}\nmais texto\n${HEADER}\n`;
    const split = splitMetaBlock(`${HEADER}\n${BLOCK}\n${END}\n${body}`);
    expect(split.problem).toBeUndefined();
    expect(split.body).toBe(body);
  });
});

describe("splitMetaBlock: malformed markers", () => {
  const cases: [string, string][] = [
    ["only the header", `${HEADER}\n${BLOCK}\n\n${BODY}`],
    ["only the end marker", `${BLOCK}\n${END}\n\n${BODY}`],
    ["the end marker before the header", `${END}\n${BLOCK}\n${HEADER}\n${BODY}`],
    ["text before the header", `Introdução\n${HEADER}\n${BLOCK}\n${END}\n${BODY}`],
    ["a second header inside the block", `${HEADER}\n${BLOCK}\n${HEADER}\nTítulo: B\n${END}\n${BODY}`],
    ["an end marker with a BOM and CRLF, no header", `\uFEFF${BLOCK}\r\n${END}\r\n${BODY}`],
  ];
  for (const [name, content] of cases) {
    it(`${name} → meta_block_malformed, the whole content as body`, () => {
      const split = splitMetaBlock(content);
      expect(split.problem?.code).toBe("meta_block_malformed");
      expect(split.problem?.detail).toMatch(/\S/);
      expect(split.body).toBe(content);
      expect(split.meta).toBeUndefined();
      expect(split.metaText).toBeUndefined();
    });
  }

  it("explains the problem in Portuguese", () => {
    expect(splitMetaBlock(`${HEADER}\nTítulo: X\n`).problem?.detail).toContain("marcador de fim");
    expect(splitMetaBlock(`Título: X\n${END}\n`).problem?.detail).toContain("sem o cabeçalho");
    expect(splitMetaBlock(`${END}\n${HEADER}\n`).problem?.detail).toContain("antes do cabeçalho");
  });
});

describe("splitMetaBlock: unparseable blocks", () => {
  const cases: [string, string][] = [
    ["an empty block", `${HEADER}\n${END}\n${BODY}`],
    ["a blank block", `${HEADER}\n  \n\n${END}\n${BODY}`],
    ["a block without any Name: value line", `${HEADER}\nsó texto solto\nsem campos\n${END}\n${BODY}`],
    ["text before the first field", `${HEADER}\nprimeira linha solta\nTítulo: A\n${END}\n${BODY}`],
    ["a block of URLs and references only", `${HEADER}\nhttps://example.org\nJoão 3:16\n${END}\n${BODY}`],
  ];
  for (const [name, content] of cases) {
    it(`${name} → meta_block_parse_error, the whole content as body`, () => {
      const split = splitMetaBlock(content);
      expect(split.problem?.code).toBe("meta_block_parse_error");
      expect(split.problem?.detail).toMatch(/\S/);
      expect(split.body).toBe(content);
      expect(split.meta).toBeUndefined();
      expect(split.metaText).toBeUndefined();
    });
  }

  it("names the offending document line", () => {
    const split = splitMetaBlock(`${HEADER}\nsolta\nTítulo: A\n${END}\n`);
    expect(split.problem?.detail).toContain("linha 2");
  });
});
