/**
 * Citation checking: every Bible reference the model writes must point at verses it was shown
 * (./passages.ts `ShownVerses`). References to anything else are invented and are removed from
 * the answer, both in the final text (`checkCitations`) and while it streams
 * (`CitationStreamFilter`), so a fabricated reference never reaches the browser, not even
 * half-written.
 *
 * The answer is first put in display order without bidi controls (./bidi.ts: a right-to-left
 * override that displays as "Ap 22:21" is read, and shown, as "Ap 22:21").
 * References are found by ./reference-scan.ts: the reference grammar run on a normalising shadow
 * of the answer (./shadow.ts), so that odd spellings (Markdown inside, no space, English names,
 * books outside the canon, numbers in words, Unicode digits and colons, invisible or look-alike
 * characters, line breaks, Bible URLs) are recognised, plus continuations ("Jo 3:16 e 19"),
 * bare verses ("versículo 19", read against the reference before it) and whole Markdown links.
 *
 * What happens to a reference (a match, which may be a list such as "Rm 3:23; 6:23"):
 * - every span shown: kept exactly as written; its spans are cited.
 * - no span shown: the reference text is removed (it is listed in `removed` as written) and the
 *   text around the hole is cleaned up (rules below).
 * - some spans shown ("Jo 3:16; 3:99"): the match is rewritten as the canonical formatting of
 *   the shown spans (`formatReferences`: "João 3:16"); the dropped spans are listed in `removed`
 *   in canonical form ("João 3:99"), since the grammar gives no offsets for list items.
 * A span is shown when all of its verses are; whole chapters and cross-chapter ranges need a
 * `Versification` and are treated as not shown without one (see `ShownVerses.covers`).
 *
 * Cleanup around a removed reference, looking at what is left on its left (L) and right (R):
 * 1. A bracket group that held only the reference disappears with its brackets and lead-in
 *    words: "amor (cf. Rm 3:99)." → "amor."; also markdown emphasis: "**Rm 3:99**" → "".
 *    Groups nest: "((Rm 3:99))" goes entirely.
 * 2. Before a closing bracket, punctuation, a line break or the end of the text, dangling
 *    connectors and separators on the left are dropped (up to four: "e", "ou", "em", "no",
 *    "na", "cf.", "vide", "conforme", "segundo"; ",", ";", ":", a dash):
 *    "Deus nos ama, conforme Rm 3:99." → "Deus nos ama."; "(Jo 3:16; Rm 3:99)" → "(Jo 3:16)";
 *    "também" after a pointer verb goes with it ("Veja também Rm 3:99." → "");
 *    "Jo 3:16, Rm 3:99, Gl 2:20" → "Jo 3:16, Gl 2:20". Pointing verbs ("veja", "leia", "ver",
 *    "confira") go too at the end of a sentence or line ("Veja Rm 3:99." → ""), but before a
 *    list separator the separator goes instead ("Veja Rm 3:99, Jo 3:16" → "Veja Jo 3:16").
 *    A period after a sentence that already ends in ".", "!" or "?" is dropped.
 * 3. When nothing is left before the hole in its sentence, line or bracket, a separator,
 *    punctuation mark or connector ("e", "ou") right after it goes too:
 *    "Em Rm 3:99, Paulo diz" → "Paulo diz"; "(Rm 3:99; Jo 3:16)" → "(Jo 3:16)";
 *    "Amém. Leia Rm 3:99!" → "Amém.". A line (or list item: "- ", "* ", "• ") that held only
 *    the reference disappears with its line break.
 * 4. A reference between two dashes leaves one: "Em resumo — Rm 3:99 — Deus ama" →
 *    "Em resumo — Deus ama". Otherwise the two sides are joined with one space (none before
 *    punctuation):
 *    "Como diz Rm 3:99, Deus" → "Como diz, Deus"; "Leia Rm 3:99 e ore" → "Leia e ore".
 * A reference written from its chapter or verse word takes the article before it ("Leia o
 * versículo 21 do capítulo 22 do Apocalipse hoje." → "Leia hoje."; a bare "versículo N" does not).
 * The cleanup never touches other words, so a dangling "Como diz" may remain.
 *
 * A removed or rewritten reference that held one side of an emphasis ("**João** 3:99") takes
 * the other side with it. Two more joins: a connector doubled by the hole goes ("Veja Rm 3:99 e
 * Gl 9:99 e agora" → "Veja e agora"), and so does a list separator left between a kept reference
 * and a word ("Jo 3:16; Rm 3:99 para mais" → "Jo 3:16 para mais").
 *
 * Streaming. `push` releases text as soon as nothing later can change it: it holds back the
 * tail that may still become (or extend) a reference (`scanPrefixLength`, at most its window of
 * 960 characters), plus the few
 * output characters that the cleanup of a hole may still remove (trailing spaces, separators,
 * connectors, brackets and lead-in words), plus, after a removed reference, the characters
 * needed to decide its cleanup. The concatenation of all released text equals
 * `checkCitations(fullText).text` for every chunking. Each push costs O(delta + a few hundred
 * characters): it never rescans the text already released.
 */
import { type BibleReference, type Versification, formatReference, formatReferences } from "../bible/references.js";
import { BidiStream, inDisplayOrder } from "./bidi.js";
import type { ShownVerses } from "./passages.js";
import { type ScannedReference, scanPrefixLength, scanReferences } from "./reference-scan.js";
import { BULLETS, isHws, isNewline, LEADING_PUNCTUATION, prefixSet, SENTENCE_END, SEPARATORS, TERMINALS, trimEndHws } from "./text-chars.js";
import type { StreamCitationCheck } from "./stream-check.js";

/** What decides whether a span was shown (a `ShownVerses`, or a test double). */
export type ShownSet = Pick<ShownVerses, "covers">;

export interface CitationCheck {
  /** The text with invented references removed and the surroundings cleaned up. */
  text: string;
  /** Canonical references of the kept spans (`formatReference`), in order of first appearance, deduplicated. */
  citations: string[];
  /** The removed references: as written for a whole match, canonical for items dropped from a list. */
  removed: string[];
}

// ---------------------------------------------------------------------------------------------
// Character classes and word lists
// ---------------------------------------------------------------------------------------------


const LETTER = /\p{L}/u;

function isLetter(c: string | undefined): boolean {
  if (c === undefined || c === "") return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return LETTER.test(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && c >= "0" && c <= "9";
}

/** Opening bracket → closing bracket. Emphasis markers close with themselves. */
const BRACKETS: ReadonlyMap<string, string> = new Map([
  ["(", ")"],
  ["[", "]"],
]);
const MARKERS: ReadonlySet<string> = new Set(["*", "_", "~", "`"]);
const DASHES: ReadonlySet<string> = new Set(["-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"]);

/** Words that may stand between an opening bracket and the reference: "(cf. Rm 3:99)". */
const LEAD_INS: ReadonlySet<string> = new Set([
  "cf", "cf.", "cp", "cp.", "conf", "conf.", "confira", "compare", "veja", "vejam", "ver", "vide", "leia",
  "lemos", "conforme", "segundo", "como", "em", "no", "na", "também", "tb", "tb.", "v", "v.", "vv", "vv.",
  "ref", "ref.", "referência", "e", "ou", "ex", "ex.",
]);
/** Words dropped from the left of a hole before punctuation (rule 2). */
const CONNECTORS: ReadonlySet<string> = new Set([
  "e", "ou", "em", "no", "na", "cf", "cf.", "cp", "cp.", "vide", "conforme", "segundo",
]);
/**
 * Verbs that point at a reference ("Veja Rm 3:99."): dropped with it at the end of a sentence
 * or line (rule 2); before a list separator the separator goes instead ("Veja Rm 3:99, Jo 3:16"
 * → "Veja Jo 3:16").
 */
const POINTERS: ReadonlySet<string> = new Set(["veja", "vejam", "ver", "leia", "leiam", "confira", "compare", "cf", "cf.", "vide"]);
/** Words dropped from the right of a hole at the start of a line or bracket (rule 3). */
const RIGHT_CONNECTORS: ReadonlySet<string> = new Set(["e", "ou"]);
/** "Veja também Rm 3:99.": dropped with the pointer verb before it (rule 2). */
const ALSO: ReadonlySet<string> = new Set(["também", "tambem", "tb", "tb."]);
/**
 * Articles that go with a removed reference written from its chapter or verse word ("Leia o
 * versículo 21 do capítulo 22 do Apocalipse hoje." → "Leia hoje.").
 */
const ARTICLES: ReadonlySet<string> = new Set(["o", "a", "os", "as"]);
/** A reference written from its chapter or verse word ("capítulo 22 de Apocalipse", "versículo 21 do capítulo 22…"). */
const KEYWORD_FIRST = /^(?:cap|v)/iu;

/** Every prefix of a word of LEAD_INS, CONNECTORS, POINTERS or ARTICLES: a word being typed that may become one. */
const WORD_PREFIXES = prefixSet([...LEAD_INS, ...CONNECTORS, ...POINTERS, ...ARTICLES]);

/** Start of the word (letters, optionally a final period) ending at k, or k when there is none. */
function wordStartBefore(o: string, k: number, lo: number): number {
  let w = k;
  if (w > lo && o[w - 1] === ".") w--;
  let s = w;
  while (s > lo && isLetter(o[s - 1])) s--;
  if (s === w) return k;
  if (s > 0 && isDigit(o[s - 1])) return k; // "3em" is not the word "em"
  return s;
}

/**
 * The earliest index of `o` that the cleanup of a future hole could modify: trailing spaces,
 * and before them any run of brackets, emphasis markers, separators, dashes, lead-in words and
 * connectors, including a word being typed that may become one. Output before it is final.
 * Over-approximates the rules (holding back a little more is harmless).
 */
function affectableStart(o: string, lo: number): number {
  let i = o.length;
  const s = wordStartBefore(o, i, lo);
  if (s < i) {
    if (!WORD_PREFIXES.has(o.slice(s, i).toLowerCase())) return i;
    i = s;
  }
  for (;;) {
    const j = trimEndHws(o, i, lo);
    if (j <= lo) return lo;
    const c = o[j - 1] as string;
    if (BRACKETS.has(c) || MARKERS.has(c) || SEPARATORS.has(c) || DASHES.has(c) || BULLETS.has(c)) {
      i = j - 1;
      continue;
    }
    if ((c === "." || c === ")") && isDigit(o[j - 2])) {
      // a numbered list item ("1. ", "2) ") at the start of a line
      let d = j - 2;
      while (d > lo && isDigit(o[d - 1])) d--;
      if (d === 0 || isHws(o[d - 1]) || isNewline(o[d - 1])) {
        i = d;
        continue;
      }
    }
    const w = wordStartBefore(o, j, lo);
    if (w < j) {
      const word = o.slice(w, j).toLowerCase();
      if (LEAD_INS.has(word) || CONNECTORS.has(word) || POINTERS.has(word) || ARTICLES.has(word)) {
        i = w;
        continue;
      }
    }
    return j;
  }
}

interface OpenGroup {
  /** Index of the bracket or marker. */
  start: number;
  close: string;
  /** Lead-in words stand between the bracket and the hole. */
  leadIns: boolean;
}

/** A bracket (with up to three lead-in words and an optional colon) or an emphasis marker ending at k. */
function openGroupAt(o: string, k: number, lo: number): OpenGroup | undefined {
  let i = k;
  let words = 0;
  if (i > lo && o[i - 1] === ":") i--;
  for (;;) {
    const j = trimEndHws(o, i, lo);
    if (j <= lo) return undefined;
    const c = o[j - 1] as string;
    const close = BRACKETS.get(c);
    if (close !== undefined) return { start: j - 1, close, leadIns: words > 0 };
    if (MARKERS.has(c)) return words === 0 && i === k ? { start: j - 1, close: c, leadIns: false } : undefined;
    if (words >= 3) return undefined;
    const w = wordStartBefore(o, j, lo);
    if (w === j || !LEAD_INS.has(o.slice(w, j).toLowerCase())) return undefined;
    words++;
    i = w;
  }
}

/** The pointer verb ending at k, if any. */
function pointerAt(o: string, k: number, lo: number): boolean {
  const w = wordStartBefore(o, k, lo);
  return w < k && !isLetter(o[w - 1]) && POINTERS.has(o.slice(w, k).toLowerCase());
}

/**
 * Drops one connector, separator or dash ending at k (rule 2), or a pointer verb when
 * `pointers`: the new end, or -1.
 */
function dropOne(o: string, k: number, lo: number, pointers: boolean): number {
  if (k <= lo) return -1;
  const c = o[k - 1] as string;
  if (SEPARATORS.has(c)) return trimEndHws(o, k - 1, lo);
  if (DASHES.has(c)) {
    // a spaced dash, or a glued en/em dash; never a list bullet at the start of a line
    if (c === "-" && !isHws(o[k - 2])) return -1;
    const j = trimEndHws(o, k - 1, lo);
    if (j === 0 || isNewline(o[j - 1])) return -1;
    return j;
  }
  const w = wordStartBefore(o, k, lo);
  if (w < k && !isLetter(o[w - 1])) {
    const word = o.slice(w, k).toLowerCase();
    if (CONNECTORS.has(word) || (pointers && POINTERS.has(word))) return trimEndHws(o, w, lo);
    // "Veja também Rm 3:99.": "também" goes when the pointer before it goes too
    if (pointers && ALSO.has(word) && pointerAt(o, trimEndHws(o, w, lo), lo)) return trimEndHws(o, w, lo);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// The rewriting core, shared by checkCitations and the stream filter
// ---------------------------------------------------------------------------------------------

/** Released output kept for look-behind (line starts, bullets). */
const OUTPUT_CONTEXT = 64;
/** A "reference follows" marker for the junction (never a real character of the text). */
const NEXT_IS_REFERENCE = "\u0000ref";

class Rewriter {
  /** Output: `released` characters already handed out (kept for look-behind), then the unreleased tail. */
  private out = "";
  private released = 0;
  /** `out` starts at the beginning of the whole output. */
  private outAtStart = true;
  /** A removed reference waits for its cleanup. */
  private hole = false;
  /** Canonical references of the kept spans, in order of first appearance. */
  readonly citations = new Set<string>();
  readonly removed: string[] = [];
  /** The last span of the last reference, and whether that reference was removed (for a bare "versículo N"). */
  private last: { ref: BibleReference; removed: boolean } | undefined;
  /** An emphasis marker left open by a removed reference, to drop right after it ("João **3:99**"). */
  private stripRight: string[] = [];

  constructor(
    private readonly shown: ShownSet,
    private readonly versification: Versification | undefined,
  ) {}

  /**
   * Processes `buf[p, end)`; `matches` are the references that start in it (offsets into `buf`,
   * each ending by `end`). `final`: the text ends at `end`. Returns how far `buf` was consumed:
   * less than `end` only when the cleanup of a hole needs characters after `end` (then the rest
   * holds no reference).
   */
  process(buf: string, p: number, end: number, matches: readonly ScannedReference[], final: boolean): number {
    let index = 0;
    for (;;) {
      const next = matches[index];
      const limit = next ? next.start : end;
      while (this.stripRight.length > 0) {
        const marker = this.stripRight.shift() as string;
        while (p < limit && buf[p] === marker) p++;
      }
      if (this.hole) {
        const r = this.junction(buf, p, limit, next !== undefined, final && next === undefined);
        if (r === undefined) return p;
        p = r;
        this.hole = false;
      }
      if (p < limit) {
        this.out += buf.slice(p, limit);
        p = limit;
      }
      if (!next) return p;
      this.reference(next);
      p = next.end;
      index++;
    }
  }

  /** Text that can be handed out now (everything when `final`). */
  release(final: boolean): string {
    const upTo = Math.max(this.released, final ? this.out.length : affectableStart(this.out, this.released));
    const text = this.out.slice(this.released, upTo);
    this.released = upTo;
    if (this.released > 4 * OUTPUT_CONTEXT) {
      const cut = this.released - OUTPUT_CONTEXT;
      this.out = this.out.slice(cut);
      this.released -= cut;
      this.outAtStart = false;
    }
    return text;
  }

  private reference(match: ScannedReference): void {
    let refs = match.references;
    if (match.bare) {
      // "versículo 19": of the chapter of the reference before it; gone with a removed one
      const last = this.last;
      if (!last) {
        this.out += match.text;
        return;
      }
      if (last.removed) {
        this.removed.push(match.text);
        this.hole = true;
        return;
      }
      const chapter = last.ref.chapterEnd;
      refs = [{ book: last.ref.book, chapterStart: chapter, chapterEnd: chapter, ...match.bare }];
    }
    const kept: BibleReference[] = [];
    const dropped: BibleReference[] = [];
    for (const ref of refs) (this.shown.covers(ref, this.versification) ? kept : dropped).push(ref);
    if (!match.bare) this.last = { ref: refs[refs.length - 1] as BibleReference, removed: kept.length === 0 };
    for (const ref of kept) this.citations.add(formatReference(ref));
    if (dropped.length === 0) {
      this.out += match.text;
      return;
    }
    this.balanceMarkers(match.text);
    if (kept.length === 0) {
      if (!match.bare && KEYWORD_FIRST.test(match.text)) this.dropArticle();
      this.removed.push(match.text);
      this.hole = true;
    } else {
      this.out += formatReferences(kept);
      this.removed.push(...dropped.map((ref) => formatReference(ref)));
    }
  }

  /** Drops an article ("o", "a", "os", "as") left right before the hole, keeping the space before it. */
  private dropArticle(): void {
    const o = this.out;
    const k = trimEndHws(o, o.length, this.released);
    const w = wordStartBefore(o, k, this.released);
    if (w < k && !isLetter(o[w - 1]) && ARTICLES.has(o.slice(w, k).toLowerCase())) this.out = o.slice(0, w);
  }

  /**
   * A rewritten reference that held one side of an emphasis ("**João** 3:99", "João **3:99**")
   * takes the other side with it: the run of markers right before it, or else right after it.
   */
  private balanceMarkers(text: string): void {
    const runs = new Map<string, number>();
    for (const run of text.matchAll(/([*_~`])\1*/g)) {
      const c = run[1] as string;
      runs.set(c, (runs.get(c) ?? 0) + 1);
    }
    for (const [c, count] of runs) {
      if (count % 2 === 0) continue;
      let k = this.out.length;
      while (k > this.released && this.out[k - 1] === c) k--;
      if (k < this.out.length) this.out = this.out.slice(0, k);
      else this.stripRight.push(c);
    }
  }

  /**
   * When nothing but spaces and a list bullet ("-", "*", "•", "+", "1.", "2)") stands between
   * the start of the line and k: the index where the line begins. Undefined otherwise.
   */
  private lineStart(o: string, k: number): { begin: number } | undefined {
    let j = trimEndHws(o, k, 0);
    if (j > 0 && BULLETS.has(o[j - 1] as string)) {
      j--;
    } else if (j > 1 && (o[j - 1] === "." || o[j - 1] === ")") && isDigit(o[j - 2])) {
      j -= 2;
      while (j > 0 && isDigit(o[j - 1])) j--;
    }
    j = trimEndHws(o, j, 0);
    if (j === 0 ? !this.outAtStart : !isNewline(o[j - 1])) return undefined;
    return { begin: j };
  }

  /**
   * Cleans up around the hole left by a removed reference: `this.out` is its left side, `buf`
   * from p its right side up to `limit` (the next reference when `refNext`, the end of the text
   * when `eof`). Returns where the right side resumes, or undefined when more text is needed.
   */
  private junction(buf: string, p: number, limit: number, refNext: boolean, eof: boolean): number | undefined {
    let o = this.out;
    const lo = this.released;
    const charAt = (i: number): string | undefined => (i < limit ? buf[i] : eof ? "" : refNext ? NEXT_IS_REFERENCE : undefined);
    /** Skips spaces from i; undefined when the text may go on with more spaces. */
    const skipSpaces = (i: number): number | undefined => {
      while (i < limit && isHws(buf[i])) i++;
      return charAt(i) === undefined ? undefined : i;
    };
    /** The word at i and its end, if it is complete. */
    const wordAt = (i: number): { word: string; end: number } | undefined => {
      let e = i;
      while (e < limit && isLetter(buf[e])) e++;
      if (charAt(e) === undefined) return undefined;
      return { word: buf.slice(i, e).toLowerCase(), end: e };
    };

    for (let guard = 0; guard < 64; guard++) {
      const q = skipSpaces(p);
      if (q === undefined) return undefined;
      const rc = charAt(q) as string;
      const rsp = q > p;
      const lt = trimEndHws(o, o.length, lo);
      const lsp = lt < o.length;

      // Rule 1: a group that held only the reference.
      const group = openGroupAt(o, lt, lo);
      if (group && rc === group.close) {
        o = o.slice(0, group.start);
        p = q + 1;
        continue;
      }

      // Rule 2: dangling connectors and separators before punctuation or the end of a line.
      const terminal = rc === "" || isNewline(rc) || TERMINALS.has(rc);
      // ... and before an excerpt's marker ("Leia Ap 22:21 e Jo 3:99 [1]." → "Leia Ap 22:21 [1].")
      let footnote = false;
      if (rc === "[") {
        const n = charAt(q + 1);
        if (n === undefined) return undefined;
        footnote = isDigit(n);
      }
      let k = lt;
      const listSeparator = rc === "," || rc === ";";
      if ((terminal || footnote) && !group) {
        for (let n = 0; n < 4; n++) {
          const d = dropOne(o, k, lo, !listSeparator && rc !== ":" && !footnote);
          if (d < 0) break;
          k = d;
        }
      }

      // "No Rm 3:99 lemos.": a connector alone at the start of its sentence or line goes too
      if (k === lt && !group) {
        const w = wordStartBefore(o, lt, lo);
        const j = trimEndHws(o, w, lo);
        const start = j === 0 ? this.outAtStart : isNewline(o[j - 1]) || SENTENCE_END.has(o[j - 1] as string);
        if (w < lt && !isLetter(o[w - 1]) && start && CONNECTORS.has(o.slice(w, lt).toLowerCase()) && isLetter(o[lt - 1])) k = j;
      }

      // Rule 3: at the start of a line or bracket, drop what introduced the next item.
      let bracket = k === lt ? group : openGroupAt(o, k, lo);
      // an emphasis marker at the start of a line is a list bullet ("* Rm 3:99")
      const line = bracket && !MARKERS.has(o[bracket.start] as string) ? undefined : this.lineStart(o, k);
      if (line) bracket = undefined;
      // after a finished sentence, the next one starts here
      const sentence = !bracket && !line && k > 0 && SENTENCE_END.has(o[k - 1] as string);
      if (bracket || line || sentence) {
        if (bracket && rc === bracket.close) {
          o = o.slice(0, bracket.start);
          p = q + 1;
          continue;
        }
        if (line && (isNewline(rc) || rc === "")) {
          // The line held only the reference (maybe as a list item): it goes entirely.
          let r = rc === "" ? q : q + 1;
          if (rc === "\r") {
            const lf = charAt(r);
            if (lf === undefined) return undefined;
            if (lf === "\n") r++;
          }
          this.out = o.slice(0, Math.max(line.begin, lo));
          return r;
        }
        let r = q;
        if (LEADING_PUNCTUATION.has(rc)) {
          r = q + 1;
        } else if (isLetter(rc)) {
          const w = wordAt(q);
          if (w === undefined) return undefined;
          if (RIGHT_CONNECTORS.has(w.word) && isHws(buf[w.end]) && w.end < limit) r = w.end;
        }
        if (r > q) {
          const s = skipSpaces(r);
          if (s === undefined) return undefined;
          r = s;
        }
        const after = charAt(r);
        if (after === undefined) return undefined;
        const before = o[k - 1];
        const space =
          before !== undefined &&
          !BRACKETS.has(before) &&
          !MARKERS.has(before) &&
          !isNewline(before) &&
          after !== "" &&
          !isNewline(after) &&
          !TERMINALS.has(after);
        this.out = o.slice(0, k) + (space ? " " : "");
        return r;
      }

      // "Em resumo — Rm 3:99 — Deus ama": one dash is enough
      const doubleDash = DASHES.has(rc) && k === lt && k > 0 && DASHES.has(o[k - 1] as string) && isHws(o[k - 2]);
      // "Veja Rm 3:99, Jo 3:16": the verb now points at the next item
      if (doubleDash || (listSeparator && pointerAt(o, k, lo))) {
        const r = skipSpaces(q + 1);
        if (r === undefined) return undefined;
        this.out = o.slice(0, k) + " ";
        return r;
      }

      if (terminal) {
        let r = q;
        if (rc === "." && k > 0 && SENTENCE_END.has(o[k - 1] as string)) r = q + 1;
        this.out = o.slice(0, k);
        return r;
      }
      if (footnote && k < lt) {
        this.out = o.slice(0, k) + " ";
        return q;
      }

      if (isLetter(rc)) {
        const w = wordAt(q);
        if (w === undefined) return undefined;
        const lw = wordStartBefore(o, lt, lo);
        if (
          RIGHT_CONNECTORS.has(w.word) &&
          isHws(buf[w.end]) &&
          lw < lt &&
          !isLetter(o[lw - 1]) &&
          RIGHT_CONNECTORS.has(o.slice(lw, lt).toLowerCase())
        ) {
          // "Veja Rm 3:99 e Gl 9:99 e agora": one connector is enough
          this.out = o.slice(0, trimEndHws(o, lw, lo)) + " ";
          return q;
        }
        const ls = trimEndHws(o, lt - 1, lo);
        if ((o[lt - 1] === "," || o[lt - 1] === ";") && isDigit(o[ls - 1])) {
          // "Leia Jo 3:16; Rm 3:99 para mais": the list ended with the kept reference
          this.out = o.slice(0, ls) + " ";
          return q;
        }
      }

      // Rule 4: join with one space.
      const space = (lsp || rsp) && !(lt === 0 && this.outAtStart) && !isNewline(o[lt - 1]);
      this.out = o.slice(0, lt) + (space ? " " : "");
      return q;
    }
    // Pathological nesting: stop cleaning, keep the rest as it is.
    this.out = o;
    return p;
  }
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/**
 * Removes the references to verses the model was not shown (see the module comment for the
 * rules), and lists the kept citations and the removed references.
 */
export function checkCitations(answer: string, shown: ShownSet, versification?: Versification): CitationCheck {
  const text = inDisplayOrder(answer);
  const core = new Rewriter(shown, versification);
  core.process(text, 0, text.length, scanReferences(text), true);
  return { text: core.release(true), citations: [...core.citations], removed: [...core.removed] };
}

/**
 * Raw text kept before the unprocessed part, as look-behind for `findReferences` and
 * `referencePrefixLength`. References never straddle the processed/unprocessed boundary (what is
 * processed was released by `referencePrefixLength`), and a reference decided once stays decided,
 * so the scanners only need a look-behind, not the whole window: a short one keeps each push cheap.
 * It starts after a space, so that no word (or "1 Jo") is cut in two at its start.
 */
const RAW_CONTEXT = 64;

/**
 * Streaming `checkCitations`: feed the model's tokens to `push`, which returns the text safe to
 * show now; call `end` at the end of the stream for the rest. Never releases any part of a
 * reference that will be removed, whatever the token boundaries, and the released text, joined,
 * equals `checkCitations(fullText).text`.
 */
export class CitationStreamFilter implements StreamCitationCheck {
  private readonly core: Rewriter;
  /** The answer in display order, without bidi controls (./bidi.ts), before anything else reads it. */
  private readonly bidi = new BidiStream();
  /** The last processed raw characters (look-behind). */
  private rawContext = "";
  /** Raw text not processed yet. */
  private pending = "";
  private finished = false;

  constructor(shown: ShownSet, versification?: Versification) {
    this.core = new Rewriter(shown, versification);
  }

  /** Adds a chunk of the answer; returns the text that can be shown now (possibly ""). */
  push(delta: string): string {
    if (this.finished) throw new Error("CitationStreamFilter: push depois de end.");
    if (delta === "") return "";
    const text = this.bidi.push(delta);
    if (text === "") return "";
    this.pending += text;
    const hold = scanPrefixLength(this.rawContext + this.pending);
    const safe = this.pending.length - Math.min(hold, this.pending.length);
    if (safe > 0) this.advance(safe, false);
    return this.core.release(false);
  }

  /** Ends the stream: returns everything still held, checked. Further pushes throw. */
  end(): string {
    if (this.finished) return "";
    this.finished = true;
    this.pending += this.bidi.end();
    this.advance(this.pending.length, true);
    return this.core.release(true);
  }

  /** Canonical references kept so far (see `CitationCheck.citations`). */
  get citations(): string[] {
    return [...this.core.citations];
  }

  /** References removed so far (see `CitationCheck.removed`). */
  get removed(): string[] {
    return [...this.core.removed];
  }

  /** Processes the first `safe` characters of `pending` (all of it and the end of the text when `final`). */
  private advance(safe: number, final: boolean): void {
    const context = this.rawContext;
    const scan = context + this.pending.slice(0, safe);
    const from = context.length;
    const matches = scanReferences(scan).filter((m) => m.start >= from);
    const consumed = this.core.process(scan, from, scan.length, matches, final) - from;
    if (consumed > 0) {
      let next = scan.slice(0, from + consumed);
      if (next.length > RAW_CONTEXT) {
        next = next.slice(-RAW_CONTEXT);
        const space = next.search(/\s/);
        // no space at all: a few characters still keep "xJo 3:16" from looking like a reference
        next = space < 0 ? next.slice(-8) : next.slice(space + 1);
      }
      this.rawContext = next;
      this.pending = this.pending.slice(consumed);
    }
  }
}
