import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  Lexicon,
  cleanLemma,
  formatNominalizations,
  formatWordnetTab,
  modernizeSpelling,
  parseMorphosemanticLinks,
  parseNominalizations,
  parseWordnetTab,
} from "../src/core/analysis/lexicon.js";
import { loadLexicon } from "../src/adapters/sources/lexicon-files.js";

/** Lines copied verbatim from OpenWordNet-PT's wn-data-por.tab (except the last two, made up). */
const TAB_SAMPLE = [
  "# OpenWN-PT\tpor\thttps://github.com/arademaker/wordnet-br\tCC BY-SA",
  "00001740-n\tlemma\tente",
  "00001740-n\tlemma\tentidade",
  "00001740-n\tlemma\tser",
  "00001930-n\tlemma\tentidade física",
  "00002137-n\tlemma\tabstração",
  "00002137-n\tlemma\tidéia abstrata",
  "00162386-a\tlemma\tcauteloso(a)",
  "00162386-a\tlemma\tcuidadoso(a)",
  "00301338-v\tlemma\tdyskwalifikować",
  "07519253-n\tlemma\ttemor",
  "07519253-n\tlemma\tmedo",
  "99999999-n\tlemma\tIdéia",
  "99999999-n\tlemma\tideia",
].join("\n");

/** Records copied verbatim from own-pt-morphosemantic-links.ttl. */
const TTL_SAMPLE = `@prefix dc: <http://purl.org/dc/elements/1.1/> .
@prefix own-pt: <https://w3id.org/own/own-pt/instances/> .
@prefix owns: <https://w3id.org/own/schema/> .

own-pt:nomlex-abandonar-abandonador a owns:Agentive,
        owns:Nominalization ;
    owns:noun own-pt:word-abandonador-n ;
    owns:plural "abandonadores"@pt ;
    owns:verb own-pt:word-abandonar-v .

own-pt:nomlex-eviscerar-viscera a owns:Nominalization ;
    owns:noun own-pt:word-viscera-n .

own-pt:nomlex-perdoar-perdão a owns:Nominalization ;
    dc:provenance "PAPEL" ;
    owns:noun own-pt:word-perdão-n ;
    owns:verb own-pt:word-perdoar-v .

own-pt:wordsense-00001740-v-2 owns:event own-pt:wordsense-00831191-n-1 .
`;

describe("word forms", () => {
  it("modernises pre-1990 spellings only where the rule is mechanical", () => {
    expect(modernizeSpelling("idéia")).toBe("ideia");
    expect(modernizeSpelling("assembléias")).toBe("assembleias");
    expect(modernizeSpelling("jóia")).toBe("joia");
    expect(modernizeSpelling("heróico")).toBe("heroico");
    expect(modernizeSpelling("freqüente")).toBe("frequente");
    expect(modernizeSpelling("vôo")).toBe("voo");
    expect(modernizeSpelling("crêem")).toBe("creem");
    for (const kept of ["papéis", "herói", "heróis", "anzóis", "pára", "pêlo", "fé", "avô", "têm"]) {
      expect(modernizeSpelling(kept)).toBe(kept);
    }
  });

  it("cleans lemmas into single lowercase words or rejects them", () => {
    expect(cleanLemma("cauteloso(a)")).toBe("cauteloso");
    expect(cleanLemma("exposição (saúde)")).toBe("exposição");
    expect(cleanLemma("Deus")).toBe("deus");
    expect(cleanLemma("entidade física")).toBeUndefined();
    expect(cleanLemma("guarda-chuva")).toBeUndefined();
    expect(cleanLemma("etc.")).toBeUndefined();
    expect(cleanLemma("dyskwalifikować")).toBeUndefined();
    expect(cleanLemma("a")).toBeUndefined();
  });
});

describe("parsers (literal lines)", () => {
  it("parseWordnetTab keeps single-word lemmas, cleaned, per synset", () => {
    const synsets = parseWordnetTab(TAB_SAMPLE);
    expect(synsets).toEqual([
      { id: "00001740-n", pos: "n", lemmas: ["ente", "entidade", "ser"] },
      { id: "00002137-n", pos: "n", lemmas: ["abstração"] },
      { id: "00162386-a", pos: "a", lemmas: ["cauteloso", "cuidadoso"] },
      { id: "07519253-n", pos: "n", lemmas: ["temor", "medo"] },
      { id: "99999999-n", pos: "n", lemmas: ["ideia"] },
    ]);
    expect(parseWordnetTab(TAB_SAMPLE, { modernize: false }).at(-1)?.lemmas).toEqual(["idéia", "ideia"]);
  });

  it("parseWordnetTab reads back formatWordnetTab", () => {
    const synsets = parseWordnetTab(TAB_SAMPLE);
    expect(parseWordnetTab(formatWordnetTab(synsets, ["header"]))).toEqual(synsets);
  });

  it("parseMorphosemanticLinks reads nominalization records and skips incomplete ones", () => {
    expect(parseMorphosemanticLinks(TTL_SAMPLE)).toEqual([
      { verb: "abandonar", noun: "abandonador", agentive: true, plural: "abandonadores" },
      { verb: "perdoar", noun: "perdão", agentive: false },
    ]);
  });

  it("parseNominalizations reads back formatNominalizations", () => {
    const pairs = parseMorphosemanticLinks(TTL_SAMPLE);
    const text = formatNominalizations(pairs, ["header"]);
    expect(text).toBe("# header\nabandonar\tabandonador\tagentive\tabandonadores\nperdoar\tperdão\t\t\n");
    expect(parseNominalizations(text)).toEqual(pairs);
  });
});

describe("Lexicon (synthetic data)", () => {
  const big = Array.from({ length: 13 }, (_, i) => `palavra${String.fromCharCode(97 + i)}`);
  const lexicon = new Lexicon(
    [
      { id: "1-n", pos: "n", lemmas: ["luz", "claridade"] },
      { id: "2-n", pos: "n", lemmas: ["luz", "claridade", "brilho"] },
      { id: "3-n", pos: "n", lemmas: ["luz", "lâmpada", "candeia", "archote"] },
      { id: "4-n", pos: "n", lemmas: ["luz", ...big] },
      { id: "5-v", pos: "v", lemmas: ["iluminar", "alumiar"] },
      { id: "6-n", pos: "n", lemmas: ["avó", "vovó"] },
      { id: "7-n", pos: "n", lemmas: ["avô", "vovô"] },
    ],
    [
      { verb: "iluminar", noun: "iluminação", agentive: false, plural: "iluminações" },
      { verb: "iluminar", noun: "iluminador", agentive: true },
    ],
  );

  it("orders synonyms by shared synsets, then synset size; excludes the word", () => {
    expect(lexicon.synonyms("luz")).toEqual(["claridade", "brilho", "archote", "candeia", "lâmpada"]);
    expect(lexicon.synonyms("luz", { limit: 1 })).toEqual(["claridade"]);
    expect(lexicon.synonyms("LUZ")).not.toContain("luz");
  });

  it("skips synsets larger than maxSynsetSize (default 12)", () => {
    expect(lexicon.synonyms("luz", { limit: 100 })).not.toContain("palavraa");
    expect(lexicon.synonyms("luz", { limit: 100, maxSynsetSize: 20 })).toContain("palavraa");
    expect(lexicon.synsets("luz").map((synset) => synset.lemmas.length)).toEqual([2, 3, 4, 14]);
    expect(lexicon.synonyms("luz", { pos: "v" })).toEqual([]);
  });

  it("looks words up by folded form when there is no exact match", () => {
    expect(lexicon.synonyms("avo").sort()).toEqual(["vovó", "vovô"]);
    expect(lexicon.synonyms("avó")).toEqual(["vovó"]);
    expect(lexicon.lemmasFor("iluminacao")).toEqual(["iluminação"]);
    expect(lexicon.lemmasFor("iluminações")).toEqual(["iluminação"]);
    expect(lexicon.has("nada")).toBe(false);
  });

  it("returns nominalization partners, agentive ones last or excluded", () => {
    expect(lexicon.related("iluminar")).toEqual(["iluminação", "iluminador"]);
    expect(lexicon.related("iluminar", { agentive: false })).toEqual(["iluminação"]);
    expect(lexicon.related("iluminacao")).toEqual(["iluminar"]);
    expect(lexicon.related("luz")).toEqual([]);
  });
});

describe("shipped OpenWordNet-PT lexicon", () => {
  let lexicon: Lexicon;
  beforeAll(async () => {
    lexicon = await loadLexicon();
  });

  it("ships its files with the licence", () => {
    const root = new URL("../resources/lexicon/", import.meta.url);
    for (const name of ["README.md", "LICENSE.own-pt", "wn-data-por.single-words.tab", "nominalizations.tsv"]) {
      expect(existsSync(new URL(name, root))).toBe(true);
    }
    expect(lexicon.size).toBeGreaterThan(15_000);
    expect(lexicon.synsetCount).toBeGreaterThan(10_000);
  });

  it("finds synonyms of medo (temor) without medo itself", () => {
    const synonyms = lexicon.synonyms("medo");
    expect(synonyms).toContain("temor");
    expect(synonyms).not.toContain("medo");
    expect(lexicon.synonyms("temor")).toContain("medo");
  });

  it("relates perdoar ↔ perdão, also typed without accents or in the plural", () => {
    expect(lexicon.related("perdoar")).toContain("perdão");
    expect(lexicon.related("perdão")).toContain("perdoar");
    expect(lexicon.related("perdao")).toContain("perdoar");
    expect(lexicon.related("perdões")).toContain("perdoar");
    expect(lexicon.synonyms("perdao")).toEqual(lexicon.synonyms("perdão"));
    expect(lexicon.synonyms("perdão")).toContain("misericórdia");
  });

  it("adds the project's pairs missing from NomLex-PT (amar ↔ amor, temer ↔ temor)", async () => {
    expect(lexicon.related("amar")).toContain("amor");
    expect(lexicon.related("temor")).toContain("temer");
    const withoutExtra = await loadLexicon(undefined, { extra: false });
    expect(withoutExtra.related("amar")).not.toContain("amor");
    expect(withoutExtra.related("perdoar")).toContain("perdão");
  });

  it("finds old and new spellings alike (idéia/ideia)", () => {
    expect(lexicon.synonyms("idéia")).toEqual(lexicon.synonyms("ideia"));
    expect(lexicon.synonyms("ideia")).toContain("pensamento");
  });

  it("caps expansion of very polysemous words", () => {
    expect(lexicon.synsets("fazer").length).toBeGreaterThan(20);
    expect(lexicon.synonyms("fazer")).toHaveLength(10);
    expect(lexicon.synonyms("fazer", { limit: 3 })).toHaveLength(3);
  });

  it("drops slang senses that would put offensive words into Bible search", () => {
    // "veado" is the deer of Psalm 42:1; the data also lists it in a slur synset.
    expect(lexicon.synonyms("veado", { limit: 100 })).toContain("cervo");
    expect(lexicon.synonyms("veado", { limit: 100 })).not.toContain("homossexual");
    expect(lexicon.synonyms("comer", { limit: 100 })).not.toContain("transar");
    expect(lexicon.synonyms("esterco", { limit: 100 })).toContain("excremento");
    expect(lexicon.synonyms("esterco", { limit: 100 })).not.toContain("merda");
  });
});
