/**
 * The pure pieces of the knowledge build and lookup: the spelling key and its edit distance,
 * the reference grammars of Nave's and Easton's, the CSV reader, the plural forms a lemma is met
 * by, and the clear errors of a malformed resource line.
 */
import { describe, expect, it } from "vitest";
import { capitalisedWords } from "../src/core/knowledge/alignment.js";
import { CsvError, parseCsv } from "../src/core/knowledge/csv.js";
import { KEY_ROWS_HEADER, parseKeyRows } from "../src/core/knowledge/key-rows.js";
import { isFormOf, singulars } from "../src/core/knowledge/knowledge-index.js";
import { boundedDistance, keySimilarity, maxEditsFor, nameKey } from "../src/core/knowledge/name-key.js";
import { KnowledgeFileError, parseKnowledgeRecords, parseVerseRun } from "../src/core/knowledge/records.js";
import { eastonReferences, naveBook, naveLines, naveReferences, osisVerse, type VerseSpan } from "../src/core/knowledge/verse-refs.js";

const show = (spans: VerseSpan[]) =>
  spans.map((s) => `${s.book} ${s.chapter}${s.verse === undefined ? "" : `:${s.verse}`}${s.endChapter !== undefined ? `-${s.endChapter}:${s.verseEnd}` : s.verseEnd !== undefined ? `-${s.verseEnd}` : ""}`);

describe("the spelling key", () => {
  it("gives one key to the forms of a name: Portuguese, English, typed", () => {
    const same = [
      ["Melquisedeque", "Melquisedec", "Melchizedek"],
      ["Ester", "Esther"],
      ["Javé", "Yahweh"],
      ["Jeová", "Jehovah"],
      ["Arão", "Aaron"],
      ["Nefilins", "nefilim", "Nephilim"],
      ["Miriã", "Miriam"],
      ["Anrão", "Amram"],
      ["Joquebede", "Jochebed"],
      ["Betel", "Bethel"],
      ["En-Dor", "en dor", "Endor"],
    ];
    for (const group of same) expect(new Set(group.map(nameKey)).size, group.join(" / ")).toBe(1);
    expect(nameKey("Moisés")).not.toBe(nameKey("Moses"));
    expect(boundedDistance(nameKey("Moisés"), nameKey("Moses"), 2)).toBe(1);
  });

  it("bounds the edits by length and stops counting past the bound", () => {
    expect([3, 4, 5, 7, 8, 12].map(maxEditsFor)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(boundedDistance("kitten", "sitting", 5)).toBe(3);
    expect(boundedDistance("kitten", "sitting", 1)).toBe(2);
    expect(boundedDistance("abc", "abcdef", 2)).toBe(3);
    expect(keySimilarity("abcd", "abcd")).toBe(1);
    expect(keySimilarity("abcd", "wxyz")).toBe(0);
  });

  it("reads a verse's capitalised words, hyphenated names whole", () => {
    expect(capitalisedWords("Então Saul disse: Buscai-me uma mulher em En-Dor que tem espírito de necromante.")).toEqual(["Então", "Saul", "Buscai", "En-Dor"]);
  });
});

describe("the reference grammars", () => {
  it("reads Nave's lists: codes, continued books, whole chapters, odd abbreviations, 'with'", () => {
    expect(show(naveReferences("EXO 6:16-20; JOS 21:4,10; 1CH 6:2,3; 23:13"))).toEqual(["EXO 6:16-20", "JOS 21:4", "JOS 21:10", "1CH 6:2", "1CH 6:3", "1CH 23:13"]);
    expect(show(naveReferences("EXO 28; 29; LEV 8"))).toEqual(["EXO 28", "EXO 29", "LEV 8"]);
    expect(show(naveReferences("So 8:2; Jude 1:7; Isa. 13:21"))).toEqual(["SNG 8:2", "JUD 1:7", "ISA 13:21"]);
    expect(show(naveReferences("1SA 22:20-23; with 22:6-19"))).toEqual(["1SA 22:20-23", "1SA 22:6-19"]);
    expect(show(naveReferences("EXO 6:28-7:2"))).toEqual(["EXO 6:28-7:2"]);
    expect(naveBook("So")).toBe("SNG");
    expect(naveBook("Matt.")).toBe("MAT");
    expect(naveBook("XYZ")).toBeUndefined();
  });

  it("reads a Nave's subject line by line: heading text, references, depth and -See links", () => {
    const lines = naveLines("-General scriptures concerning DEU 18:11; 26:14; ISA 8:19; 29:4\n-INSTANCE OF\n     -The witch of En-dor 1SA 28:7-19\n     -See FAMILIAR SPIRITS\n-See PRIEST, HIGH");
    expect(lines.map((line) => [line.depth, line.text, show(line.spans), line.see])).toEqual([
      [0, "General scriptures concerning", ["DEU 18:11", "DEU 26:14", "ISA 8:19", "ISA 29:4"], []],
      [0, "INSTANCE OF", [], []],
      [1, "The witch of En-dor", ["1SA 28:7-19"], []],
      [1, "See FAMILIAR SPIRITS", [], ["FAMILIAR SPIRITS"]],
      [0, "See PRIEST, HIGH", [], ["PRIEST, HIGH"]],
    ]);
  });

  it("reads Easton's links, their ranges, and the bare continuations after them", () => {
    const text =
      "The eldest son of Amram and Jochebed ([Ex. 6:20](/exod#Exod.6.20)). Born three years before his brother (2:1, 4; 7:7). Sent by God ([Ex. 4:14](/exod#Exod.4.14), [27-30](/exod#Exod.4.27)). Quoted (Matt. 1:23).";
    expect(show(eastonReferences(text))).toEqual(["EXO 6:20", "EXO 2:1", "EXO 2:4", "EXO 7:7", "EXO 4:14", "EXO 4:27-30", "MAT 1:23"]);
    expect(osisVerse("1Cor.5.7")).toEqual({ book: "1CO", chapter: 5, verse: 7 });
    expect(osisVerse("Nope.1.1")).toBeUndefined();
  });
});

describe("the CSV reader", () => {
  it("reads quoted fields with commas, line breaks and doubled quotes, after a BOM", () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","line\nbreak ""q"""\n')).toEqual([["a", "b"], ["x, y", 'line\nbreak "q"']]);
    expect(() => parseCsv('a,"open\n')).toThrow(CsvError);
  });
});

describe("the lemma forms a term is met by", () => {
  it("takes plurals of Portuguese nouns, and nothing else, as the lemma's", () => {
    expect(isFormOf("tatuagens", "tatuagem")).toBe(true);
    expect(isFormOf("perdoes", "perdao")).toBe(true);
    expect(isFormOf("animais", "animal")).toBe(true);
    expect(isFormOf("jogos", "jogo")).toBe(true);
    expect(isFormOf("pedro", "pedra")).toBe(false);
    expect(singulars("tatuagens")).toContain("tatuagem");
    expect(singulars("perdoes")).toContain("perdao");
  });
});

describe("a malformed resource", () => {
  it("is refused with the file and the line", () => {
    expect(() => parseKnowledgeRecords("person", '{"kind":"person","id":"x"}\n', "people.jsonl")).toThrow(KnowledgeFileError);
    expect(() => parseKnowledgeRecords("person", "not json\n", "people.jsonl")).toThrow(/people\.jsonl, linha 1: não é JSON/);
    expect(() => parseKeyRows("# other version\n", "index.tsv")).toThrow(/index\.tsv, linha 1: gerado com outra versão/);
    expect(() => parseKeyRows(`${KEY_ROWS_HEADER}\nN\tp\tx\n`, "index.tsv")).toThrow(/linha 2/);
    expect(parseVerseRun("LEV 19:28")).toEqual({ book: "LEV", chapter: 19, verse: 28, verseEnd: 28 });
    expect(parseVerseRun("OBA 1:21-1")).toBeUndefined();
    expect(parseVerseRun("XXX 1:1")).toBeUndefined();
  });
});
