import { describe, expect, it } from "vitest";
import { BOOKS, aliasKind, bookAliases, bookByCode, foldText, resolveBookName } from "../src/core/bible/books.js";
import {
  type BibleReference,
  type Versification,
  buildVersification,
  expandReference,
  findQueryReferences,
  findReferences,
  formatReference,
  formatReferences,
  parseReference,
  referencePrefixLength,
  validateReference,
} from "../src/core/bible/references.js";

/** Shorthand for a span. */
function ref(book: string, cs: number, vs?: number, ce: number = cs, ve: number | undefined = vs): BibleReference {
  const r: BibleReference = { book, chapterStart: cs, chapterEnd: ce };
  if (vs !== undefined) r.verseStart = vs;
  if (ve !== undefined) r.verseEnd = ve;
  return r;
}

function parsed(text: string): BibleReference[] {
  const result = parseReference(text);
  if (!result.ok) throw new Error(`${text}: ${result.code} ${result.message}`);
  return result.references;
}

/** [matched text, book codes and formatted spans] for every match. */
function found(text: string): Array<[string, string]> {
  return findReferences(text).map((m) => [m.text, formatReferences(m.references)]);
}

describe("books", () => {
  it("lists the 66 books in canonical order with their codes and canonical names", () => {
    expect(BOOKS).toHaveLength(66);
    expect(BOOKS.map((b) => b.code).join(" ")).toBe(
      "GEN EXO LEV NUM DEU JOS JDG RUT 1SA 2SA 1KI 2KI 1CH 2CH EZR NEH EST JOB PSA PRO ECC SNG ISA JER LAM " +
        "EZK DAN HOS JOL AMO OBA JON MIC NAM HAB ZEP HAG ZEC MAL MAT MRK LUK JHN ACT ROM 1CO 2CO GAL EPH PHP " +
        "COL 1TH 2TH 1TI 2TI TIT PHM HEB JAS 1PE 2PE 1JN 2JN 3JN JUD REV",
    );
    expect(BOOKS.map((b) => b.name)).toEqual([
      "Gênesis", "Êxodo", "Levítico", "Números", "Deuteronômio", "Josué", "Juízes", "Rute", "1 Samuel",
      "2 Samuel", "1 Reis", "2 Reis", "1 Crônicas", "2 Crônicas", "Esdras", "Neemias", "Ester", "Jó", "Salmos",
      "Provérbios", "Eclesiastes", "Cânticos", "Isaías", "Jeremias", "Lamentações", "Ezequiel", "Daniel",
      "Oseias", "Joel", "Amós", "Obadias", "Jonas", "Miqueias", "Naum", "Habacuque", "Sofonias", "Ageu",
      "Zacarias", "Malaquias", "Mateus", "Marcos", "Lucas", "João", "Atos", "Romanos", "1 Coríntios",
      "2 Coríntios", "Gálatas", "Efésios", "Filipenses", "Colossenses", "1 Tessalonicenses",
      "2 Tessalonicenses", "1 Timóteo", "2 Timóteo", "Tito", "Filemom", "Hebreus", "Tiago", "1 Pedro",
      "2 Pedro", "1 João", "2 João", "3 João", "Judas", "Apocalipse",
    ]);
    expect(BOOKS.map((b) => b.order)).toEqual(BOOKS.map((_, i) => i + 1));
    expect(BOOKS.filter((b) => b.testament === "old")).toHaveLength(39);
    expect(bookByCode("JHN")?.name).toBe("João");
    expect(bookByCode("jhn")).toBeUndefined();
    expect(BOOKS.filter((b) => b.chapters === 1).map((b) => b.code)).toEqual(["OBA", "PHM", "2JN", "3JN", "JUD"]);
  });

  const aliasTable = BOOKS.flatMap((book) => bookAliases(book).map((alias) => [alias, book.code] as const));

  it(`resolves every one of the ${aliasTable.length} spellings (as written, lower, upper case)`, () => {
    const wrong: string[] = [];
    for (const [alias, code] of aliasTable) {
      for (const variant of [alias, alias.toLowerCase(), alias.toUpperCase(), ` ${alias}. `]) {
        if (resolveBookName(variant)?.code !== code) wrong.push(`${variant} → ${resolveBookName(variant)?.code} (≠ ${code})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("resolves every spelling without accents too (except Jó, whose accent is what tells it from Jo)", () => {
    const wrong: string[] = [];
    for (const [alias, code] of aliasTable) {
      if (code === "JOB") continue;
      const bare = alias.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      if (resolveBookName(bare)?.code !== code) wrong.push(`${bare} → ${resolveBookName(bare)?.code} (≠ ${code})`);
    }
    expect(wrong).toEqual([]);
  });

  it("parses every spelling followed by a chapter and verse, and finds it in free text", () => {
    const wrong: string[] = [];
    for (const [alias, code] of aliasTable) {
      const alone = parseReference(`${alias} 1:1`);
      if (!alone.ok || alone.book.code !== code || alone.references[0]?.book !== code) wrong.push(`parse ${alias}`);
      const text = `Leia ${alias} 1:1, por favor.`;
      const matches = findReferences(text);
      if (matches.length !== 1 || matches[0]?.references[0]?.book !== code || matches[0].start !== 5) {
        wrong.push(`find ${alias}: ${JSON.stringify(matches)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ["Gênesis", "GEN"], ["Gn", "GEN"], ["Gên", "GEN"], ["Êxodo", "EXO"], ["Êx", "EXO"], ["Ex", "EXO"],
    ["Levítico", "LEV"], ["Lv", "LEV"], ["Números", "NUM"], ["Nm", "NUM"], ["Deuteronômio", "DEU"], ["Dt", "DEU"],
    ["Josué", "JOS"], ["Js", "JOS"], ["Juízes", "JDG"], ["Jz", "JDG"], ["Rute", "RUT"], ["Rt", "RUT"],
    ["1 Samuel", "1SA"], ["1Sm", "1SA"], ["1 Sm", "1SA"], ["I Samuel", "1SA"], ["1º Samuel", "1SA"],
    ["2 Samuel", "2SA"], ["II Sm", "2SA"], ["1 Reis", "1KI"], ["2Rs", "2KI"], ["Segundo Reis", "2KI"],
    ["1 Crônicas", "1CH"], ["2 Cr", "2CH"], ["Esdras", "EZR"], ["Ed", "EZR"], ["Neemias", "NEH"], ["Ne", "NEH"],
    ["Ester", "EST"], ["Et", "EST"], ["Jó", "JOB"], ["Salmos", "PSA"], ["Salmo", "PSA"], ["Sl", "PSA"],
    ["Provérbios", "PRO"], ["Pv", "PRO"], ["Eclesiastes", "ECC"], ["Ec", "ECC"], ["Cânticos", "SNG"],
    ["Cântico dos Cânticos", "SNG"], ["Cantares", "SNG"], ["Ct", "SNG"], ["Isaías", "ISA"], ["Is", "ISA"],
    ["Jeremias", "JER"], ["Jr", "JER"], ["Lamentações", "LAM"], ["Lm", "LAM"], ["Ezequiel", "EZK"], ["Ez", "EZK"],
    ["Daniel", "DAN"], ["Dn", "DAN"], ["Oseias", "HOS"], ["Oséias", "HOS"], ["Os", "HOS"], ["Joel", "JOL"],
    ["Jl", "JOL"], ["Amós", "AMO"], ["Am", "AMO"], ["Obadias", "OBA"], ["Ob", "OBA"], ["Jonas", "JON"],
    ["Jn", "JON"], ["Miqueias", "MIC"], ["Miquéias", "MIC"], ["Mq", "MIC"], ["Naum", "NAM"], ["Na", "NAM"],
    ["Habacuque", "HAB"], ["Hc", "HAB"], ["Sofonias", "ZEP"], ["Sf", "ZEP"], ["Ageu", "HAG"], ["Ag", "HAG"],
    ["Zacarias", "ZEC"], ["Zc", "ZEC"], ["Malaquias", "MAL"], ["Ml", "MAL"], ["Mateus", "MAT"], ["Mt", "MAT"],
    ["Marcos", "MRK"], ["Mc", "MRK"], ["Lucas", "LUK"], ["Lc", "LUK"], ["João", "JHN"], ["Jo", "JHN"],
    ["Atos", "ACT"], ["At", "ACT"], ["Romanos", "ROM"], ["Rm", "ROM"], ["1 Coríntios", "1CO"], ["1Co", "1CO"],
    ["1 Co", "1CO"], ["I Coríntios", "1CO"], ["1ª Coríntios", "1CO"], ["1a Coríntios", "1CO"],
    ["Primeira Coríntios", "1CO"], ["2 Coríntios", "2CO"], ["Segunda Coríntios", "2CO"], ["Gálatas", "GAL"],
    ["Gl", "GAL"], ["Efésios", "EPH"], ["Ef", "EPH"], ["Filipenses", "PHP"], ["Fp", "PHP"],
    ["Colossenses", "COL"], ["Cl", "COL"], ["1 Tessalonicenses", "1TH"], ["2Ts", "2TH"], ["1 Timóteo", "1TI"],
    ["2Tm", "2TI"], ["Tito", "TIT"], ["Tt", "TIT"], ["Filemom", "PHM"], ["Fm", "PHM"], ["Hebreus", "HEB"],
    ["Hb", "HEB"], ["Tiago", "JAS"], ["Tg", "JAS"], ["1 Pedro", "1PE"], ["2Pe", "2PE"], ["1 João", "1JN"],
    ["1Jo", "1JN"], ["2 Jo", "2JN"], ["III João", "3JN"], ["Terceira João", "3JN"], ["Judas", "JUD"],
    ["Jd", "JUD"], ["Apocalipse", "REV"], ["Ap", "REV"], ["GENESIS", "GEN"], ["gn", "GEN"], ["1COR", "1CO"],
    ["1°Samuel", "1SA"], ["1.ª Coríntios", "1CO"],
  ])("%s → %s", (name, code) => {
    expect(resolveBookName(name)?.code).toBe(code);
  });

  it.each(["", "  ", "Xyz", "Coríntios", "Pedro", "Samuel", "Reis", "3 Coríntios", "4 Reis", "Jô", "Jò", "Gn Gn"])(
    "does not resolve %j",
    (name) => {
      expect(resolveBookName(name)).toBeUndefined();
    },
  );

  it("keeps Jó (Job) and Jo (João) apart whatever the case", () => {
    for (const name of ["Jó", "jó", "JÓ", "jÓ"]) expect(resolveBookName(name)?.code).toBe("JOB");
    for (const name of ["Jo", "jo", "JO", "jO", "João", "joao", "JOÃO"]) expect(resolveBookName(name)?.code).toBe("JHN");
    expect(parsed("Jo 3:16")).toEqual([ref("JHN", 3, 16)]);
    expect(parsed("Jó 3:16")).toEqual([ref("JOB", 3, 16)]);
    expect(parsed("jó 3:16")).toEqual([ref("JOB", 3, 16)]);
    expect(parsed("JO 3:16")).toEqual([ref("JHN", 3, 16)]);
    expect(parsed("JÓ 42")).toEqual([ref("JOB", 42)]);
    expect(found("Compare Jó 19:25 com Jo 11:25.")).toEqual([
      ["Jó 19:25", "Jó 19:25"],
      ["Jo 11:25", "João 11:25"],
    ]);
    // numbered books have no such clash: 1 Jó can only be 1 João
    expect(parsed("1 Jó 1:9")).toEqual([ref("1JN", 1, 9)]);
  });

  it("classifies spellings that are ordinary words", () => {
    expect(aliasKind("Os")).toBe("strict");
    expect(aliasKind("na")).toBe("strict");
    expect(aliasKind("Ex")).toBe("strict");
    expect(aliasKind("Êx")).toBe("free");
    expect(aliasKind("Atos")).toBe("capital");
    expect(aliasKind("números")).toBe("capital");
    expect(aliasKind("Numeros")).toBe("capital");
    expect(aliasKind("Gn")).toBe("free");
    expect(aliasKind("Jo")).toBe("free");
  });

  it("folds without changing length", () => {
    const s = "Gênesis ÊXODO Ação çÇ ñ İ 1° – “x”";
    expect(foldText(s)).toHaveLength(s.length);
    expect(foldText("Gênesis ÊXODO Ação 1°")).toBe("genesis exodo acao 1º");
  });
});

describe("parseReference", () => {
  it.each<[string, BibleReference[]]>([
    ["João 3:16", [ref("JHN", 3, 16)]],
    ["Jo 3.16", [ref("JHN", 3, 16)]],
    ["João 3,16", [ref("JHN", 3, 16)]],
    ["Jo 3:16-18", [ref("JHN", 3, 16, 3, 18)]],
    ["1 Co 13:4-7", [ref("1CO", 13, 4, 13, 7)]],
    ["1Co 13:4-7", [ref("1CO", 13, 4, 13, 7)]],
    ["Salmo 23", [ref("PSA", 23)]],
    ["Salmos 23", [ref("PSA", 23)]],
    ["Gn 1-2", [ref("GEN", 1, undefined, 2)]],
    ["Rm 3:23; 6:23", [ref("ROM", 3, 23), ref("ROM", 6, 23)]],
    ["Jo 3:16,18", [ref("JHN", 3, 16), ref("JHN", 3, 18)]],
    ["Jo 3:16, 18-20", [ref("JHN", 3, 16), ref("JHN", 3, 18, 3, 20)]],
    ["Jo 3.16,18", [ref("JHN", 3, 16), ref("JHN", 3, 18)]],
    ["Jo 3,16.18", [ref("JHN", 3, 16), ref("JHN", 3, 18)]],
    ["Jo 3,16-18; 4,1", [ref("JHN", 3, 16, 3, 18), ref("JHN", 4, 1)]],
    ["Jo 3:16, 4:1", [ref("JHN", 3, 16), ref("JHN", 4, 1)]],
    ["Rm 3:23 e 6:23", [ref("ROM", 3, 23), ref("ROM", 6, 23)]],
    ["Gn 1:31-2:3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1:31–2:3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1:31—2:3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1:31 – 2:3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1.31-2.3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1,31-2,3", [ref("GEN", 1, 31, 2, 3)]],
    ["Gn 1-2:3", [ref("GEN", 1, 1, 2, 3)]],
    ["Mt 5–7", [ref("MAT", 5, undefined, 7)]],
    ["Sl 23; 91; 121", [ref("PSA", 23), ref("PSA", 91), ref("PSA", 121)]],
    ["Jo 3:16-18; 4:1-5, 7", [ref("JHN", 3, 16, 3, 18), ref("JHN", 4, 1, 4, 5), ref("JHN", 4, 7)]],
    ["João capítulo 3 versículo 16", [ref("JHN", 3, 16)]],
    ["João capítulo 3, versículos 16 a 18", [ref("JHN", 3, 16, 3, 18)]],
    ["João capítulo 3, versículos 16, 17 e 18", [ref("JHN", 3, 16), ref("JHN", 3, 17), ref("JHN", 3, 18)]],
    ["João 3, versículo 16", [ref("JHN", 3, 16)]],
    ["Jo cap. 3 v. 16", [ref("JHN", 3, 16)]],
    ["Salmos capítulos 1 a 3", [ref("PSA", 1, undefined, 3)]],
    ["João 7:53 a 8:11", [ref("JHN", 7, 53, 8, 11)]],
    ["Jo 3:16 a 18", [ref("JHN", 3, 16, 3, 18)]],
    ["Jo 3:16a", [ref("JHN", 3, 16)]],
    ["Jo 3:16b-18a", [ref("JHN", 3, 16, 3, 18)]],
    ["Jo 3:16ss", [ref("JHN", 3, 16)]],
    ["  jo 3:16.  ", [ref("JHN", 3, 16)]],
    ["jo3:16", [ref("JHN", 3, 16)]],
    ["Gn. 1:1", [ref("GEN", 1, 1)]],
    ["gênesis 1:1", [ref("GEN", 1, 1)]],
    ["GENESIS 1:1", [ref("GEN", 1, 1)]],
    ["Sl 119:105", [ref("PSA", 119, 105)]],
    ["Sl 119.176", [ref("PSA", 119, 176)]],
    ["I Coríntios 13", [ref("1CO", 13)]],
    ["Primeira Coríntios 13:13", [ref("1CO", 13, 13)]],
    ["1ª Co 13", [ref("1CO", 13)]],
    ["II Reis 5", [ref("2KI", 5)]],
    ["Cântico dos Cânticos 2:1", [ref("SNG", 2, 1)]],
    ["Atos dos Apóstolos 2:38", [ref("ACT", 2, 38)]],
    // ambiguity classes do not apply to a string that is a reference on its own
    ["os 6.6", [ref("HOS", 6, 6)]],
    ["na 1", [ref("NAM", 1)]],
    ["atos 2", [ref("ACT", 2)]],
    // single-chapter books are cited by verse
    ["Judas 3", [ref("JUD", 1, 3)]],
    ["Jd 3-5", [ref("JUD", 1, 3, 1, 5)]],
    ["Jd 24, 25", [ref("JUD", 1, 24), ref("JUD", 1, 25)]],
    ["Fm 1:10", [ref("PHM", 1, 10)]],
    ["3 Jo 4", [ref("3JN", 1, 4)]],
    ["Obadias 1", [ref("OBA", 1)]],
    ["Ob 1-4", [ref("OBA", 1, 1, 1, 4)]],
    // syntactic only: existence is checked by validateReference
    ["João 30:1", [ref("JHN", 30, 1)]],
    ["Sl 23:99", [ref("PSA", 23, 99)]],
    ["Jo 3:18-16", [ref("JHN", 3, 18, 3, 16)]],
  ])("%s", (text, expected) => {
    expect(parsed(text)).toEqual(expected);
  });

  it("returns the book with the spans", () => {
    const result = parseReference("1 Co 13:4-7");
    expect(result.ok && result.book.code).toBe("1CO");
  });

  it.each<[string, string, RegExp]>([
    ["", "empty", /Informe/],
    ["   ", "empty", /Informe/],
    ["Xyz 3:16", "unknown_book", /não reconhecido: “Xyz”/],
    ["3:16", "unknown_book", /Falta o nome do livro/],
    ["Coríntios 13", "unknown_book", /Coríntios/],
    ["João", "missing_chapter", /Falta o capítulo.*João/],
    ["1 Co", "missing_chapter", /1 Coríntios/],
    ["Jo abc", "invalid_syntax", /malformada/],
    ["Jo 3:16 e mais", "invalid_syntax", /texto inesperado após “Jo 3:16”/],
    ["Jo 3:", "invalid_syntax", /malformada/],
    ["Jo 0:1", "invalid_syntax", /malformada/],
    ["Jo 03:16", "invalid_syntax", /malformada/],
    ["Sl 1234", "invalid_syntax", /malformada/],
    ["Sl 23.000", "invalid_syntax", /malformada/],
    ["Rm 3:23; Ef 2:8", "invalid_syntax", /malformada/],
    ["2 Gn 3", "invalid_syntax", /malformada/],
  ])("rejects %j (%s)", (text, code, message) => {
    const result = parseReference(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message).toMatch(message);
    }
  });
});

describe("references typed in a search box: chapter and verse apart by a space", () => {
  it("parses a whole text ending in two numbers as chapter and verse (or range)", () => {
    expect(parsed("jo 3 16")).toEqual([ref("JHN", 3, 16)]);
    expect(parsed("ap 21 4")).toEqual([ref("REV", 21, 4)]);
    expect(parsed("2 timoteo 3 16")).toEqual([ref("2TI", 3, 16)]);
    expect(parsed("proverbios 3 5-6")).toEqual([ref("PRO", 3, 5, 3, 6)]);
    expect(parsed("1 Reis 3 16?")).toEqual([ref("1KI", 3, 16)]);
    // Still refused: prose after it, a number alone, no book.
    for (const text of ["Jo 3 16 e mais", "Sl 1234", "3 16", "salmo 23 1 vez"]) expect(parseReference(text).ok).toBe(false);
  });

  it("reads a whole query as one reference, and a query ending in 'chapter verse' with its last reference", () => {
    const spans = (query: string) => findQueryReferences(query).map((m) => [query.slice(m.start, m.end), formatReferences(m.references)]);
    expect(spans("ap 21 4")).toEqual([["ap 21 4", "Apocalipse 21:4"]]);
    expect(spans(" filipenses 4 13 ")).toEqual([["filipenses 4 13", "Filipenses 4:13"]]);
    expect(spans("o que diz jo 3 16?")).toEqual([["jo 3 16", "João 3:16"]]);
    expect(spans("leia Salmo 23 e Jo 3:16")).toEqual([["Salmo 23", "Salmos 23"], ["Jo 3:16", "João 3:16"]]);
    // A number that is not a verse stays prose; ordinary words stay words.
    expect(spans("Salmo 23 1 vez por dia")).toEqual([["Salmo 23", "Salmos 23"]]);
    expect(spans("os 3 homens")).toEqual([]);
  });
});

describe("findReferences", () => {
  it("finds several references in one sentence, with offsets into the original text", () => {
    const text = "Deus amou o mundo (Jo 3:16), e “o salário do pecado é a morte” (Rm 6:23); veja também 1 Co 13:4-7.";
    const matches = findReferences(text);
    expect(matches.map((m) => [m.text, m.start, m.end])).toEqual([
      ["Jo 3:16", 19, 26],
      ["Rm 6:23", 64, 71],
      ["1 Co 13:4-7", 86, 97],
    ]);
    for (const m of matches) expect(text.slice(m.start, m.end)).toBe(m.text);
    expect(matches.map((m) => m.references)).toEqual([
      [ref("JHN", 3, 16)],
      [ref("ROM", 6, 23)],
      [ref("1CO", 13, 4, 13, 7)],
    ]);
  });

  it("counts offsets in UTF-16 units after accents, emoji and curly quotes", () => {
    const text = "🙏 “Ação de graças”: Salmos 100:4–5 — e também Êxodo 15:2.";
    const matches = findReferences(text);
    expect(matches.map((m) => text.slice(m.start, m.end))).toEqual(["Salmos 100:4–5", "Êxodo 15:2"]);
    expect(matches[0]?.start).toBe(text.indexOf("Salmos"));
  });

  it.each<[string, Array<[string, string]>]>([
    ["Como diz João 3:16, Deus amou o mundo.", [["João 3:16", "João 3:16"]]],
    ["Leia Romanos 3:23; 6:23 e Efésios 2:8-9.", [["Romanos 3:23; 6:23", "Romanos 3:23; 6:23"], ["Efésios 2:8-9", "Efésios 2:8-9"]]],
    ["O Salmo 23 é conhecido; o salmo 91 também.", [["Salmo 23", "Salmos 23"], ["salmo 91", "Salmos 91"]]],
    ["Em Gênesis 1–2 lemos a criação.", [["Gênesis 1–2", "Gênesis 1-2"]]],
    ["(cf. Gn 1:31–2:3)", [["Gn 1:31–2:3", "Gênesis 1:31-2:3"]]],
    ["[Mt 5:3-12]", [["Mt 5:3-12", "Mateus 5:3-12"]]],
    ["Veja Jo 3:16,18 e também 1 Jo 4:8.", [["Jo 3:16,18", "João 3:16, 18"], ["1 Jo 4:8", "1 João 4:8"]]],
    ["Veja Jo 3:16, 1 Jo 4:8 e Ap 21.", [["Jo 3:16", "João 3:16"], ["1 Jo 4:8", "1 João 4:8"], ["Ap 21", "Apocalipse 21"]]],
    ["Rm 3:23 e 6:23 mostram isso.", [["Rm 3:23 e 6:23", "Romanos 3:23; 6:23"]]],
    ["No livro de Atos 2 vemos o Pentecostes.", [["Atos 2", "Atos 2"]]],
    ["como em atos 2:38, arrependei-vos", [["atos 2:38", "Atos 2:38"]]],
    ["O profeta diz em Os 6:6 que Deus quer misericórdia.", [["Os 6:6", "Oseias 6:6"]]],
    ["Naum começa assim: Na 1:7.", [["Na 1:7", "Naum 1:7"]]],
    ["Is 53 fala do servo sofredor; Is 53.5 em especial.", [["Is 53", "Isaías 53"], ["Is 53.5", "Isaías 53:5"]]],
    ["Judas 3 exorta a batalhar pela fé.", [["Judas 3", "Judas 1:3"]]],
    ["João capítulo 3 versículo 16 é famoso.", [["João capítulo 3 versículo 16", "João 3:16"]]],
    ["Lemos em Jo 3:16a que Deus amou.", [["Jo 3:16a", "João 3:16"]]],
    ["Ver Ex 20:1-17 (os Dez Mandamentos).", [["Ex 20:1-17", "Êxodo 20:1-17"]]],
    ["Ver Êx 20 inteiro.", [["Êx 20", "Êxodo 20"]]],
    ["Jó 19:25: “Eu sei que o meu Redentor vive”.", [["Jó 19:25", "Jó 19:25"]]],
    ["Segundo Sl. 119.105, a palavra é lâmpada.", [["Sl. 119.105", "Salmos 119:105"]]],
    ["João 3,16 na tradução católica.", [["João 3,16", "João 3:16"]]],
    ["Amós 5:24 e Am 5 inteiro.", [["Amós 5:24", "Amós 5:24"], ["Am 5", "Amós 5"]]],
    ["Como em Fm 6.", [["Fm 6", "Filemom 1:6"]]],
    ["Jo 3:16 - o versículo mais citado.", [["Jo 3:16", "João 3:16"]]],
    ["Salmos 23, 24 e 25.", [["Salmos 23", "Salmos 23"]]],
  ])("%s", (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each([
    "os 3 homens saíram cedo",
    "Os 3 homens saíram cedo",
    "Os 3,5 milhões de fiéis",
    "Os 3.000 convertidos do Pentecostes",
    "Na casa de meu Pai há muitas moradas.",
    "Na 2ª feira haverá culto.",
    "na 1:30 da manhã",
    "Ele é a luz do mundo.",
    "Tome 200 ml 3 vezes ao dia.",
    "Os números 3 e 7 são primos.",
    "os juízes 3 vezes julgaram",
    "Ex. 1: a casa; ex. 2: o templo",
    "o ex 3 vezes campeão",
    "Ed. 3, revista e ampliada",
    "Mal 3 dias depois, ele voltou.",
    "Rádio FM 98 e AM 980.",
    "Apartamento ap 302.",
    "Jó sofreu muito.",
    "João tem 3 irmãos.",
    "Atos dos Apóstolos",
    "Números 3ª edição",
    "Gn1 não é uma referência; nem Gênesis3.",
    "João. 3 pessoas vieram.",
    "Capítulo 3 versículo 16",
    "Sl 23.000",
    "A inflação foi de Is 5% ao ano",
    "Cor 3 de cabelo",
    "Pedro 3 vezes negou",
    "MP3 e CO2",
    "Jo 0:1 e Jo 3:000",
  ])("finds nothing in %j", (text) => {
    expect(findReferences(text)).toEqual([]);
  });

  it("finds nothing in a long ordinary Portuguese passage", () => {
    const text =
      "No princípio criou Deus os céus e a terra. E a terra estava desordenada e vazia; os 3 rapazes " +
      "ficaram na casa, e na 1ª hora da manhã foram ao mercado. Ele é a luz, e os números 10 e 20 " +
      "aparecem na 2ª parte. Em 1 ano e 2 meses, os 12 apóstolos e os 70 discípulos saíram, às 3:30.";
    expect(findReferences(text)).toEqual([]);
  });

  it("scans a long text quickly (one precompiled regex, linear scan)", () => {
    const chunk = "E disse Deus: haja luz; e houve luz, como está em Gn 1:3 e Jo 1:4-5. Os 3 homens na casa. ";
    const text = chunk.repeat(5000); // ~450 KB
    const t0 = performance.now();
    const matches = findReferences(text);
    const ms = performance.now() - t0;
    expect(matches).toHaveLength(10_000);
    expect(ms).toBeLessThan(2000);
  });
});

describe("formatReference", () => {
  it.each<[BibleReference, string]>([
    [ref("JHN", 3, 16), "João 3:16"],
    [ref("1CO", 13, 4, 13, 7), "1 Coríntios 13:4-7"],
    [ref("PSA", 23), "Salmos 23"],
    [ref("PSA", 23, 1), "Salmos 23:1"],
    [ref("GEN", 1, undefined, 2), "Gênesis 1-2"],
    [ref("GEN", 1, 31, 2, 3), "Gênesis 1:31-2:3"],
    [ref("JUD", 1, 3), "Judas 1:3"],
    [ref("OBA", 1), "Obadias 1"],
    [ref("JOB", 42, 5), "Jó 42:5"],
    [{ book: "GEN", chapterStart: 1, chapterEnd: 2, verseEnd: 3 }, "Gênesis 1:1-2:3"],
  ])("%j → %s", (r, text) => {
    expect(formatReference(r)).toBe(text);
    expect(parsed(text)).toEqual([r.verseStart === undefined && r.verseEnd !== undefined ? { ...r, verseStart: 1 } : r]);
  });

  it("formats lists compactly and parses them back", () => {
    const refs = [ref("ROM", 3, 23), ref("ROM", 6, 23)];
    expect(formatReferences(refs)).toBe("Romanos 3:23; 6:23");
    const list = [ref("JHN", 3, 16), ref("JHN", 3, 18, 3, 20), ref("JHN", 4, 1)];
    expect(formatReferences(list)).toBe("João 3:16, 18-20; 4:1");
    expect(parsed(formatReferences(list))).toEqual(list);
    expect(formatReferences([ref("JHN", 3, 16), ref("1JN", 4, 8)])).toBe("João 3:16; 1 João 4:8");
    expect(formatReferences([])).toBe("");
  });

  it("refuses a span with a start verse but no end verse", () => {
    expect(() => formatReference({ book: "JHN", chapterStart: 3, verseStart: 16, chapterEnd: 3 })).toThrow(TypeError);
  });
});

describe("validateReference / expandReference", () => {
  // A small hand-made versification (counts from the Bíblia Livre): the corpus-wide checks are
  // in references.roundtrip.test.ts.
  const v: Versification = new Map<string, readonly number[]>([
    ["JHN", [51, 25, 36, 54, 47, 71, 53, 59, 41, 42, 57, 50, 38, 31, 27, 33, 26, 40, 42, 31, 25]],
    ["PSA", Array.from({ length: 150 }, (_, i) => (i === 22 ? 6 : i === 116 ? 2 : i === 118 ? 176 : 20))],
    ["GEN", Array.from({ length: 50 }, (_, i) => (i === 0 ? 31 : i === 1 ? 25 : 30))],
    ["JUD", [25]],
  ]);

  it("accepts existing spans", () => {
    for (const text of ["João 3:16", "Jo 21:25", "Sl 23", "Sl 117:1-2", "Sl 119:176", "Gn 1:31-2:3", "Gn 1-2", "Judas 25"]) {
      const r = parsed(text)[0] as BibleReference;
      expect(validateReference(r, v), text).toEqual({ ok: true });
    }
  });

  it.each<[string, string, RegExp]>([
    ["João 30:1", "unknown_chapter", /^João não tem capítulo 30 \(o livro tem 21 capítulos\)/],
    ["Jo 22", "unknown_chapter", /João não tem capítulo 22/],
    ["Jo 21-22", "unknown_chapter", /João não tem capítulo 22/],
    ["Sl 23:99", "unknown_verse", /^Salmos 23 não tem versículo 99 \(o capítulo tem 6 versículos\)/],
    ["Sl 117:3", "unknown_verse", /Salmos 117 não tem versículo 3 \(o capítulo tem 2 versículos\)/],
    ["Jo 3:16-99", "unknown_verse", /João 3 não tem versículo 99/],
    ["Judas 26", "unknown_verse", /Judas 1 não tem versículo 26/],
    ["Jo 3:18-16", "inverted_range", /Intervalo invertido em João 3:18-16/],
    ["Gn 2-1", "inverted_range", /Intervalo invertido em Gênesis 2-1/],
    ["Gn 2:3-1:31", "inverted_range", /invertido/],
    ["Ap 1:1", "unknown_book", /Apocalipse/],
  ])("%s → %s", (text, code, message) => {
    const r = parsed(text)[0] as BibleReference;
    const result = validateReference(r, v);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message).toMatch(message);
    }
    expect(() => expandReference(r, v)).toThrow(RangeError);
  });

  it("treats non-integer and zero numbers in hand-made spans as non-existent", () => {
    expect(validateReference({ book: "JHN", chapterStart: 0, chapterEnd: 0 }, v).ok).toBe(false);
    expect(validateReference({ book: "JHN", chapterStart: 3, verseStart: 1.5, chapterEnd: 3, verseEnd: 2 }, v).ok).toBe(false);
  });

  it("expands spans to every verse", () => {
    expect(expandReference(parsed("Jo 3:16-18")[0] as BibleReference, v)).toEqual([
      { book: "JHN", chapter: 3, verse: 16 },
      { book: "JHN", chapter: 3, verse: 17 },
      { book: "JHN", chapter: 3, verse: 18 },
    ]);
    expect(expandReference(parsed("Gn 1:31-2:2")[0] as BibleReference, v).map((x) => `${x.chapter}:${x.verse}`)).toEqual([
      "1:31",
      "2:1",
      "2:2",
    ]);
    expect(expandReference(parsed("Sl 23")[0] as BibleReference, v)).toHaveLength(6);
    expect(expandReference(parsed("Gn 1-2")[0] as BibleReference, v)).toHaveLength(56);
    expect(expandReference(parsed("Judas 3")[0] as BibleReference, v)).toEqual([{ book: "JUD", chapter: 1, verse: 3 }]);
  });

  it("builds a versification from verses (highest verse per chapter, bridges included)", () => {
    const built = buildVersification([
      { book: "RUT", chapter: 1, verse: 1 },
      { book: "RUT", chapter: 1, verse: 2, verseEnd: 3 },
      { book: "RUT", chapter: 2, verse: 1 },
    ]);
    expect(built.get("RUT")).toEqual([3, 1]);
  });
});

describe("forms a model writes (issue 43): the book after its numbers, Roman chapters, a comma before 'capítulo'", () => {
  it.each<[string, Array<[string, string]>]>([
    ["Veja também Apocalipse, capítulo 22, versículo 21.", [["Apocalipse, capítulo 22, versículo 21", "Apocalipse 22:21"]]],
    ["Veja também Apocalipse, capítulo 22.", [["Apocalipse, capítulo 22", "Apocalipse 22"]]],
    ["Leia no capítulo 22 de Apocalipse, versículo 21, a bênção.", [["capítulo 22 de Apocalipse, versículo 21", "Apocalipse 22:21"]]],
    ["Leia o versículo 21 do capítulo 22 do Apocalipse hoje.", [["versículo 21 do capítulo 22 do Apocalipse", "Apocalipse 22:21"]]],
    ["os versículos 1 a 3 do capítulo 5 de Mateus", [["versículos 1 a 3 do capítulo 5 de Mateus", "Mateus 5:1-3"]]],
    ["os vv. 4-7 do cap. 13 de 1 Coríntios", [["vv. 4-7 do cap. 13 de 1 Coríntios", "1 Coríntios 13:4-7"]]],
    ["o versículo 21 de Apocalipse 22 diz", [["versículo 21 de Apocalipse 22", "Apocalipse 22:21"]]],
    ["o versículo 3 de Judas diz", [["versículo 3 de Judas", "Judas 1:3"]]],
    ["no capítulo 3 do livro de Jó", [["capítulo 3 do livro de Jó", "Jó 3"]]],
    ["no capítulo 3 do Evangelho de João", [["capítulo 3 do Evangelho de João", "João 3"]]],
    ["no capítulo 8 da carta aos Romanos", [["capítulo 8 da carta aos Romanos", "Romanos 8"]]],
    ["no capítulo 13 de I Coríntios", [["capítulo 13 de I Coríntios", "1 Coríntios 13"]]],
    ["no capítulo XXII de Apocalipse", [["capítulo XXII de Apocalipse", "Apocalipse 22"]]],
    ["Leia Ap XXII, 21 hoje.", [["Ap XXII, 21", "Apocalipse 22:21"]]],
    ["Leia Ap XXII:21-23.", [["Ap XXII:21-23", "Apocalipse 22:21-23"]]],
    ["Leia Sl CXIX.105.", [["Sl CXIX.105", "Salmos 119:105"]]],
    ["Leia Ap XXII, v. 21.", [["Ap XXII, v. 21", "Apocalipse 22:21"]]],
    ["Apocalipse, capítulo XXII", [["Apocalipse, capítulo XXII", "Apocalipse 22"]]],
  ])("%j", (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each<[string, Array<[string, string]>]>([
    ["o papa João XXIII disse", []], // a regnal number is no chapter
    ["Pio XII, 3 vezes", []],
    ["Leia Ap xxii, 21", []], // a Roman chapter is written in capitals
    ["Leia Sl CXXXXX, 3", []], // not a Roman numeral
    ["Leia Sl CLI, 3", []], // over 150
    ["no capítulo 2 de Os Lusíadas", []], // "Os" needs a verse, a capital and nothing after it
    ["no capítulo 3 de sua vida", []],
    ["no capítulo 3 do livro", []],
    ["o versículo 5 diz", []],
    ["capítulo 3, versículo 16", []], // no book
    ["no capítulo 3 de Dom Casmurro", []],
    ["o versículo 21 de Apocalipse 22:3", [["Apocalipse 22:3", "Apocalipse 22:3"]]], // only the usual form is read
  ])("%j is not read as one of these forms", (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each<[string, string]>([
    ["Leia no capítulo 22", "capítulo 22"],
    ["Leia no capítulo 22 de", "capítulo 22 de"],
    ["Leia no capítulo 22 de Apo", "capítulo 22 de Apo"],
    ["Leia o versículo 21 do", "versículo 21 do"],
    ["Leia o versículo 21 do capítulo 22 do Apocalipse", "versículo 21 do capítulo 22 do Apocalipse"],
    ["Leia o vers", "vers"],
    ["Leia o ver", "ver"],
    ["Leia Apocalipse,", "Apocalipse,"],
    ["Leia Apocalipse, cap", "Apocalipse, cap"],
    ["Leia Ap XX", "Ap XX"],
    ["Leia Ap XXII, ", "Ap XXII, "],
  ])("streaming: %j holds back %j", (text, tail) => {
    expect(referencePrefixLength(text)).toBe(tail.length);
    expect(text.endsWith(tail)).toBe(true);
  });

  it.each(["Leia no capítulo 22 de sua", "no capítulo 3 de Dom Casmurro ", "o papa João XXIII disse"])("streaming: %j holds back nothing", (text) => {
    expect(referencePrefixLength(text)).toBe(0);
  });
});

describe("referencePrefixLength", () => {
  it.each<[string, string]>([
    ["veja Jo", "Jo"],
    ["veja J", "J"],
    ["veja João 3:", "João 3:"],
    ["veja João 3", "João 3"],
    ["veja João 3:16", "João 3:16"], // could become 3:16-18
    ["veja João 3:16 ", "João 3:16 "], // could become "3:16 – 4:2" or "3:16 e 4:1"
    ["veja João 3:16,", "João 3:16,"],
    ["veja João 3:16-", "João 3:16-"],
    ["em 1 Co", "1 Co"],
    ["em 1", "1"],
    ["em 1ª", "1ª"],
    ["em Primeira", "Primeira"],
    ["em I Co", "I Co"],
    ["leia Cântico dos", "Cântico dos"],
    ["leia João ", "João "],
    ["leia João cap", "João cap"],
    ["leia João capítulo 3 vers", "João capítulo 3 vers"],
    ["leia Gn.", "Gn."],
    ["Rm 3:23; 6", "Rm 3:23; 6"],
    ["Veja Jo 3:16, 1 J", "Jo 3:16, 1 J"], // the "1" may be 1 João: the earlier match is held too
    ["Os 6", "Os 6"], // could become Os 6:6
    ["ver atos 2", "atos 2"], // could become atos 2:38
    ["Veja Atos 2.", "Atos 2."], // could become Atos 2.38
    ["os 3", "3"], // "os" is never Oseias here, but "3" may start "3 João"
    ["(Rm 6:23) e", "e"], // may start "Ez 1:1"
  ])("%j holds back %j", (text, tail) => {
    expect(referencePrefixLength(text)).toBe(tail.length);
    expect(text.endsWith(tail)).toBe(true);
  });

  it.each([
    "",
    "amém.",
    "Deus é amor",
    "Veja Jo 3:16.",
    "Veja Jo 3:16)",
    "(Rm 6:23) e ",
    "os 4", // lower-case "os" is never Oseias in free text
    "Os 3 homens",
    "João. ",
    "Gn1",
    "Jo 3:16 e mais",
    "tudo bem?",
    "há 10",
  ])("%j holds back nothing", (text) => {
    expect(referencePrefixLength(text)).toBe(0);
  });

  /**
   * Simulates a streaming filter: after each character, it may release text up to
   * `length - referencePrefixLength`. The references found in the released text must be exactly
   * the references of the final text that end inside it (never a truncated one).
   */
  it.each([
    "Deus amou o mundo (Jo 3:16), e o salário do pecado é a morte (Rm 6:23; cf. Rm 3:23; 6:23).",
    "Veja Jo 3:16, 1 Jo 4:8 e também 1 Co 13:4-7, Gn 1:31–2:3 e Salmos 23. Os 3 homens na casa.",
    "Em João capítulo 3, versículos 16 a 18, e em Is 53.5, vemos o amor; Judas 24, 25 conclui.",
    "Leia Jó 19:25 e Jo 11:25-26; depois Ap 21:1-4, 22:20 e Sl 119:105.",
    "Os 6:6 e Na 1:7; os 3 homens; Atos 2:38, atos 2 e Atos 2.",
  ])("streaming invariant: %j", (full) => {
    const final = findReferences(full);
    let released = 0;
    for (let k = 1; k <= full.length; k++) {
      const prefix = full.slice(0, k);
      const hold = referencePrefixLength(prefix);
      expect(hold).toBeGreaterThanOrEqual(0);
      expect(hold).toBeLessThanOrEqual(k);
      const safe = k - hold;
      // text once released is never held back again
      expect(safe, `after ${JSON.stringify(prefix)}`).toBeGreaterThanOrEqual(released);
      released = safe;
      const got = findReferences(full.slice(0, released));
      const expected = final.filter((m) => m.end <= released);
      expect(got, `after ${JSON.stringify(prefix)} released ${JSON.stringify(full.slice(0, released))}`).toEqual(expected);
    }
    // At the end of the stream the consumer flushes what is still held.
    expect(referencePrefixLength(`${full} Amém`)).toBe(0);
  });

  it("streaming invariant holds on generated reference-like text (seeded)", () => {
    let seed = 20240611;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const books = ["Jo", "Jó", "João", "1 Jo", "1Jo", "Os", "os", "Na", "Atos", "atos", "Sl", "Salmo", "Gn", "1 Co",
      "I Co", "Jd", "Judas", "Ex", "Êx", "ml", "Fm", "FM", "Primeira Coríntios", "Cântico dos Cânticos", "Ap", "Is",
      "2Rs", "Gn.", "João.", "Ob", "3 Jo"];
    const numbers = ["1", "2", "3", "16", "23", "119", "0", "000", "1234", "31"];
    const joins = [":", ".", ",", ":", "-", "–", " – ", "; ", ", ", " e ", " a ", "a", "ss", "%", "ª", " versículo ",
      " ", "", ", 1 Jo ", "; I ", " capítulo ", ", versículos ", " até "];
    const words = ["veja", "amém", "e", "os", "na", "3", "homens", "(", ")", ".", ", ", " ", "capítulo", "J", "1ª", "cap"];
    for (let iteration = 0; iteration < 150; iteration++) {
      let full = "";
      for (let s = 1 + Math.floor(random() * 4); s > 0; s--) {
        if (random() < 0.5) full += `${pick(words)} `;
        full += pick(books) + pick([" ", " ", "", "  "]) + pick(numbers);
        for (let k = Math.floor(random() * 4); k > 0; k--) full += pick(joins) + pick(numbers);
        full += pick(words);
      }
      const final = findReferences(full);
      let released = 0;
      for (let k = 1; k <= full.length; k++) {
        const safe = k - referencePrefixLength(full.slice(0, k));
        expect(safe, full.slice(0, k)).toBeGreaterThanOrEqual(released);
        released = safe;
        const got = findReferences(full.slice(0, released));
        expect(got, `${JSON.stringify(full)} released ${released}`).toEqual(final.filter((m) => m.end <= released));
      }
      for (const m of final) expect(parsed(formatReferences(m.references)), m.text).toEqual(m.references);
    }
  });
});
