import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyze, buildAccentRestorer, corpusAccentRestorer, foldAccents, isStopword, restoreAccentsIn, stemPortuguese, tokenize } from "../src/core/analysis/index.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/snowball/${name}`, import.meta.url), "utf8");

describe("Snowball Portuguese stemmer", () => {
  it("reproduces the reference output for all 32,016 words of snowball-data", () => {
    const words = fixture("voc.txt").split("\n").filter(Boolean);
    const expected = fixture("output.txt").split("\n").filter(Boolean);
    expect(words).toHaveLength(32_016);
    expect(expected).toHaveLength(32_016);
    const mismatches = words.filter((word, i) => stemPortuguese(word) !== expected[i]);
    expect(mismatches).toEqual([]);
  });
});

describe("tokenize", () => {
  it("lowercases and folds accents", () => {
    expect(tokenize("Coração")).toEqual(["coracao"]);
    expect(tokenize("ÊXODO Ímpios")).toEqual(["exodo", "impios"]);
  });

  it("splits on punctuation and hyphens", () => {
    expect(tokenize("disse-lhe: Levanta-te!")).toEqual(["disse", "levanta"]);
    expect(tokenize("luz,trevas;vida")).toEqual(["luz", "trevas", "vida"]);
  });

  it("drops pure numbers but keeps words with digits inside", () => {
    expect(tokenize("3 16 capítulo 23")).toEqual(["capitulo"]);
    expect(tokenize("1Co")).toEqual(["1co"]);
  });

  it("drops stopwords, accented or typed without accents", () => {
    expect(tokenize("o que é isso")).toEqual([]);
    expect(tokenize("você não está")).toEqual([]);
    expect(tokenize("voce nao esta")).toEqual([]);
    expect(isStopword("nao")).toBe(true);
    expect(isStopword("amor")).toBe(false);
  });
});

describe("analyze", () => {
  it("lets 'amar' meet 'amai' (stemming is mandatory)", () => {
    expect(analyze("amar")).toEqual(analyze("amai"));
    expect(analyze("amar")[0]).not.toBe("amar");
  });

  it("conflates inflections seen in the corpus", () => {
    expect(analyze("inimigos")).toEqual(analyze("inimigo"));
    expect(analyze("perdoai")).toEqual(analyze("perdoar"));
    expect(analyze("bendizei")).toEqual(analyze("bendizer"));
    expect(analyze("orai")).toEqual(analyze("orar"));
  });

  it("keeps short words that only look like verb forms", () => {
    expect(analyze("pai")).toEqual(["pai"]);
    expect(analyze("lei")).not.toEqual(analyze("ler"));
    expect(analyze("mar")).toEqual(["mar"]);
  });

  it("stems before folding accents (the suffix rules are accented)", () => {
    // "-ções" is a Snowball suffix; folding first would leave "ramificacoes" half stemmed.
    expect(analyze("ramificações")).toEqual([foldAccents(stemPortuguese("ramificações"))]);
    expect(analyze("ramificações")).not.toEqual(analyze("ramificacoes"));
  });

  it("meets unaccented typing through an accent restorer", () => {
    const restore = (word: string) => (word === "coracao" ? "coração" : word);
    expect(analyze("coracao", restore)).toEqual(analyze("coração"));
    // Words that already carry accents are never touched by the restorer.
    expect(analyze("coração", () => "xyz")).toEqual(analyze("coração"));
  });

  it("gives nothing for stopword-only or empty input", () => {
    expect(analyze("")).toEqual([]);
    expect(analyze("o que é que nós somos")).toEqual([]);
    expect(analyze("!!! ... 42")).toEqual([]);
  });

  it("never emits accented terms", () => {
    for (const term of analyze("Não temas, porque eu estou contigo; não te assombres")) {
      expect(term).toBe(foldAccents(term));
    }
  });
});

describe("accent restoration (words typed without accents)", () => {
  const units = [
    { text: "O coração do homem; coração e alma." },
    { text: "E o crucificaram; foi crucificado. A oração dos santos." },
    { text: "Esta é a lei; esta casa, esta terra." },
  ];
  const terms = new Set(units.flatMap((unit) => analyze(unit.text)));
  const restore = corpusAccentRestorer(units, (term) => terms.has(term));

  it("gives the corpus's own spelling of a word it has, and leaves the words it has unaccented alone", () => {
    expect(buildAccentRestorer(units)("coracao")).toBe("coração");
    expect(restore("coracao")).toBe("coração");
    expect(restore("oracao")).toBe("oração");
    // "esta" is written without accent more often than "está" (absent here): left as typed.
    expect(restore("esta")).toBe("esta");
  });

  it("restores an accented suffix only when the stem it gives is in the corpus", () => {
    // The corpus never writes "crucificação", but its stem meets "crucificado".
    expect(buildAccentRestorer(units)("crucificacao")).toBe("crucificacao");
    expect(restore("crucificacao")).toBe("crucificação");
    expect(analyze("crucificacao", restore)).toEqual(analyze("crucificado"));
    // No word of the corpus stems like "navegação": nothing is invented.
    expect(restore("navegacao")).toBe("navegacao");
  });

  it("rewrites only the unaccented words of a text, keeping case and punctuation (the dense query)", () => {
    expect(restoreAccentsIn("A crucificacao, o Coração e a ORACAO!", restore)).toBe("A crucificação, o Coração e a oração!");
    expect(restoreAccentsIn("nada a mudar.", restore)).toBe("nada a mudar.");
  });
});
