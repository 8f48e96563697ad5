/**
 * The citation check's reference scanner: `findReferences` (../bible/references.ts) run on the
 * normalising shadow of the answer (./shadow.ts), erring towards recognising, with offsets into
 * the answer as written. On top of the grammar:
 * - continuations of a verse: "Jo 3:16 e 19", "Jo 3:16.19", "Jo 3:16, v. 19", "Jo 3 (v. 16)",
 *   "Jo 3:16ss" / "e seguintes" (the two verses after it, the fewest a plural claims; "e
 *   seguinte": the next one), and of a whole chapter: "Ap 22, no versículo 21" (that verse) and
 *   "Ap 22, 21" (read both as the verse and as chapter 21: either way it is checked);
 * - books outside the canon and unreadable Bible URLs: spans of the book `OUTSIDE_CANON`, never shown;
 * - a bare "versículo 19" / "v. 19" (`bare`): the caller resolves it against the reference before it;
 * - a Markdown link whose text or target holds references is one match, the whole link.
 * `scanPrefixLength` is the streaming counterpart of `referencePrefixLength`: the tail that may
 * still become (or extend) any of these.
 */
import { type BibleReference, type ReferenceMatch, findReferences, referencePrefixLength } from "../bible/references.js";
import { bookByCode, foldText } from "../bible/books.js";
import type { MappedText } from "./mapped-text.js";
import { buildShadow, endsInMarkup } from "./shadow.js";

/** Book code of a book outside the canon: no passage ever has it. */
export const OUTSIDE_CANON = "OUTSIDE_CANON";

export interface ScannedReference extends ReferenceMatch {
  /** A bare "versículo N[-M]" without book and chapter (then `references` is empty). */
  bare?: { verseStart: number; verseEnd: number };
}

/** A range after a verse: a dash without spaces (" - " is punctuation), or "a"/"até". */
const RANGE = "(?:(?:-|\u2013|\u2014|[\\t ]+(?:a|ate)[\\t ]+)(\\d{1,3}))?";
const VERSE_WORD = "(?:versiculos?|vers\\.|vv?\\.)";
const END = "(?![\\d\\p{L}%])";
/** A verse appended to a reference: "e 19", ".19", ", v. 19", "versículo 19". */
const CONTINUATION_HEAD = `(?:[\\t ]*[,;]?[\\t ]*(?:e[\\t ]+)?(?:n?[oa]s?[\\t ]+)?${VERSE_WORD}[\\t ]*|[\\t ]+e[\\t ]+|\\.)(\\d{1,3})`;
const CONTINUATION = new RegExp(`${CONTINUATION_HEAD}${RANGE}${END}`, "yu");
/** The same without a range, for when the range would run into the next reference ("e 5 e 1 Jo"). */
const CONTINUATION_SINGLE = new RegExp(`${CONTINUATION_HEAD}()${END}`, "yu");
/** "Jo 3 (v. 16)". */
const PAREN_VERSE = new RegExp(`[\\t ]*\\([\\t ]*${VERSE_WORD}[\\t ]*(\\d{1,3})${RANGE}[\\t ]*\\)`, "yu");
/**
 * "Jo 3:16 ss", "Jo 3:16 e seguintes" (group 1 empty: at least the two verses after it), "Jo
 * 3:16 e seguinte" (group 1: the one verse after it).
 */
const FOLLOWING = /[\t ]*(?:ss|e[\t ]+seguintes|e[\t ]+segs?\.?|e[\t ]+(s)eguinte)(?!\p{L})/uy;
/** How many verses "e seguintes" / "ss" claims beyond the verse: the fewest a plural names. */
const FOLLOWING_VERSES = 2;
/**
 * After a whole chapter, ", 21" may be its verse ("Ap 22, 21", "Ap XXII, 21") or another chapter
 * ("Salmos 23, 91"): both readings are checked.
 */
const CHAPTER_COMMA_NUMBER = /,[\t ]+(\d{1,3})(?![\d\p{L}%]|[:.,]\d)/uy;
/** After a whole chapter, "e no versículo 21", ", no versículo 21": the chapter's verse. */
const CHAPTER_VERSE = new RegExp(`[\\t ]*[,;]?[\\t ]*(?:e[\\t ]+)?(?:n?[oa]s?[\\t ]+)?${VERSE_WORD}[\\t ]*(\\d{1,3})${RANGE}${END}`, "yu");
const GLUED_FOLLOWING = /(\d+)ss(?!\p{L})/gu;
const BARE = new RegExp(
  `(?<![\\p{L}\\p{N}])${VERSE_WORD}[\\t ]*(\\d{1,3})(?:(?:-|\u2013|[\\t ]+(?:a|ate|e)[\\t ]+)(\\d{1,3}))?${END}`,
  "gu",
);
const BARE_SINGLE = new RegExp(`${VERSE_WORD}[\\t ]*(\\d{1,3})()${END}`, "yu");
const LINK = /\[[^[\]\n]{0,200}\]\([^()\s]{0,500}\)/g;

// Streaming: what may still become a continuation, a bare verse, a link or a URL.
const NUMBERS_PARTIAL = "(?:\\d{1,3}(?:[\\t ]*(?:-|\u2013|\u2014|a|at|ate)?[\\t ]*\\d{0,3})?)?";
const VERSE_WORD_PARTIAL = "(?:v\\p{L}*\\.?)";
const CONTINUATION_PARTIAL = new RegExp(
  "^(?:" +
    [
      `[\\t ]*[,;]?[\\t ]*(?:e(?:[\\t ]+(?:s\\p{L}*\\.?|${VERSE_WORD_PARTIAL}[\\t ]*${NUMBERS_PARTIAL}|${NUMBERS_PARTIAL}))?)?`,
      "[\\t ]*ss?",
      "[\\t ]*:[\\t ]*",
      `[\\t ]*[,;]?[\\t ]*(?:e[\\t ]+)?(?:n(?:[oa]s?)?|[oa]s?)(?:[\\t ]+(?:${VERSE_WORD_PARTIAL}[\\t ]*${NUMBERS_PARTIAL})?)?`,
      "\\.\\d{0,3}",
      "[\\t ]*,[\\t ]*\\d{0,3}",
      `[\\t ]*[,;]?[\\t ]*${VERSE_WORD_PARTIAL}[\\t ]*${NUMBERS_PARTIAL}`,
      `[\\t ]*\\((?:[\\t ]*${VERSE_WORD_PARTIAL}[\\t ]*${NUMBERS_PARTIAL}[\\t ]*)?`,
    ].join("|") +
    ")$",
  "u",
);
const BARE_PARTIAL = new RegExp(`(?<![\\p{L}\\p{N}])${VERSE_WORD_PARTIAL}[\\t ]*${NUMBERS_PARTIAL}[\\t ]*$`, "u");
const LINK_PARTIAL = /\[[^[\]\n]{0,200}(?:\](?:\([^()\s]{0,500})?)?$/;
const URL_PARTIAL = /(?<![\p{L}\p{N}])(?:(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]*|h|ht|htt|https?|https?:\/?|ww?w?)$/iu;

/** A match in shadow coordinates, continuations included. */
type ShadowMatch = Omit<ScannedReference, "text">;

function verseSpan(book: string, chapter: number, first: number, last: number): BibleReference {
  return { book, chapterStart: chapter, chapterEnd: chapter, verseStart: first, verseEnd: Math.max(first, last) };
}

/** Extends a match over the continuations that follow it (never into the next match at `limit`). */
function extend(folded: string, start: number, end: number, refs: BibleReference[], limit: number): number {
  const following = (ref = refs[refs.length - 1] as BibleReference, count = FOLLOWING_VERSES): void => {
    if (ref.verseEnd === undefined) return;
    refs.push(verseSpan(ref.book, ref.chapterEnd, ref.verseEnd + 1, ref.verseEnd + count));
  };
  // "Jo 3:16ss": the grammar takes "ss" as a suffix of the verse
  for (const g of folded.slice(start, end).matchAll(GLUED_FOLLOWING)) {
    const ref = refs.find((r) => r.verseEnd === Number(g[1]));
    if (ref) following(ref);
  }
  for (let guard = 0; guard < 32; guard++) {
    const last = refs[refs.length - 1] as BibleReference;
    FOLLOWING.lastIndex = end;
    const f = FOLLOWING.exec(folded);
    if (f && end + f[0].length <= limit && last.verseEnd !== undefined) {
      following(last, f[1] === undefined ? FOLLOWING_VERSES : 1);
      end += f[0].length;
      continue;
    }
    const wholeChapter = last.verseStart === undefined && last.verseEnd === undefined && last.chapterStart === last.chapterEnd;
    if (wholeChapter) {
      CHAPTER_VERSE.lastIndex = end;
      const v = CHAPTER_VERSE.exec(folded);
      if (v && end + v[0].length <= limit) {
        // "Apocalipse 22, no versículo 21": the verse of that chapter
        const first = Number(v[1]);
        refs[refs.length - 1] = verseSpan(last.book, last.chapterEnd, first, v[2] ? Number(v[2]) : first);
        end += v[0].length;
        continue;
      }
      CHAPTER_COMMA_NUMBER.lastIndex = end;
      const n = CHAPTER_COMMA_NUMBER.exec(folded);
      if (n && end + n[0].length <= limit) {
        const value = Number(n[1]);
        refs.push(verseSpan(last.book, last.chapterEnd, value, value));
        refs.push({ book: last.book, chapterStart: value, chapterEnd: value });
        end += n[0].length;
        continue;
      }
    }
    PAREN_VERSE.lastIndex = end;
    const p = PAREN_VERSE.exec(folded);
    if (p && end + p[0].length <= limit) {
      const first = Number(p[1]);
      const span = verseSpan(last.book, last.chapterEnd, first, p[2] ? Number(p[2]) : first);
      if (last.verseEnd === undefined) refs[refs.length - 1] = span;
      else refs.push(span);
      end += p[0].length;
      continue;
    }
    CONTINUATION.lastIndex = end;
    let c = CONTINUATION.exec(folded);
    if (c && end + c[0].length > limit) {
      CONTINUATION_SINGLE.lastIndex = end;
      c = CONTINUATION_SINGLE.exec(folded);
    }
    if (c && end + c[0].length <= limit && last.verseEnd !== undefined) {
      const first = Number(c[1]);
      refs.push(verseSpan(last.book, last.chapterEnd, first, c[2] ? Number(c[2]) : first));
      end += c[0].length;
      continue;
    }
    return end;
  }
  return end;
}

const WORD_ORDINAL = /^(?:primeir[ao]|segund[ao]|terceir[ao])[\t ]+/iu;

/**
 * "Segundo João 3:16" is "according to João 3:16", not 2 João (which has one chapter): a word
 * ordinal whose numbered book has no such chapter is read as a word.
 */
function ordinalOrPreposition(text: string, m: ReferenceMatch): ReferenceMatch {
  const w = WORD_ORDINAL.exec(m.text);
  if (!w) return m;
  const book = bookByCode((m.references[0] as BibleReference).book);
  if (!book || m.references.every((r) => r.chapterEnd <= book.chapters)) return m;
  const start = m.start + w[0].length;
  const again = findReferences(text.slice(start, m.end + 64))[0];
  if (!again || again.start !== 0) return m;
  return { ...again, start, end: start + again.end - again.start };
}

/** Every reference of the shadow, in shadow coordinates; books outside the canon re-booked. */
function shadowMatches(mapped: MappedText, outside: ReadonlyArray<readonly [number, number]>): ShadowMatch[] {
  const text = mapped.text;
  const folded = mapped.folded(foldText);
  const found = findReferences(text).map((m) => ordinalOrPreposition(text, m));
  const out = found.map((m, k): ShadowMatch => {
    const refs = [...m.references];
    const end = extend(folded, m.start, m.end, refs, found[k + 1]?.start ?? text.length);
    const s = mapped.originalStart(m.start);
    const outsideCanon = outside.some(([a, b]) => s >= a && s < b);
    return { start: m.start, end, references: outsideCanon ? refs.map((r) => ({ ...r, book: OUTSIDE_CANON })) : refs };
  });
  // bare verses between the matches
  const withBare: ShadowMatch[] = [];
  let k = 0;
  BARE.lastIndex = 0;
  let b: RegExpExecArray | null;
  while ((b = BARE.exec(folded)) !== null) {
    const bs = b.index;
    let be = bs + b[0].length;
    while (k < out.length && (out[k] as ShadowMatch).end <= bs) withBare.push(out[k++] as ShadowMatch);
    const next = out[k];
    if (next && next.start < be && next.start > bs && b[2] !== undefined) {
      // "versículo 5 e 1 João 4:8": the range runs into the next reference
      BARE_SINGLE.lastIndex = bs;
      const single = BARE_SINGLE.exec(folded);
      if (single) {
        b = single;
        be = bs + single[0].length;
        BARE.lastIndex = be;
      }
    }
    if (next && next.start < be) {
      BARE.lastIndex = Math.max(BARE.lastIndex, next.end);
      continue;
    }
    const first = Number(b[1]);
    withBare.push({ start: bs, end: be, references: [], bare: { verseStart: first, verseEnd: Math.max(first, b[2] ? Number(b[2]) : first) } });
  }
  while (k < out.length) withBare.push(out[k++] as ShadowMatch);
  return withBare;
}

function sameReferences(a: ShadowMatch, b: ShadowMatch): boolean {
  return a.references.length === b.references.length && JSON.stringify(a) === JSON.stringify({ ...b, start: a.start, end: a.end });
}

/** One match per Markdown link that holds references: the whole link, with all of them. */
function mergeLinks(text: string, matches: ScannedReference[]): ScannedReference[] {
  if (!text.includes("](")) return matches;
  const out: ScannedReference[] = [];
  let i = 0;
  LINK.lastIndex = 0;
  let l: RegExpExecArray | null;
  while ((l = LINK.exec(text)) !== null) {
    const ls = l.index;
    const le = ls + l[0].length;
    while (i < matches.length && (matches[i] as ScannedReference).start < ls) out.push(matches[i++] as ScannedReference);
    const inside: ScannedReference[] = [];
    while (i < matches.length && (matches[i] as ScannedReference).end <= le) inside.push(matches[i++] as ScannedReference);
    const refs = inside.flatMap((m) => m.references);
    if (refs.length > 0) out.push({ text: l[0], start: ls, end: le, references: refs });
    else out.push(...inside);
  }
  while (i < matches.length) out.push(matches[i++] as ScannedReference);
  return out;
}

interface ShadowScan {
  mapped: MappedText;
  matches: readonly ShadowMatch[];
}

/**
 * The last text's shadow and matches: the stream filter scans the same text twice in a row
 * (what it may hold, then what it releases) whenever it holds nothing back. Results are
 * never mutated, so sharing them is safe.
 */
let lastScan: { text: string; scan: ShadowScan } | undefined;

function shadowScan(text: string): ShadowScan {
  if (lastScan?.text === text) return lastScan.scan;
  const { mapped, outside } = buildShadow(text);
  const scan = { mapped, matches: shadowMatches(mapped, outside) };
  lastScan = { text, scan };
  return scan;
}

/** Every reference in an answer, in order, with offsets into it (see the module comment). */
export function scanReferences(text: string): ScannedReference[] {
  const { mapped, matches: found } = shadowScan(text);
  const matches = found.map((m): ScannedReference => {
    const start = mapped.originalStart(m.start);
    const end = mapped.originalEnd(m.end);
    return { text: text.slice(start, end), start, end, references: m.references, ...(m.bare && { bare: m.bare }) };
  });
  return mergeLinks(text, matches);
}

/** How far after its end a reference's reading may look ("Jo 3:1;3" + "\nJd": a number, spaces, a book name). */
const DEPENDENCY_REACH = 48;

/** An end of text after which no word is being written (the partial shadow equals the plain one). */
const SETTLED_END = /^[1-9,;:!?)\]}'"\u201d\u2019\u00bb\u2013\u2014-]$/u;
/** What the shadow drops at the end of a text. */
const TRAILING_UNSEEN = /(?:[\p{M}\p{Cf}*_~`]|&#?[a-z0-9]{1,6};)+$/iu;

/** A Roman numeral in capitals being written after a word: maybe a chapter ("Juan III"). */
const ROMAN_AT_END = /(?<=\p{L}\.?[\t ]+)[IVXLC]{1,8}(?:[\t ]*[:.,][\t ]*)?$/u;

/** A word and a comma at the end: "Jubileus," may become "Jubileus, capítulo 3". */
const NAME_COMMA_AT_END = /\p{L}\.?,$/u;

/** How much of the answer's end `scanPrefixLength` looks at. */
const PREFIX_WINDOW = 960;

/**
 * For streaming: the length of the tail of `text` that may still be (or become, or extend) a
 * reference of `scanReferences`; 0 when nothing can grow. Bounded by `PREFIX_WINDOW`.
 */
export function scanPrefixLength(text: string): number {
  if (text.length === 0) return 0;
  let base = Math.max(0, text.length - PREFIX_WINDOW);
  if (base > 0) {
    const space = text.slice(base).search(/\s/);
    base = space < 0 ? text.length - 1 : base + space + 1;
  }
  const sub = text.slice(base);
  let open = sub.length;
  // on the text as it is: a header, a continuation or a bare verse in progress
  const { mapped, matches } = shadowScan(sub);
  // a header in progress, with the words being written read as the names they may become
  // (the same shadow when the text ends in a digit or punctuation: no word is being written)
  // (a name and a comma may go on with "capítulo", and a Roman numeral with its verse)
  const settled = SETTLED_END.test(sub.replace(TRAILING_UNSEEN, "").slice(-1)) && !endsInMarkup(sub) && !ROMAN_AT_END.test(sub) && !NAME_COMMA_AT_END.test(sub);
  const partial = settled ? mapped : buildShadow(sub, true).mapped;
  const hold = referencePrefixLength(partial.text);
  if (hold > 0) open = Math.min(open, partial.originalBoundary(partial.text.length - hold));
  if (!settled) {
    const plainHold = referencePrefixLength(mapped.text);
    if (plainHold > 0) open = Math.min(open, mapped.originalBoundary(mapped.text.length - plainHold));
    if (ROMAN_AT_END.test(sub)) {
      // "Juan III": a Roman chapter being written after a name, not the start of "Isaiah"
      const roman = buildShadow(sub, true, false).mapped;
      const romanHold = referencePrefixLength(roman.text);
      if (romanHold > 0) open = Math.min(open, roman.originalBoundary(roman.text.length - romanHold));
    }
  }
  const last = matches[matches.length - 1];
  const folded = mapped.folded(foldText);
  if (last && CONTINUATION_PARTIAL.test(folded.slice(last.end))) open = Math.min(open, mapped.originalBoundary(last.start));
  const bare = BARE_PARTIAL.exec(folded);
  if (bare) open = Math.min(open, mapped.originalBoundary(bare.index));
  const link = LINK_PARTIAL.exec(sub);
  if (link) open = Math.min(open, link.index);
  const url = URL_PARTIAL.exec(sub);
  if (url) open = Math.min(open, url.index);
  // never cut a reference (with its continuations) in two: hold all of it
  for (let k = matches.length - 1; k >= 0; k--) {
    const m = matches[k] as ShadowMatch;
    const start = mapped.originalBoundary(m.start);
    if (start < open && open < mapped.originalEnd(m.end)) open = start;
  }
  // and never release a reference whose reading depends on what is held ("Jo 3:1;3" + "\nJd 24")
  const full = matches.map((m) => [mapped.originalBoundary(m.start), mapped.originalEnd(m.end), m] as const);
  if (open < sub.length && full.some(([start, end]) => start < open && end > open - DEPENDENCY_REACH)) {
    for (let guard = 0; guard < 8 && open > 0; guard++) {
      const cut = buildShadow(sub.slice(0, open));
      const released = shadowMatches(cut.mapped, cut.outside);
      let moved = false;
      for (let k = released.length - 1; k >= 0; k--) {
        const m = released[k] as ShadowMatch;
        const f = full[k];
        const start = cut.mapped.originalBoundary(m.start);
        const end = cut.mapped.originalEnd(m.end);
        if (f && f[0] === start && f[1] === end && sameReferences(f[2], m)) continue;
        open = Math.min(start, f ? f[0] : start);
        moved = true;
      }
      if (!moved) break;
    }
  }
  return sub.length - open;
}
