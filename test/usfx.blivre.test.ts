/**
 * The USFX parser on the real Bíblia Livre file (corpus/por-blivre.usfx.xml, 4.7 MB).
 *
 * Expected counts come from /work/shared/corpus/README.md and were re-checked on the file with
 * independent shell tools:
 *   grep -o '<book id=' corpus/por-blivre.usfx.xml | wc -l   -> 66
 *   grep -o '<c id='    corpus/por-blivre.usfx.xml | wc -l   -> 1189
 *   grep -o '<v id='    corpus/por-blivre.usfx.xml | wc -l   -> 31102 (and 31102 '<ve/>')
 * Exact texts were read by eye in the XML (the lines are quoted next to each assertion).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CANON_BOOK_CODES } from "../src/core/sources/canon.js";
import { readUsfxFile } from "../src/adapters/sources/usfx-file.js";
import type { UsfxBookInfo } from "../src/core/sources/usfx.js";
import type { Verse } from "../src/core/types.js";

const FILE = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

let verses: Verse[] = [];
let books: UsfxBookInfo[] = [];
const byRef = new Map<string, Verse>();

function verse(ref: string): Verse {
  const found = byRef.get(ref);
  if (!found) throw new Error(`verse not found: ${ref}`);
  return found;
}

function text(ref: string): string {
  return verse(ref).text;
}

beforeAll(async () => {
  const seenBooks: UsfxBookInfo[] = [];
  const seen: Verse[] = [];
  for await (const v of readUsfxFile(FILE, { onBook: (info) => seenBooks.push(info) })) {
    seen.push(v);
  }
  verses = seen;
  books = seenBooks;
  for (const v of verses) byRef.set(`${v.book} ${v.chapter}:${v.verse}`, v);
});

describe("Bíblia Livre: structure", () => {
  it("has 66 books, 1,189 chapters and 31,102 verses", () => {
    expect(books).toHaveLength(66);
    expect(new Set(verses.map((v) => v.book)).size).toBe(66);
    expect(new Set(verses.map((v) => `${v.book} ${v.chapter}`)).size).toBe(1189);
    expect(books.reduce((sum, b) => sum + b.chapters, 0)).toBe(1189);
    expect(verses).toHaveLength(31102);
    expect(byRef.size).toBe(31102); // no duplicate references
  });

  it("lists the books in canonical order, all canonical", () => {
    expect(books.map((b) => b.book)).toEqual(CANON_BOOK_CODES);
    expect(verses.every((v) => v.canonical)).toBe(true);
  });

  it("stores source, chapter and verse numbers; no bridges", () => {
    const first = verses[0]!;
    expect(first).toEqual({
      source: "por-blivre.usfx.xml",
      book: "GEN",
      bookName: "Gênesis",
      canonical: true,
      chapter: 1,
      verse: 1,
      verseEnd: 1,
      text: "No princípio criou Deus os céus e a terra.",
    });
    const last = verses[verses.length - 1]!;
    expect([last.book, last.chapter, last.verse]).toEqual(["REV", 22, 21]);
    expect(verses.every((v) => v.verseEnd === v.verse)).toBe(true);
    expect(verses.every((v) => v.source === "por-blivre.usfx.xml")).toBe(true);
  });

  it("takes book names from <h>", () => {
    // <book id="GEN"><id id="GEN">Bíblia Livre (BLIVRE), …</id><h>Gênesis</h><toc level="1">Gênesis</toc>…
    expect(verse("GEN 1:1").bookName).toBe("Gênesis");
    // <h>Atos</h><toc level="1">Atos dos Apóstolos</toc><toc level="2">Atos</toc>
    expect(verse("ACT 1:1").bookName).toBe("Atos");
    expect(verse("PSA 23:1").bookName).toBe("Salmos");
    expect(verse("1JN 1:1").bookName).toBe("1 João");
    expect(books.find((b) => b.book === "REV")?.bookName).toBe("Apocalipse");
  });
});

describe("Bíblia Livre: texts", () => {
  it("matches the README spot checks", () => {
    expect(text("GEN 1:1")).toBe("No princípio criou Deus os céus e a terra.");
    expect(text("PSA 23:1")).toBe("O SENHOR é meu pastor, nada me faltará.");
    expect(text("MAT 5:44")).toBe(
      "Porém eu vos digo: amai vossos inimigos, bendizei os que vos maldizem, fazei bem aos que vos odeiam, e orai pelos que vos maltratam e vos perseguem,",
    );
    expect(text("JHN 3:16")).toBe(
      "Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito, para que todo aquele que nele crê não pereça, mas tenha a vida eterna.",
    );
    expect(text("ISA 41:10")).toBe(
      "Não temas, porque eu estou contigo; não te assombres, porque eu sou teu Deus. Eu te fortaleço, te ajudo, e te sustento com a minha mão direita de justiça.",
    );
    expect(text("LUK 15:11")).toBe("E disse: “Um certo homem tinha dois filhos.");
  });

  it("drops footnotes (<f><fr><ft>) but keeps the verse around them", () => {
    // <v id="6"/>E disse Deus: Haja expansão<f caller="+"><fr>1.6 </fr><ft>Ou: “cobertura”,
    // “firmamento” ou “abóbada”. Também nos vv. 7, 8, 14, 15, 17 e 20</ft></f> no meio das
    // águas, e separe as águas das águas.<ve/>
    const gen16 = text("GEN 1:6");
    expect(gen16).toBe("E disse Deus: Haja expansão no meio das águas, e separe as águas das águas.");
    for (const word of ["cobertura", "firmamento", "abóbada", "1.6", "vv."]) {
      expect(gen16).not.toContain(word);
    }
    // A footnote with <fk>: …assim como também o Senhor<f caller="+"><fr>5.29 </fr>
    // <fk>o Senhor </fk><ft>N4: Cristo</ft></f> à Igreja.<ve/>
    expect(text("EPH 5:29")).toBe(
      "pois ninguém jamais odiou a sua própria carne; mas a alimenta e sustenta, assim como também o Senhor à Igreja.",
    );
    // Every footnote of this edition that compares with the N4 text starts with "N4"; the
    // word never occurs in the translation itself.
    expect(verses.filter((v) => v.text.includes("N4"))).toEqual([]);
  });

  it("keeps the words of <add>", () => {
    // <v id="28"/>E como recusaram reconhecer a Deus, <add>o mesmo</add> Deus os entregou a uma
    // mente corrompida, para fazerem coisas impróprias.<ve/>
    expect(text("ROM 1:28")).toBe(
      "E como recusaram reconhecer a Deus, o mesmo Deus os entregou a uma mente corrompida, para fazerem coisas impróprias.",
    );
    // <add> and a footnote in one verse:
    // <v id="29"/><add>Assim, estão</add> cheios de toda injustiça, pecado sexual,<f …><ft>N4 não
    // contém “pecado sexual”</ft></f> malícia, …
    expect(text("ROM 1:29")).toBe(
      "Assim, estão cheios de toda injustiça, pecado sexual, malícia, ganância, maldade; estão repletos de inveja, homicídio, brigas, engano, malignidade;",
    );
  });

  it("drops <rq> reference notes, with no space left before the following punctuation", () => {
    // …que traduzido é: “Deus conosco”. <rq>Isaías 7:14</rq><ve/>
    expect(text("MAT 1:23")).toBe(
      "“Eis que a virgem conceberá, e dará à luz um filho, e chamarão seu nome Emanuel”, que traduzido é: “Deus conosco”.",
    );
    // …‘E todos serão ensinados por Deus’ <rq>Isaías 54:13</rq>. Portanto, …
    expect(text("JHN 6:45")).toBe(
      "Está escrito nos profetas: ‘E todos serão ensinados por Deus’. Portanto, todo aquele que ouviu do Pai e aprendeu, esse vem a mim.",
    );
    expect(verses.filter((v) => /Isaías \d+:\d+/.test(v.text))).toEqual([]);
  });

  it("drops psalm titles (<d>)", () => {
    // <c id="3"/><d>Salmo de Davi, quando fugia da presença de seu filho Absalão.</d><p>
    // <v id="1"/>Ah SENHOR, como têm se multiplicado meus adversários! Muitos se levantam contra mim.<ve/>
    expect(text("PSA 3:1")).toBe(
      "Ah SENHOR, como têm se multiplicado meus adversários! Muitos se levantam contra mim.",
    );
    expect(verses.filter((v) => v.text.includes("Absalão") && v.book === "PSA")).toEqual([]);
  });

  it("keeps source defects as they are (README)", () => {
    expect(text("ZEC 7:13")).toContain("tamb~em");
    expect(text("LUK 7:28").startsWith("Pois eu não há profeta maior que João")).toBe(true);
  });

  it("normalises whitespace", () => {
    const bad = verses.filter(
      (v) => v.text !== v.text.trim() || /\s{2,}|[\n\t]| [,.;:!?]/.test(v.text) || /[^\P{Cc}\n\t]/u.test(v.text),
    );
    expect(bad).toEqual([]);
  });
});

describe("Bíblia Livre: the empty verse (ACT 28:29)", () => {
  it("is emitted with empty text, between 28:28 and 28:30", () => {
    // <v id="29"/><f caller="+"><fr>28.29 </fr><ft>N4 não contém todo o versículo 29</ft></f><ve/>
    const index = verses.findIndex((v) => v.book === "ACT" && v.chapter === 28 && v.verse === 29);
    expect(index).toBeGreaterThan(0);
    expect(verses[index]).toMatchObject({ book: "ACT", chapter: 28, verse: 29, verseEnd: 29, text: "" });
    expect(verses[index - 1]).toMatchObject({ chapter: 28, verse: 28 });
    expect(verses[index + 1]).toMatchObject({ chapter: 28, verse: 30 });
    expect(verses[index + 1]!.text.startsWith("E Paulo ficou dois anos inteiros")).toBe(true);
  });

  it("is the only empty verse (README)", () => {
    const empty = verses.filter((v) => v.text === "").map((v) => `${v.book} ${v.chapter}:${v.verse}`);
    expect(empty).toEqual(["ACT 28:29"]);
  });
});

describe("Bíblia Livre: raw file sanity", () => {
  it("really has the markup the tests rely on", () => {
    const raw = readFileSync(FILE, "utf8");
    expect(raw.match(/<v id=/g)).toHaveLength(31102);
    expect(raw.match(/<f caller=/g)).toHaveLength(2537);
    expect(raw.match(/<rq>/g)).toHaveLength(200);
    expect(raw.match(/<d>/g)).toHaveLength(116);
  });
});
