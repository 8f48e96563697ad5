/**
 * The 66 books of the Protestant canon, as USFX/Paratext book codes, in canonical order
 * (Old Testament GEN…MAL, then New Testament MAT…REV).
 *
 * Any other code found in a USFX file (deuterocanon such as TOB or SIR, front matter FRT,
 * glossary GLO, …) is still parsed, but marked `canonical: false`.
 */
export const CANON_BOOK_CODES: readonly string[] = Object.freeze([
  // Old Testament (39)
  "GEN", "EXO", "LEV", "NUM", "DEU", "JOS", "JDG", "RUT", "1SA", "2SA",
  "1KI", "2KI", "1CH", "2CH", "EZR", "NEH", "EST", "JOB", "PSA", "PRO",
  "ECC", "SNG", "ISA", "JER", "LAM", "EZK", "DAN", "HOS", "JOL", "AMO",
  "OBA", "JON", "MIC", "NAM", "HAB", "ZEP", "HAG", "ZEC", "MAL",
  // New Testament (27)
  "MAT", "MRK", "LUK", "JHN", "ACT", "ROM", "1CO", "2CO", "GAL", "EPH",
  "PHP", "COL", "1TH", "2TH", "1TI", "2TI", "TIT", "PHM", "HEB", "JAS",
  "1PE", "2PE", "1JN", "2JN", "3JN", "JUD", "REV",
]);

const CANON: ReadonlySet<string> = new Set(CANON_BOOK_CODES);

/** True when `code` (exact, upper-case USFX code) is one of the 66 Protestant-canon books. */
export function isCanonical(code: string): boolean {
  return CANON.has(code);
}
