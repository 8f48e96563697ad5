/**
 * Property tests of the verse grammar with random input (issue 43): seeded, so a failure names
 * its input and repeats. Three families:
 * 1. random strings over the grammar's own pieces (book names in every case, numbers, separators,
 *    chapter and verse words, Roman numerals, bidi and invisible characters): the scanner, the
 *    parser and the query reader never throw, every match is the text at its offsets, every
 *    reference formats and parses back, counting equals listing, a cap holds, and streaming
 *    never releases what a later character would make part of a reference;
 * 2. references in every form planted in prose full of numbers that are not references: exactly
 *    the planted ones are found, with their text;
 * 3. the citation check on generated answers (test/support/citation-generator.ts, the forms of
 *    issue 43 included) split in two at every position and in three at random ones: the stream
 *    equals the batch, and what it releases is never a character the batch removes.
 * The counts of inputs are in each test's name; `npm run bench` runs more of family 3.
 */
import { describe, expect, it as vitestIt } from "vitest";
import { BOOKS } from "../src/core/bible/books.js";
import {
  type BibleReference,
  type Versification,
  countReferenceVerses,
  expandReference,
  expandReferences,
  findQueryReferences,
  findReferences,
  formatReferences,
  parseReference,
  referencePrefixLength,
  validateReference,
} from "../src/core/bible/references.js";
import { CitationStreamFilter, checkCitations } from "../src/core/grounding/citations.js";
import { scanReferences } from "../src/core/grounding/reference-scan.js";
import { generateCase, judge, roman, SHOWN, seeded } from "./support/citation-generator.js";

/** PROPERTY_SCALE=10 PROPERTY_SEED=7 run ten times the inputs from other seeds (a longer search, by hand). */
const SCALE = Number(process.env.PROPERTY_SCALE ?? 1);
/** Every property below, with the suite's timeout scaled. */
const it = (name: string, fn: () => void) => vitestIt(name, fn, TIMEOUT_MS);
const SEED = Number(process.env.PROPERTY_SEED ?? 0);
const RANDOM_STRINGS = 2_000 * SCALE;
const STREAMED_STRINGS = 1_000 * SCALE;
const PROSE_CASES = 3_000 * SCALE;
const SPLIT_ANSWERS = 30 * SCALE;
/** Generous: the machine running the suite may be loaded (the split family takes ≈ 30 s alone on a busy 2-core one). */
const TIMEOUT_MS = 180_000 * SCALE;

/** A versification for every book: its chapters, each with 10-49 verses (a pure function of the chapter). */
const VERSIFICATION: Versification = new Map(BOOKS.map((book) => [book.code, Array.from({ length: book.chapters }, (_, i) => 10 + ((i * 7 + book.order) % 40))]));

const PIECES = [
  "Jo", "jo", "JO", "Jó", "João", "joao", "1 Jo", "1Jo", "I João", "Primeira João", "Os", "os", "Na", "Atos", "atos", "Sl",
  "Salmo", "Salmos", "Gn", "Gn.", "1 Co", "Ap", "Apocalipse", "Judas", "Jd", "Ob", "Ex", "Mal", "Is", "Fm", "FM", "Cântico dos Cânticos",
  "1", "2", "3", "16", "21", "22", "119", "150", "151", "999", "0", "03", "1234", "3.000",
  ":", ".", ",", ";", "-", "–", " – ", " ", " ", "  ", "\u00a0", "\t", " a ", " até ", " e ", "ss", " e seguintes", "ª", "%",
  "capítulo ", "cap. ", "capítulos ", "versículo ", "versículos ", "v. ", "vv. ", " de ", " do ", " da ", " do livro de ", " da carta aos ",
  "XXII", "III", "IV", "CL", "CLI", "xx", "XXIII", "V", "I", ", ",
  "(", ")", "[", "]", "*", "**", "\n", "\u202e", "\u202c", "\u200b", "\u05d0", "\u0640",
  "papa ", "homens ", "vezes ", "sua vida ", "Lusíadas ", "Deus ", "amém",
];

const BOOK_PIECES = PIECES.slice(0, PIECES.indexOf("1"));
const NUMBER_PIECES = PIECES.slice(PIECES.indexOf("1"), PIECES.indexOf(":"));
const JOIN_PIECES = PIECES.slice(PIECES.indexOf(":"), PIECES.indexOf("capítulo "));

/**
 * Half the time pieces drawn freely; else shaped like a reference (a book, a space, numbers with
 * joins between them), with free pieces around, so that most strings hold something to read.
 */
function randomString(random: () => number, maxPieces: number): string {
  const pick = (xs: readonly string[]) => xs[Math.floor(random() * xs.length)] as string;
  let out = "";
  for (let n = 1 + Math.floor(random() * maxPieces); n > 0; n--) {
    if (random() < 0.5) {
      out += pick(PIECES);
      continue;
    }
    out += `${pick(BOOK_PIECES)}${pick([" ", " ", "", "\u00a0", ", "])}${pick(NUMBER_PIECES)}`;
    for (let k = Math.floor(random() * 3); k > 0; k--) out += pick(JOIN_PIECES) + pick(NUMBER_PIECES);
    n -= 2;
  }
  return out;
}

/** Each span names something a versification can hold, in order. */
function wellFormed(ref: BibleReference): boolean {
  const positive = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n >= 1 && n <= 999);
  return positive(ref.chapterStart) && positive(ref.chapterEnd) && positive(ref.verseStart) && positive(ref.verseEnd) && (ref.verseStart === undefined || ref.verseEnd !== undefined);
}

describe("the verse grammar on random strings (seeded)", () => {
  it(`${RANDOM_STRINGS} strings: scanning, parsing, formatting, counting and listing agree`, () => {
    const random = seeded(43 + SEED);
    let matches = 0;
    let spans = 0;
    let existing = 0;
    for (let n = 0; n < RANDOM_STRINGS; n++) {
      const text = randomString(random, 24);
      const found = findReferences(text);
      let last = 0;
      for (const m of found) {
        expect(m.start, text).toBeGreaterThanOrEqual(last);
        expect(m.text, text).toBe(text.slice(m.start, m.end));
        last = m.end;
        matches++;
        for (const ref of m.references) {
          expect(wellFormed(ref), `${JSON.stringify(text)}: ${JSON.stringify(ref)}`).toBe(true);
          spans++;
          // formatting parses back to the same span
          const back = parseReference(formatReferences([ref]));
          expect(back.ok && back.references, `${JSON.stringify(text)}: ${formatReferences([ref])}`).toEqual([ref]);
          // counting is listing, and a cap holds before anything beyond it is listed
          if (validateReference(ref, VERSIFICATION).ok) {
            existing++;
            const all = expandReference(ref, VERSIFICATION);
            expect(countReferenceVerses(ref, VERSIFICATION)).toBe(all.length);
            expect(expandReference(ref, VERSIFICATION, 5)).toEqual(all.slice(0, 5));
          } else {
            expect(() => countReferenceVerses(ref, VERSIFICATION)).toThrow(RangeError);
          }
        }
        const valid = m.references.filter((ref) => validateReference(ref, VERSIFICATION).ok);
        const bounded = expandReferences([...valid, ...valid], VERSIFICATION, 7);
        const keys = bounded.verses.map((v) => `${v.book} ${v.chapter}:${v.verse}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.length).toBeLessThanOrEqual(7);
        expect(bounded.total).toBe(2 * valid.reduce((sum, ref) => sum + countReferenceVerses(ref, VERSIFICATION), 0));
      }
      // the whole-string readers never throw, and what they accept formats back
      const whole = parseReference(text);
      if (whole.ok) expect(parseReference(formatReferences(whole.references)), text).toMatchObject({ ok: true, references: whole.references });
      expect(() => findQueryReferences(text)).not.toThrow();
      for (const s of scanReferences(text)) expect(s.text).toBe(text.slice(s.start, s.end));
    }
    console.log(`grammar on random strings: ${RANDOM_STRINGS} strings, ${matches} matches, ${spans} spans (${existing} in the versification)`);
    expect(matches).toBeGreaterThan(RANDOM_STRINGS / 4);
  });

  it(`${STREAMED_STRINGS} strings streamed one character at a time: nothing released is later part of a reference`, () => {
    const random = seeded(4343 + SEED);
    let prefixes = 0;
    for (let n = 0; n < STREAMED_STRINGS; n++) {
      const full = randomString(random, 14);
      const final = findReferences(full);
      let released = 0;
      for (let k = 1; k <= full.length; k++) {
        const safe = k - referencePrefixLength(full.slice(0, k));
        expect(safe, JSON.stringify(full.slice(0, k))).toBeGreaterThanOrEqual(released);
        released = safe;
        expect(findReferences(full.slice(0, released)), `${JSON.stringify(full)} released ${released}`).toEqual(final.filter((m) => m.end <= released));
        prefixes++;
      }
    }
    console.log(`grammar streamed: ${STREAMED_STRINGS} strings, ${prefixes} prefixes`);
  });
});

interface Planted {
  text: string;
  canonical: string;
}

/** A random existing reference in one of the forms a model writes. */
function plantReference(random: () => number): Planted {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const book = pick(BOOKS.filter((b) => b.chapters > 1));
  const chapter = 1 + Math.floor(random() * book.chapters);
  const verse = 1 + Math.floor(random() * 9);
  const name = book.name;
  const canonical = `${name} ${chapter}:${verse}`;
  const forms: Array<() => Planted> = [
    () => ({ text: `${name} ${chapter}:${verse}`, canonical }),
    () => ({ text: `${name} ${chapter}:${verse}-${verse + 2}`, canonical: `${name} ${chapter}:${verse}-${verse + 2}` }),
    () => ({ text: `${name}, capítulo ${chapter}, versículo ${verse}`, canonical }),
    () => ({ text: `${name}, capítulo ${chapter}`, canonical: `${name} ${chapter}` }),
    () => ({ text: `capítulo ${chapter} de ${name}, versículo ${verse}`, canonical }),
    () => ({ text: `capítulo ${chapter} de ${name}`, canonical: `${name} ${chapter}` }),
    () => ({ text: `versículo ${verse} do capítulo ${chapter} de ${name}`, canonical }),
    () => ({ text: `versículos ${verse} a ${verse + 1} do capítulo ${chapter} do livro de ${name}`, canonical: `${name} ${chapter}:${verse}-${verse + 1}` }),
    () => ({ text: `${name} ${roman(chapter)}, ${verse}`, canonical }),
    () => ({ text: `${name} ${roman(chapter)}:${verse}`, canonical }),
  ];
  return pick(forms)();
}

/** Prose full of numbers, chapter words and Roman numerals that are not references. */
const PROSE = [
  "Os 3 homens chegaram às 3:30.", "No capítulo 3 de sua vida, ele mudou.", "O papa João XXIII disse isso.", "Pio XII, 3 vezes, falou.",
  "No capítulo 2 de Os Lusíadas há um gigante.", "Em 1 ano e 2 meses, os 12 foram.", "Leia o versículo com calma.", "O capítulo seguinte é longo.",
  "São 150 salmos, e o 23 é o mais lido.", "Na 2ª feira, 5% vieram.", "Deus é amor.", "Isso vale para todos.", "Dom Pedro II reinou.",
  "O livro tem 22 capítulos.", "Foram 40 dias no deserto.",
];

describe("references planted in prose (seeded)", () => {
  it(`${PROSE_CASES} texts: exactly the planted references are found, whole`, () => {
    const random = seeded(2243 + SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    let planted = 0;
    for (let n = 0; n < PROSE_CASES; n++) {
      const parts: string[] = [];
      const expected: Array<[string, string]> = [];
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        parts.push(pick(PROSE));
        const p = plantReference(random);
        parts.push(`${pick(["Leia", "Veja", "Como diz", "Segundo o texto,"])} ${p.text} ${pick(["hoje.", "e ore.", "com fé.", "— amém."])}`);
        expected.push([p.text, p.canonical]);
        planted++;
      }
      parts.push(pick(PROSE));
      const text = parts.join(" ");
      expect(
        findReferences(text).map((m) => [m.text, formatReferences(m.references)]),
        text,
      ).toEqual(expected);
    }
    console.log(`references in prose: ${PROSE_CASES} texts, ${planted} references planted`);
  });
});

describe("the citation check split across stream pieces (seeded)", () => {
  it(`${SPLIT_ANSWERS} generated answers, split in two at every position and in three at random ones`, () => {
    const random = seeded(4300 + SEED);
    let streams = 0;
    let plantedCount = 0;
    const failures: string[] = [];
    for (let n = 0; n < SPLIT_ANSWERS; n++) {
      const c = generateCase(random);
      plantedCount += c.planted.length;
      const verdict = judge(c, [[1], [2, 3]]);
      failures.push(...[...verdict.leaks, ...verdict.overBlocks, ...verdict.mismatches].map((f) => `${f}\n  in ${JSON.stringify(c.answer)}`));
      const batch = checkCitations(c.answer, SHOWN).text;
      const cuts: number[][] = [];
      for (let i = 1; i < c.answer.length; i++) cuts.push([i]);
      for (let r = 0; r < 40; r++) cuts.push([1 + Math.floor(random() * (c.answer.length - 1)), 1 + Math.floor(random() * (c.answer.length - 1))].sort((a, b) => a - b));
      for (const cut of cuts) {
        const filter = new CitationStreamFilter(SHOWN);
        let out = "";
        let from = 0;
        for (const at of [...cut, c.answer.length]) {
          out += filter.push(c.answer.slice(from, at));
          from = at;
          // never a released character the batch does not have at that place
          if (!batch.startsWith(out)) failures.push(`cut ${cut.join(",")} released ${JSON.stringify(out)}\n  in ${JSON.stringify(c.answer)}`);
        }
        out += filter.end();
        if (out !== batch) failures.push(`cut ${cut.join(",")}: ${JSON.stringify(out)} != ${JSON.stringify(batch)}`);
        streams++;
      }
    }
    console.log(`citation check split: ${SPLIT_ANSWERS} answers, ${plantedCount} references planted, ${streams} streams`);
    expect(failures.slice(0, 5)).toEqual([]);
  });
});
