/** Character classes and small text helpers shared by the citation checks (verses and documents). */

const HWS_CHARS = new Set(["\t", " ", "\u00a0", "\u1680", "\u202f", "\u205f", "\u3000"]);
for (let c = 0x2000; c <= 0x200a; c++) HWS_CHARS.add(String.fromCharCode(c));

/** Horizontal whitespace (spaces and tabs of every width, never a line break). */
export function isHws(c: string | undefined): boolean {
  return c !== undefined && HWS_CHARS.has(c);
}

export function isNewline(c: string | undefined): boolean {
  return c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029";
}

/** The end of `o[lo, k)` without its trailing horizontal spaces. */
export function trimEndHws(o: string, k: number, lo = 0): number {
  while (k > lo && isHws(o[k - 1])) k--;
  return k;
}

/** Every non-empty prefix of every word (for words that may still be being written). */
export function prefixSet(words: Iterable<string>): ReadonlySet<string> {
  return new Set([...words].flatMap((word) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1))));
}

export const SEPARATORS: ReadonlySet<string> = new Set([",", ";", ":"]);
/** List bullets that a removed list item takes with it ("-" and "*" count as dash and marker too). */
export const BULLETS: ReadonlySet<string> = new Set(["-", "*", "•", "+"]);
/** What may follow a hole for rule 2 (besides a line break and the end of the text). */
export const TERMINALS: ReadonlySet<string> = new Set([")", "]", "}", ".", ",", ";", ":", "!", "?", "…"]);
/** Punctuation that rule 3 drops right after a hole at the start of a line or bracket. */
export const LEADING_PUNCTUATION: ReadonlySet<string> = new Set([",", ";", ":", ".", "!", "?", "…"]);
export const SENTENCE_END: ReadonlySet<string> = new Set([".", "!", "?", "…"]);
