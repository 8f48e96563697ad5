/**
 * Citation checking for answers over a document collection. The model cites the excerpts it
 * was shown by number (./document-prompt.ts); every citation must point at an excerpt it was
 * shown. Valid markers are rewritten to the human citation, invented ones are removed, both in
 * the final text (`checkDocumentCitations`) and while it streams
 * (`DocumentCitationStreamFilter`), so an invented citation never reaches the browser, not even
 * half-written. The batch check IS the stream filter fed in one piece, and the filter decides
 * nothing before it has seen enough text, so any chunking of the answer gives the same text.
 *
 * What is checked:
 * 1. Number markers: `[n]`, `[n, m]`, `[n; m]`, `[n e m]`, `[n-m]` (a range of at most 21
 *    numbers, else its two ends), `[trecho n]`, `[trechos n e m]` (any case), numbers of 1 to 3
 *    digits, at most 24 characters from `[` to `]` on one line. `[n][m]` is two markers.
 *    - every number shown (1..passages.length): the marker is rewritten to the human citations,
 *      `[${citation}]`, several joined by "; " (`[Apostila X, p. 12; A Trindade (…, trecho 2)]`);
 *    - some shown: rewritten to the shown ones; each dropped number is listed in `removed` as
 *      `[n]`;
 *    - none shown (`[7]` when 3 were shown, `[0]`): removed (listed in `removed` as written).
 * 2. Source ids written out literally, as tokens at a word start (a run of letters, digits,
 *    `_`, `-`, `.`, `/`, `:`, trailing `.`/`:`/`/` not included):
 *    - `db:{discipline}/{slug}` (any case);
 *    - file paths ending in `.md`, `.markdown`, `.txt` or `.pdf` (`teologia/aula-1.md`, `aula-1.md`)
 *      whose folders have no "." (so `www.site.org/a.md` is no path).
 *    A token is shown when it occurs, whole (case and Unicode normalisation ignored), in the
 *    source id of a shown passage: `aula-1.md` for `teologia/aula-1.md` is shown. A token not
 *    shown is removed. URLs are left alone (`https://x/aula.pdf` is no token: the run has `//`;
 *    nor is `site.org/aula.pdf`).
 * 3. A parenthetical citation starting with such a token, `(id)`, `(id, trecho N)`, `(id, p. N)`,
 *    `(id, pp. N–M)`: kept (verbatim) when the token is shown and, with a qualifier, a shown
 *    passage of that source has that chunk (`trecho N` = chunk N−1) or covers those pages (the
 *    matching passages then count as cited); otherwise the whole group is removed. The title a
 *    model may write before the group ("A Trindade (db:x/y, trecho 3)") stays.
 * 4. A page written in prose ("p. 99", "pp. 12-13", "pág. 12", "página 12"): kept when shown
 *    passages cover all its pages (of any source), else removed: "Apostila X, p. 99" →
 *    "Apostila X".
 * What is NOT checked: titles or excerpt numbers written in prose ("no trecho 7"), ids with spaces or other characters (only the part that
 * forms a token is looked at), and Bible references (the Bible checker's job). A `[n]` that
 * belongs to quoted text (a footnote mark in a document) is read as a marker too.
 *
 * Cleanup around a removal (marker, token or group), looking at what is left on its left (L)
 * and the first non-blank character on its right (R); several removals in a row count as one:
 * - an emptied bracket pair goes: "amor ([7])." → "amor."; "**[7]**" → "" (emphasis, when
 *   glued);
 * - at the start of the text, a line, a bracket or a sentence, punctuation right after goes:
 *   "[7], Deus" → "Deus"; "([7]; [1])" → "([…])"; "Amém. [7]. Deus" → "Amém. Deus";
 * - a line left with nothing (or only a list bullet: "-", "*", "•", "+") goes with its bullet and
 *   line break: "Fontes:\n- [7]\n- [1]" → "Fontes:\n- […]"; "[7]\n\nTexto" → "Texto";
 * - before punctuation, a closing bracket, a line break or the end, the spaces and a dangling
 *   separator (",", ";", ":") on the left go: "Deus é trino [7]." → "Deus é trino.";
 *   "Deus, [7]." → "Deus.";
 * - otherwise the two sides are joined by one space when there was any space around the removal
 *   (none at the start of a line or after an opening bracket): "trino [7] e eterno" → "trino e
 *   eterno". Other words are never touched ("veja [7]." → "veja.").
 *
 * Streaming. `push` releases text as soon as nothing later can change it. It holds back only:
 * a possible unfinished marker (`[`, `[1`, `[tre`…; released as plain text as soon as it cannot
 * become one, or after 24 characters without `]`), the current word (it may still become a
 * source id token, at most 161 characters), a `(` until the token after it is decided (plus at
 * most 40 characters of qualifier), and the trailing spaces, `(`, `[`, `*`, `,`, `;`, `:` of the
 * output and a trailing list bullet (`-`, `•`, `+`), which the cleanup of a later removal may
 * still drop. Each push costs O(delta + held).
 */
import { BidiStream } from "./bidi.js";
import type { DocumentPassage } from "./document-passages.js";
import { BULLETS, isHws, isNewline, LEADING_PUNCTUATION, SENTENCE_END, SEPARATORS, TERMINALS, trimEndHws } from "./text-chars.js";
import type { StreamCitationCheck } from "./stream-check.js";

export interface DocumentCitationCheck {
  /** The text with markers rewritten, invented citations removed and the surroundings cleaned up. */
  text: string;
  /** The passages cited (by a marker or a qualified literal citation), unique, in order of first citation. */
  cited: DocumentPassage[];
  /** What was removed: as written for a whole marker, token or group; `[n]` for a number dropped from a marker. */
  removed: string[];
}

// ---------------------------------------------------------------------------------------------
// Characters
// ---------------------------------------------------------------------------------------------


const ID_CHAR = /^[\p{L}\p{M}\p{N}_-]$/u;

/** A character of a source id segment: letter, mark, digit, "_" or "-". */
function isIdChar(c: string | undefined): boolean {
  if (c === undefined || c === "") return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) {
    return (
      (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || c === "_" || c === "-"
    );
  }
  return ID_CHAR.test(c);
}

/** A character of a token run: an id character, or ".", "/", ":". */
function isRunChar(c: string | undefined): boolean {
  return c === "." || c === "/" || c === ":" || isIdChar(c);
}

// The punctuation classes (TERMINALS, SEPARATORS, LEADING_PUNCTUATION, SENTENCE_END, BULLETS) are
// shared with the Bible checker (./text-chars.ts): both clean up around a removal by the same rules.
/** Output characters that the cleanup of a later removal may still drop (never released early). */
const AFFECTABLE: ReadonlySet<string> = new Set(["(", "[", "*", ",", ";", ":", "-", "•", "+"]);

function isAffectable(c: string): boolean {
  return isHws(c) || AFFECTABLE.has(c);
}

// ---------------------------------------------------------------------------------------------
// Grammar
// ---------------------------------------------------------------------------------------------

/** Longest marker, from `[` to `]` inclusive. */
const MARKER_MAX_CHARS = 24;
/** Longest token run (characters). */
const RUN_MAX_CHARS = 160;
/** Longest part of a parenthetical citation after its token, `)` included. */
const GROUP_TAIL_MAX_CHARS = 40;
/** Longest range expanded (`[1-21]`); a longer or reversed one stands for its two ends. */
const RANGE_MAX_SPAN = 20;

const MARKER_ITEM = String.raw`(?:trechos?[ \t]*)?\d{1,3}(?:[ \t]*[-–][ \t]*\d{1,3})?`;
const MARKER_SEPARATOR = String.raw`(?:[ \t]*[,;][ \t]*(?:e[ \t]+)?|[ \t]+e[ \t]+)`;
/** The content of a marker (between the brackets). */
const MARKER_CONTENT = new RegExp(String.raw`^[ \t]*${MARKER_ITEM}(?:${MARKER_SEPARATOR}${MARKER_ITEM})*[ \t]*$`, "i");
/** Characters a marker's content may hold (a superset: used to give up early). */
const MARKER_CHARS = /^[ \t0-9,;\-–trechosTRECHOS]$/;
const MARKER_NUMBER = /(\d{1,3})(?:[ \t]*[-–][ \t]*(\d{1,3}))?/g;

const SEGMENT = String.raw`[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)*`;
const DB_TOKEN = new RegExp(String.raw`^db:${SEGMENT}(?:\/${SEGMENT})+$`, "iu");
/** Folders without dots (so "www.site.org/a.md" is no path), then a file name. */
const PATH_TOKEN = new RegExp(String.raw`^(?:[\p{L}\p{M}\p{N}_-]+\/)*${SEGMENT}$`, "u");
const PATH_EXTENSION = /\.(?:md|markdown|txt|pdf)$/i;

/** What may follow the token of a parenthetical citation, up to its `)`. */
const GROUP_TAIL =
  /^[ \t]*(?:,[ \t]*(?:trecho[ \t]*(\d{1,4})|pp?\.[ \t]*(\d{1,5})(?:[ \t]*[-–][ \t]*(\d{1,5}))?)[ \t]*)?\)/i;
/** A possible unfinished GROUP_TAIL (a superset). */
const GROUP_TAIL_PREFIX = /^[ \t]*(?:,[ \t0-9a-zA-Z.\-–]*)?$/;

/** A page in prose: "p. 12", "pp. 12–13", "pág. 12", "págs. 12-13", "página 12". */
const PAGE = /(?:pp?\.|p[áa]gs?\.|p[áa]ginas?)[ \t]*(\d{1,5})(?:[ \t]*[-–][ \t]*(\d{1,5}))?(?![\p{L}\p{N}])/iuy;
/** What may still become a PAGE (a superset). */
const PAGE_PREFIX = /^(?:pp?\.?|p[áa](?:g(?:s|i(?:n(?:as?)?)?)?)?\.?)(?:[ \t]*\d*(?:[ \t]*[-–][ \t]*\d*)?)?$/iu;
/** After a PAGE: what may still extend it into a range. */
const PAGE_GROWS = /^[ \t]*(?:[-–][ \t]*\d*)?$/;

/**
 * The numbers of a range written `first`–`last` (just `first` without `last`); a long or reversed
 * one stands for its two ends.
 */
function expandRange(first: string, last = first): number[] {
  const [a, b] = [Number(first), Number(last)];
  if (b < a || b - a > RANGE_MAX_SPAN) return [a, b];
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** The passage covers page `page`. */
function onPage(passage: DocumentPassage, page: number): boolean {
  const first = passage.page;
  return first !== undefined && first <= page && page <= Math.max(first, passage.pageEnd ?? first);
}

function normaliseId(id: string): string {
  return id.normalize("NFC").toLowerCase();
}

/** `token` occurs in `id` as a whole (not inside a longer segment); both normalised. */
function occursAsToken(id: string, token: string): boolean {
  for (let i = id.indexOf(token); i >= 0; i = id.indexOf(token, i + 1)) {
    const before = id[i - 1];
    const after = id[i + token.length];
    const beforeOk = before === undefined || before === "/" || !isRunChar(before);
    const afterOk =
      after === undefined || (!isIdChar(after) && !(isRunChar(after) && isIdChar(id[i + token.length + 1])));
    if (beforeOk && afterOk) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Parsing at a position
// ---------------------------------------------------------------------------------------------

/** A marker, token or group found at a position. */
interface Construct {
  /** Index just after it in the buffer. */
  end: number;
  /** What replaces it in the output; undefined when it is removed altogether. */
  replacement: string | undefined;
  /** What goes into `removed` (as written, or `[n]` for numbers dropped from a kept marker). */
  removed: string[];
  /** Passages it cites (kept constructs only). */
  cited: DocumentPassage[];
}

/** `need`: the text so far does not decide (more is needed); `none`: plain text. */
type Parse = "need" | "none" | Construct;

/** A construct kept as `written` when shown, else removed. */
function verbatim(end: number, written: string, shown: boolean, cited: DocumentPassage[] = []): Construct {
  return shown
    ? { end, replacement: written, removed: [], cited }
    : { end, replacement: undefined, removed: [written], cited: [] };
}

interface Token {
  /** End of the token (trailing ".", ":", "/" excluded). */
  end: number;
  text: string;
  /** Shown passages whose source id holds the token. */
  sources: DocumentPassage[];
}

class Grammar {
  private readonly byNumber = new Map<number, DocumentPassage>();
  private readonly ids: Array<{ id: string; passage: DocumentPassage }>;

  constructor(private readonly passages: readonly DocumentPassage[]) {
    for (const passage of passages) if (!this.byNumber.has(passage.number)) this.byNumber.set(passage.number, passage);
    this.ids = passages.map((passage) => ({ id: normaliseId(passage.sourceId), passage }));
  }

  /** The construct starting at `p` (a `[`, a `(` or the start of a run), or undefined for none there. */
  parseAt(buf: string, p: number, prev: string, final: boolean): Parse | undefined {
    const c = buf[p];
    if (c === "[") return this.marker(buf, p, final);
    if (c === "(") return this.group(buf, p, final);
    if ((c === "p" || c === "P") && !isRunChar(prev)) {
      const page = this.page(buf, p, final);
      if (page !== undefined) return page;
    }
    if (isIdChar(c) && !isRunChar(prev)) {
      const token = this.token(buf, p, final);
      if (token === "need" || token === "none") return token;
      return verbatim(token.end, token.text, token.sources.length > 0);
    }
    return undefined;
  }

  private marker(buf: string, p: number, final: boolean): Parse {
    const limit = Math.min(buf.length, p + MARKER_MAX_CHARS);
    for (let i = p + 1; i < limit; i++) {
      const c = buf[i] as string;
      if (c === "]") {
        const content = buf.slice(p + 1, i);
        return MARKER_CONTENT.test(content) ? this.resolveMarker(buf.slice(p, i + 1), content, i + 1) : "none";
      }
      if (!MARKER_CHARS.test(c)) return "none";
    }
    return final || limit === p + MARKER_MAX_CHARS ? "none" : "need";
  }

  private resolveMarker(written: string, content: string, end: number): Construct {
    const numbers: number[] = [];
    for (const m of content.matchAll(MARKER_NUMBER)) {
      numbers.push(...expandRange(m[1] as string, m[2]));
    }
    const kept: DocumentPassage[] = [];
    const dropped: number[] = [];
    for (const n of new Set(numbers)) {
      const passage = this.byNumber.get(n);
      if (passage) kept.push(passage);
      else dropped.push(n);
    }
    if (kept.length === 0) return verbatim(end, written, false);
    const citations = [...new Set(kept.map((passage) => passage.citation))];
    return { end, replacement: `[${citations.join("; ")}]`, removed: dropped.map((n) => `[${n}]`), cited: kept };
  }

  /** A source id token starting at `p` (an id character after a non-run character). */
  private token(buf: string, p: number, final: boolean): "need" | "none" | Token {
    let i = p;
    while (i < buf.length && i - p <= RUN_MAX_CHARS && isRunChar(buf[i])) i++;
    if (i - p > RUN_MAX_CHARS) return "none";
    if (i === buf.length && !final) return "need";
    let end = i;
    while (end > p && (buf[end - 1] === "." || buf[end - 1] === ":" || buf[end - 1] === "/")) end--;
    const text = buf.slice(p, end);
    const isToken = DB_TOKEN.test(text) || (PATH_EXTENSION.test(text) && PATH_TOKEN.test(text));
    if (!isToken) return "none";
    const normalised = normaliseId(text);
    const sources = this.ids.filter((entry) => occursAsToken(entry.id, normalised)).map((entry) => entry.passage);
    return { end, text, sources };
  }

  /**
   * A page written in prose: "p. 12", "pp. 12-13", "pág. 12", "página 12": kept when a shown
   * passage covers every page of it, else removed (it points at a page the model was not shown).
   * Undefined when there is none at `p`.
   */
  private page(buf: string, p: number, final: boolean): Parse | undefined {
    PAGE.lastIndex = p;
    const m = PAGE.exec(buf);
    if (!m) return !final && PAGE_PREFIX.test(buf.slice(p)) ? "need" : undefined;
    const end = p + m[0].length;
    if (!final && PAGE_GROWS.test(buf.slice(end))) return "need";
    const pages = expandRange(m[1] as string, m[2]);
    return verbatim(end, m[0], pages.every((page) => this.passages.some((passage) => onPage(passage, page))));
  }

  /** A parenthetical citation: `(` token [`, trecho N` | `, p. N` | `, pp. N–M`] `)`. */
  private group(buf: string, p: number, final: boolean): Parse {
    let i = p + 1;
    while (i < buf.length && isHws(buf[i])) i++;
    if (i === buf.length) return final ? "none" : "need";
    if (!isIdChar(buf[i])) return "none";
    const token = this.token(buf, i, final);
    if (token === "need" || token === "none") return token;
    const tail = buf.slice(token.end, token.end + GROUP_TAIL_MAX_CHARS);
    const m = GROUP_TAIL.exec(tail);
    if (!m) {
      const open = !final && token.end + tail.length === buf.length && tail.length < GROUP_TAIL_MAX_CHARS;
      return open && GROUP_TAIL_PREFIX.test(tail) ? "need" : "none";
    }
    const end = token.end + m[0].length;
    let cited: DocumentPassage[] = [];
    let shown = token.sources.length > 0;
    if (shown && m[1] !== undefined) {
      const chunk = Number(m[1]) - 1;
      cited = token.sources.filter((passage) => passage.chunk === chunk);
      shown = cited.length > 0;
    } else if (shown && m[2] !== undefined) {
      const pages = expandRange(m[2], m[3]);
      shown = pages.every((page) => token.sources.some((s) => onPage(s, page)));
      cited = shown ? token.sources.filter((s) => pages.some((page) => onPage(s, page))) : [];
    }
    return verbatim(end, buf.slice(p, end), shown, cited);
  }
}

// ---------------------------------------------------------------------------------------------
// The stream filter (the batch check feeds it the whole text)
// ---------------------------------------------------------------------------------------------

/**
 * Streaming `checkDocumentCitations`: feed the model's text to `push`, which returns what can be
 * shown now; call `end` at the end of the stream for the rest. The released text, joined, equals
 * `checkDocumentCitations(fullText, passages).text` for every chunking.
 */
export class DocumentCitationStreamFilter implements StreamCitationCheck {
  private readonly grammar: Grammar;
  /** The answer in display order, without bidi controls (./bidi.ts), before anything else reads it. */
  private readonly bidi = new BidiStream();
  /** Input not consumed yet. */
  private pending = "";
  /** The last consumed input character ("" at the start). */
  private prevInput = "";
  /** Output not released yet (at most the cleanup's reach, plus what this push produced). */
  private out = "";
  /** The last released output character ("" at the start). */
  private lastReleased = "";
  /** After a removal, until the cleanup is decided: whether there was a space around it. */
  private hole: { space: boolean } | undefined;
  private finished = false;
  /** Passages cited so far, by number, in order of first citation. */
  private readonly citedByNumber = new Map<number, DocumentPassage>();
  private readonly removedList: string[] = [];

  constructor(passages: readonly DocumentPassage[]) {
    this.grammar = new Grammar(passages);
  }

  /** Adds a piece of the answer; returns the text that can be shown now (possibly ""). */
  push(chunk: string): string {
    if (this.finished) throw new Error("DocumentCitationStreamFilter: push depois de end.");
    if (chunk === "") return "";
    this.pending += this.bidi.push(chunk);
    this.process(false);
    return this.release(false);
  }

  /** Ends the stream: returns everything still held, checked. Further pushes throw. */
  end(): string {
    if (this.finished) return "";
    this.finished = true;
    this.pending += this.bidi.end();
    this.process(true);
    return this.release(true);
  }

  /** Passages cited so far, unique, in order of first citation. */
  get cited(): DocumentPassage[] {
    return [...this.citedByNumber.values()];
  }

  /** Their human citations, as the answer shows them (see `StreamCitationCheck.citations`). */
  get citations(): string[] {
    return this.cited.map((passage) => passage.citation);
  }

  /** Citations removed so far (see `DocumentCitationCheck.removed`). */
  get removed(): string[] {
    return [...this.removedList];
  }

  private process(final: boolean): void {
    const buf = this.pending;
    const p = this.run(buf, final);
    if (p > 0) {
      this.prevInput = buf[p - 1] as string;
      this.pending = buf.slice(p);
    }
  }

  /** Consumes `buf` as far as it is decided; returns the index reached. */
  private run(buf: string, final: boolean): number {
    let p = 0;
    const prevOf = (i: number): string => (i > 0 ? (buf[i - 1] as string) : this.prevInput);
    for (;;) {
      if (this.hole) {
        while (p < buf.length && isHws(buf[p])) {
          p++;
          this.hole.space = true;
        }
        if (p === buf.length && !final) return p;
        const c = buf[p];
        if (c !== undefined) {
          const parse = this.grammar.parseAt(buf, p, prevOf(p), final);
          if (parse === "need") return p;
          if (parse !== undefined && parse !== "none" && parse.replacement === undefined) {
            this.removedList.push(...parse.removed);
            p = parse.end;
            continue;
          }
        }
        p += this.junction(c);
        continue;
      }
      // plain text up to the next place where a construct may start
      let s = p;
      while (s < buf.length) {
        const c = buf[s] as string;
        if (c === "[" || c === "(" || (isIdChar(c) && !isRunChar(prevOf(s)))) break;
        s++;
      }
      if (s > p) this.out += buf.slice(p, s);
      p = s;
      if (p === buf.length) return p;
      const parse = this.grammar.parseAt(buf, p, prevOf(p), final);
      if (parse === "need") return p;
      if (parse === undefined || parse === "none") {
        this.out += buf[p] as string;
        p++;
        continue;
      }
      this.removedList.push(...parse.removed);
      for (const passage of parse.cited) {
        if (!this.citedByNumber.has(passage.number)) this.citedByNumber.set(passage.number, passage);
      }
      if (parse.replacement !== undefined) {
        this.out += parse.replacement;
      } else {
        this.hole = { space: this.trimOutput() };
      }
      p = parse.end;
    }
  }

  /**
   * Decides the cleanup of the current removal given the next character `c` (undefined at the
   * end of the text). Returns how many input characters it consumed (0 or 1); the removal stays
   * open when it consumed one.
   */
  private junction(c: string | undefined): number {
    const hole = this.hole as { space: boolean };
    const last = this.out.at(-1) ?? this.lastReleased;
    const atStart = last === "" || isNewline(last);
    const afterOpen = last === "(" || last === "[";
    if (
      this.out.length > 0 &&
      ((c === ")" && last === "(") || (c === "]" && last === "[") || (c === "*" && last === "*" && !hole.space))
    ) {
      this.out = this.out.slice(0, -1);
      if (this.trimOutput()) hole.space = true;
      return 1;
    }
    if (c !== undefined && LEADING_PUNCTUATION.has(c) && (atStart || afterOpen || SENTENCE_END.has(last))) return 1;
    if (c === undefined || isNewline(c)) {
      const k = this.emptiedLineStart();
      if (k !== undefined) {
        this.out = this.out.slice(0, k);
        if (c !== undefined) return 1; // the emptied line goes with its line break
        this.hole = undefined;
        return 0;
      }
    }
    if (c === undefined || isNewline(c) || TERMINALS.has(c)) {
      if (this.out.length > 0 && SEPARATORS.has(last)) {
        this.out = this.out.slice(0, -1);
        this.trimOutput();
      }
    } else if (hole.space && !atStart && !afterOpen) {
      this.out += " ";
    }
    this.hole = undefined;
    return 0;
  }

  /**
   * When the output's current line holds nothing but blanks and a list bullet, the index in
   * `out` where that line starts; else undefined. (Its start is in `out`, or `out` starts a line.)
   */
  private emptiedLineStart(): number | undefined {
    let k = trimEndHws(this.out, this.out.length);
    if (k > 0 && BULLETS.has(this.out[k - 1] as string)) k--;
    k = trimEndHws(this.out, k);
    if (k > 0) return isNewline(this.out[k - 1]) ? k : undefined;
    return this.lastReleased === "" || isNewline(this.lastReleased) ? 0 : undefined;
  }

  /** Drops the trailing blanks of the unreleased output; true when there were some. */
  private trimOutput(): boolean {
    const k = trimEndHws(this.out, this.out.length);
    if (k === this.out.length) return false;
    this.out = this.out.slice(0, k);
    return true;
  }

  /** Hands out the output that nothing can change any more (everything when `final`). */
  private release(final: boolean): string {
    let k = this.out.length;
    if (!final) while (k > 0 && isAffectable(this.out[k - 1] as string)) k--;
    if (k === 0) return "";
    const text = this.out.slice(0, k);
    this.out = this.out.slice(k);
    this.lastReleased = text[text.length - 1] as string;
    return text;
  }
}

/**
 * Checks the citations of a whole answer (see the module comment): markers rewritten to human
 * citations, invented citations removed, the text around them cleaned up.
 */
export function checkDocumentCitations(text: string, passages: readonly DocumentPassage[]): DocumentCitationCheck {
  const filter = new DocumentCitationStreamFilter(passages);
  const out = filter.push(text) + filter.end();
  return { text: out, cited: filter.cited, removed: filter.removed };
}
