/**
 * The USFX parser on three real eBible.org files (test/fixtures/usfx/*.xml.gz, 11–20 MB
 * uncompressed), read through readUsfxFile (streaming gunzip).
 *
 * How the expected counts were obtained, independently of the parser (shell, on the fixtures):
 *   books:  zcat F | grep -o '<book id="[^"]*"' | wc -l
 *   <c>:    zcat F | grep -o '<c id=' | wc -l
 *   verses: zcat F | grep -o '<v id=' | wc -l      (one record per <v>, a bridge is one <v>)
 *   <ve/>:  zcat F | grep -o '<ve[ /]' | wc -l
 *   canonical split: zcat F | grep -o '<book id="[^"]*"\|<v id=' piped into awk, counting the
 *     <v> lines after each <book> whose code is one of the 66 canonical codes.
 *   empty verses: a Python regex pass that takes the text between each <v> and the next
 *     <v>/<ve/>/<c>/</book>, drops <f>…</f> and <x>…</x>, strips tags and keeps those left blank.
 *
 *   file                     books  canonical  <c>    <v>     canonical <v>  <ve/>   empty
 *   engwebp_usfx.xml         83     66         1402   38058   31103          38058   29
 *   eng-kjv2006_usfx.xml     66     66         1189   31102   31102          31102   0
 *   spaRV1909_usfx.xml       66     66         1189   31102   31102          30965   18
 *
 * engwebp: 31103 canonical verses because ROM 14:24-26 holds the doxology and ROM 16:25 is kept
 * as an empty verse. The 17 non-canonical books are FRT and GLO (no verses at all) and 15
 * deuterocanonical books with 6955 verses.
 * spaRV1909: 137 verses have no <ve/> (31102 - 30965), but only 12 of them are empty; the other
 * 125 have text that runs up to the next <c> (e.g. the last verse of many psalms). 6 more empty
 * verses do have a <ve/> (JOB 38:39-40 and 40:20-23), so 18 empty verses in all.
 *
 * Exact texts were checked by reading the XML (fragments quoted next to the assertions, with
 * the <w s="…"> wrappers left out).
 */
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { isCanonical } from "../src/core/sources/canon.js";
import { readUsfxFile } from "../src/adapters/sources/usfx-file.js";
import type { UsfxBookInfo } from "../src/core/sources/usfx.js";
import type { Verse } from "../src/core/types.js";

interface Loaded {
  verses: Verse[];
  books: UsfxBookInfo[];
  byRef: Map<string, Verse>;
  raw: string;
}

function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/usfx/${name}`, import.meta.url));
}

async function load(name: string): Promise<Loaded> {
  const books: UsfxBookInfo[] = [];
  const verses: Verse[] = [];
  for await (const v of readUsfxFile(fixture(name), { onBook: (b) => books.push(b) })) verses.push(v);
  const byRef = new Map<string, Verse>();
  for (const v of verses) {
    const ref = v.verseEnd === v.verse ? `${v.book} ${v.chapter}:${v.verse}` : `${v.book} ${v.chapter}:${v.verse}-${v.verseEnd}`;
    byRef.set(ref, v);
  }
  const raw = gunzipSync(readFileSync(fixture(name))).toString("utf8");
  return { verses, books, byRef, raw };
}

function get(data: Loaded, ref: string): Verse {
  const found = data.byRef.get(ref);
  if (!found) throw new Error(`verse not found: ${ref}`);
  return found;
}

function refs(verses: readonly Verse[]): string[] {
  return verses.map((v) => `${v.book} ${v.chapter}:${v.verse}${v.verseEnd !== v.verse ? `-${v.verseEnd}` : ""}`);
}

/**
 * Footnote bodies (<ft>…</ft>) of the raw file, tags stripped, at least 30 characters long;
 * at most 1000 of them, evenly spread over the file, to keep the substring search quick.
 */
function longFootnotes(raw: string): string[] {
  const all: string[] = [];
  for (const match of raw.matchAll(/<ft>([\s\S]*?)<\/ft>/g)) {
    const body = match[1]!.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();
    if (body.length >= 30) all.push(body);
  }
  const step = Math.max(1, Math.ceil(all.length / 1000));
  return all.filter((_, index) => index % step === 0);
}

/** Shared checks: counts, no Strong's numbers, no footnote text, clean whitespace. */
function commonChecks(
  label: string,
  get: () => Loaded,
  expected: {
    books: number;
    canonicalBooks: number;
    chapters: number;
    verses: number;
    canonicalVerses: number;
    empty: number;
    footnotes: boolean;
  },
): void {
  describe(`${label}: common checks`, () => {
    it("has the expected numbers of books, chapters and verses", () => {
      const { books, verses } = get();
      expect(books).toHaveLength(expected.books);
      expect(books.filter((b) => b.canonical)).toHaveLength(expected.canonicalBooks);
      expect(books.reduce((sum, b) => sum + b.chapters, 0)).toBe(expected.chapters);
      expect(verses).toHaveLength(expected.verses);
      expect(verses.filter((v) => v.canonical)).toHaveLength(expected.canonicalVerses);
      expect(verses.filter((v) => v.text === "")).toHaveLength(expected.empty);
      expect(new Set(verses.filter((v) => v.canonical).map((v) => `${v.book} ${v.chapter}`)).size).toBe(1189);
    });

    it("marks canonical exactly the 66 canon codes", () => {
      const { verses } = get();
      expect(verses.filter((v) => v.canonical !== isCanonical(v.book))).toEqual([]);
    });

    it("never leaks Strong's numbers", () => {
      const { verses, raw } = get();
      expect(raw).toMatch(/<w s="[HG]\d{4}/); // the file does have them
      expect(verses.filter((v) => /\b[HG]\d{3,5}\b/.test(v.text))).toEqual([]);
    });

    it("never leaks footnote text", () => {
      const { verses, raw } = get();
      const all = verses.map((v) => v.text).join("\n");
      const notes = longFootnotes(raw);
      if (expected.footnotes) expect(notes.length).toBeGreaterThan(500);
      else expect(raw).not.toContain("<f ");
      expect(notes.filter((note) => all.includes(note))).toEqual([]);
    });

    it("normalises whitespace and leaves no markup", () => {
      const { verses } = get();
      const bad = verses.filter(
        (v) => v.text !== v.text.trim() || /\s{2,}|[\n\t<>]| [,.;:!?]/.test(v.text) || /[^\P{Cc}\n\t]/u.test(v.text),
      );
      expect(bad).toEqual([]);
    });
  });
}

// ---------------------------------------------------------------------------------------------

describe("World English Bible (engwebp_usfx.xml.gz)", () => {
  let web: Loaded;
  beforeAll(async () => {
    web = await load("engwebp_usfx.xml.gz");
  });

  commonChecks("engwebp", () => web, {
    books: 83,
    canonicalBooks: 66,
    chapters: 1402,
    verses: 38058,
    canonicalVerses: 31103,
    empty: 29,
    footnotes: true,
  });

  it("uses the file name without .gz as source", () => {
    expect(new Set(web.verses.map((v) => v.source))).toEqual(new Set(["engwebp_usfx.xml"]));
  });

  it("reports FRT, GLO and the deuterocanon as non-canonical books", () => {
    const nonCanonical = web.books.filter((b) => !b.canonical).map((b) => b.book);
    expect(nonCanonical).toEqual([
      "FRT", "TOB", "JDT", "ESG", "WIS", "SIR", "BAR", "1MA", "2MA", "1ES", "MAN", "PS2", "3MA", "2ES", "4MA", "DAG", "GLO",
    ]);
    // Front matter and glossary have no verses: their text never becomes a verse.
    expect(web.books.find((b) => b.book === "FRT")).toMatchObject({ bookName: "Preface", chapters: 0, verses: 0 });
    expect(web.books.find((b) => b.book === "GLO")).toMatchObject({ bookName: "Glossary", chapters: 0, verses: 0 });
    expect(web.verses.filter((v) => v.book === "FRT" || v.book === "GLO")).toEqual([]);
    expect(get(web, "TOB 1:1")).toMatchObject({ canonical: false, bookName: "Tobit" });
    expect(get(web, "DAG 3:24")).toMatchObject({ canonical: false, bookName: "Daniel (Greek)" });
    expect(get(web, "GEN 1:1")).toMatchObject({ canonical: true, bookName: "Genesis" });
  });

  it("keeps verse bridges as ranges", () => {
    const bridges = web.verses.filter((v) => v.verseEnd !== v.verse);
    expect(refs(bridges)).toEqual([
      "SIR 11:15-16", "SIR 16:15-16", "SIR 19:18-19", "SIR 22:9-10", "SIR 26:19-27", "4MA 8:28-29",
    ]);
    // <v id="28-29" bcv="4MA.8.28" />So that as soon as the tyrant …
    expect(get(web, "4MA 8:28-29")).toMatchObject({
      chapter: 8,
      verse: 28,
      verseEnd: 29,
      text: "So that as soon as the tyrant had ceased counselling them to eat the unclean, they all with one voice, as from the same heart said,",
    });
    // <v id="15-16" bcv="SIR.11.15" /><f …><ft>Verses 15 and 16 are omitted by the best authorities.…
    expect(get(web, "SIR 11:15-16").text).toBe("");
  });

  it("reads plain verses and drops footnotes", () => {
    // <v id="1" bcv="GEN.1.1" />In the beginning, God<f caller="+"><fr>1:1</fr><ft>The Hebrew
    // word rendered “God” is “אֱלֹהִ֑ים” (Elohim).</ft></f> created the heavens and the earth.
    expect(get(web, "GEN 1:1").text).toBe("In the beginning, God created the heavens and the earth.");
    expect(web.verses.filter((v) => v.text.includes("Elohim"))).toEqual([]);
    expect(get(web, "JHN 11:35").text).toBe("Jesus wept.");
    expect(get(web, "JHN 3:16").text).toBe(
      "For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life.",
    );
  });

  it("drops cross references (<x><xo><xt><ref>)", () => {
    // …for whom each man is evaluated,<x caller="+"><xo>12:4</xo><xt><ref tgt="EXO.30.12">Exodus
    // 30:12</ref></xt></x> and all the money that it comes into any man’s heart…
    const text = get(web, "2KI 12:4").text;
    expect(text).toBe(
      "Jehoash said to the priests, “All the money of the holy things that is brought into Yahweh’s house, in current money, the money of the people for whom each man is evaluated, and all the money that it comes into any man’s heart to bring into Yahweh’s house,",
    );
    expect(text).not.toContain("Exodus");
    // </p><q style="q1"><x caller="+"><xo>2:6</xo><xt><ref tgt="AMO.8.10">Amos 8:10</ref></xt></x>“Your feasts…
    expect(get(web, "TOB 2:6").text).toBe(
      "and remembered the prophecy of Amos, as he said, “Your feasts will be turned into mourning, and all your mirth into lamentation.",
    );
    const xts = [...web.raw.matchAll(/<xt>([\s\S]*?)<\/xt>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "").trim());
    expect(xts).toHaveLength(363);
    const all = web.verses.map((v) => v.text).join("\n");
    expect(xts.filter((xt) => all.includes(xt))).toEqual([]);
  });

  it("keeps the words of Jesus (<wj>)", () => {
    // <v id="15" bcv="MAT.3.15" />But Jesus, answering, said to him,
    // <wj>“Allow it now, for this is the fitting way for us to fulfill all righteousness.”</wj> Then he allowed him.
    expect(get(web, "MAT 3:15").text).toBe(
      "But Jesus, answering, said to him, “Allow it now, for this is the fitting way for us to fulfill all righteousness.” Then he allowed him.",
    );
  });

  it("joins poetry lines and keeps Selah (<q>, <qs>)", () => {
    // <v id="2" bcv="PSA.3.2" />Many there are who say of my soul,</q><q level="2" style="q2">“There
    // is no help for him in God.”<f …>…</f><qs>Selah.</qs>
    expect(get(web, "PSA 3:2").text).toBe("Many there are who say of my soul, “There is no help for him in God.” Selah.");
  });

  it("drops speaker labels (<p sfm=\"sp\">) inside a verse", () => {
    // SNG 1:4 holds two labels, "Friends" and "Beloved", between its poetry lines.
    expect(get(web, "SNG 1:4").text).toBe(
      "Take me away with you. Let’s hurry. The king has brought me into his rooms. We will be glad and rejoice in you. We will praise your love more than wine! They are right to love you.",
    );
  });

  it("emits the verses the WEB keeps only in footnotes as empty", () => {
    const emptyCanonical = web.verses.filter((v) => v.canonical && v.text === "");
    expect(refs(emptyCanonical)).toEqual(["LUK 17:36", "ACT 8:37", "ACT 15:34", "ACT 24:7", "ROM 16:25"]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("King James Version (eng-kjv2006_usfx.xml.gz)", () => {
  let kjv: Loaded;
  beforeAll(async () => {
    kjv = await load("eng-kjv2006_usfx.xml.gz");
  });

  commonChecks("kjv", () => kjv, {
    books: 66,
    canonicalBooks: 66,
    chapters: 1189,
    verses: 31102,
    canonicalVerses: 31102,
    empty: 0,
    footnotes: true,
  });

  it("reads verses wrapped in <w> on many lines", () => {
    // <v id="1" bcv="GEN.1.1" />In the\n<w s="H7225">beginning</w>\n<w s="H0430">God</w> …
    expect(get(kjv, "GEN 1:1").text).toBe("In the beginning God created the heaven and the earth.");
    expect(get(kjv, "JHN 11:35").text).toBe("Jesus wept.");
  });

  it("drops footnotes", () => {
    // …<w s="H2822">darkness</w>.<f caller="+"><fr>1.4</fr><ft>the light from…: Heb. between the
    // light and between the darkness</ft></f>
    expect(get(kjv, "GEN 1:4").text).toBe(
      "And God saw the light, that it was good: and God divided the light from the darkness.",
    );
    expect(kjv.verses.filter((v) => v.text.includes("Heb."))).toEqual([]);
  });

  it("keeps <add>, <nd> and the pilcrow of the source", () => {
    // ¶ These <add>are</add> the generations … in the day that the <nd>LORD</nd> God made the earth and the heavens,
    expect(get(kjv, "GEN 2:4").text).toBe(
      "¶ These are the generations of the heavens and of the earth when they were created, in the day that the LORD God made the earth and the heavens,",
    );
    // The <nd>LORD</nd> <add>is</add> my shepherd; I shall not want.
    expect(get(kjv, "PSA 23:1").text).toBe("The LORD is my shepherd; I shall not want.");
  });

  it("keeps <wj> words", () => {
    expect(get(kjv, "MAT 5:44").text).toBe(
      "But I say unto you, Love your enemies, bless them that curse you, do good to them that hate you, and pray for them which despitefully use you, and persecute you;",
    );
  });

  it("drops psalm titles (<d>) and acrostic headings (<s><tl>)", () => {
    // <c id="3" /><d style="d">A Psalm of David, when he fled from Absalom his son.</d>
    expect(get(kjv, "PSA 3:1").text).toBe(
      "LORD, how are they increased that trouble me! many are they that rise up against me.",
    );
    // <ve /></q><s style="s1"><tl> ב BETH.</tl></s><q style="q1"><v id="9" bcv="PSA.119.9" />Wherewithal…
    expect(get(kjv, "PSA 119:8").text).toBe("I will keep thy statutes: O forsake me not utterly.");
    expect(get(kjv, "PSA 119:9").text).toBe(
      "Wherewithal shall a young man cleanse his way? by taking heed thereto according to thy word.",
    );
    expect(kjv.verses.filter((v) => v.text.includes("BETH"))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("Reina-Valera 1909 (spaRV1909_usfx.xml.gz)", () => {
  let rv: Loaded;
  beforeAll(async () => {
    rv = await load("spaRV1909_usfx.xml.gz");
  });

  commonChecks("rv1909", () => rv, {
    books: 66,
    canonicalBooks: 66,
    chapters: 1189,
    verses: 31102,
    canonicalVerses: 31102,
    empty: 18,
    footnotes: false,
  });

  it("reads non-ASCII names and text", () => {
    expect(get(rv, "GEN 1:1")).toMatchObject({ bookName: "Génesis", text: "EN el principio crió Dios los cielos y la tierra." });
    expect(get(rv, "EXO 1:1").bookName).toBe("Éxodo");
    expect(get(rv, "JHN 3:16").text).toBe(
      "Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna.",
    );
  });

  it("closes a verse whose <ve/> sits after </p>, then an empty verse without <ve/> before <c>", () => {
    // <v id="15" />Así María fué echada … que se <add>le</add> reunió María. </p>
    // <ve /><v id="16" />
    // <c id="13" /><p>
    // <v id="1" />Y DESPUÉS movió el pueblo de Haseroth, …
    const index = rv.verses.findIndex((v) => v.book === "NUM" && v.chapter === 12 && v.verse === 15);
    expect(rv.verses.slice(index, index + 3)).toEqual([
      expect.objectContaining({
        chapter: 12,
        verse: 15,
        text: "Así María fué echada del real siete días; y el pueblo no pasó adelante hasta que se le reunió María.",
      }),
      expect.objectContaining({ chapter: 12, verse: 16, verseEnd: 16, text: "" }),
      expect.objectContaining({
        chapter: 13,
        verse: 1,
        text: "Y DESPUÉS movió el pueblo de Haseroth, y asentaron el campo en el desierto de Parán.",
      }),
    ]);
    // Same pattern at a book end: <ve /><v id="14" />\n</book>
    expect(get(rv, "2CO 13:13").text).toBe(
      "La gracia del Señor Jesucristo, y el amor de Dios, y la participación del Espíritu Santo sea con vosotros todos. Amén. La segunda Epístola á los Corintios fué enviada de Filipos de Macedonia con Tito y Lucas.",
    );
    expect(get(rv, "2CO 13:14").text).toBe("");
    expect(get(rv, "JON 1:17").text).toBe("");
    expect(get(rv, "JON 2:1").text.startsWith("MAS Jehová había prevenido un gran pez")).toBe(true);
  });

  it("closes a verse with text but no <ve/> at the next <c>", () => {
    // <v id="8" />De Jehová es la salud: sobre tu pueblo será tu bendición. (Selah.)\n<c id="4" /><p>
    // <v id="1" />Al Músico principal: sobre Neginoth: Salmo de David.</p> RESPÓNDEME cuando clamo, …
    expect(get(rv, "PSA 3:8").text).toBe("De Jehová es la salud: sobre tu pueblo será tu bendición. (Selah.)");
    expect(get(rv, "PSA 4:1").text).toBe(
      "Al Músico principal: sobre Neginoth: Salmo de David. RESPÓNDEME cuando clamo, oh Dios de mi justicia: estando en angustia, tú me hiciste ensanchar: ten misericordia de mí, y oye mi oración.",
    );
  });

  it("emits exactly the 18 empty verses", () => {
    expect(refs(rv.verses.filter((v) => v.text === ""))).toEqual([
      "NUM 12:16", "NUM 29:40", "1SA 23:29", "2SA 20:26", "2CH 33:25", "JOB 35:16", "JOB 38:39",
      "JOB 38:40", "JOB 38:41", "JOB 40:20", "JOB 40:21", "JOB 40:22", "JOB 40:23", "JOB 40:24",
      "HOS 11:12", "JON 1:17", "ACT 19:41", "2CO 13:14",
    ]);
    expect(rv.raw.match(/<ve ?\/>/g)).toHaveLength(30965);
  });
});
