/**
 * A model's answer in the order a reader sees it: the explicit bidirectional controls are gone
 * from what reaches the browser, and a right-to-left override's run is written out in its
 * display order first, so the citation checks read what would have been shown.
 *
 * Why: "\u202E12:22 pA\u202C" displays as "Ap 22:21"; an embedding ("\u202B22:21 Ap\u202C")
 * reorders words the same way. A Portuguese answer needs none of these controls, so:
 * - a run after RIGHT-TO-LEFT OVERRIDE (U+202E), up to POP DIRECTIONAL FORMATTING (U+202C), the
 *   end of the line or of the text, or `OVERRIDE_RUN_CHARS` characters, whichever comes first, is
 *   reversed (by code point, brackets mirrored: the glyphs an override shows), so the checks see
 *   "Ap 22:21";
 * - every explicit control (ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI) is then
 *   dropped: the rest of the answer displays in the order it is written.
 * Right-to-left letters (Hebrew, Arabic…) can still reorder the digits next to them without a
 * control ("Ap א22:21" shows "Ap 22:21א"): the reference scanner's shadow reads past them
 * (./shadow.ts).
 *
 * `BidiStream` does the same on a stream: it holds back an override's run until it is closed, so
 * the pieces it releases, joined, equal `inDisplayOrder` of the whole text.
 */

const RLO = "\u202e";
const PDF = "\u202c";
/** The explicit directional formatting characters (Unicode's Bidi_Control property). */
const BIDI_CONTROLS = /\p{Bidi_Control}/gu;
const HAS_BIDI_CONTROL = /\p{Bidi_Control}/u;
/** The longest override run read in display order (the characters after it are read as written). */
export const OVERRIDE_RUN_CHARS = 200;

const MIRRORED: Readonly<Record<string, string>> = {
  "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<", "«": "»", "»": "«",
  "‹": "›", "›": "‹",
};

function isLineBreak(c: string): boolean {
  return c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029";
}

/** Where the override run starting after `open` ends (at its PDF, line break or the text's end), or -1 while it may go on. */
function runEnd(text: string, open: number, final: boolean): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === PDF || isLineBreak(c)) return i;
    if (i - open > OVERRIDE_RUN_CHARS) return i;
  }
  return final ? text.length : -1;
}

/** The text without its bidi controls, each closed override run in display order (see the module comment). */
function normalise(text: string, final: boolean): { text: string; consumed: number } {
  let out = "";
  let i = 0;
  for (;;) {
    const open = text.indexOf(RLO, i);
    if (open < 0) {
      out += text.slice(i);
      i = text.length;
      break;
    }
    out += text.slice(i, open);
    const end = runEnd(text, open, final);
    if (end < 0) {
      i = open;
      break;
    }
    const run = text.slice(open + 1, end);
    out += [...run].reverse().map((c) => MIRRORED[c] ?? c).join("");
    i = end < text.length && text[end] === PDF ? end + 1 : end;
  }
  return { text: out.replace(BIDI_CONTROLS, ""), consumed: i };
}

/** The whole answer in display order, without bidi controls. */
export function inDisplayOrder(text: string): string {
  return HAS_BIDI_CONTROL.test(text) ? normalise(text, true).text : text;
}

/** `inDisplayOrder` on a stream: an override run is held back until it is closed. */
export class BidiStream {
  private pending = "";

  push(delta: string): string {
    this.pending += delta;
    if (!HAS_BIDI_CONTROL.test(this.pending)) {
      const text = this.pending;
      this.pending = "";
      return text;
    }
    const { text, consumed } = normalise(this.pending, false);
    this.pending = this.pending.slice(consumed);
    return text;
  }

  end(): string {
    const { text } = normalise(this.pending, true);
    this.pending = "";
    return text;
  }
}
