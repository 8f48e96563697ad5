/**
 * OpenBible.info cross references ("veja também" links between verses), as a compact index.
 *
 * Data: resources/openbible/cross-references.tsv.gz, derived from OpenBible.info's
 * `cross_references.txt` (CC BY, www.openbible.info; see resources/openbible/README.md and
 * scripts/build-resources.ts). Credit "OpenBible.info" wherever these links are shown. This
 * module only parses text; adapters/sources/cross-references-file.ts reads the file.
 *
 * Memory: the ~341k links are held in typed arrays (10 bytes a link, CSR layout by source
 * verse), not as objects; `CrossReference` objects are only built for the links a caller asks
 * for.
 *
 * Verse keys: `bookIndex * 1_000_000 + chapter * 1000 + verse`, where bookIndex is the canonical
 * position (0 = GEN … 65 = REV, see osis.ts). Chapters ≤ 150 and verses ≤ 176 fit.
 */
import { OSIS_BOOKS, USFX_BOOKS, bookIndexOf } from "./osis.js";

/** A link target: a verse (`endChapter === chapter && endVerse === verse`) or a range. */
export interface CrossReference {
  /** USFX book code ("ROM"). */
  book: string;
  chapter: number;
  verse: number;
  endChapter: number;
  endVerse: number;
  /** OpenBible.info readers' votes (≥ 1 in the shipped data). */
  votes: number;
}

/** Links with fewer votes are dropped by the parser (and absent from the shipped file). */
export const DEFAULT_MIN_VOTES = 1;

const BOOK_FACTOR = 1_000_000;
const CHAPTER_FACTOR = 1000;

/** Integer key of a verse; `bookIndex` is 0 (GEN) … 65 (REV). */
export function verseKey(bookIndex: number, chapter: number, verse: number): number {
  return bookIndex * BOOK_FACTOR + chapter * CHAPTER_FACTOR + verse;
}

/** Inverse of {@link verseKey}. */
export function decodeVerseKey(key: number): { bookIndex: number; chapter: number; verse: number } {
  const bookIndex = Math.floor(key / BOOK_FACTOR);
  const rest = key - bookIndex * BOOK_FACTOR;
  const chapter = Math.floor(rest / CHAPTER_FACTOR);
  return { bookIndex, chapter, verse: rest - chapter * CHAPTER_FACTOR };
}

/** {@link verseKey}, or -1 when the book is unknown (< 0) or chapter or verse is out of range. */
function checkedKey(bookIndex: number, chapter: number, verse: number): number {
  const valid = bookIndex >= 0 && chapter > 0 && chapter < CHAPTER_FACTOR && verse > 0 && verse < CHAPTER_FACTOR;
  return valid ? verseKey(bookIndex, chapter, verse) : -1;
}

/** Key of a verse given by book (USFX code or OSIS name), or -1 when the book is unknown. */
function keyOf(book: string, chapter: number, verse: number): number {
  return checkedKey(bookIndexOf(book), chapter, verse);
}

/** Column storage, one entry per link, grouped by source verse. */
export interface CrossReferenceColumns {
  /** Distinct source verse keys, ascending. */
  sources: Int32Array;
  /** Links of `sources[i]` are `offsets[i] … offsets[i + 1] - 1`; length `sources.length + 1`. */
  offsets: Uint32Array;
  /** Target range start / end verse keys (equal for a single verse). */
  targetStart: Int32Array;
  targetEnd: Int32Array;
  votes: Int16Array;
}

/** Why rows were skipped by {@link parseCrossReferenceColumns}. */
export interface CrossReferenceParseStats {
  /** Links kept. */
  kept: number;
  /** Rows with votes below `minVotes`. */
  lowVotes: number;
  /** Rows whose target range spans two books (18 rows in the 2026-03-02 data, votes ≤ 12). */
  crossBook: number;
  /** Rows that could not be parsed (unknown book, bad numbers, range ending before it starts). */
  malformed: number;
}

/** Inbound votes per verse, dense: `values[chapterOffset[chapterKey] + verse - 1]`; `max` is the highest. */
export interface InboundTable {
  chapterOffset: Int32Array;
  chapterLength: Int16Array;
  values: Float64Array;
  max: number;
}

export class CrossReferenceIndex {
  private readonly data: CrossReferenceColumns;
  private inbound: InboundTable | undefined;

  /** `inbound`, when given, is the table {@link inboundTable} made from these same columns (read from a snapshot). */
  constructor(columns: CrossReferenceColumns, inbound?: InboundTable) {
    this.data = { ...columns };
    this.inbound = inbound;
  }

  /** Number of links. */
  get size(): number {
    return this.data.votes.length;
  }

  /** Number of distinct source verses. */
  get sourceCount(): number {
    return this.data.sources.length;
  }

  /** The column arrays (read-only by contract; used to serialise the index). */
  get columns(): Readonly<CrossReferenceColumns> {
    return { ...this.data };
  }

  /**
   * Links from one verse, most voted first (ties: canonical order of the target).
   * `book` is a USFX code ("JHN") or an OSIS name ("John"). Empty for unknown verses.
   */
  linksFrom(book: string, chapter: number, verse: number): readonly CrossReference[] {
    return this.strongest(book, chapter, verse, Number.POSITIVE_INFINITY);
  }

  /** The `limit` most voted links from one verse (see {@link linksFrom}). */
  strongest(book: string, chapter: number, verse: number, limit: number): CrossReference[] {
    const slot = this.findSource(keyOf(book, chapter, verse));
    if (slot < 0) return [];
    const begin = this.data.offsets[slot] ?? 0;
    const end = Math.min(this.data.offsets[slot + 1] ?? begin, begin + Math.max(0, limit));
    return Array.from({ length: end - begin }, (_, i) => this.materialize(begin + i));
  }

  /**
   * Prior "verses readers link to": the sum, over every link whose target contains this verse,
   * of the link's votes divided by the number of verses in its target. A link to a single verse
   * gives it all its votes; a link to a 4-verse passage gives each verse a quarter, so long
   * passages do not inflate every verse in them. Ranges that cross a chapter boundary are
   * measured with chapter lengths taken from the data itself (the highest verse number seen in
   * any link for that chapter). 0 for verses no link points to, and for unknown books.
   * Computed once, on first use, into a dense table (~31k verses, ~0.5 MB).
   */
  inboundVotes(book: string, chapter: number, verse: number): number {
    const key = keyOf(book, chapter, verse);
    if (key < 0) return 0;
    const { chapterOffset, chapterLength, values } = this.inboundTable();
    const chapterKey = Math.floor(key / CHAPTER_FACTOR);
    if (verse > (chapterLength[chapterKey] ?? 0)) return 0;
    return values[(chapterOffset[chapterKey] ?? 0) + verse - 1] ?? 0;
  }

  /** Highest {@link inboundVotes} of any verse (to normalise the prior into 0…1). */
  get maxInboundVotes(): number {
    return this.inboundTable().max;
  }

  private materialize(i: number): CrossReference {
    const start = decodeVerseKey(this.data.targetStart[i] ?? 0);
    const end = decodeVerseKey(this.data.targetEnd[i] ?? 0);
    return {
      book: USFX_BOOKS[start.bookIndex] ?? "",
      chapter: start.chapter,
      verse: start.verse,
      endChapter: end.chapter,
      endVerse: end.verse,
      votes: this.data.votes[i] ?? 0,
    };
  }

  private findSource(key: number): number {
    if (key < 0) return -1;
    let lo = 0;
    let hi = this.data.sources.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = this.data.sources[mid] ?? 0;
      if (value === key) return mid;
      if (value < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The inbound votes of every verse, made on first use (what a snapshot keeps, so a start does not sum 340,000 links again). */
  inboundTable(): InboundTable {
    if (this.inbound) return this.inbound;
    const { sources, targetStart, targetEnd, votes } = this.data;
    // Chapter lengths as seen in the data; chapter key = bookIndex * 1000 + chapter.
    const chapters = 66 * CHAPTER_FACTOR;
    const chapterLength = new Int16Array(chapters);
    const see = (keys: Int32Array): void => {
      for (const key of keys) {
        const chapterKey = Math.floor(key / CHAPTER_FACTOR);
        const verse = key - chapterKey * CHAPTER_FACTOR;
        if ((chapterLength[chapterKey] ?? 0) < verse) chapterLength[chapterKey] = verse;
      }
    };
    see(sources);
    see(targetStart);
    see(targetEnd);
    const chapterOffset = new Int32Array(chapters);
    let total = 0;
    for (let c = 0; c < chapters; c++) {
      chapterOffset[c] = total;
      total += chapterLength[c] ?? 0;
    }
    const values = new Float64Array(total);

    for (let i = 0; i < votes.length; i++) {
      const start = targetStart[i] ?? 0;
      const end = targetEnd[i] ?? 0;
      const startChapter = Math.floor(start / CHAPTER_FACTOR);
      const endChapter = Math.floor(end / CHAPTER_FACTOR);
      const startVerse = start - startChapter * CHAPTER_FACTOR;
      const endVerse = end - endChapter * CHAPTER_FACTOR;
      // A range over a chapter boundary is measured with the observed chapter lengths. Written
      // inline (no closure or pair per link): this runs for each of 340,000 links at load.
      let length = 0;
      for (let c = startChapter; c <= endChapter; c++) {
        const first = c === startChapter ? startVerse : 1;
        const last = c === endChapter ? endVerse : (chapterLength[c] ?? 0);
        length += Math.max(0, last - first + 1);
      }
      const share = (votes[i] ?? 0) / Math.max(1, length);
      for (let c = startChapter; c <= endChapter; c++) {
        const first = c === startChapter ? startVerse : 1;
        const last = c === endChapter ? endVerse : (chapterLength[c] ?? 0);
        const base = (chapterOffset[c] ?? 0) - 1;
        for (let verse = first; verse <= last; verse++) values[base + verse] = (values[base + verse] ?? 0) + share;
      }
    }
    let max = 0;
    for (const value of values) if (value > max) max = value;
    this.inbound = { chapterOffset, chapterLength, values, max };
    return this.inbound;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

const SPACE = 32;
const DOT = 46;
const COLON = 58;
const HYPHEN = 45;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** Reads an unsigned integer in `text[from, to)`; NaN when empty or not all digits. */
function readInt(text: string, from: number, to: number): number {
  if (from >= to) return Number.NaN;
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return Number.NaN;
    value = value * 10 + (c - DIGIT_0);
  }
  return value;
}

/**
 * Book names packed into a number (7 bits a character, up to 7 characters) → book index, so the
 * parser looks books up without slicing strings (it runs ~680k times per load).
 */
const PACKED_BOOKS: ReadonlyMap<number, number> = (() => {
  const packed = new Map<number, number>();
  const add = (name: string, index: number): void => {
    packed.set(packName(name, 0, name.length), index);
  };
  OSIS_BOOKS.forEach((osis, index) => {
    add(osis, index);
    add(osis.toUpperCase(), index);
  });
  USFX_BOOKS.forEach((usfx, index) => {
    add(usfx, index);
    add(usfx.toLowerCase(), index);
  });
  return packed;
})();

function packName(text: string, from: number, to: number): number {
  if (to - from > 7) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return -1;
    value = value * 128 + c;
  }
  return value;
}

function bookAt(text: string, from: number, to: number): number {
  return PACKED_BOOKS.get(packName(text, from, to)) ?? -1;
}

/** Position of the first `a` or `b` character code in `text[from, to)`, or -1. */
function indexOfEither(text: string, from: number, to: number, a: number, b = a): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === a || c === b) return i;
  }
  return -1;
}

/** True when `text[a, a + length)` equals `text[b, b + length)`. */
function sameSpan(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

/**
 * Parses one verse reference in `text[from, to)`, in either form:
 * - OSIS, as in OpenBible.info's file: `John.3.16`, `1John.4.9`;
 * - compact, as in the shipped file: `JHN 3:16`.
 * When `book`/`chapter` defaults are given (the end of a range), the short forms `3:17`
 * (chapter:verse) and `17` (verse) are accepted too. Returns the verse key, or -1.
 */
function parseReference(text: string, from: number, to: number, defaultBook = -1, defaultChapter = -1): number {
  const bookEnd = indexOfEither(text, from + 1, to, SPACE, DOT);
  let bookIndex = defaultBook;
  let rest = from;
  if (bookEnd >= 0) {
    bookIndex = bookAt(text, from, bookEnd);
    rest = bookEnd + 1;
  }
  if (bookIndex < 0) return -1;
  const separator = indexOfEither(text, rest, to, DOT, COLON);
  let chapter: number;
  let verse: number;
  if (separator >= 0) {
    chapter = readInt(text, rest, separator);
    verse = readInt(text, separator + 1, to);
  } else {
    if (bookEnd >= 0 || defaultChapter < 0) return -1;
    chapter = defaultChapter;
    verse = readInt(text, rest, to);
  }
  return checkedKey(bookIndex, chapter, verse);
}

/** Growable Int32 buffer. */
class IntBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i] ?? 0;
  }
}

/**
 * Parses cross-reference rows `from<TAB>to<TAB>votes` into column storage.
 *
 * Accepts OpenBible.info's original file (OSIS references, `Col.1.16-Col.1.17` ranges, header
 * line) and the shipped compact file (`COL 1:16-17`, `GEN 11:32-12:1`, `#` comment lines), or a
 * mix. Rows with votes below `minVotes` (default 1: zero and negative votes are readers saying
 * "not useful") are dropped, as are the few ranges spanning two books. Links are grouped by
 * source verse in canonical order and, within a source, sorted by votes descending, then by
 * target; already-sorted input (the shipped file) is not re-sorted. Duplicate rows are kept.
 */
export function parseCrossReferenceColumns(
  text: string,
  options: { minVotes?: number } = {},
): { columns: CrossReferenceColumns; stats: CrossReferenceParseStats } {
  const minVotes = options.minVotes ?? DEFAULT_MIN_VOTES;
  // Rows average ~21 characters in the compact file, ~24 in the OSIS one; buffers grow if needed.
  const capacity = Math.ceil(text.length / 20);
  const from = new IntBuffer(capacity);
  const targetStart = new IntBuffer(capacity);
  const targetEnd = new IntBuffer(capacity);
  const votes = new IntBuffer(capacity);
  const stats: CrossReferenceParseStats = { kept: 0, lowVotes: 0, crossBook: 0, malformed: 0 };
  // The order of the columns: source ascending, then votes descending, then target.
  const compareRows = (a: number, b: number): number =>
    from.get(a) - from.get(b) ||
    votes.get(b) - votes.get(a) ||
    targetStart.get(a) - targetStart.get(b) ||
    targetEnd.get(a) - targetEnd.get(b);
  let sorted = true;
  let previousSource = -1;
  let previousSourceStart = 0;
  let previousSourceLength = -1;

  let lineStart = 0;
  const length = text.length;
  while (lineStart < length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = length;
    let contentEnd = lineEnd;
    if (contentEnd > lineStart && text.charCodeAt(contentEnd - 1) === 13) contentEnd--;
    const first = text.charCodeAt(lineStart);
    const isSkipped = contentEnd === lineStart || first === 35 /* # */ || text.startsWith("From Verse", lineStart);
    if (!isSkipped) {
      const tab1 = text.indexOf("\t", lineStart);
      const tab2 = tab1 < 0 ? -1 : text.indexOf("\t", tab1 + 1);
      if (tab1 < 0 || tab2 < 0 || tab2 > contentEnd) {
        stats.malformed++;
      } else {
        let tab3 = text.indexOf("\t", tab2 + 1);
        if (tab3 < 0 || tab3 > contentEnd) tab3 = contentEnd;
        // Rows come grouped by source verse: reuse the previous row's key when the field repeats.
        const fieldLength = tab1 - lineStart;
        const source =
          fieldLength === previousSourceLength && sameSpan(text, lineStart, previousSourceStart, fieldLength)
            ? previousSource
            : parseReference(text, lineStart, tab1);
        previousSource = source;
        previousSourceStart = lineStart;
        previousSourceLength = fieldLength;
        const hyphen = indexOfEither(text, tab1 + 1, tab2, HYPHEN);
        const start = parseReference(text, tab1 + 1, hyphen < 0 ? tab2 : hyphen);
        let end = start;
        if (hyphen >= 0 && start >= 0) {
          const { bookIndex, chapter } = decodeVerseKey(start);
          end = parseReference(text, hyphen + 1, tab2, bookIndex, chapter);
        }
        const negative = text.charCodeAt(tab2 + 1) === HYPHEN;
        const magnitude = readInt(text, negative ? tab2 + 2 : tab2 + 1, tab3);
        const count = negative ? -magnitude : magnitude;
        if (source < 0 || start < 0 || end < 0 || Number.isNaN(count)) {
          stats.malformed++;
        } else if (count < minVotes) {
          stats.lowVotes++;
        } else if (Math.floor(end / BOOK_FACTOR) !== Math.floor(start / BOOK_FACTOR)) {
          stats.crossBook++;
        } else if (end < start) {
          stats.malformed++;
        } else {
          from.push(source);
          targetStart.push(start);
          targetEnd.push(end);
          votes.push(Math.min(count, 32_767));
          const i = from.length - 1;
          if (i > 0 && compareRows(i - 1, i) > 0) sorted = false;
        }
      }
    }
    lineStart = lineEnd + 1;
  }

  const n = from.length;
  stats.kept = n;
  const order = sorted ? undefined : Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => compareRows(a, b) || a - b);
  const at = (i: number): number => (order ? (order[i] ?? 0) : i);

  const sources: number[] = [];
  const offsets: number[] = [];
  const targets = { targetStart: new Int32Array(n), targetEnd: new Int32Array(n), votes: new Int16Array(n) };
  for (let i = 0; i < n; i++) {
    const j = at(i);
    const source = from.get(j);
    if (source !== sources.at(-1)) {
      sources.push(source);
      offsets.push(i);
    }
    targets.targetStart[i] = targetStart.get(j);
    targets.targetEnd[i] = targetEnd.get(j);
    targets.votes[i] = votes.get(j);
  }
  offsets.push(n);
  return { columns: { sources: Int32Array.from(sources), offsets: Uint32Array.from(offsets), ...targets }, stats };
}

/** Parses cross-reference text (see {@link parseCrossReferenceColumns}) into an index. */
export function parseCrossReferences(text: string, options: { minVotes?: number } = {}): CrossReferenceIndex {
  return new CrossReferenceIndex(parseCrossReferenceColumns(text, options).columns);
}

function formatKey(key: number): string {
  const { bookIndex, chapter, verse } = decodeVerseKey(key);
  return `${USFX_BOOKS[bookIndex] ?? "?"} ${chapter}:${verse}`;
}

function formatTarget(start: number, end: number): string {
  if (start === end) return formatKey(start);
  const a = decodeVerseKey(start);
  const b = decodeVerseKey(end);
  return b.chapter === a.chapter ? `${formatKey(start)}-${b.verse}` : `${formatKey(start)}-${b.chapter}:${b.verse}`;
}

/**
 * Serialises an index in the compact row format (`JHN 3:16<TAB>ROM 5:8<TAB>952`, ranges
 * `1JN 4:9-10` or `GEN 11:32-12:1`), in the index's order, after the given `#` comment lines.
 */
export function formatCrossReferences(index: CrossReferenceIndex, headerLines: readonly string[] = []): string {
  const { sources, offsets, targetStart, targetEnd, votes } = index.columns;
  const out: string[] = headerLines.map((line) => `# ${line}`);
  for (let s = 0; s < sources.length; s++) {
    const from = formatKey(sources[s] ?? 0);
    for (let i = offsets[s] ?? 0; i < (offsets[s + 1] ?? 0); i++) {
      out.push(`${from}\t${formatTarget(targetStart[i] ?? 0, targetEnd[i] ?? 0)}\t${votes[i] ?? 0}`);
    }
  }
  return `${out.join("\n")}\n`;
}
