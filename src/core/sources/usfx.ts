/**
 * Streaming USFX parser (SAX, via `saxes`): turns a USFX Bible file into a flat sequence of
 * {@link Verse} records, one per `<v>` milestone, without ever building a DOM.
 *
 * Structure. USFX marks verses with milestones: `<book id="GEN">`, `<c id="1"/>`,
 * `<v id="1"/>` … `<ve/>`. A verse is open from its `<v>` until the first of `<ve/>`, the next
 * `<v>`, the next `<c>` or `</book>` (a missing `<ve/>` is normal in real files). Verse
 * milestones may sit inside `<p>`/`<q>` or directly in `<book>`, and a verse may start in one
 * paragraph and end in another. Text outside an open verse (introductions, headings between
 * `<ve/>` and the next `<v>`, front matter, glossary entries) is ignored. A bridge
 * `<v id="15-16"/>` is one record with `verse` 15 and `verseEnd` 16. A `<v>` that comes before
 * any `<c>` in its book is taken as chapter 1 (single-chapter books without `\c 1`).
 *
 * Text. Kept: the words of `<add>`, `<nd>`, `<wj>`, `<w>` (never its Strong's attributes),
 * `<q>`, `<qt>`, `<tl>`, `<k>`, `<bk>`, `<p>` and any other character style. Removed: notes
 * (`<f>`, `<fe>`, `<ef>`, `<x>`, `<ex>`, `<rq>`), headings and titles (`<s>`, `<d>`, `<h>`,
 * `<toc>`, `<cl>`, `<cp>`, `<ca>`, `<va>`, `<vp>`, and paragraphs whose `sfm`/`style` is a
 * heading, title, speaker or introduction marker such as `mt`, `ms`, `s`, `sp`, `is`, `ip`),
 * and metadata (`<id>`, `<ide>`, `<rem>`, `<restore>`, `<fig>`, `<languageCode>`…). A `<v>`
 * that appears inside a removed element still opens a verse, but the removed element's own
 * text stays out. Whitespace: XML whitespace runs (space, tab, CR, LF) collapse to one space and
 * the text is trimmed; block boundaries (`<p>`, `<q>`, `<b/>`, `<qs>`…) count as a space. Then a
 * space that sits directly before `,` `.` `;` `:` `!` `?` is removed only when the markup made
 * it: a line break from the file's layout, a block boundary, or removed content next to it
 * (JHN 6:45 in the Bíblia Livre: "por Deus’ <rq>Isaías 54:13</rq>. Portanto" gives "por
 * Deus’. Portanto"). Spaces typed on one line in the source are left alone (none of the four
 * corpus files has such a space before those marks in verse text). A note glued to the words
 * on both sides leaves nothing (no space is invented). No-break spaces (U+00A0) are kept.
 *
 * Empty verses (the rule). A `<v>` whose text is empty after the removals above IS emitted,
 * with `text: ""`: ACT 28:29 in the Bíblia Livre (it holds only a footnote), 18 verses in
 * Reina-Valera 1909 (e.g. NUM 12:16, directly followed by `<c id="13"/>`; of that file's 137
 * verses without `<ve/>`, the other 125 have text), 29 in the WEB (verses it keeps only in
 * footnotes, such as ACT 8:37). Versification thus stays complete (31,102 verses for a
 * KJV-versified Bible) and every reference resolves; indexers must skip empty text themselves,
 * and `buildContextWindows` (context.ts) never uses empty verses as neighbours.
 *
 * Book metadata. `bookName` is the book's `<h>`, else `<toc level="2">`, else `<toc
 * level="1">`, else the code. Verses are buffered per book and emitted at `</book>`, so a name
 * that came late in the book would still apply to every verse (in the corpus files `<h>`
 * always precedes the first `<c>`). `canonical` comes from {@link isCanonical}.
 *
 * Security and errors. A DOCTYPE declaration is refused at once (`doctype_refused`): the prolog
 * is scanned for `<!DOCTYPE` before the text reaches the XML parser, so nothing from a DTD is
 * ever buffered or expanded (billion laughs, XXE); `saxes`' own `doctype` event is a second
 * guard. `saxes` knows only XML's five predefined entities and numeric character references;
 * any other entity is an `xml_malformed` error. Malformed XML, a root other than `<usfx>`
 * (`not_usfx`), an empty file (`empty_file`) and a USFX without `<book>` (`no_books`) reject the
 * generator with a {@link UsfxError} whose message is in Portuguese and names file, line and
 * column. Input streams are destroyed when parsing stops early.
 *
 * Bounds. Every number and size is bounded where it enters, so a hostile or broken file fails
 * at once with a {@link UsfxError} naming file, line and column instead of costing memory or
 * time by its numbers (issue 43): a chapter outside 1..`MAX_CHAPTER` (`chapter_out_of_range`),
 * a verse or a bridge's end above `MAX_VERSE` (`verse_out_of_range`), a bridge spanning more
 * than `MAX_BRIDGE_VERSES` (`bridge_too_long`; the three from core/bible/bounds.ts), more
 * than `USFX_LIMITS.versesPerFile` verse records (`too_many_verses`), a book code longer than
 * 16 characters (`not_usfx`: it is copied into every verse), and `too_large` for one verse's
 * text, a book's title, the file's verse text, elements open at once, what the XML parser
 * holds between two completed constructs (a text run, a tag with its attributes, a comment)
 * and the file's characters after gunzip (`USFX_LIMITS`). Strings are fed to the XML parser in
 * pieces of 64 K characters, so a limit is never overshot by more than one piece; what an
 * error message echoes from the file is cut at 300 characters.
 */
import type { SaxesParser, SaxesTagPlain } from "saxes";
import { MAX_BRIDGE_VERSES, MAX_CHAPTER, MAX_VERSE } from "../bible/bounds.js";
import type { Verse } from "../types.js";
import { isCanonical } from "./canon.js";

/** Why a USFX file could not be read. */
export type UsfxErrorCode =
  | "xml_malformed"
  | "doctype_refused"
  | "not_usfx"
  | "empty_file"
  | "no_books"
  | "chapter_out_of_range"
  | "verse_out_of_range"
  | "bridge_too_long"
  | "too_many_verses"
  | "too_large"
  | "io";

/**
 * What one file may hold (see the module comment, "Bounds"): each is far above the largest of
 * the four real USFX files measured (the WEB with its deuterocanon: 38,058 verses, 19.9 million
 * characters, its longest verse under 2,000 characters of text, elements nested 6 deep).
 */
export interface UsfxLimits {
  /** Verse records (`<v>`) per file. */
  versesPerFile: number;
  /** Characters of one verse's text as read (layout whitespace included). */
  verseChars: number;
  /** Characters of a book's `<h>` or `<toc>` as read (its name, copied into every verse of the book). */
  titleChars: number;
  /** Characters of verse text per file, as read. */
  textChars: number;
  /** Elements open at once. */
  depth: number;
  /**
   * Characters read since the parser last completed something (a tag, a run of text, a comment,
   * a CDATA section, a processing instruction): what the XML parser holds in memory at once.
   */
  pendingChars: number;
  /** Characters per file (after gunzip). */
  fileChars: number;
}

export const USFX_LIMITS: Readonly<UsfxLimits> = Object.freeze({
  versesPerFile: 100_000,
  verseChars: 50_000,
  titleChars: 500,
  textChars: 20_000_000,
  depth: 256,
  pendingChars: 1_000_000,
  fileChars: 100_000_000,
});

/** The longest detail an error message carries (what the file itself put in it is cut there). */
const MAX_DETAIL = 300;

/** Error raised by the USFX reader; its message is user-facing (Portuguese). */
export class UsfxError extends Error {
  readonly code: UsfxErrorCode;
  /** Source name (file basename) the error refers to. */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /**
   * Column where the problem was detected, when known: the 1-based column of the last character
   * read (as `saxes` counts it; 0 when that character was a line break).
   */
  readonly column?: number;

  constructor(
    code: UsfxErrorCode,
    file: string,
    detail: string,
    position?: { line: number; column: number },
    options?: { cause?: unknown },
  ) {
    const where = position ? `${file}:${position.line}:${position.column}` : file;
    // A name or value echoed from the file (an element's name, a book's code) is bounded only by the parser's limits.
    super(`${where}: ${detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail}`, options);
    this.name = "UsfxError";
    this.code = code;
    this.file = file;
    if (position) {
      this.line = position.line;
      this.column = position.column;
    }
  }
}

/** Metadata about one `<book>`, reported through {@link ParseUsfxOptions.onBook}. */
export interface UsfxBookInfo {
  source: string;
  book: string;
  bookName: string;
  canonical: boolean;
  /** Number of `<c>` milestones in the book. */
  chapters: number;
  /** Number of verse records emitted for the book (empty verses included). */
  verses: number;
}

export interface ParseUsfxOptions {
  /** Source name stored in every verse and used in error messages (file basename). */
  source: string;
  /**
   * Called once per `<book>` at `</book>`, before that book's verses are yielded; also for
   * books without verses (front matter, glossary), which yield nothing.
   */
  onBook?: (info: UsfxBookInfo) => void;
  /** Lower bounds than {@link USFX_LIMITS} (tests); the chapter, verse and bridge bounds are fixed. */
  limits?: Partial<UsfxLimits>;
}

/** Elements whose whole content (text and nested elements) is never verse text. */
const EXCLUDED_ELEMENTS: ReadonlySet<string> = new Set([
  // notes and references
  "f", "fe", "ef", "x", "ex", "rq",
  // headings, titles, labels
  "s", "d", "h", "toc", "cl", "cp", "ca", "va", "vp", "qa", "ms", "mr", "sr", "r", "sp",
  // metadata and non-text
  "id", "ide", "rem", "restore", "fig", "languageCode", "periph", "sts", "usfm", "cat",
]);

/**
 * Paragraph styles (`<p sfm=..>`/`<p style=..>`, trailing level digits removed) that are headings,
 * titles, speaker labels or introduction material rather than verse text.
 */
const EXCLUDED_PARAGRAPH_STYLES: ReadonlySet<string> = new Set([
  "mt", "mte", "ms", "mr", "s", "sr", "r", "sp", "sd", "d", "cl", "cd", "rem", "restore",
  "h", "toc", "lit", "qa",
]);

/** Elements whose start and end separate words (block level, line breaks). */
const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  "p", "q", "qs", "qc", "qr", "qm", "b", "li", "table", "tr", "th", "tc", "thr", "tcr",
  "optionalLineBreak", "br",
]);

/**
 * Sentinel for a "soft" space: a block boundary or a line break of the file's layout. It is
 * dropped before `,.;:!?` and otherwise becomes one space. U+0001 cannot occur in XML 1.0 text.
 */
const SOFT = "\u0001";
/**
 * Zero-width sentinel marking where removed content (a note, a heading) was. Whitespace next to
 * it becomes soft: "Deus’ <rq>Isaías 54:13</rq>. Portanto" gives "Deus’. Portanto". U+0002
 * cannot occur in XML 1.0 text either.
 */
const GAP = "\u0002";

const LINE_BREAKS = /[\r\n]+/g;
// The sentinels are control characters on purpose: they can never come from the XML text.
/* eslint-disable no-control-regex */
const SPACE_RUN = /[ \t\u0001\u0002]+/g;
const SOFT_BEFORE_PUNCTUATION = /\u0001(?=[,.;:!?])/g;
/* eslint-enable no-control-regex */

function collapseRun(run: string): string {
  if (!run.includes(SOFT) && !run.includes(GAP)) return " ";
  // Only gaps, no whitespace at all: the removed note sat between two characters.
  if (run.replaceAll(GAP, "") === "") return "";
  return SOFT;
}

/**
 * Collapses whitespace and trims; removes a space before `,.;:!?` only when markup made it
 * (a line break in the file, a block boundary, or removed content next to it), never when it
 * was typed on one line in the source.
 */
export function normalizeVerseText(raw: string): string {
  return raw
    .replace(LINE_BREAKS, SOFT)
    .replace(SPACE_RUN, collapseRun)
    .replace(SOFT_BEFORE_PUNCTUATION, "")
    .replaceAll(SOFT, " ")
    .trim();
}

interface VerseParts {
  chapter: number;
  verse: number;
  verseEnd: number;
  pieces: string[];
  /** Characters in `pieces`. */
  chars: number;
}

interface BookState {
  code: string;
  h?: string;
  toc1?: string;
  toc2?: string;
  chapter: number;
  chapters: number;
  verses: VerseParts[];
}

interface Capture {
  kind: "h" | "toc1" | "toc2";
  /** Depth of the element stack at which the captured element was opened. */
  depth: number;
  /** Value of the excluded-element depth just inside the captured element. */
  skipLevel: number;
  pieces: string[];
  chars: number;
}

/** Translations of the `saxes` messages most likely to reach users. */
const SAXES_MESSAGES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^unclosed tag: (.+)$/, (m) => `marcação <${m[1]}> não foi fechada`],
  [/^unexpected close tag\.?$/, () => "marcação de fechamento não corresponde à aberta"],
  [/^unmatched closing tag: (.+)\.?$/, (m) => `marcação de fechamento </${m[1]}> sem abertura`],
  [/^undefined entity\.?$/, () => "entidade não definida (só as cinco entidades do XML são aceitas)"],
  [/^text data outside of root node\.?$/, () => "texto fora do elemento raiz"],
  [/^document must contain a root element\.?$/, () => "o documento não tem elemento raiz"],
  [/^disallowed character\.?$/, () => "caractere não permitido"],
  [/^duplicate attribute: (.+?)\.?$/, (m) => `atributo duplicado: ${m[1]}`],
  [/^unclosed root tag\.?$/, () => "o elemento raiz não foi fechado"],
];

function translateSaxesMessage(message: string): string {
  // saxes prefixes "line:column: "; the position is reported separately.
  const bare = message.replace(/^\d+:\d+: /, "");
  for (const [pattern, render] of SAXES_MESSAGES) {
    const match = pattern.exec(bare);
    if (match) return render(match);
  }
  return bare;
}

function attr(tag: SaxesTagPlain, name: string): string | undefined {
  const value = tag.attributes[name];
  return typeof value === "string" ? value : undefined;
}

function paragraphStyle(tag: SaxesTagPlain): string | undefined {
  const raw = attr(tag, "sfm") ?? attr(tag, "style");
  return raw?.trim().replace(/\d+$/, "");
}

function isExcludedParagraph(tag: SaxesTagPlain): boolean {
  const style = paragraphStyle(tag);
  if (style === undefined) return false;
  // Introduction markers (\is, \ip, \ili, \iot, \io, \iex, \imt…) all start with "i".
  return EXCLUDED_PARAGRAPH_STYLES.has(style) || /^i[a-z]*$/.test(style);
}

const VERSE_ID = /^\s*(\d+)[a-z]?(?:\s*[-–,]\s*(\d+)[a-z]?)?/i;

/** An attribute value quoted in a message: at most 20 characters. */
function quoted(value: string): string {
  return `"${value.length > 20 ? `${value.slice(0, 20)}…` : value}"`;
}

function count(n: number): string {
  return n.toLocaleString("pt-BR");
}

/** The longest book code accepted (USFM's are 3 characters: GEN, JON, FRT). */
const MAX_BOOK_CODE = 16;

/** Strings longer than this are handed to the XML parser in pieces, so the limits are checked between them. */
const WRITE_PIECE = 64 * 1024;

function isDestroyable(input: unknown): input is { destroy(): void } {
  return (
    typeof input === "object" &&
    input !== null &&
    typeof (input as { destroy?: unknown }).destroy === "function"
  );
}

const DOCTYPE_REFUSED = "declaração DOCTYPE recusada (DTDs e entidades não são aceitas)";
/** The `empty_file` message (also given by the file reader, adapters/sources/usfx-file.ts, for a 0-byte `.gz`). */
export const EMPTY_FILE = "arquivo vazio: nenhum conteúdo XML";
const NOT_UTF8 = "XML malformado: o arquivo não está em UTF-8 válido";
/** Anything but XML whitespace or a byte-order mark. */
const NON_WHITESPACE = /[^ \t\r\n\uFEFF]/;

function countLineBreaks(text: string, end: number): number {
  return text.slice(0, end).split("\n").length - 1;
}

/**
 * Parses USFX text into verses, streaming. `input` may be a Node readable stream or any async
 * iterable of strings or UTF-8 buffers (a leading byte-order mark is ignored). Verses come out
 * in file order, book by book (a book's verses are released at its `</book>`).
 *
 * @throws {UsfxError} (as a rejection of the generator) for malformed, refused or empty input.
 */
export async function* parseUsfx(
  input: AsyncIterable<string | Buffer> | NodeJS.ReadableStream,
  options: ParseUsfxOptions,
): AsyncGenerator<Verse> {
  const { source, onBook } = options;
  const limits: UsfxLimits = { ...USFX_LIMITS, ...options.limits };
  // Loaded on the first parse: a process that only searches never reads USFX.
  const { SaxesParser: Parser } = await import("saxes");
  const parser: SaxesParser<{ xmlns: false; position: true }> = new Parser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  const decoder = new TextDecoder("utf-8", { fatal: true });

  let sawRoot = false;
  let sawContent = false;
  let booksSeen = 0;
  let book: BookState | undefined;
  let current: VerseParts | undefined;
  /** Number of open excluded elements (notes, headings…). */
  let skipDepth = 0;
  /** For each open element, whether it incremented skipDepth. */
  const skipStack: boolean[] = [];
  /** Names of open elements. */
  const nameStack: string[] = [];
  /** Name of the element most recently closed (for error messages). */
  let lastClosed: string | undefined;
  let capture: Capture | undefined;
  /** Verses ready to be yielded (filled synchronously by the SAX handlers). */
  const ready: Verse[] = [];
  /** Verse records opened so far, characters of verse text read, characters of the file. */
  let versesSeen = 0;
  let textChars = 0;
  let fileChars = 0;
  /** `parser.position` when the parser last completed a construct (see `UsfxLimits.pendingChars`). */
  let completedAt = 0;

  // Prolog scan for "<!DOCTYPE" (until the root element opens).
  let prologTail = "";
  let prologLine = 1;
  let prologColumn = 0;

  function position(): { line: number; column: number } {
    return { line: parser.line, column: parser.column };
  }

  function fail(code: UsfxErrorCode, detail: string): never {
    throw new UsfxError(code, source, detail, position());
  }

  function asMalformed(err: unknown): UsfxError {
    if (err instanceof UsfxError) return err;
    const message = err instanceof Error ? err.message : String(err);
    let detail = translateSaxesMessage(message);
    // saxes reports this after closing (and reporting) the element that was really open.
    if (/unexpected close tag/.test(message) && lastClosed !== undefined) {
      detail += ` (esperado </${lastClosed}>)`;
    }
    return new UsfxError("xml_malformed", source, `XML malformado: ${detail}`, position(), {
      cause: err,
    });
  }

  function closeVerse(): void {
    if (current && book) book.verses.push(current);
    current = undefined;
  }

  function finishBook(): void {
    closeVerse();
    if (!book) return;
    const done = book;
    book = undefined;
    const bookName = done.h || done.toc2 || done.toc1 || done.code;
    const info = { source, book: done.code, bookName, canonical: isCanonical(done.code) };
    onBook?.({ ...info, chapters: done.chapters, verses: done.verses.length });
    for (const parts of done.verses) {
      ready.push({
        ...info,
        chapter: parts.chapter,
        verse: parts.verse,
        verseEnd: parts.verseEnd,
        text: normalizeVerseText(parts.pieces.join("")),
      });
    }
  }

  /** Marks in the open verse a block boundary (SOFT) or the place of removed content (GAP). */
  /** A book's code (3 characters in USFM; copied into every verse of the book), refused when it is longer than any. */
  function bookCode(id: string | undefined): string {
    const code = id?.trim() ?? "";
    if (code.length > MAX_BOOK_CODE) fail("not_usfx", `USFX inválido: código de livro ${quoted(code)} longo demais (no máximo ${MAX_BOOK_CODE} caracteres)`);
    return code;
  }

  function pushMark(mark: typeof SOFT | typeof GAP): void {
    if (current && skipDepth === 0) current.pieces.push(mark);
  }

  function startCapture(kind: Capture["kind"]): void {
    if (book && !capture) capture = { kind, depth: nameStack.length, skipLevel: -1, pieces: [], chars: 0 };
  }

  parser.on("error", (err) => {
    throw asMalformed(err);
  });

  parser.on("doctype", () => {
    fail("doctype_refused", DOCTYPE_REFUSED);
  });

  parser.on("xmldecl", (decl) => {
    const encoding = decl.encoding?.toLowerCase();
    if (encoding !== undefined && !["utf-8", "utf8", "us-ascii", "ascii"].includes(encoding)) {
      fail("xml_malformed", `XML malformado: codificação "${decl.encoding}" não suportada (só UTF-8)`);
    }
  });

  parser.on("opentag", (tag) => {
    constructDone();
    const name = tag.name;
    if (!sawRoot) {
      sawRoot = true;
      if (name !== "usfx") {
        fail("not_usfx", `não é um arquivo USFX: o elemento raiz é <${name}>, esperado <usfx>`);
      }
    }

    // Milestones are handled even inside excluded elements.
    switch (name) {
      case "book": {
        finishBook();
        booksSeen++;
        book = { code: bookCode(attr(tag, "id")), chapter: 0, chapters: 0, verses: [] };
        break;
      }
      case "c": {
        closeVerse();
        if (!book) fail("not_usfx", "USFX inválido: marcador de capítulo <c> fora de <book>");
        const id = attr(tag, "id") ?? "";
        const chapter = Number.parseInt(id, 10);
        if (Number.isNaN(chapter)) fail("not_usfx", `USFX inválido: número de capítulo inválido: ${quoted(id)}`);
        if (chapter < 1 || chapter > MAX_CHAPTER) {
          fail("chapter_out_of_range", `USFX inválido: capítulo ${quoted(id)} fora do limite (de 1 a ${count(MAX_CHAPTER)})`);
        }
        book.chapter = chapter;
        book.chapters++;
        break;
      }
      case "v": {
        closeVerse();
        if (!book) fail("not_usfx", "USFX inválido: marcador de versículo <v> fora de <book>");
        const id = attr(tag, "id") ?? "";
        const match = VERSE_ID.exec(id);
        if (!match?.[1]) fail("not_usfx", `USFX inválido: número de versículo inválido: ${quoted(id)}`);
        const verse = Number.parseInt(match[1], 10);
        const end = match[2] !== undefined ? Number.parseInt(match[2], 10) : verse;
        const verseEnd = end >= verse ? end : verse;
        if (verse > MAX_VERSE) fail("verse_out_of_range", `USFX inválido: versículo ${quoted(id)} fora do limite (de 0 a ${count(MAX_VERSE)})`);
        if (verseEnd - verse + 1 > MAX_BRIDGE_VERSES) {
          fail("bridge_too_long", `USFX inválido: o intervalo de versículos ${quoted(id)} passa de ${count(MAX_BRIDGE_VERSES)} versículos`);
        }
        if (verseEnd > MAX_VERSE) fail("verse_out_of_range", `USFX inválido: versículo ${quoted(id)} fora do limite (de 0 a ${count(MAX_VERSE)})`);
        if (++versesSeen > limits.versesPerFile) {
          fail("too_many_verses", `USFX grande demais: mais de ${count(limits.versesPerFile)} versículos no arquivo`);
        }
        current = { chapter: book.chapter || 1, verse, verseEnd, pieces: [], chars: 0 };
        break;
      }
      case "ve":
        closeVerse();
        break;
      case "h":
        startCapture("h");
        break;
      case "toc": {
        const level = attr(tag, "level");
        if (level === "1") startCapture("toc1");
        else if (level === "2") startCapture("toc2");
        break;
      }
      case "id":
        if (book && book.code === "") book.code = bookCode(attr(tag, "id"));
        break;
      default:
        break;
    }

    if (nameStack.length >= limits.depth) {
      fail("too_large", `USFX grande demais: mais de ${count(limits.depth)} elementos abertos ao mesmo tempo`);
    }
    const excluded = EXCLUDED_ELEMENTS.has(name) || (name === "p" && isExcludedParagraph(tag));
    if (BLOCK_ELEMENTS.has(name)) pushMark(SOFT);
    if (excluded) pushMark(GAP);
    skipStack.push(excluded);
    nameStack.push(name);
    if (excluded) skipDepth++;
    if (capture && capture.skipLevel < 0) capture.skipLevel = skipDepth;
  });

  parser.on("closetag", (tag) => {
    constructDone();
    const name = tag.name;
    lastClosed = name;
    const wasExcluded = skipStack.pop() ?? false;
    if (wasExcluded) skipDepth--;
    nameStack.pop();
    if (wasExcluded) pushMark(GAP);
    if (BLOCK_ELEMENTS.has(name)) pushMark(SOFT);

    if (capture && capture.depth === nameStack.length) {
      const text = normalizeVerseText(capture.pieces.join(""));
      if (book && text !== "") book[capture.kind] ??= text;
      capture = undefined;
    }
    if (name === "book") finishBook();
  });

  parser.on("text", (text) => {
    constructDone();
    if (capture) {
      // The captured element's own text and inline children, never nested notes.
      if (skipDepth === capture.skipLevel) {
        capture.pieces.push(text);
        capture.chars += text.length;
        if (capture.chars > limits.titleChars) {
          fail("too_large", `USFX grande demais: um título de livro passa de ${count(limits.titleChars)} caracteres`);
        }
      }
    } else if (current && skipDepth === 0) {
      current.pieces.push(text);
      current.chars += text.length;
      textChars += text.length;
      if (current.chars > limits.verseChars) {
        const where = `${book?.code ?? ""} ${current.chapter}:${current.verse}`;
        fail("too_large", `USFX grande demais: o versículo ${where} passa de ${count(limits.verseChars)} caracteres`);
      }
      if (textChars > limits.textChars) {
        fail("too_large", `USFX grande demais: mais de ${count(limits.textChars)} caracteres de texto de versículos no arquivo`);
      }
    }
  });

  /** The parser completed a construct: what it holds in memory starts again from here. */
  function constructDone(): void {
    completedAt = parser.position;
  }
  parser.on("comment", constructDone);
  parser.on("cdata", constructDone);
  parser.on("processinginstruction", constructDone);

  /**
   * Scans text written before the root element for a DOCTYPE declaration, so that a DTD is
   * refused before the XML parser buffers any of it. `prologLine`/`prologColumn` hold the
   * position reached so far; `prologTail` keeps the end of the previous chunk in case the
   * keyword is split between chunks.
   */
  function scanProlog(chunk: string): void {
    const haystack = prologTail + chunk;
    const at = haystack.indexOf("<!DOCTYPE");
    if (at >= 0) {
      // Offset of the "<" inside `chunk`; negative when it began in the tail, which is then on
      // the current line (the keyword holds no line break).
      const offset = at - prologTail.length;
      let line = prologLine;
      let column = prologColumn + offset + 1;
      const lastBreak = offset > 0 ? chunk.lastIndexOf("\n", offset - 1) : -1;
      if (lastBreak >= 0) {
        line += countLineBreaks(chunk, offset);
        column = offset - lastBreak;
      }
      throw new UsfxError("doctype_refused", source, DOCTYPE_REFUSED, { line, column });
    }
    const breaks = countLineBreaks(chunk, chunk.length);
    if (breaks > 0) {
      prologLine += breaks;
      prologColumn = chunk.length - 1 - chunk.lastIndexOf("\n");
    } else {
      prologColumn += chunk.length;
    }
    prologTail = haystack.slice(-8);
  }

  function write(chunk: string): void {
    let at = 0;
    while (at < chunk.length) {
      // A piece never ends between the two halves of a surrogate pair.
      let end = Math.min(chunk.length, at + WRITE_PIECE);
      const last = chunk.charCodeAt(end - 1);
      if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end++;
      writePiece(at === 0 && end === chunk.length ? chunk : chunk.slice(at, end));
      at = end;
    }
  }

  function writePiece(chunk: string): void {
    if (chunk.length === 0) return;
    fileChars += chunk.length;
    if (fileChars > limits.fileChars) {
      fail("too_large", `USFX grande demais: o arquivo passa de ${count(limits.fileChars)} caracteres`);
    }
    if (!sawContent) {
      const first = chunk.search(NON_WHITESPACE);
      if (first >= 0) {
        sawContent = true;
        if (chunk[first] !== "<") refuseNonXml(chunk, first);
      }
    }
    if (!sawRoot) scanProlog(chunk);
    try {
      parser.write(chunk);
    } catch (err) {
      throw asMalformed(err);
    }
    if (parser.position - completedAt > limits.pendingChars) {
      fail("too_large", `USFX grande demais: mais de ${count(limits.pendingChars)} caracteres sem completar uma marcação, um texto ou um comentário`);
    }
  }

  /** The first character of the document is not "<": not XML at all (USFM, plain text…). */
  function refuseNonXml(chunk: string, first: number): never {
    const lastBreak = chunk.lastIndexOf("\n", first);
    const line = prologLine + countLineBreaks(chunk, first);
    const column = lastBreak >= 0 ? first - lastBreak : prologColumn + first + 1;
    const sample = chunk.slice(first, first + 20).split(/[\r\n]/)[0] ?? "";
    throw new UsfxError(
      "xml_malformed",
      source,
      `XML malformado: o conteúdo não é XML (começa com "${sample}")`,
      { line, column },
    );
  }

  function decode(chunk?: Buffer): string {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch (err) {
      throw new UsfxError("xml_malformed", source, NOT_UTF8, position(), { cause: err });
    }
  }

  let completed = false;
  try {
    try {
      for await (const chunk of input as AsyncIterable<string | Buffer>) {
        write(typeof chunk === "string" ? chunk : decode(chunk));
        yield* ready.splice(0);
      }
      write(decode());
    } catch (err) {
      // Anything that is not ours came from reading the input.
      throw err instanceof UsfxError ? err : ioError(source, err);
    }
    if (!sawContent) {
      throw new UsfxError("empty_file", source, EMPTY_FILE);
    }
    try {
      parser.close();
    } catch (err) {
      throw asMalformed(err);
    }
    finishBook();
    if (booksSeen === 0) {
      throw new UsfxError("no_books", source, "USFX sem livros: nenhum elemento <book> encontrado");
    }
    yield* ready.splice(0);
    completed = true;
  } finally {
    if (!completed && isDestroyable(input)) input.destroy();
  }
}

const GZIP_BROKEN = "arquivo gzip corrompido ou truncado";
/** Reading errors by Node's error code. */
const IO_DETAILS: ReadonlyMap<unknown, string> = new Map([
  ["ENOENT", "arquivo não encontrado"],
  ["EACCES", "sem permissão para ler o arquivo"],
  ["EPERM", "sem permissão para ler o arquivo"],
  ["EISDIR", "o caminho é um diretório, não um arquivo"],
  ["Z_DATA_ERROR", GZIP_BROKEN],
  ["Z_BUF_ERROR", GZIP_BROKEN],
  ["Z_STREAM_ERROR", GZIP_BROKEN],
]);

function ioError(source: string, err: unknown): UsfxError {
  const detail =
    IO_DETAILS.get((err as { code?: unknown } | null)?.code) ??
    `falha de leitura: ${err instanceof Error ? err.message : String(err)}`;
  return new UsfxError("io", source, `erro de leitura: ${detail}`, undefined, { cause: err });
}
