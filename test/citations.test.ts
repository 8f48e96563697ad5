import { describe, expect, it } from "vitest";
import type { Versification } from "../src/core/bible/references.js";
import { CitationStreamFilter, checkCitations, type CitationCheck } from "../src/core/grounding/citations.js";
import { type Passage, type VerseRef, ShownVerses, passagesFromResults } from "../src/core/grounding/passages.js";

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

function range(book: string, chapter: number, first: number, last: number): VerseRef[] {
  const out: VerseRef[] = [];
  for (let verse = first; verse <= last; verse++) out.push({ book, chapter, verse });
  return out;
}

function passage(id: string, book: string, chapter: number, verse: number, windowRefs: VerseRef[]): Passage {
  return {
    id,
    reference: `${book} ${chapter}:${verse}`,
    book,
    chapter,
    verse,
    verseEnd: verse,
    text: "…",
    contextBefore: "",
    contextAfter: "",
    windowRefs,
  };
}

/** What the model was shown: consulted verses with their context windows. */
const PASSAGES: Passage[] = [
  passage("S1", "JHN", 3, 16, range("JHN", 3, 14, 18)),
  passage("S2", "ROM", 6, 23, [...range("ROM", 6, 21, 23), { book: "ROM", chapter: 7, verse: 1 }]),
  passage("S3", "1CO", 13, 4, range("1CO", 13, 2, 6)),
  passage("S4", "PSA", 23, 1, range("PSA", 23, 1, 6)),
  passage("S5", "JOB", 3, 1, range("JOB", 3, 1, 2)),
  passage("S6", "GEN", 1, 31, [...range("GEN", 1, 29, 31), ...range("GEN", 2, 1, 3)]),
  passage("S7", "MAT", 5, 44, range("MAT", 5, 43, 45)),
  passage("S8", "JUD", 1, 24, range("JUD", 1, 24, 25)),
];
const SHOWN = new ShownVerses(PASSAGES);

/** Verse counts for the chapters the tests touch (0 = a chapter these tests never use). */
function chapters(counts: Record<number, number>, total: number): number[] {
  return Array.from({ length: total }, (_, i) => counts[i + 1] ?? 0);
}
const V: Versification = new Map<string, readonly number[]>([
  ["JHN", chapters({ 3: 36, 4: 54 }, 21)],
  ["ROM", chapters({ 3: 31, 6: 23, 7: 25 }, 16)],
  ["1CO", chapters({ 13: 13, 14: 40 }, 16)],
  ["PSA", chapters({ 23: 6, 24: 10 }, 150)],
  ["JOB", chapters({ 3: 26 }, 42)],
  ["GEN", chapters({ 1: 31, 2: 25, 3: 24, 4: 26 }, 50)],
  ["MAT", chapters({ 5: 48 }, 28)],
  ["JUD", [25]],
]);

/** Checks with the test versification; pass `null` for none. */
const check = (text: string, versification: Versification | null = V): CitationCheck =>
  checkCitations(text, SHOWN, versification ?? undefined);

/** Streams `text` in the given chunk sizes (cycled); returns every push result and the end. */
function stream(text: string, sizes: readonly number[], versification: Versification | null = V) {
  const filter = new CitationStreamFilter(SHOWN, versification ?? undefined);
  const pushes: string[] = [];
  let at = 0;
  for (let k = 0; at < text.length; k++) {
    const size = sizes[k % sizes.length] as number;
    pushes.push(filter.push(text.slice(at, at + size)));
    at += size;
  }
  const flushed = filter.end();
  return { pushes, flushed, released: pushes.join("") + flushed, filter };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

// ---------------------------------------------------------------------------------------------
// Shown verses
// ---------------------------------------------------------------------------------------------

describe("ShownVerses", () => {
  it("holds the consulted verses and every verse of their windows", () => {
    expect(SHOWN.has("JHN", 3, 16)).toBe(true);
    expect(SHOWN.has("JHN", 3, 14)).toBe(true);
    expect(SHOWN.has("JHN", 3, 18)).toBe(true);
    expect(SHOWN.has("JHN", 3, 19)).toBe(false);
    expect(SHOWN.has("ROM", 7, 1)).toBe(true);
    expect(SHOWN.has("JOB", 3, 1)).toBe(true);
    expect(SHOWN.has("JHN", 3, 1)).toBe(false);
  });

  it("takes every verse of a bridge, in the passage and in the window", () => {
    const shown = new ShownVerses([
      { book: "MAT", chapter: 5, verse: 44, verseEnd: 45, windowRefs: [{ book: "MAT", chapter: 5, verse: 46, verseEnd: 47 }] },
    ]);
    expect([44, 45, 46, 47, 48].map((v) => shown.has("MAT", 5, v))).toEqual([true, true, true, true, false]);
    expect(shown.size).toBe(4);
  });

  it("covers a span only when every verse of it was shown", () => {
    const span = (verseStart: number, verseEnd: number) => ({ book: "JHN", chapterStart: 3, chapterEnd: 3, verseStart, verseEnd });
    expect(SHOWN.covers(span(16, 16))).toBe(true);
    expect(SHOWN.covers(span(14, 18))).toBe(true);
    expect(SHOWN.covers(span(16, 19))).toBe(false);
    expect(SHOWN.covers(span(13, 16))).toBe(false);
    expect(SHOWN.covers(span(18, 16))).toBe(false); // inverted
  });

  it("needs a versification for whole chapters and cross-chapter ranges", () => {
    const psalm23 = { book: "PSA", chapterStart: 23, chapterEnd: 23 };
    const genesis = { book: "GEN", chapterStart: 1, verseStart: 31, chapterEnd: 2, verseEnd: 3 };
    expect(SHOWN.covers(psalm23)).toBe(false);
    expect(SHOWN.covers(psalm23, V)).toBe(true);
    expect(SHOWN.covers(genesis)).toBe(false);
    expect(SHOWN.covers(genesis, V)).toBe(true);
    expect(SHOWN.covers({ book: "GEN", chapterStart: 1, chapterEnd: 2 }, V)).toBe(false);
    expect(SHOWN.covers({ book: "PSA", chapterStart: 24, chapterEnd: 24 }, V)).toBe(false);
  });

  it("never covers a span that does not exist in the versification", () => {
    const shown = new ShownVerses([{ book: "JHN", chapter: 3, verse: 40, verseEnd: 40, windowRefs: [] }]);
    const span = { book: "JHN", chapterStart: 3, chapterEnd: 3, verseStart: 40, verseEnd: 40 };
    expect(shown.covers(span)).toBe(true);
    expect(shown.covers(span, V)).toBe(false); // João 3 has 36 verses
  });
});

describe("passagesFromResults", () => {
  const result = {
    reference: "Mt 5.44",
    book: "MAT",
    chapter: 5,
    verse: 44,
    verseEnd: 44,
    text: "Amai os vossos inimigos.",
    contextBefore: "Ouvistes que foi dito.",
    contextAfter: "Para que sejais filhos.",
  };

  it("numbers the passages, writes canonical references and includes the verse in its window", () => {
    const passages = passagesFromResults([result, { ...result, verse: 46, verseEnd: 47 }]);
    expect(passages.map((p) => [p.id, p.reference])).toEqual([
      ["S1", "Mateus 5:44"],
      ["S2", "Mateus 5:46-47"],
    ]);
    expect(passages[0]!.windowRefs).toEqual([{ book: "MAT", chapter: 5, verse: 44 }]);
    expect(passages[1]!.windowRefs).toEqual([{ book: "MAT", chapter: 5, verse: 46, verseEnd: 47 }]);
  });

  it("takes the window coordinates from the caller", () => {
    const [p] = passagesFromResults([result], (r) => range(r.book, r.chapter, r.verse - 1, r.verse + 1));
    expect(p!.windowRefs).toEqual(range("MAT", 5, 43, 45));
    const shown = new ShownVerses([p!]);
    expect([42, 43, 44, 45, 46].map((v) => shown.has("MAT", 5, v))).toEqual([false, true, true, true, false]);
  });
});

// ---------------------------------------------------------------------------------------------
// checkCitations
// ---------------------------------------------------------------------------------------------

describe("checkCitations: shown references are kept as written", () => {
  it.each<[string, string[]]>([
    ["João 3:16", ["João 3:16"]],
    ["Jo 3.16", ["João 3:16"]],
    ["João 3,16", ["João 3:16"]],
    ["joão 3:16", ["João 3:16"]],
    ["Jo 3:16-18", ["João 3:16-18"]],
    ["Jo 3:16,18", ["João 3:16", "João 3:18"]],
    ["João capítulo 3 versículo 17", ["João 3:17"]], // a window verse, not the consulted one
    ["1 Co 13:4-6", ["1 Coríntios 13:4-6"]],
    ["1ª Coríntios 13:4", ["1 Coríntios 13:4"]],
    ["I Co 13:5", ["1 Coríntios 13:5"]],
    ["Salmo 23", ["Salmos 23"]],
    ["Sl 23:1-6", ["Salmos 23:1-6"]],
    ["Gn 1:31–2:3", ["Gênesis 1:31-2:3"]],
    ["Gn 1:31 – 2:3", ["Gênesis 1:31-2:3"]],
    ["Rm 6:23", ["Romanos 6:23"]],
    ["Rm 6:23; 7:1", ["Romanos 6:23", "Romanos 7:1"]],
    ["Rm 6:23 e 7:1", ["Romanos 6:23", "Romanos 7:1"]],
    ["Jó 3:1", ["Jó 3:1"]],
    ["Jd 24-25", ["Judas 1:24-25"]],
    ["Judas 24", ["Judas 1:24"]],
  ])("%j", (reference, citations) => {
    const text = `Como lemos em ${reference}, Deus é fiel.`;
    const result = check(text);
    expect(result).toEqual({ text, citations, removed: [] });
  });
});

describe("checkCitations: invented references are removed in every form", () => {
  it.each<[string]>([
    ["João 4:16"],
    ["Jo 4.16"],
    ["João 4,16"],
    ["jo 4:16"],
    ["JOÃO 4:16"],
    ["Jo 4:16a"],
    ["João capítulo 4 versículo 16"],
    ["João 4, versículos 16 a 18"],
    ["1 Co 14:4-7"],
    ["1Co 14:4"],
    ["1ª Coríntios 14:4"],
    ["Primeira Coríntios 14:4"],
    ["Salmo 24"],
    ["Sl 24:1"],
    ["Gn 3-4"],
    ["Gn 1-2"], // Gênesis 1 and 2 were not shown in full
    ["Rm 3:23; 5:8"],
    ["Rm 3:23 e 5:8"],
    ["Gn 2:24–3:3"],
    ["Gn 2:24 – 3:3"],
    ["Jo 3:1"], // João 3:1; Jó 3:1 was shown
    ["Jo 3:99"], // does not exist
    ["Ap 21:4"],
    ["Judas 3"],
    ["Os 6:6"],
    ["Atos 2:38"],
  ])("%j", (reference) => {
    const result = check(`Deus é fiel, como lemos em ${reference} e em toda a Bíblia.`);
    expect(result.text).toBe("Deus é fiel, como lemos em e em toda a Bíblia.");
    expect(result.removed).toEqual([reference]);
    expect(result.citations).toEqual([]);
  });

  it("tells Jó 3:1 (shown) from Jo 3:1 (João, not shown)", () => {
    const result = check("Jó 3:1 mostra a dor de Jó; Jo 3:1 fala de Nicodemos.");
    expect(result.text).toBe("Jó 3:1 mostra a dor de Jó; fala de Nicodemos.");
    expect(result.citations).toEqual(["Jó 3:1"]);
    expect(result.removed).toEqual(["Jo 3:1"]);
  });

  it("keeps a verse of the context window, removes its neighbour outside it", () => {
    const result = check("Veja Jo 3:18 (Jo 3:19).");
    expect(result.text).toBe("Veja Jo 3:18.");
    expect(result.citations).toEqual(["João 3:18"]);
    expect(result.removed).toEqual(["Jo 3:19"]);
  });

  it("removes a range that is only partly shown", () => {
    expect(check("O amor é paciente (1 Co 13:4-7).")).toEqual({
      text: "O amor é paciente.",
      citations: [],
      removed: ["1 Co 13:4-7"],
    });
    expect(check("Leia Jo 3:16-21 com calma.").text).toBe("Leia com calma.");
    expect(check("Leia Gn 1:30–2:4 com calma.").text).toBe("Leia com calma.");
  });

  it("treats whole chapters and cross-chapter ranges as not shown without a versification", () => {
    expect(check("O Salmo 23 consola (Sl 23:1).", null)).toEqual({
      text: "O consola (Sl 23:1).",
      citations: ["Salmos 23:1"],
      removed: ["Salmo 23"],
    });
    expect(check("Leia Gn 1:31–2:3.", null).text).toBe("");
    expect(check("Leia Gn 1:31–2:3.", V).text).toBe("Leia Gn 1:31–2:3.");
  });

  it("keeps the shown items of a list and rewrites it in canonical form", () => {
    expect(check("Deus ama (Jo 3:16; 3:99).")).toEqual({
      text: "Deus ama (João 3:16).",
      citations: ["João 3:16"],
      removed: ["João 3:99"],
    });
    expect(check("Veja Rm 3:23; 6:23 e 7:1.")).toEqual({
      text: "Veja Romanos 6:23; 7:1.",
      citations: ["Romanos 6:23", "Romanos 7:1"],
      removed: ["Romanos 3:23"],
    });
    expect(check("Veja Jo 3:16,18,20.").text).toBe("Veja João 3:16, 18.");
  });

  it("lists citations in order of first appearance, deduplicated, in canonical form", () => {
    const result = check(
      "Rm 6:23 fala do dom (Romanos 6:23). Jo 3.16 e João 3,16 dizem o mesmo; Mt 5:44 e Jo 3:16-17 também. Rm 6:23!",
    );
    expect(result.citations).toEqual(["Romanos 6:23", "João 3:16", "Mateus 5:44", "João 3:16-17"]);
    expect(result.removed).toEqual([]);
  });

  it("lists removed references as written, in order, repeated ones included", () => {
    const result = check("Veja Ap 21:4, Jo 3:16 e Ap 21:4 (cf. Is 53:5).");
    expect(result.removed).toEqual(["Ap 21:4", "Ap 21:4", "Is 53:5"]);
    expect(result.text).toBe("Veja Jo 3:16.");
  });

  it("leaves text without references alone", () => {
    for (const text of ["", "Deus é amor.", "Os 3 homens na casa.", "  espaços  duplos  ficam  ", "Jó sofreu muito."]) {
      expect(check(text)).toEqual({ text, citations: [], removed: [] });
    }
  });
});

describe("checkCitations: cleanup after a removal", () => {
  it.each<[string, string]>([
    // a bracket group that held only the reference goes, with its lead-in words
    ["Deus amou o mundo (Jo 4:16).", "Deus amou o mundo."],
    ["Deus amou o mundo (cf. Jo 4:16), e deu seu Filho.", "Deus amou o mundo, e deu seu Filho."],
    ["Deus amou o mundo (veja também Jo 4:16) e deu seu Filho.", "Deus amou o mundo e deu seu Filho."],
    ["Deus amou o mundo [Jo 4:16].", "Deus amou o mundo."],
    ["Deus amou o mundo ( Jo 4:16 ) e deu.", "Deus amou o mundo e deu."],
    ["Deus amou o mundo ((Jo 4:16)).", "Deus amou o mundo."],
    ["Deus amou. (Jo 4:16).", "Deus amou."],
    ["Deus amou (Jo 4:16)!", "Deus amou!"],
    ["Deus amou (Jo 4:16)\nE deu.", "Deus amou\nE deu."],
    ["**Jo 4:16**: Deus amou.", "Deus amou."],
    ["Deus amou **Jo 4:16**.", "Deus amou."],
    ["Deus amou (**Jo 4:16**).", "Deus amou."],
    // lists inside brackets keep the shown items
    ["Deus amou (Jo 3:16; Rm 3:23).", "Deus amou (Jo 3:16)."],
    ["Deus amou (Rm 3:23; Jo 3:16).", "Deus amou (Jo 3:16)."],
    ["Deus amou (Rm 3:23, Rm 5:8 e Jo 3:16).", "Deus amou (Jo 3:16)."],
    ["Deus amou (cf. Rm 3:23; Jo 3:16).", "Deus amou (cf. Jo 3:16)."],
    ["Deus amou (Jo 3:16 e Rm 3:23).", "Deus amou (Jo 3:16)."],
    ["Deus amou (Rm 3:23 e Jo 3:16).", "Deus amou (Jo 3:16)."],
    // dangling connectors and separators before punctuation
    ["Deus nos ama, conforme Rm 3:23.", "Deus nos ama."],
    ["Deus nos ama, como está em Rm 3:23.", "Deus nos ama, como está."],
    ["Deus nos ama — Rm 3:23.", "Deus nos ama."],
    ["Deus nos ama: Rm 3:23.", "Deus nos ama."],
    ["Veja Jo 3:16, Rm 3:23, Mt 5:44.", "Veja Jo 3:16, Mt 5:44."],
    ["Veja Jo 3:16; Rm 3:23; Mt 5:44.", "Veja Jo 3:16; Mt 5:44."],
    ["Veja Jo 3:16 e Rm 3:23.", "Veja Jo 3:16."],
    ["Veja Jo 3:16 ou Rm 3:23!", "Veja Jo 3:16!"],
    ["Veja Jo 3:16, e Rm 3:23.", "Veja Jo 3:16."],
    ["Deus nos ama Rm 3:23", "Deus nos ama"],
    ["Deus nos ama, Rm 3:23\nAmém.", "Deus nos ama\nAmém."],
    // at the start of a sentence, line or item, what introduced the next part goes
    ["Em Rm 3:23, Paulo diz que todos pecaram.", "Paulo diz que todos pecaram."],
    ["Segundo Rm 3:23, todos pecaram.", "todos pecaram."],
    ["Rm 3:23 e Jo 3:16 mostram isso.", "Jo 3:16 mostram isso."],
    ["Rm 3:23. Deus ama.", "Deus ama."],
    ["Amém.\nRm 3:23; Jo 3:16.", "Amém.\nJo 3:16."],
    // a line or list item that held only the reference disappears
    ["Referências:\n- Jo 3:16\n- Rm 3:23\n- Mt 5:44\n", "Referências:\n- Jo 3:16\n- Mt 5:44\n"],
    ["Referências:\n* Rm 3:23\r\n* Jo 3:16", "Referências:\n* Jo 3:16"],
    ["Referências:\n  • Rm 3:23\n  • Jo 3:16", "Referências:\n  • Jo 3:16"],
    ["Texto.\n\nRm 3:23\n\nMais texto.", "Texto.\n\n\nMais texto."],
    ["Rm 3:23\nDeus ama.", "Deus ama."],
    ["Referências:\n- Jo 3:16\n- Rm 3:23", "Referências:\n- Jo 3:16\n"],
    ["Veja Rm 3:23.", ""], // a sentence that only pointed at the reference
    ["Amém. Leia Rm 3:23!", "Amém."],
    ["Amém. Em Rm 3:23, Paulo diz.", "Amém. Paulo diz."],
    ["Amém! Rm 3:23 e Jo 3:16 dizem.", "Amém! Jo 3:16 dizem."],
    ["Veja Rm 3:23, Jo 3:16 e Mt 5:44.", "Veja Jo 3:16 e Mt 5:44."],
    ["Veja Rm 3:23; Rm 5:8; Jo 3:16.", "Veja Jo 3:16."],
    ["1. Rm 3:23\n2. Jo 3:16", "2. Jo 3:16"],
    ["Lista:\n1) Jo 3:16\n2) Rm 3:23\n3) Mt 5:44", "Lista:\n1) Jo 3:16\n3) Mt 5:44"],
    ["Em resumo — Rm 3:23 — Deus ama.", "Em resumo — Deus ama."],
    ["Em resumo - Rm 3:23 - Deus ama.", "Em resumo - Deus ama."],
    // otherwise one space, none before punctuation
    ["Como diz Rm 3:23, Deus é justo.", "Como diz, Deus é justo."],
    ["Leia Rm 3:23 e ore.", "Leia e ore."],
    ["Leia Rm 3:23  e ore.", "Leia e ore."],
    ["Leia  Rm 3:23 Rm 5:8 e ore.", "Leia e ore."],
    ["Leia Rm 3:23 Jo 3:16 e ore.", "Leia Jo 3:16 e ore."],
    ["“Todos pecaram” (Rm 3:23).", "“Todos pecaram”."],
    ["Rm 3:23", ""],
    ["(Rm 3:23)", ""],
  ])("%j → %j", (input, output) => {
    expect(check(input).text).toBe(output);
  });

  it("never leaves a space before punctuation or doubled spaces around a removal", () => {
    const templates = [
      "Deus é amor (X), e nos consola.",
      "Deus é amor, X, e nos consola.",
      "Deus é amor X. E nos consola X!",
      "Como diz X, Deus é fiel (cf. X; X).",
      "Deus é amor X ; e nos consola X ?",
    ];
    for (const template of templates) {
      const result = check(template.replaceAll("X", "Rm 3:23"));
      expect(result.text, template).not.toMatch(/ [,.;:!?)]|\( | {2}|\(\)|\(; ?\)/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// CitationStreamFilter
// ---------------------------------------------------------------------------------------------

/** Realistic answers mixing shown and invented references, lists, brackets and markdown. */
const ANSWERS = [
  "Deus amou o mundo de tal maneira que deu o seu Filho unigênito (João 3:16). Essa entrega é o centro do evangelho: " +
    "quem crê não perece (Jo 3.16; cf. Jo 3:17). Paulo lembra que todos pecaram (Rm 3:23), mas o dom gratuito de Deus é a " +
    "vida eterna (Romanos 6:23). Jesus ensina a amar os inimigos, conforme Mt 5:44, e a orar pelos que nos perseguem (Mt 5:45).",
  "Sinto muito pelo que você está passando. O Salmo 23 diz que o Senhor é o nosso pastor (Sl 23:1), e que mesmo no vale da " +
    "sombra da morte não precisamos temer (Salmos 23:4; Is 41:10). Jó também sofreu (Jó 3:1), e não Jo 3:1, que fala de " +
    "Nicodemos.\n\nReferências:\n- Sl 23:1-6\n- Is 41:10\n- Jó 3:1-2\n- 1 Pe 5:7\n",
  "Em 1 Co 13:4-7, Paulo descreve o amor; aqui temos 1 Co 13:4-6 (1ª Coríntios 13:4). Em Gn 1:31–2:3 Deus descansa, e em " +
    "Gn 1-2 vemos a criação inteira. Veja **Jo 3:16** e **Ap 21:4**. Os 3 homens na casa leram Jd 24-25, Judas 3 e Ob 1.\n" +
    "1. Rm 6:23; 3:23\n2. Jo 3:14-18, 3:19-21 e 4:1\n3. João capítulo 3, versículos 16 a 18",
  "Como está escrito em Hb 11:1, a fé é a certeza... (veja Hb 11:6). Em resumo — Jo 3:16 — Deus ama; e em Jo 3:99 nada há. " +
    "[Rm 5:8] Cristo morreu por nós (Rm 5:8, 6:23).\r\nAmém!",
];

describe("CitationStreamFilter", () => {
  it("releases text as it streams and holds back a reference until it is decided", () => {
    const filter = new CitationStreamFilter(SHOWN, V);
    expect(filter.push("Deus amou o mundo ")).toBe("Deus amou o mundo");
    expect(filter.push("(Jo")).toBe("");
    expect(filter.push("ão 4")).toBe("");
    expect(filter.push(":1")).toBe("");
    expect(filter.push("6")).toBe("");
    expect(filter.push(") e ")).toBe("");
    expect(filter.push("deu seu Filho (João 3:16")).toBe(" e deu seu Filho"); // "(" may still go
    expect(filter.push(")")).toBe(" (João 3:16)");
    expect(filter.push(".")).toBe(".");
    expect(filter.end()).toBe("");
    expect(filter.citations).toEqual(["João 3:16"]);
    expect(filter.removed).toEqual(["João 4:16"]);
  });

  it("splits a fabricated reference at any character without leaking it", () => {
    const text = "Deus amou o mundo (João 4:16) e deu seu Filho (João 3:16).";
    const expected = check(text).text;
    expect(expected).toBe("Deus amou o mundo e deu seu Filho (João 3:16).");
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const filter = new CitationStreamFilter(SHOWN, V);
        const a = filter.push(text.slice(0, i));
        const b = filter.push(text.slice(i, j));
        const c = filter.push(text.slice(j));
        const d = filter.end();
        expect(a + b + c + d, `${i}/${j}`).toBe(expected);
        for (const partial of [a, a + b, a + b + c]) expect(expected.startsWith(partial), `${i}/${j}`).toBe(true);
      }
    }
  });

  it("never shows a prefix of a removed reference, one character at a time", () => {
    for (const text of ANSWERS) {
      const expected = check(text).text;
      const filter = new CitationStreamFilter(SHOWN, V);
      let released = "";
      for (const ch of text) {
        released += filter.push(ch);
        expect(expected.startsWith(released), JSON.stringify(released)).toBe(true);
      }
      released += filter.end();
      expect(released).toBe(expected);
    }
  });

  it("releases the same text as checkCitations for random chunkings (seeded)", () => {
    const random = seeded(20250101);
    for (const text of ANSWERS) {
      for (const versification of [V, null]) {
        const expected = check(text, versification);
        for (let n = 0; n < 60; n++) {
          const sizes = Array.from({ length: 8 }, () => 1 + Math.floor(random() * (n < 30 ? 4 : 24)));
          const { released, filter } = stream(text, sizes, versification);
          expect(released, `${JSON.stringify(text)} ${sizes.join(",")}`).toBe(expected.text);
          expect(filter.citations).toEqual(expected.citations);
          expect(filter.removed).toEqual(expected.removed);
        }
      }
    }
  });

  it("releases the same text as checkCitations on generated text (seeded)", () => {
    const random = seeded(777);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const references = ["Jo 3:16", "Jo 3:99", "João 3,16", "Rm 6:23", "Rm 3:23; 6:23", "Sl 23", "Salmo 23:1-6", "1 Co 13:4-7",
      "Gn 1:31–2:3", "Jó 3:1", "Jo 3:1", "Jo 3:15-17", "Rm 6.23", "I Co 13:4", "1ª Coríntios 13:4", "Jd 24", "Mt 5:44"];
    const glue = ["", " ", "  ", " (", "((", ") ", ")", "(cf. ", "(veja ", ", ", "; ", ",", ";", " e ", " em ", " ou ", ". ",
      ".", "\n", "\n- ", "\n* ", "\r\n", " — ", "**", "_", ": ", " conforme ", "[", "]", "1. ", " e", "e "];
    const words = ["Deus", "amou", "o", "mundo", "e", "em", "veja", "cf.", "os", "3", "na", "amor", "Paulo", "diz", "Ex", "ve",
      "1", "Os", "Jo", "João"];
    for (let iteration = 0; iteration < 400; iteration++) {
      let text = "";
      for (let n = 1 + Math.floor(random() * 8); n > 0; n--) {
        if (random() < 0.6) text += pick(words);
        text += pick(glue);
        if (random() < 0.7) text += pick(references);
        text += pick(glue);
      }
      const versification = random() < 0.5 ? V : null;
      const expected = check(text, versification);
      for (const sizes of [[1], [2, 1, 3], [1 + Math.floor(random() * 5), 1 + Math.floor(random() * 5)], [text.length || 1]]) {
        const { released, filter } = stream(text, sizes, versification);
        expect(released, `${JSON.stringify(text)} ${sizes.join(",")}`).toBe(expected.text);
        expect(filter.citations).toEqual(expected.citations);
        expect(filter.removed).toEqual(expected.removed);
      }
    }
  });

  it("end releases the held tail after checking it", () => {
    let filter = new CitationStreamFilter(SHOWN, V);
    expect(filter.push("Assim diz Jo 3:16")).toBe("Assim diz"); // may still become "Jo 3:16-18"
    expect(filter.end()).toBe(" Jo 3:16");
    expect(filter.citations).toEqual(["João 3:16"]);

    filter = new CitationStreamFilter(SHOWN, V);
    expect(filter.push("Assim diz Jo 3:99")).toBe("Assim diz");
    expect(filter.end()).toBe("");
    expect(filter.removed).toEqual(["Jo 3:99"]);

    filter = new CitationStreamFilter(SHOWN, V);
    expect(filter.push("Deus é amor, ")).toBe("Deus é amor"); // the comma may go with a removed reference
    expect(filter.end()).toBe(", ");
  });

  it("handles empty pushes, an empty stream, and refuses pushes after end", () => {
    const filter = new CitationStreamFilter(SHOWN);
    expect(filter.push("")).toBe("");
    expect(filter.end()).toBe("");
    expect(filter.end()).toBe("");
    expect(() => filter.push("mais")).toThrow(/end/);
    expect(filter.citations).toEqual([]);
    expect(filter.removed).toEqual([]);
  });

  it("reports citations and removals as they stream", () => {
    const filter = new CitationStreamFilter(SHOWN, V);
    filter.push("Veja Rm 6:23. Depois, Ap 21:4. ");
    expect(filter.citations).toEqual(["Romanos 6:23"]);
    expect(filter.removed).toEqual(["Ap 21:4"]);
    filter.push("depois Jo 3:16.");
    expect(filter.citations).toEqual(["Romanos 6:23"]); // "Jo 3:16.19" would add verse 19
    filter.push(" ");
    expect(filter.citations).toEqual(["Romanos 6:23", "João 3:16"]);
  });

  it("handles a 20 kB answer pushed one character at a time", () => {
    let text = "";
    for (let i = 0; text.length < 20_000; i++) text += ANSWERS[i % ANSWERS.length] + "\n\n";
    const expected = check(text);
    const started = performance.now();
    const filter = new CitationStreamFilter(SHOWN, V);
    let released = "";
    for (const ch of text) released += filter.push(ch);
    released += filter.end();
    const elapsed = performance.now() - started;
    console.log(`citations stream: ${text.length} characters, one per push, in ${elapsed.toFixed(0)} ms`);
    expect(released).toBe(expected.text);
    expect(filter.citations).toEqual(expected.citations);
  });
});
