/**
 * Issue #16: every way a model writes a reference, as a table: answer → exact checked text,
 * with the citations it must count. The model was shown João 3:16-17 only.
 */
import { describe, expect, it } from "vitest";
import { CitationStreamFilter, checkCitations } from "../src/core/grounding/citations.js";
import { ShownVerses } from "../src/core/grounding/passages.js";

const SHOWN = new ShownVerses([
  { book: "JHN", chapter: 3, verse: 16, verseEnd: 16, windowRefs: [{ book: "JHN", chapter: 3, verse: 17 }] },
]);
const J16 = ["João 3:16"];

/** [name, answer, expected text, expected citations] */
type Case = readonly [string, string, string, readonly string[]];

const KEPT: Case[] = [
  ["partial bold on the book", "Como diz **João** 3:16, Deus ama.", "Como diz **João** 3:16, Deus ama.", J16],
  ["partial bold on the numbers", "Como diz João **3:16**, Deus ama.", "Como diz João **3:16**, Deus ama.", J16],
  ["italics on the book", "Leia *Jo* 3:16.", "Leia *Jo* 3:16.", J16],
  ["no space", "Leia Jo3:16 hoje.", "Leia Jo3:16 hoje.", J16],
  ["full-width colon", "Leia João 3：16 hoje.", "Leia João 3：16 hoje.", J16],
  ["spaces around the colon", "Leia João 3 : 16 hoje.", "Leia João 3 : 16 hoje.", J16],
  ["decomposed accents", "Leia Joa\u0303o 3:16 hoje.", "Leia Joa\u0303o 3:16 hoje.", J16],
  ["English name", "As John 3:16 says.", "As John 3:16 says.", J16],
  ["footnote mark after the verse", "Leia João 3:16² hoje.", "Leia João 3:16² hoje.", J16],
  ["shown continuation", "Leia João 3:16 e 17.", "Leia João 3:16 e 17.", ["João 3:16", "João 3:17"]],
  ["words", "Leia João capítulo três, versículo dezesseis.", "Leia João capítulo três, versículo dezesseis.", J16],
  ["zero-padded", "Leia Jo 03:016.", "Leia Jo 03:016.", J16],
  ["line break inside", "Leia João\n3:16 hoje.", "Leia João\n3:16 hoje.", J16],
  ["Bible URL of the shown verse", "Veja https://www.bibliaonline.com.br/acf/jo/3/16 hoje.", "Veja https://www.bibliaonline.com.br/acf/jo/3/16 hoje.", J16],
  ["shown bare verse after a shown one", "Em João 3:16 e no versículo 17 lemos.", "Em João 3:16 e no versículo 17 lemos.", ["João 3:16", "João 3:17"]],
  // issue 43: the forms of item 7, of a shown verse
  ["comma before capítulo", "Leia João, capítulo 3, versículo 16.", "Leia João, capítulo 3, versículo 16.", J16],
  ["the book after its numbers", "Leia o versículo 16 do capítulo 3 de João hoje.", "Leia o versículo 16 do capítulo 3 de João hoje.", J16],
  ["Roman chapter", "Leia Jo III, 16 hoje.", "Leia Jo III, 16 hoje.", J16],
  ["right-to-left override, shown as it displays", "Leia \u202e61:3 oJ\u202c hoje.", "Leia Jo 3:16 hoje.", J16],
  ["e seguinte (one verse)", "Leia João 3:16 e seguinte.", "Leia João 3:16 e seguinte.", ["João 3:16", "João 3:17"]],
];

const REMOVED: Case[] = [
  ["bold on the book only", "Deus ama (**João** 3:19). Amém.", "Deus ama. Amém.", []],
  ["bold on the numbers only", "Deus ama, conforme João **3:19**. Amém.", "Deus ama. Amém.", []],
  ["italics on the book only", "Veja *Jo* 3:19 e ore.", "Veja e ore.", []],
  ["appended with e", "Leia João 3:16 e 19.", "Leia João 3:16.", J16],
  ["appended with ss", "Leia João 3:17ss.", "Leia João 3:17.", ["João 3:17"]],
  ["appended with e seguintes", "Leia João 3:17 e seguintes.", "Leia João 3:17.", ["João 3:17"]],
  ["appended with a period", "Leia João 3:16.19 hoje.", "Leia João 3:16 hoje.", J16],
  ["appended before a list bullet", "1. Jo 3:16.19\n- 1 Jo 4:8", "1. João 3:16\n", J16],
  ["appended with e versículo, before a bullet", "> João 3:16 e versículo 19\n- Rm 5:8: o amor", "> João 3:16\n- o amor", J16],
  ["appended with v.", "Leia João 3:16, v. 19, hoje.", "Leia João 3:16, hoje.", J16],
  ["no space, numbered", "O amor (1Jo4:8) é Deus.", "O amor é Deus.", []],
  ["no space", "Veja Rm5:8.", "", []],
  ["English name", "As Romans 5:8 says, God loves.", "As says, God loves.", []],
  ["Spanish name", "Leia Juan 3:19 hoje.", "Leia hoje.", []],
  ["English ordinal word", "Leia First John 4:8 hoje.", "Leia hoje.", []],
  ["superscript digits", "Leia Jo ³:¹⁹ hoje.", "Leia hoje.", []],
  ["HTML entity for the space", "Leia Jo&nbsp;3:19 hoje.", "Leia hoje.", []],
  ["apocrypha", "Segundo Tobias 3:4, Deus ouve. Amém.", "Deus ouve. Amém.", []],
  ["numbered apocrypha", "Leia 1 Macabeus 2:1 e ore.", "Leia e ore.", []],
  ["pseudepigrapha", "O livro (Enoque 1:9) fala disso.", "O livro fala disso.", []],
  ["numbers in words", "Leia João capítulo três, versículo dezenove, hoje.", "Leia hoje.", []],
  ["zero-padded", "Leia Jo 03:019 hoje.", "Leia hoje.", []],
  ["full-width digits", "Leia Jo ３：１９ hoje.", "Leia hoje.", []],
  ["Arabic-Indic digits", "Leia Jo ٣:١٩ hoje.", "Leia hoje.", []],
  ["full-width colon", "Leia Jo 3：19 hoje.", "Leia hoje.", []],
  ["ratio colon", "Leia Jo 3∶19 hoje.", "Leia hoje.", []],
  ["spaces around the colon", "Leia Jo 3 : 19 hoje.", "Leia hoje.", []],
  ["zero-width space", "Leia J\u200bo 3:19 hoje.", "Leia hoje.", []],
  ["soft hyphen", "Leia Jo\u00e3\u00ado 3:19 hoje.", "Leia hoje.", []],
  ["word joiner", "Leia Jo\u2060\u00e3o 3:19 hoje.", "Leia hoje.", []],
  ["combining accent", "Leia Joa\u0303o 3:19 hoje.", "Leia hoje.", []],
  ["Cyrillic letters", "Leia J\u043e\u00e3\u043e 3:19 hoje.", "Leia hoje.", []],
  ["line break between book and chapter", "Leia João\n3:19 hoje.", "Leia hoje.", []],
  ["Bible URL", "Veja https://www.bibliaonline.com.br/acf/jo/3/19 hoje.", "Veja hoje.", []],
  ["Bible URL with a book code", "Veja https://www.bible.com/bible/1608/JHN.3.19.ARA.", "", []],
  ["link to an unshown verse", "Leia [João 3:19](https://www.bibliaonline.com.br/acf/jo/3/19) hoje.", "Leia hoje.", []],
  ["link whose target is unshown", "Leia [aqui](https://www.bible.com/bible/1608/JHN.3.19) hoje.", "Leia hoje.", []],
  ["bare verse right after a removed reference", "Paulo fala disso em Rm 3:99 e no versículo 5.", "Paulo fala disso.", []],
  ["bare verse later after a removed reference", "Paulo fala disso em Rm 3:99. O versículo 5 diz mais.", "Paulo fala disso. O diz mais.", []],
  ["unshown bare verse after a shown reference", "Em João 3:16 lemos. O versículo 30 diz mais.", "Em João 3:16 lemos. O diz mais.", J16],
  // issue 43, item 7: no part of an unshown reference reaches the reader
  ["comma before capítulo", "Veja também Apocalipse, capítulo 22, versículo 21.", "", []],
  ["comma before capítulo, the chapter alone", "Veja também Apocalipse, capítulo 22.", "", []],
  ["chapter before the book", "Leia no capítulo 22 de Apocalipse, versículo 21, a bênção final.", "Leia a bênção final.", []],
  ["verse, chapter, then the book", "Leia o versículo 21 do capítulo 22 do Apocalipse hoje.", "Leia hoje.", []],
  ["chapter before the book, in brackets", "Deus ama (cf. capítulo 22 de Apocalipse). Amém.", "Deus ama. Amém.", []],
  ["Roman chapter", "Leia Ap XXII, 21 hoje.", "Leia hoje.", []],
  ["Roman chapter after capítulo", "No capítulo XXII de Apocalipse, lemos sobre o rio.", "lemos sobre o rio.", []],
  ["right-to-left override displaying Ap 22:21", "Leia \u202e12:22 pA\u202c hoje.", "Leia hoje.", []],
  ["right-to-left letter reordering the digits", "Leia Ap \u05d022:21 hoje.", "Leia hoje.", []],
  ["Arabic tatweel reordering the digits", "Leia Ap \u064022:21 hoje.", "Leia hoje.", []],
  ["a right-to-left mark after it", "Veja Rm 3:99\u200f.", "", []],
  ["e seguintes claims verses not shown", "Leia João 3:16 e seguintes hoje.", "Leia João 3:16 hoje.", J16],
  ["chapter, comma, verse", "Veja Apocalipse 22, 21.", "", []],
  ["chapter, then no versículo", "Leia Apocalipse 22, no versículo 21, hoje.", "Leia hoje.", []],
  ["apocrypha after its numbers", "Leia o capítulo 3 de Tobias, versículo 4, hoje.", "Leia hoje.", []],
  ["pseudepigrapha, verse first", "Leia o versículo 9 do capítulo 1 de Enoque hoje.", "Leia hoje.", []],
  ["a connector alone at the start of the sentence", "Amém. No capítulo 2 de 1 Macabeus lemos.", "Amém. lemos.", []],
];

const DEBRIS: Case[] = [
  ["dangling conjunctions", "Veja Rm 3:99 e Gl 9:99 e Ef 9:99 e agora ore.", "Veja e agora ore.", []],
  ["separator before a word", "Leia João 3:16; Rm 3:99 para mais.", "Leia João 3:16 para mais.", J16],
  ["empty link target", "Veja [Rm 3:99](https://www.bibliaonline.com.br/acf/rm/3/99).", "", []],
  ["empty backticks", "Use `Rm 3:99` como base.", "Use como base.", []],
  ["emphasis around all of it", "Leia **Rm 3:99** e ore.", "Leia e ore.", []],
  ["parentheses with a lead-in", "Deus ama (cf. Rm 3:99).", "Deus ama.", []],
  ["pointer with também", "Veja também Jo 3:99. Amém.", "Amém.", []],
  ["no Veja 21. left", "Veja Apocalipse 22, 21. Amém.", "Amém.", []],
  ["an embedding's controls dropped, its text as written", "Leia \u202b22:21 Ap\u202c hoje.", "Leia 22:21 Ap hoje.", []],
];

function stream(text: string, size: number): { text: string; citations: string[] } {
  const filter = new CitationStreamFilter(SHOWN);
  let out = "";
  for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
  out += filter.end();
  return { text: out, citations: filter.citations };
}

for (const [title, cases] of [
  ["kept and cited", KEPT],
  ["removed", REMOVED],
  ["removed without debris", DEBRIS],
] as const) {
  describe(`citation check (issue #16): ${title}`, () => {
    it.each(cases)("%s", (_name, answer, expected, citations) => {
      const result = checkCitations(answer, SHOWN);
      expect(result.text).toBe(expected);
      expect(result.citations).toEqual(citations);
      for (const size of [1, 2, 3, 7]) expect(stream(answer, size)).toEqual({ text: expected, citations });
    });
  });
}
