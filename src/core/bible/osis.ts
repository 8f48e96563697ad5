/**
 * OSIS book names (as used by OpenBible.info and CrossWire: "Gen", "Exod", "1John") ↔
 * USFX/Paratext book codes ("GEN", "EXO", "1JN") for the 66 books of the Protestant canon.
 *
 * Pure data, in canonical order (the same order as `CANON_BOOK_CODES` in
 * src/core/sources/canon.ts: index 0 = Genesis, 65 = Revelation).
 */

/** `[osis, usfx]` pairs in canonical order. */
const PAIRS: readonly (readonly [osis: string, usfx: string])[] = [
  // Old Testament (39)
  ["Gen", "GEN"], ["Exod", "EXO"], ["Lev", "LEV"], ["Num", "NUM"], ["Deut", "DEU"],
  ["Josh", "JOS"], ["Judg", "JDG"], ["Ruth", "RUT"], ["1Sam", "1SA"], ["2Sam", "2SA"],
  ["1Kgs", "1KI"], ["2Kgs", "2KI"], ["1Chr", "1CH"], ["2Chr", "2CH"], ["Ezra", "EZR"],
  ["Neh", "NEH"], ["Esth", "EST"], ["Job", "JOB"], ["Ps", "PSA"], ["Prov", "PRO"],
  ["Eccl", "ECC"], ["Song", "SNG"], ["Isa", "ISA"], ["Jer", "JER"], ["Lam", "LAM"],
  ["Ezek", "EZK"], ["Dan", "DAN"], ["Hos", "HOS"], ["Joel", "JOL"], ["Amos", "AMO"],
  ["Obad", "OBA"], ["Jonah", "JON"], ["Mic", "MIC"], ["Nah", "NAM"], ["Hab", "HAB"],
  ["Zeph", "ZEP"], ["Hag", "HAG"], ["Zech", "ZEC"], ["Mal", "MAL"],
  // New Testament (27)
  ["Matt", "MAT"], ["Mark", "MRK"], ["Luke", "LUK"], ["John", "JHN"], ["Acts", "ACT"],
  ["Rom", "ROM"], ["1Cor", "1CO"], ["2Cor", "2CO"], ["Gal", "GAL"], ["Eph", "EPH"],
  ["Phil", "PHP"], ["Col", "COL"], ["1Thess", "1TH"], ["2Thess", "2TH"], ["1Tim", "1TI"],
  ["2Tim", "2TI"], ["Titus", "TIT"], ["Phlm", "PHM"], ["Heb", "HEB"], ["Jas", "JAS"],
  ["1Pet", "1PE"], ["2Pet", "2PE"], ["1John", "1JN"], ["2John", "2JN"], ["3John", "3JN"],
  ["Jude", "JUD"], ["Rev", "REV"],
];

/** The 66 OSIS book names in canonical order. */
export const OSIS_BOOKS: readonly string[] = Object.freeze(PAIRS.map(([osis]) => osis));

/** The 66 USFX codes in canonical order (same order as {@link OSIS_BOOKS}). */
export const USFX_BOOKS: readonly string[] = Object.freeze(PAIRS.map(([, usfx]) => usfx));

const OSIS_TO_USFX: ReadonlyMap<string, string> = new Map(PAIRS.map(([osis, usfx]) => [osis, usfx]));
const USFX_TO_OSIS: ReadonlyMap<string, string> = new Map(PAIRS.map(([osis, usfx]) => [usfx, osis]));

/**
 * Book index (0 = Genesis … 65 = Revelation) for an OSIS name ("John") or a USFX code ("JHN").
 * Both spellings are exact-case (OSIS names are mixed case, USFX codes upper case, so they
 * never collide); an upper-cased OSIS name or a lower-case USFX code is accepted too.
 */
const BOOK_INDEX: ReadonlyMap<string, number> = (() => {
  const index = new Map<string, number>();
  PAIRS.forEach(([osis, usfx], i) => {
    index.set(osis, i);
    index.set(usfx, i);
    index.set(osis.toUpperCase(), i);
    index.set(usfx.toLowerCase(), i);
  });
  return index;
})();

/** USFX code for an OSIS book name (`"Ps"` → `"PSA"`), or `undefined` when unknown. */
export function osisToUsfx(osis: string): string | undefined {
  return OSIS_TO_USFX.get(osis);
}

/** OSIS book name for a USFX code (`"SNG"` → `"Song"`), or `undefined` when unknown. */
export function usfxToOsis(usfx: string): string | undefined {
  return USFX_TO_OSIS.get(usfx);
}

/**
 * Canonical index (0 = Genesis … 65 = Revelation) of a book given as OSIS name or USFX code,
 * or -1 when it is not one of the 66 books.
 */
export function bookIndexOf(book: string): number {
  return BOOK_INDEX.get(book) ?? -1;
}
