/**
 * The verse references of the English reference data, read into USFX coordinates:
 * - Theographic's OSIS verse ids ("Exod.6.20");
 * - Easton's dictionary links, `[Ex. 6:20](/exod#Exod.6.20)` (the anchor names the first verse,
 *   the link text a range's end: `[27-30](/exod#Exod.4.27)`), with the bare continuations that
 *   follow them, "(2:1, 4; 7:7)" (chapter:verse in the book of the last link, a bare number
 *   after a comma is another verse of the same chapter);
 * - Nave's reference lists, `EXO 6:16-20; JOS 21:4,10; 1CH 6:2,3; 23:13; NUM 17`: USFX codes (and
 *   the odd "So", "Jude", "Isa."), a bare chapter is the whole chapter, a reference without a
 *   book continues the previous one, "with 22:6-19" too; `-See X` and `-Also called X` name
 *   another subject.
 */
import { OSIS_BOOKS, osisToUsfx, USFX_BOOKS } from "../bible/osis.js";

/** A run of verses in one book: one verse, a range, or (verse undefined) a whole chapter; `endChapter` for a range across chapters. */
export interface VerseSpan {
  book: string;
  chapter: number;
  verse?: number;
  verseEnd?: number;
  endChapter?: number;
}

/** "Exod.6.20" → EXO 6:20, or undefined. */
export function osisVerse(id: string): VerseSpan | undefined {
  const match = /^([1-3]?[A-Za-z]+)\.(\d+)\.(\d+)$/.exec(id.trim());
  const book = match ? osisToUsfx(match[1]!) : undefined;
  if (!match || !book) return undefined;
  return { book, chapter: Number(match[2]), verse: Number(match[3]) };
}

const LINK = /\[([^\]]*)\]\(\/[^#)]*#([1-3]?[A-Za-z]+)\.(\d+)\.(\d+)\)/g;
/** A chapter:verse with its range and comma-continued verses, outside links ("2:1, 4", "7:1, 2, 9-11"). */
const BARE = /(?<![\d:.])(\d{1,3}):(\d{1,3})(?:\s*[-–]\s*(\d{1,3}))?((?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?(?![\d:]))*)/g;

/** Every verse an Easton entry cites, in the order it cites them (links and their bare continuations). */
export function eastonReferences(text: string): VerseSpan[] {
  const spans: VerseSpan[] = [];
  let book: string | undefined;
  let last = 0;
  const bare = (segment: string) => {
    for (const match of segment.matchAll(BARE)) {
      // A book written out before it without a link ("Matt. 1:23") is its book, else the last link's.
      const named = /([1-3]?\s?[A-Z][a-z]+\.?)\s*$/.exec(segment.slice(Math.max(0, match.index - 12), match.index));
      const written = named ? naveBook(named[1]!.replace(/\s/g, "")) : undefined;
      if (written) book = written;
      if (!book) continue;
      const chapter = Number(match[1]);
      spans.push(rangeSpan(book, chapter, Number(match[2]), match[3]));
      for (const item of (match[4] ?? "").split(",").map((part) => part.trim()).filter(Boolean)) {
        const [from, to] = item.split(/\s*[-–]\s*/);
        spans.push(rangeSpan(book, chapter, Number(from), to));
      }
    }
  };
  for (const match of text.matchAll(LINK)) {
    bare(text.slice(last, match.index));
    last = match.index + match[0].length;
    const linked = osisToUsfx(match[2]!);
    if (!linked) continue;
    book = linked;
    const chapter = Number(match[3]);
    const verse = Number(match[4]);
    // The link text's range end: "27-30", "Ex. 6:16-20" (same chapter), "6:28-7:2" (across).
    const end = /[-–]\s*(?:(\d+):)?(\d+)\s*$/.exec(match[1]!);
    if (end?.[1] !== undefined && Number(end[1]) !== chapter) spans.push({ book, chapter, verse, endChapter: Number(end[1]), verseEnd: Number(end[2]) });
    else spans.push(rangeSpan(book, chapter, verse, end?.[2]));
  }
  bare(text.slice(last));
  return spans.filter((span) => span.chapter > 0 && (span.verse === undefined || span.verse > 0));
}

function rangeSpan(book: string, chapter: number, verse: number, end: string | undefined): VerseSpan {
  const verseEnd = end === undefined ? undefined : Number(end);
  return verseEnd !== undefined && verseEnd > verse ? { book, chapter, verse, verseEnd } : { book, chapter, verse };
}

const USFX_CODES = new Set(USFX_BOOKS);
/** The data's few abbreviations that are neither USFX codes nor OSIS names nor a unique OSIS prefix. */
const ODD_CODES: Readonly<Record<string, string>> = { "1JHN": "1JN", "2JHN": "2JN", "3JHN": "3JN" };

/** A book token of Nave's lists ("EXO", "So", "Jude", "Isa.") as a USFX code, or undefined. */
export function naveBook(token: string): string | undefined {
  const plain = token.replace(/\.$/, "");
  const upper = plain.toUpperCase();
  if (USFX_CODES.has(upper) && plain === upper) return upper;
  if (ODD_CODES[upper]) return ODD_CODES[upper];
  const exact = OSIS_BOOKS.find((osis) => osis.toUpperCase() === upper);
  if (exact) return osisToUsfx(exact);
  if (plain.length < 2 || plain === upper) return undefined;
  const prefixed = OSIS_BOOKS.filter((osis) => osis.toUpperCase().startsWith(upper));
  return prefixed.length === 1 ? osisToUsfx(prefixed[0]!) : undefined;
}

/** Where a line's references begin: a book token followed by a chapter. */
const REFERENCES_START = /(?:^|\s)((?:[1-3][A-Z]{2,3}|[A-Z]{3}|So|Jude|Isa\.)\s+\d)/;

/** One line of a Nave's subject: its heading text, its references, and the subjects it points to. */
export interface NaveLine {
  /** Indentation depth (0 for a top sub-heading). */
  depth: number;
  text: string;
  spans: VerseSpan[];
  /** "-See PRIEST, HIGH" or "-Also called ACHBOR": the subjects named. */
  see: string[];
}

/** A Nave's subject's entry, line by line. */
export function naveLines(entry: string): NaveLine[] {
  const lines: NaveLine[] = [];
  for (const raw of entry.split(/\r?\n/)) {
    if (raw.trim() === "") continue;
    const depth = Math.floor((/^\s*/.exec(raw)![0].length + 1) / 5);
    const line = raw.trim().replace(/^-/, "").trim();
    const see = /^(?:See|Also called|Called)\s+(.+)$/i.exec(line);
    const start = REFERENCES_START.exec(line);
    if (!start) {
      lines.push({ depth, text: line, spans: [], see: see ? splitSubjects(see[1]!) : [] });
      continue;
    }
    const at = start.index + start[0].indexOf(start[1]!);
    const text = line.slice(0, at).trim().replace(/[,;:]$/, "").trim();
    const seeBefore = see ? splitSubjects(text.replace(/^(?:See|Also called|Called)\s+/i, "")) : [];
    lines.push({ depth, text, spans: naveReferences(line.slice(at)), see: seeBefore });
  }
  return lines;
}

/** Subjects named by "-See": "PRIEST, HIGH" is one subject, "A; B" two. */
function splitSubjects(text: string): string[] {
  return text.split(";").map((part) => part.trim().replace(/[.,]$/, "")).filter(Boolean);
}

/** A list of references, "EXO 6:16-20; JOS 21:4,10; 1CH 6:2,3; 23:13; NUM 17". Text that is no reference is skipped. */
export function naveReferences(text: string): VerseSpan[] {
  const spans: VerseSpan[] = [];
  let book: string | undefined;
  for (const rawPiece of text.split(";")) {
    let piece = rawPiece.trim().replace(/^with\s+/i, "");
    const head = /^((?:[1-3]?[A-Za-z]+\.?))\s+(?=\d)/.exec(piece);
    if (head) {
      const named = naveBook(head[1]!);
      if (!named) continue;
      book = named;
      piece = piece.slice(head[0].length);
    }
    if (!book) continue;
    const match = /^(\d+)(?::(.*))?$/.exec(piece.replace(/\s+/g, "").replace(/[.,]$/, ""));
    if (!match) continue;
    const chapter = Number(match[1]);
    if (match[2] === undefined) {
      spans.push({ book, chapter });
      continue;
    }
    for (const item of match[2].split(",")) {
      const across = /^(\d+)-(\d+):(\d+)$/.exec(item);
      if (across) {
        spans.push({ book, chapter, verse: Number(across[1]), endChapter: Number(across[2]), verseEnd: Number(across[3]) });
        continue;
      }
      const range = /^(\d+)(?:-(\d+))?$/.exec(item);
      if (range) spans.push(rangeSpan(book, chapter, Number(range[1]), range[2]));
    }
  }
  return spans;
}
