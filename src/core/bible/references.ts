/**
 * Bible references in Brazilian Portuguese: parsing, scanning free text, formatting, and checking
 * a reference against a versification.
 *
 * Accepted forms (book spellings: see ./books.ts):
 *   João 3:16 · Jo 3.16 · João 3,16 · Jo 3:16-18 · 1 Co 13:4-7 · Salmo 23 · Gn 1-2
 *   Rm 3:23; 6:23 · Jo 3:16,18 · Gn 1:31-2:3 (also with – or —) · Gn 1:31 – 2:3
 *   João capítulo 3 versículo 16 · João 3, versículos 16 a 18 · Jo 3:16a (a/b/c/ss suffix ignored)
 *   Apocalipse, capítulo 22, versículo 21 (a comma before "capítulo")
 *   Ap XXII, 21 · Ap XXII:21 · Sl CXIX.105 · Apocalipse, capítulo XXII (a Roman chapter, in capitals,
 *     1-150, needs the verse after it or "capítulo" before it: "João XXIII", "Pio XII" stay prose)
 *   the book after its numbers (free text only, `InvertedParser`): capítulo 22 de Apocalipse[,
 *     versículo 21] · o versículo 21 do capítulo 22 do Apocalipse · versículos 1 a 3 do capítulo 5
 *     de Mateus · no capítulo 3 do livro de Jó / do Evangelho de João / da carta aos Romanos ·
 *     versículo 21 de Apocalipse 22 · versículo 3 de Judas (one chapter); the match starts at the
 *     chapter or verse word
 *
 * Separators. Between chapter and verse: `:`, `.` or `,` (Brazilian "Jo 3,16"), no spaces.
 * Verse lists inside one chapter use `,` after a `:`/`.` reference ("Jo 3:16,18") and `.` after a
 * `,` reference (Catholic style "Jo 3,16.18"); a new chapter of the same book follows `;`
 * ("Rm 3:23; 6:23"), or `,` when it is written chapter:verse ("Jo 3:16, 4:1"), or " e " plus
 * chapter:verse ("Rm 3:23 e 6:23"). A list item that is the ordinal of a following book is not
 * taken ("Jo 3:16, 1 Jo 4:8" is two matches). Ranges use an unspaced dash; a spaced dash is only
 * accepted before a full chapter:verse ("Gn 1:31 – 2:3"), because " - " is common punctuation.
 * "a"/"até"/"ao" make ranges after a verse ("Jo 3:16 a 18") or in the "capítulo" form.
 *
 * Numbers: 1–3 digits, no leading zero; "Sl 23.000" and "Os 3,5 milhões"-like decimals are not
 * references. Single-chapter books (Obadias, Filemom, 2 João, 3 João, Judas) are cited by verse:
 * a bare number is a verse ("Judas 3" = Judas 1:3, "Jd 3-5"), except a lone "1", which is the
 * (only) chapter ("Obadias 1"). Canonical output always writes the chapter: "Judas 1:3".
 *
 * Free-text scanning (`findReferences`) rules, to keep ordinary Portuguese out:
 *   1. A book needs a chapter number: "Jó sofreu", "Atos dos Apóstolos" are not references.
 *   2. The book starts a word and the numbers end one: "Gn1", "3h", "23ª", "5%" do not match.
 *      The book and the number are separated by a space or by an abbreviation period ("Gn.1");
 *      full names never take a period ("João. 3 pessoas" is not a reference).
 *   3. Names that are also words obey their class (books.ts `AliasKind`):
 *      - strict ("os", "na", "num", "ex", "ed", "mal"): initial capital AND
 *        chapter:verse with `:` (or `.` with a 1-2 digit verse) or the "capítulo" form:
 *        "Os 6:6", "Na 1:7" match; "os 3 homens", "Os 3 homens", "Na 2ª feira", "Os 3.000",
 *        "Ex. 1:", "Mal 3 dias" do not.
 *      - capital ("atos", "números", "juízes", "marcos", "is", "at", "rm", "mt", "ml", "ap", …):
 *        initial capital, or chapter:verse with `:`/`.`: "Atos 2", "atos 2:38" match;
 *        "os números 3 e 4", "200 ml 3 vezes" do not. For both classes an all-caps
 *        abbreviation is not "capitalised" ("FM 98", "AM 980", "OS 3").
 *      - free: everything else ("Gn 1", "jo 3:16", "salmo 23").
 *      A numbered book is always free ("1 co 13").
 *   Jó vs Jo: the accent decides (Jó = Job, Jo = João), in every case form.
 * `parseReference` parses a whole string that the caller says is a reference: it ignores the
 * classes of rule 3 and accepts a glued number ("jo3:16").
 *
 * Known limit: a list number is taken as a verse whenever it can be one, so in "Jo 3:16, 2 vezes"
 * the "2" becomes João 3:2 (an ordinal of a following book is recognised: "Jo 3:16, 2 Co 5:17").
 *
 * Offsets are UTF-16 indices into the original string (text.slice(start, end) is the match).
 * Input is expected in NFC (precomposed accents), which is what LLMs and browsers produce.
 */
import {
  type AliasHit,
  type AliasKind,
  type BookInfo,
  BOOKS,
  BOOK_STEMS,
  aliasKind,
  bookByCode,
  bookSpellings,
  foldText,
  lookupNumbered,
  lookupUnnumbered,
  ordinalValue,
  resolveBookName,
} from "./books.js";

/** One contiguous span. A whole chapter (or chapter range) has no verses. */
export interface BibleReference {
  /** USFX book code ("JHN"). */
  book: string;
  chapterStart: number;
  verseStart?: number;
  chapterEnd: number;
  verseEnd?: number;
}

/** A reference found in free text: `text === source.slice(start, end)`; a list gives several spans. */
export interface ReferenceMatch {
  text: string;
  start: number;
  end: number;
  references: BibleReference[];
}

export type ParseErrorCode = "empty" | "unknown_book" | "missing_chapter" | "invalid_syntax";

export type ParseResult =
  | { ok: true; book: BookInfo; references: BibleReference[] }
  | { ok: false; code: ParseErrorCode; message: string };

/** Verse count (highest verse number) per chapter, index 0 = chapter 1, by book code. */
export type Versification = ReadonlyMap<string /* book code */, readonly number[]>;

export type ValidationResult =
  | { ok: true }
  | {
      ok: false;
      code: "unknown_book" | "unknown_chapter" | "unknown_verse" | "inverted_range";
      message: string;
    };

// ---------------------------------------------------------------------------------------------
// Precompiled patterns (built once from the book tables)
// ---------------------------------------------------------------------------------------------

/** Horizontal white space (a reference never spans a line break). */
const H = "[\\t \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]";
const H_CHARS = new Set(["\t", " ", "\u00a0", "\u1680", "\u202f", "\u205f", "\u3000"]);
for (let c = 0x2000; c <= 0x200a; c++) H_CHARS.add(String.fromCharCode(c));
const DASHES = new Set(["-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"]);

interface TrieNode {
  terminal: boolean;
  /** Some spelling ending here is an abbreviation (may be followed by a period). */
  abbreviation: boolean;
  children: Map<string, TrieNode>;
}

function newNode(): TrieNode {
  return { terminal: false, abbreviation: false, children: new Map() };
}

function trieInsert(root: TrieNode, word: string, abbreviation = false): void {
  let node = root;
  for (const ch of word) {
    let next = node.children.get(ch);
    if (!next) node.children.set(ch, (next = newNode()));
    node = next;
  }
  node.terminal = true;
  if (abbreviation) node.abbreviation = true;
}

/** Regex source matching exactly the words of the trie, preferring the longest. */
function trieToRegex(node: TrieNode): string {
  const alts = [...node.children.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ch, child]) => (ch === " " ? `${H}+` : ch) + trieToRegex(child));
  if (alts.length === 0) return "";
  const body = alts.length === 1 ? (alts[0] as string) : `(?:${alts.join("|")})`;
  return node.terminal ? `(?:${body})?` : body;
}

/** Trie of the folded stems: the source of the header regex, and the parser's hand-written look-ahead. */
const STEM_TRIE = newNode();
for (const stem of BOOK_STEMS) {
  if (!/^[a-z]+(?: [a-z]+)*$/.test(stem)) throw new Error(`references.ts: unexpected stem "${stem}"`);
  trieInsert(STEM_TRIE, stem);
}
const ALIAS_SOURCE = trieToRegex(STEM_TRIE);

/** Ordinal prefix (folded): group 1 a digit form, group 2 a roman numeral or a word. */
const PREFIX_SOURCE = `(?:([1-3](?:[ªºao]|\\.[ªº])?)${H}*|(iii|ii|i|primeir[ao]|segund[ao]|terceir[ao])${H}+)`;

/**
 * A book header on the folded text: [ordinal] alias [.] [space], followed by a chapter digit or
 * "cap"; a comma may part the name from "capítulo" ("Apocalipse, capítulo 22"). Groups: 1/2
 * ordinal, 3 alias, 4 period, 5 gap.
 */
const HEADER_SOURCE = `(?<![\\p{L}\\p{N}])(?:${PREFIX_SOURCE})?(${ALIAS_SOURCE})(?!\\p{L})(\\.?)(,${H}*(?=cap)|${H}*)(?=[0-9]|cap|[ivxlc])`;
const HEADER_GLOBAL = new RegExp(HEADER_SOURCE, "gdu");
const HEADER_STICKY = new RegExp(HEADER_SOURCE, "ydu");
/** A book name without the chapter look-ahead (to classify parse failures). */
const BOOK_ONLY_STICKY = new RegExp(`(?:${PREFIX_SOURCE})?(${ALIAS_SOURCE})(?!\\p{L})`, "ydu");

/** Trie of every full header spelling (ordinal + stem), folded, for streaming prefixes. */
const HEADER_TRIE = newNode();
for (const book of BOOKS) {
  for (const { text, abbreviation } of bookSpellings(book)) {
    trieInsert(HEADER_TRIE, foldText(text).replace(/\s+/g, " "), abbreviation);
  }
}

const LETTER = /\p{L}/u;

function isLetter(c: string): boolean {
  if (c === "") return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return LETTER.test(c);
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9" && c.length === 1;
}

function isUpper(c: string): boolean {
  return c !== c.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// The number grammar after a book name
// ---------------------------------------------------------------------------------------------

interface Num {
  value: number;
  end: number;
  digits: number;
}

const INVALID = "invalid" as const;
type NumResult = Num | undefined | typeof INVALID;

/** How chapter and verse were separated in an item. `none`: no verse; `kw`: "versículo". */
type Sep = ":" | "." | "," | "kw" | "none";

interface Item {
  ref: BibleReference;
  sep: Sep;
  end: number;
  /** Digits of the first verse (for the strict-class rule on "."). */
  verseDigits: number;
}

function makeRef(book: string, cs: number, vs: number | undefined, ce: number, ve: number | undefined): BibleReference {
  const ref: BibleReference = { book, chapterStart: cs, chapterEnd: ce };
  if (vs !== undefined) ref.verseStart = vs;
  if (ve !== undefined) ref.verseEnd = ve;
  return ref;
}

const CHAPTER_WORDS = ["capitulos", "capitulo", "cap"];
const VERSE_WORDS = ["versiculos", "versiculo", "vers", "vv", "v"];
const RANGE_WORDS = ["ate", "ao", "a"];

/** Roman numeral letters (folded) and their values; a Roman chapter is written in capitals ("Ap XXII, 21"). */
const ROMAN_VALUES: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
/** The highest chapter a Roman numeral is read as (Salmos has 150). */
const ROMAN_MAX = 150;

/** The canonical Roman numeral of 1-399 (lowercase), to accept only well-formed ones ("xxii", not "xxiiiii"). */
function toRoman(n: number): string {
  const table: Array<[number, string]> = [[100, "c"], [90, "xc"], [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
  let out = "";
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}

/**
 * Character-level reading of the folded text (with the original beside it, for capitals), for
 * the recursive-descent parsers below. Records whether it ever looked past the end of the text
 * (`hitEnd`): then more characters could change the result, which is what
 * `referencePrefixLength` needs.
 */
class Reader {
  hitEnd = false;
  /** Furthest index examined: the result depends on nothing after it. */
  maxRead = -1;

  constructor(
    protected readonly folded: string,
    /** The text as written (same length as `folded`). */
    protected readonly text: string,
  ) {}

  protected ch(i: number): string {
    if (i > this.maxRead) this.maxRead = i;
    if (i >= this.folded.length) {
      this.hitEnd = true;
      return "";
    }
    return this.folded[i] as string;
  }

  protected skipH(i: number): number {
    while (H_CHARS.has(this.ch(i))) i++;
    return i;
  }

  /** Position after literal `s` at i, or -1. */
  protected lit(i: number, s: string): number {
    for (let k = 0; k < s.length; k++) if (this.ch(i + k) !== s[k]) return -1;
    return i + s.length;
  }

  /** Position after one of `words` at i, ending a word; or -1. */
  protected word(i: number, words: readonly string[]): number {
    for (const w of words) {
      const r = this.lit(i, w);
      if (r >= 0 && !isLetter(this.ch(r))) return r;
    }
    return -1;
  }

  /** 1-3 digits without a leading zero; INVALID as soon as the digits cannot be a number. */
  protected num(i: number): NumResult {
    const first = this.ch(i);
    if (!isDigit(first)) return undefined;
    if (first === "0") return INVALID;
    let j = i + 1;
    while (isDigit(this.ch(j))) {
      if (++j - i > 3) return INVALID;
    }
    return { value: Number(this.folded.slice(i, j)), end: j, digits: j - i };
  }

  /** A number that ends a token: not followed by a letter, "%" or "‰". */
  protected plainEndOk(i: number): boolean {
    const c = this.ch(i);
    return !isLetter(c) && c !== "%" && c !== "‰";
  }

  /** End of a verse number, swallowing an a/b/c or "ss" suffix; -1 when a letter follows. */
  protected verseEnd(i: number): number {
    const c = this.ch(i);
    if (c === "a" || c === "b" || c === "c") return this.plainEndOk(i + 1) ? i + 1 : -1;
    if (c === "s" && this.ch(i + 1) === "s") return this.plainEndOk(i + 2) ? i + 2 : -1;
    return this.plainEndOk(i) ? i : -1;
  }

  /** A number at i that is not the ordinal of a following book ("…, 1 Jo 4:8"). */
  protected listNum(i: number): NumResult {
    const n = this.num(i);
    if (n && n !== INVALID && n.value <= 3 && this.bookFollows(n.end)) return undefined;
    return n;
  }

  /** After an ordinal digit ending at i: optional "ª"/"º"/"a"/"o", space, then a book name. */
  protected bookFollows(i: number): boolean {
    if (this.stemAt(this.skipH(i))) return true;
    const c = this.ch(i);
    if (c === "ª" || c === "º" || c === "a" || c === "o") return this.stemAt(this.skipH(i + 1));
    if (c === "." && (this.ch(i + 1) === "ª" || this.ch(i + 1) === "º")) return this.stemAt(this.skipH(i + 2));
    return false;
  }

  /** A book stem (any spelling without ordinal) ending a word at i. */
  protected stemAt(i: number): boolean {
    let node = STEM_TRIE;
    let p = i;
    for (;;) {
      let c = this.ch(p);
      let width = 1;
      if (H_CHARS.has(c)) {
        while (H_CHARS.has(this.ch(p + width))) width++;
        c = " ";
      }
      if (node.terminal && p > i && !isLetter(c)) return true;
      const next = c === "" ? undefined : node.children.get(c);
      if (!next) return false;
      node = next;
      p += width;
    }
  }

  /**
   * One of `words` (then a period if `takesPeriod` allows it) + space before a digit at i:
   * position of the digit, or -1.
   */
  protected keyword(i: number, words: readonly string[], takesPeriod: (w: string) => boolean, roman = false): number {
    for (const w of words) {
      let r = this.lit(i, w);
      if (r < 0 || isLetter(this.ch(r))) continue;
      if (takesPeriod(w) && this.ch(r) === ".") r++;
      r = this.skipH(r);
      if (isDigit(this.ch(r)) || (roman && this.roman(r) !== undefined)) return r;
    }
    return -1;
  }

  /** "capítulo(s)"/"cap." + space before a digit or a Roman numeral: position of the number, or -1. */
  protected chapterKeyword(i: number): number {
    return this.keyword(i, CHAPTER_WORDS, (w) => w === "cap", true);
  }

  /**
   * A Roman numeral at i written in capitals, well formed, 1-150, ending a word ("XXII"); the
   * chapter it stands for.
   */
  protected roman(i: number): Num | undefined {
    let j = i;
    while (ROMAN_VALUES[this.ch(j)] !== undefined && isUpper(this.text[j] as string)) {
      if (++j - i > 8) return undefined;
    }
    if (j === i || isLetter(this.ch(j)) || isDigit(this.ch(j))) return undefined;
    const letters = this.folded.slice(i, j);
    let value = 0;
    for (let k = 0; k < letters.length; k++) {
      const v = ROMAN_VALUES[letters[k] as string] as number;
      const next = ROMAN_VALUES[letters[k + 1] as string] ?? 0;
      value += v < next ? -v : v;
    }
    if (value < 1 || value > ROMAN_MAX || toRoman(value) !== letters) return undefined;
    return { value, end: j, digits: j - i };
  }

  /**
   * A book's name at i: an optional ordinal ("1", "1ª", "I", "Primeira") and a stem ending a
   * word, the longest that names a book; with where its stem starts.
   */
  protected bookAt(i: number): { hit: AliasHit; aliasStart: number; end: number; numbered: boolean } | undefined {
    let p = i;
    let ordinal: 1 | 2 | 3 | undefined;
    const c = this.ch(p);
    if (c === "1" || c === "2" || c === "3") {
      let q = p + 1;
      const o = this.ch(q);
      if (o === "ª" || o === "º" || o === "a" || o === "o") q++;
      else if (o === "." && (this.ch(q + 1) === "ª" || this.ch(q + 1) === "º")) q += 2;
      ordinal = Number(c) as 1 | 2 | 3;
      p = this.skipH(q);
    } else {
      const w = this.word(p, ["primeira", "primeiro", "segunda", "segundo", "terceira", "terceiro", "iii", "ii", "i"]);
      if (w >= 0 && H_CHARS.has(this.ch(w))) {
        const n = ordinalValue(this.folded.slice(p, w));
        const after = this.skipH(w);
        if (n !== undefined && this.stemEnds(after).length > 0) {
          ordinal = n;
          p = after;
        }
      }
    }
    for (const end of this.stemEnds(p).reverse()) {
      const alias = this.text.slice(p, end);
      const hit = ordinal !== undefined ? lookupNumbered(ordinal, alias) : lookupUnnumbered(alias);
      if (hit) return { hit, aliasStart: p, end, numbered: ordinal !== undefined };
    }
    return undefined;
  }

  /** Every end of a book stem that starts at i and ends a word, shortest first. */
  protected stemEnds(i: number): number[] {
    const ends: number[] = [];
    let node = STEM_TRIE;
    let p = i;
    for (;;) {
      let c = this.ch(p);
      let width = 1;
      if (H_CHARS.has(c)) {
        while (H_CHARS.has(this.ch(p + width))) width++;
        c = " ";
      }
      if (node.terminal && p > i && !isLetter(c)) ends.push(p);
      const next = c === "" ? undefined : node.children.get(c);
      if (!next) return ends;
      node = next;
      p += width;
    }
  }

  /** "[,] versículo(s)/vers./vv./v." + space before a digit: position of the digit, or -1. */
  protected verseKeyword(i: number): number {
    return this.keyword(this.skipH(this.ch(i) === "," ? i + 1 : i), VERSE_WORDS, () => true);
  }

  /** A verse number at i with its a/b/c/ss suffix, and the position after it. */
  protected verseAt(i: number): { verse: Num; end: number } | undefined {
    const v = this.num(i);
    if (!v || v === INVALID) return undefined;
    const end = this.verseEnd(v.end);
    return end < 0 ? undefined : { verse: v, end };
  }

}

/** Recursive-descent parser of the numbers after a book's name ("3:16-18; 4:1", "capítulo 3, versículo 16"). */
class TailParser extends Reader {
  constructor(
    folded: string,
    text: string,
    private readonly book: BookInfo,
  ) {
    super(folded, text);
  }

  /**
   * A verse after chapter number ending at i. `seps`: separators allowed here. Returns the sep,
   * the verse and the position after it; INVALID for a decimal-like number ("23.000").
   */
  private verseAfterChapter(
    i: number,
    seps: string,
    keywords: boolean,
  ): { sep: Sep; verse: Num; end: number } | undefined | typeof INVALID {
    const c = this.ch(i);
    if (c !== "" && seps.includes(c)) {
      const v = this.num(i + 1);
      if (v === INVALID) return INVALID;
      if (v) {
        const end = this.verseEnd(v.end);
        if (end < 0) return INVALID;
        return { sep: c as Sep, verse: v, end };
      }
    }
    if (keywords) {
      const q = this.verseKeyword(i);
      const v = q >= 0 ? this.verseAt(q) : undefined;
      if (v) return { sep: "kw", ...v };
    }
    return undefined;
  }

  /**
   * Range after a verse: "-18", "-2:3", " – 2:3", " a 18". `sep` is the chapter:verse separator
   * in force (for the cross-chapter form). Returns the end chapter/verse and position.
   */
  private verseRange(
    chapter: number,
    i: number,
    sep: Sep,
    keywords: boolean,
  ): { chapterEnd: number; verseEnd: number; end: number } | undefined {
    const sepChar = sep === ":" || sep === "." || sep === "," ? sep : sep === "none" ? ":" : undefined;
    const crossAt = (n: Num): { chapterEnd: number; verseEnd: number; end: number } | undefined => {
      if (sepChar === undefined || this.ch(n.end) !== sepChar) return undefined;
      const v = this.verseAt(n.end + 1);
      return v && { chapterEnd: n.value, verseEnd: v.verse.value, end: v.end };
    };
    // unspaced dash: verse range or cross-chapter
    if (DASHES.has(this.ch(i))) {
      const n = this.num(i + 1);
      if (n && n !== INVALID) {
        const cross = crossAt(n);
        if (cross) return cross;
        const end = this.verseEnd(n.end);
        if (end >= 0 && !(sepChar !== undefined && this.ch(end) === sepChar && isDigit(this.ch(end + 1)))) {
          return { chapterEnd: chapter, verseEnd: n.value, end };
        }
      }
    }
    const q = this.skipH(i);
    if (q === i) return undefined;
    // spaced dash: only before a full chapter:verse
    if (DASHES.has(this.ch(q))) {
      const n = this.num(this.skipH(q + 1));
      return n && n !== INVALID ? crossAt(n) : undefined;
    }
    // word range: "a 18", "até 18", "ao 18"
    const r = this.word(q, RANGE_WORDS);
    if (r >= 0 && H_CHARS.has(this.ch(r))) {
      const n = this.num(this.skipH(r));
      if (n && n !== INVALID) {
        const cross = keywords ? undefined : crossAt(n);
        if (cross) return cross;
        const end = this.verseEnd(n.end);
        if (end >= 0) return { chapterEnd: chapter, verseEnd: n.value, end };
      }
    }
    return undefined;
  }

  /** Range after a bare chapter: "-2", "-2:3" (from verse 1), " – 2:3", "capítulos 1 a 3". */
  private chapterRange(
    i: number,
    keywords: boolean,
  ): { chapterEnd: number; verseEnd?: number; sep?: Sep; end: number } | undefined {
    const cross = (n: Num): { chapterEnd: number; verseEnd: number; sep: Sep; end: number } | undefined => {
      const c = this.ch(n.end);
      if (c !== ":" && c !== ".") return undefined;
      const v = this.verseAt(n.end + 1);
      return v && { chapterEnd: n.value, verseEnd: v.verse.value, sep: c, end: v.end };
    };
    if (DASHES.has(this.ch(i))) {
      const n = this.num(i + 1);
      if (n && n !== INVALID) {
        const x = cross(n);
        if (x) return x;
        const after = this.ch(n.end);
        const decimal = (after === "," || after === "." || after === ":") && isDigit(this.ch(n.end + 1));
        if (this.plainEndOk(n.end) && !decimal) return { chapterEnd: n.value, end: n.end };
      }
    }
    const q = this.skipH(i);
    if (q === i) return undefined;
    if (DASHES.has(this.ch(q))) {
      const n = this.num(this.skipH(q + 1));
      return n && n !== INVALID ? cross(n) : undefined;
    }
    if (keywords) {
      const r = this.word(q, RANGE_WORDS);
      if (r >= 0 && H_CHARS.has(this.ch(r))) {
        const n = this.num(this.skipH(r));
        if (n && n !== INVALID && this.plainEndOk(n.end)) return { chapterEnd: n.value, end: n.end };
      }
    }
    return undefined;
  }

  /** A verse (list item) in `chapter` at i, with an optional range. */
  private verseItem(chapter: number, v: Num, afterVerse: number, sep: Sep, keywords: boolean): Item {
    const range = this.verseRange(chapter, afterVerse, sep, keywords);
    return {
      ref: makeRef(this.book.code, chapter, v.value, range?.chapterEnd ?? chapter, range?.verseEnd ?? v.value),
      sep,
      end: range?.end ?? afterVerse,
      verseDigits: v.digits,
    };
  }

  /**
   * A chapter-level item at i: chapter, optional verse part, optional range. `first` enables
   * the keyword forms and the single-chapter "lone 1" rule.
   */
  private chapterItem(i: number, seps: string, first: boolean): Item | undefined {
    let p = i;
    let keywords = false;
    if (first) {
      const k = this.chapterKeyword(p);
      if (k >= 0) {
        keywords = true;
        p = k;
      }
    }
    const c = first ? this.num(p) : this.listNum(p);
    if (first && c === undefined) return this.romanItem(p, keywords);
    if (!c || c === INVALID) return undefined;
    const code = this.book.code;
    const verse = this.verseAfterChapter(c.end, seps, first);
    if (verse === INVALID) return undefined;
    if (verse) return this.verseItem(c.value, verse.verse, verse.end, verse.sep, keywords || verse.sep === "kw");
    if (this.book.chapters === 1 && !keywords) {
      // Single-chapter book: a bare number is a verse, except a lone "1" (the chapter).
      const end = this.verseEnd(c.end);
      if (end < 0) return undefined;
      const item = this.verseItem(1, c, end, "none", false);
      if (c.value === 1 && end === c.end && item.end === end) {
        return { ref: makeRef(code, 1, undefined, 1, undefined), sep: "none", end, verseDigits: 0 };
      }
      return item;
    }
    if (!this.plainEndOk(c.end)) return undefined;
    // a range into a verse of another chapter starts at verse 1 ("Gn 1-2:3")
    const range = this.chapterRange(c.end, keywords);
    const vs = range?.verseEnd === undefined ? undefined : 1;
    return {
      ref: makeRef(code, c.value, vs, range?.chapterEnd ?? c.value, range?.verseEnd),
      sep: range?.sep ?? (keywords ? "kw" : "none"),
      end: range?.end ?? c.end,
      verseDigits: 0,
    };
  }

  /**
   * A chapter written as a Roman numeral in capitals ("Ap XXII, 21", "Ap XXII:21", "Ap XXII, v.
   * 21", "Apocalipse, capítulo XXII"): it needs the verse after it, or the word "capítulo"
   * before it, so that a name with a regnal number ("João XXIII", "Pio XII") stays prose.
   */
  private romanItem(p: number, keywords: boolean): Item | undefined {
    const c = this.roman(p);
    if (!c) return undefined;
    const sep = this.ch(c.end);
    if (sep === ":" || sep === "." || sep === ",") {
      const v = this.verseAt(this.skipH(c.end + 1));
      if (v) return this.verseItem(c.value, v.verse, v.end, sep, keywords);
    }
    const k = this.verseKeyword(c.end);
    const v = k >= 0 ? this.verseAt(k) : undefined;
    if (v) return this.verseItem(c.value, v.verse, v.end, "kw", true);
    if (!keywords || !this.plainEndOk(c.end)) return undefined;
    return { ref: makeRef(this.book.code, c.value, undefined, c.value, undefined), sep: "kw", end: c.end, verseDigits: 0 };
  }

  /** Parses the whole tail at `start`. */
  parse(start: number): Item[] | undefined {
    const first = this.chapterItem(start, ":.,", true);
    if (!first) return undefined;
    const items: Item[] = [first];
    let p = first.end;
    for (;;) {
      const last = items[items.length - 1] as Item;
      const style = last.sep;
      const hasVerse = last.ref.verseEnd !== undefined;
      const seps = style === "," ? ":.," : ":.";
      let next: Item | undefined;
      const c = this.ch(p);
      if (c === ";") {
        next = this.chapterItem(this.skipH(p + 1), seps, false);
      } else if (hasVerse && c === (style === "," ? "." : ",")) {
        next = this.listItem(this.skipH(p + 1), last, seps);
      } else {
        // " e 6:23" (after a ":" reference), " e 18" (after the "versículo" form)
        const q = this.skipH(p);
        if (q > p && (style === ":" || (style === "kw" && hasVerse))) {
          const r = this.word(q, ["e"]);
          if (r >= 0 && H_CHARS.has(this.ch(r))) {
            const s = this.skipH(r);
            if (style === "kw") {
              next = this.listItem(s, last, "");
            } else {
              const item = this.chapterItem(s, ":", false);
              if (item && item.sep === ":") next = item;
            }
          }
        }
      }
      if (!next) break;
      items.push(next);
      p = next.end;
    }
    return items;
  }

  /** After a list separator: "18", "18-20" (same chapter) or "4:1" (new chapter). */
  private listItem(i: number, last: Item, seps: string): Item | undefined {
    const n = this.listNum(i);
    if (!n || n === INVALID) return undefined;
    const c = this.ch(n.end);
    if (c !== "" && seps.includes(c) && c !== (last.sep === "," ? "." : ",") && isDigit(this.ch(n.end + 1))) {
      return this.chapterItem(i, seps, false);
    }
    const end = this.verseEnd(n.end);
    if (end < 0) return undefined;
    return this.verseItem(last.ref.chapterEnd, n, end, last.sep, last.sep === "kw");
  }
}

/**
 * Where a form that names the book after its numbers may start: a chapter or verse word (folded),
 * or one still being written at the end of the text (streaming holds it back).
 */
const INVERTED_GLOBAL =
  /(?<![\p{L}\p{N}])(?:(?:capitulos?|cap\.?|versiculos?|vers\.?|vv?\.?)(?!\p{L})|(?:c|ca|capi|capit|capitu|capitul|ve|ver|versi|versic|versicu|versicul)$)/gu;
/** Between the numbers and the book: "de", "do", "da"… */
const OF_WORDS = ["dos", "das", "do", "da", "de"];
/** What may stand before the book: "capítulo 3 do livro de Jó", "do Evangelho de João", "da carta aos Romanos". */
const WORK_WORDS = ["livro", "evangelho", "carta", "epistola"];
const WORK_OF_WORDS = ["segundo", "dos", "das", "aos", "do", "da", "de", "a", "o"];

/**
 * The forms that name the book after the numbers: "capítulo 22 de Apocalipse", "no capítulo 22
 * de Apocalipse, versículo 21", "o versículo 21 do capítulo 22 do Apocalipse", "versículos 1 a 3
 * do capítulo 5 de Mateus", "versículo 21 de Apocalipse 22", "versículo 3 de Judas" (a book of one
 * chapter). The match starts at the chapter or verse word (an article before it stays prose). A
 * name that is also a word of the `strict` class ("capítulo 2 de Os Lusíadas") needs the verse,
 * a capital, and no word right after it.
 */
class InvertedParser extends Reader {
  parse(start: number): { references: BibleReference[]; end: number } | undefined {
    const vk = this.keyword(start, VERSE_WORDS, () => true);
    if (vk >= 0) {
      const first = this.verseAt(vk);
      if (!first) return undefined;
      const range = this.simpleRange(first.end);
      const verse = { first: first.verse.value, last: range?.last ?? first.verse.value, end: range?.end ?? first.end };
      if (verse.last < verse.first) return undefined;
      const p = this.of(verse.end, OF_WORDS);
      if (p < 0) return undefined;
      const ck = this.chapterKeyword(p);
      if (ck >= 0) return this.chapterOfBook(ck, verse);
      // "versículo 21 de Apocalipse 22", "versículo 3 de Judas"
      const book = this.bookAt(p);
      if (!book || !this.accepted(book, true)) return undefined;
      const g = this.skipH(book.end);
      const c = g > book.end ? this.num(g) : undefined;
      if (c && c !== INVALID && this.plainEndOk(c.end) && !this.verseFollows(c.end)) {
        return { references: [makeRef(book.hit.book.code, c.value, verse.first, c.value, verse.last)], end: c.end };
      }
      if (book.hit.book.chapters !== 1 || (c && c !== INVALID)) return undefined;
      return { references: [makeRef(book.hit.book.code, 1, verse.first, 1, verse.last)], end: book.end };
    }
    const ck = this.chapterKeyword(start);
    return ck >= 0 ? this.chapterOfBook(ck, undefined) : undefined;
  }

  /** "22 de Apocalipse[, versículo 21]" at i (the chapter's number). */
  private chapterOfBook(i: number, verse: { first: number; last: number } | undefined): { references: BibleReference[]; end: number } | undefined {
    const n = this.num(i);
    const chapter = n === undefined ? this.roman(i) : n;
    if (!chapter || chapter === INVALID || !this.plainEndOk(chapter.end) || this.verseFollows(chapter.end)) return undefined;
    let p = this.of(chapter.end, OF_WORDS);
    if (p < 0) return undefined;
    const work = this.word(p, WORK_WORDS);
    if (work >= 0) {
      const q = this.of(work, WORK_OF_WORDS);
      if (q < 0) return undefined;
      p = q;
    }
    const book = this.bookAt(p);
    if (!book || !this.accepted(book, verse !== undefined)) return undefined;
    const code = book.hit.book.code;
    if (verse) return { references: [makeRef(code, chapter.value, verse.first, chapter.value, verse.last)], end: book.end };
    // "capítulo 22 de Apocalipse, versículo 21"
    const k = this.verseKeyword(book.end);
    const v = k >= 0 ? this.verseAt(k) : undefined;
    if (v) {
      const range = this.simpleRange(v.end);
      const last = range?.last ?? v.verse.value;
      if (last >= v.verse.value) return { references: [makeRef(code, chapter.value, v.verse.value, chapter.value, last)], end: range?.end ?? v.end };
    }
    return { references: [makeRef(code, chapter.value, undefined, chapter.value, undefined)], end: book.end };
  }

  /** Space, one of `words`, space: the position after them, or -1. */
  private of(i: number, words: readonly string[]): number {
    const q = this.skipH(i);
    if (q === i) return -1;
    const w = this.word(q, words);
    if (w < 0) return -1;
    const r = this.skipH(w);
    return r > w ? r : -1;
  }

  /** "-23", " a 23", " até 23", " ao 23" after a verse: the last verse and the position after it. */
  private simpleRange(i: number): { last: number; end: number } | undefined {
    let p = -1;
    if (DASHES.has(this.ch(i))) p = i + 1;
    else {
      const q = this.skipH(i);
      const w = q > i ? this.word(q, RANGE_WORDS) : -1;
      if (w >= 0 && H_CHARS.has(this.ch(w))) p = this.skipH(w);
    }
    if (p < 0) return undefined;
    const v = this.verseAt(p);
    return v ? { last: v.verse.value, end: v.end } : undefined;
  }

  /** A verse separator and a digit right after a number ("22:21"): the form is another one. */
  private verseFollows(i: number): boolean {
    const c = this.ch(i);
    return (c === ":" || c === "." || c === ",") && isDigit(this.ch(i + 1));
  }

  /** The classes of names that are also words (books.ts `AliasKind`), for a book named after its numbers. */
  private accepted(book: { hit: AliasHit; aliasStart: number; end: number; numbered: boolean }, withVerse: boolean): boolean {
    if (book.numbered) return true;
    const alias = this.text.slice(book.aliasStart, book.end);
    if (aliasKind(alias) !== "strict") return true;
    const capital = isUpper(alias[0] as string) && alias !== alias.toUpperCase();
    const wordAfter = H_CHARS.has(this.ch(book.end)) && isLetter(this.ch(this.skipH(book.end)));
    return capital && withVerse && !wordAfter;
  }
}

/** A form naming the book after its numbers, from the chapter or verse word at `start` (see `InvertedParser`). */
function invertedAttempt(text: string, folded: string, start: number): Attempt {
  const parser = new InvertedParser(folded, text);
  const found = parser.parse(start);
  const maxRead = Math.max(start, parser.maxRead);
  if (!found) return { start, open: parser.hitEnd, maxRead };
  return {
    start,
    open: parser.hitEnd,
    maxRead,
    match: { text: text.slice(start, found.end), start, end: found.end, references: found.references },
  };
}

// ---------------------------------------------------------------------------------------------
// Matching a header + tail
// ---------------------------------------------------------------------------------------------

type Mode = "free" | "whole";

interface Attempt {
  match?: ReferenceMatch;
  hit?: AliasHit;
  /** Start of the candidate (ordinal or alias). */
  start: number;
  /** More text could make (or extend) a reference starting here. */
  open: boolean;
  /** Furthest index examined: the outcome does not depend on anything after it. */
  maxRead: number;
}

function attempt(text: string, folded: string, m: RegExpExecArray, mode: Mode): Attempt {
  const indices = m.indices as RegExpIndicesArray;
  const [aliasStart, aliasEnd] = indices[3] as [number, number];
  const gapEnd = (indices[5] as [number, number])[1];
  // A rejection before the tail is parsed depends on the header only, and a cut anywhere before
  // gapEnd leaves a header that (needing a digit there) does not match either: no later text can
  // change it, so it holds nothing back (a bound at gapEnd made the stream take back text it had
  // released: "Jo 21–1.1Cântico dos Cânticos" + "1", found by the property tests).
  const maxRead = m.index - 1;
  const ordinal = m[1] ?? m[2];
  let start = m.index;
  let hit: AliasHit | undefined;
  let numbered = false;
  const alias = text.slice(aliasStart, aliasEnd);
  if (ordinal !== undefined) {
    const n = ordinalValue(ordinal);
    hit = n === undefined ? undefined : lookupNumbered(n, alias);
    if (hit) numbered = true;
    else {
      // Not a numbered book ("1 Gn"): the name alone, if it starts a word.
      const before = text[aliasStart - 1] ?? "";
      if (isLetter(before) || isDigit(before)) return { start, open: false, maxRead };
      start = aliasStart;
    }
  }
  hit ??= lookupUnnumbered(alias);
  if (!hit) return { start, open: false, maxRead };

  const period = m[4] === ".";
  const gap = m[5] ?? "";
  const kind: AliasKind = numbered || mode === "whole" ? "free" : aliasKind(alias);
  // free text needs a space or an abbreviation period between the name and the number
  if (mode === "free" && (period ? !hit.abbreviation : gap === "")) return { start, open: false, maxRead };
  // Initial capital; an all-caps abbreviation ("FM 98", "AM 980") is an acronym, not a book.
  const capital =
    isUpper(text[aliasStart] as string) && !(hit.abbreviation && alias.length > 1 && alias === alias.toUpperCase());
  if (kind === "strict" && !capital) return { start, open: false, maxRead }; // can never become one

  const parser = new TailParser(folded, text, hit.book);
  const items = parser.parse(gapEnd);
  const open = parser.hitEnd;
  const read = Math.max(gapEnd, parser.maxRead);
  if (!items) return { start, hit, open, maxRead: read };
  const first = items[0] as Item;
  let accepted = true;
  if (kind === "strict") {
    accepted = first.sep === ":" || first.sep === "kw" || (first.sep === "." && first.verseDigits <= 2);
  } else if (kind === "capital" && !capital) {
    accepted = first.sep === ":" || first.sep === "." || first.sep === "kw";
  }
  if (!accepted) return { start, hit, open, maxRead: read };
  const end = (items[items.length - 1] as Item).end;
  return {
    start,
    hit,
    open,
    maxRead: read,
    match: { text: text.slice(start, end), start, end, references: items.map((it) => it.ref) },
  };
}

/**
 * The end of a book's name written at `at` in `text` (an ordinal and a stem, or a name alone,
 * in any case and spelling `parseReference` takes, ending a word), or undefined when none starts
 * there. For readers of forms that name the book after the numbers ("capítulo 22 de
 * Apocalipse"): they rewrite such a form into one this grammar reads.
 */
export function bookNameEnd(text: string, at: number): number | undefined {
  const folded = foldText(text);
  BOOK_ONLY_STICKY.lastIndex = at;
  const m = BOOK_ONLY_STICKY.exec(folded);
  if (!m) return undefined;
  const [aliasStart, aliasEnd] = (m.indices as RegExpIndicesArray)[3] as [number, number];
  const alias = text.slice(aliasStart, aliasEnd);
  const ordinal = m[1] ?? m[2];
  if (ordinal !== undefined) {
    const n = ordinalValue(ordinal);
    if (n !== undefined && lookupNumbered(n, alias)) return aliasEnd;
    if (aliasStart !== at) return undefined; // "1 Gn": no numbered book, and the name does not start at `at`
  }
  return lookupUnnumbered(alias) ? aliasEnd : undefined;
}

/**
 * Every reference in free text, in order, with UTF-16 offsets into `text`. See the module
 * comment for the rules that keep ordinary words ("os 3 homens", "Na casa") out.
 */
export function findReferences(text: string): ReferenceMatch[] {
  return [...freeAttempts(text, foldText(text), 0)].flatMap((a) => (a.match ? [a.match] : []));
}

/** Every free-text attempt from `from` on, in order: after a match, the next one starts at its end. */
function* freeAttempts(text: string, folded: string, from: number): Generator<Attempt> {
  // The next chapter or verse word, looked for again only once passed (each search runs to it).
  let k: RegExpExecArray | null | undefined;
  for (let pos = from; ; ) {
    HEADER_GLOBAL.lastIndex = pos;
    const m = HEADER_GLOBAL.exec(folded);
    if (k === undefined || (k !== null && k.index < pos)) {
      INVERTED_GLOBAL.lastIndex = pos;
      k = INVERTED_GLOBAL.exec(folded);
    }
    if (k && (!m || k.index < m.index)) {
      // "capítulo 22 de Apocalipse": the book after its numbers
      const a = invertedAttempt(text, folded, k.index);
      yield a;
      pos = a.match ? a.match.end : k.index + 1;
      continue;
    }
    if (!m) return;
    const a = attempt(text, folded, m, "free");
    yield a;
    pos = a.match ? a.match.end : m.index + 1;
  }
}

/**
 * Parses a string that is one reference (possibly a list in one book: "Rm 3:23; 6:23"). Case,
 * accents and surrounding space are ignored, a final period is allowed, and the ambiguity
 * classes of free text do not apply ("os 6.6" is Oseias 6:6 here).
 */
export function parseReference(text: string): ParseResult {
  const parsed = parseReferenceAsWritten(text);
  if (parsed.ok) return parsed;
  // "jo 3 16", "Pv 3 5-6": chapter and verse apart by a space, as people type in a search box.
  const spaced = SPACED_VERSE.exec(text);
  if (spaced) {
    const again = parseReferenceAsWritten(`${spaced[1]}:${spaced[2]}`);
    if (again.ok) return again;
  }
  return parsed;
}

/** A verse number or a verse range ("16", "5-6", "5 – 6"), as typed after a chapter and a space. */
const VERSE_OR_RANGE = `[0-9]{1,3}(?:${H}*[-\u2010-\u2014\u2212]${H}*[0-9]{1,3})?`;

/**
 * A whole text that ends in two numbers apart by white space, the last one possibly a range:
 * group 1 everything up to the chapter, group 2 the verse (or range). Only `parseReference`
 * (a text that is one reference) reads it so; in free text "Salmo 23 1 vez" stays prose.
 */
const SPACED_VERSE = new RegExp(`^([^:]*?\\p{L}\\.?${H}+[0-9]{1,3})${H}+(${VERSE_OR_RANGE})${H}*[.?!]?\\s*$`, "u");

/** What may follow a chapter-only reference at the end of a query to make it "chapter verse". */
const TRAILING_VERSE = new RegExp(`^${H}+(${VERSE_OR_RANGE})${H}*[.?!]*\\s*$`, "u");

/**
 * The references of a search query: the whole query when it is one reference (in any case and
 * spelling `parseReference` takes, "ap 21 4" and "2 timoteo 3 16" included: the asker typed a
 * reference and nothing else), else the references found in it as free text, the last one
 * read as "chapter verse" when the query ends with its chapter and one more number
 * ("o que diz jo 3 16?").
 */
export function findQueryReferences(query: string): ReferenceMatch[] {
  const trimmed = query.replace(/[?!.]+\s*$/u, "");
  const start = trimmed.length - trimmed.trimStart().length;
  const end = trimmed.trimEnd().length;
  if (end > start) {
    const whole = parseReference(trimmed);
    if (whole.ok) return [{ text: trimmed.slice(start, end), start, end, references: whole.references }];
  }
  const found = findReferences(query);
  const last = found.at(-1);
  const verse = last && last.references.length === 1 && last.references[0]!.verseStart === undefined ? TRAILING_VERSE.exec(query.slice(last.end)) : null;
  if (last && verse) {
    const upgraded = parseReferenceAsWritten(`${last.text}:${verse[1]}`);
    if (upgraded.ok) {
      const spanEnd = last.end + (query.slice(last.end).indexOf(verse[1]!) + verse[1]!.length);
      found[found.length - 1] = { text: query.slice(last.start, spanEnd), start: last.start, end: spanEnd, references: upgraded.references };
    }
  }
  return found;
}

/** `parseReference` on the text exactly as written (chapter and verse apart by ":", ".", "," or a keyword). */
function parseReferenceAsWritten(text: string): ParseResult {
  const shown = text.trim();
  if (shown === "") return { ok: false, code: "empty", message: "Informe uma referência bíblica." };
  const s = text.length - text.trimStart().length;
  const e = s + shown.length;
  const malformed = (book: BookInfo): ParseResult => ({
    ok: false,
    code: "invalid_syntax",
    message: `Referência malformada: “${shown}”. Use, por exemplo, “${book.name} 1:1”.`,
  });
  const folded = foldText(text);
  HEADER_STICKY.lastIndex = s;
  const m = HEADER_STICKY.exec(folded);
  if (m) {
    const a = attempt(text, folded, m, "whole");
    if (a.match && a.match.start === s) {
      let end = a.match.end;
      if (end === e - 1 && text[end] === ".") end = e;
      if (end === e) return { ok: true, book: (a.hit as AliasHit).book, references: a.match.references };
      return {
        ok: false,
        code: "invalid_syntax",
        message: `Referência malformada: “${shown}” (texto inesperado após “${a.match.text}”).`,
      };
    }
    if (a.hit) return malformed(a.hit.book);
  }
  BOOK_ONLY_STICKY.lastIndex = s;
  const b = BOOK_ONLY_STICKY.exec(folded);
  if (b) {
    const bookEnd = b.index + b[0].length;
    const book = resolveBookName(text.slice(s, bookEnd));
    if (book) {
      const rest = text.slice(bookEnd, e).replace(/^\./, "").trim();
      if (rest === "") {
        return {
          ok: false,
          code: "missing_chapter",
          message: `Falta o capítulo: “${shown}” (${book.name}). Exemplo: “${book.name} 1”.`,
        };
      }
      return malformed(book);
    }
  }
  const name = /^[^\d:.,;]*/.exec(shown)?.[0].trim() ?? "";
  return {
    ok: false,
    code: "unknown_book",
    message: name ? `Livro bíblico não reconhecido: “${name}”.` : `Falta o nome do livro em “${shown}”.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Streaming support
// ---------------------------------------------------------------------------------------------

/** How far back `referencePrefixLength` looks: longer references are not held back. */
const TAIL_WINDOW = 256;

const KEYWORD_PREFIX = "(?:c|ca|cap|capi|capit|capitu|capitul|capitulo|capitulos)";
const GAP_OR_KEYWORD_PREFIX = new RegExp(`^\\.?(?:${H}+${KEYWORD_PREFIX}?|,${H}*${KEYWORD_PREFIX}?)?$`, "u");

/** True when folded[q..] is an unfinished book header: a prefix of a name, or a name plus gap. */
function partialHeader(folded: string, q: number): boolean {
  let node = HEADER_TRIE;
  let i = q;
  const n = folded.length;
  while (i < n) {
    let c = folded[i] as string;
    let width = 1;
    if (H_CHARS.has(c)) {
      while (i + width < n && H_CHARS.has(folded[i + width] as string)) width++;
      c = " ";
    }
    const next = node.children.get(c);
    if (next) {
      node = next;
      i += width;
      continue;
    }
    if (!node.terminal || (folded[i] === "." && !node.abbreviation)) return false;
    return GAP_OR_KEYWORD_PREFIX.test(folded.slice(i));
  }
  return i > q;
}

/**
 * For streaming: the length of the tail of `text` that may still be (or become) part of a
 * reference if more characters arrive, i.e. the tail from the earliest position where a reference
 * may be in progress; 0 when nothing can grow. A consumer holds back exactly this tail.
 *
 *   "veja Jo" → 2 ("Jo 3:16"), "veja João 3:" → 7, "em 1 Co" → 4 ("1 Co", not just "Co"),
 *   "veja Jo 3:16" → 7 (could become "Jo 3:16-18"), "amém." → 0, "os 3" → 0 (never a reference).
 *
 * The tail is at most one reference plus the word being typed; references longer than
 * 256 characters are not held back in full.
 */
export function referencePrefixLength(text: string): number {
  if (text.length === 0) return 0;
  // Work on the window only (plus one character of look-behind context), so the cost does not
  // grow with the text already streamed.
  const base = Math.max(0, text.length - TAIL_WINDOW - 1);
  const sub = base === 0 ? text : text.slice(base);
  const n = sub.length;
  const folded = foldText(sub);
  const from = base === 0 ? 0 : 1;
  let open = n;
  const attempts: Attempt[] = [];
  for (const a of freeAttempts(sub, folded, from)) {
    if (a.open) {
      open = a.start;
      break;
    }
    attempts.push(a);
  }
  for (let q = from; q < open; q++) {
    const c = folded[q] as string;
    if (!isLetter(c) && !isDigit(c)) continue;
    const before = q > 0 ? (folded[q - 1] as string) : "";
    if (isLetter(before) || isDigit(before)) continue;
    if (partialHeader(folded, q)) {
      open = q;
      break;
    }
  }
  if (open === n) return 0;
  // An earlier attempt (a match, or a rejection) whose outcome depended on characters from
  // `open` on could come out differently on the released text alone: hold it back too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const a of attempts) {
      if (a.start < open && a.maxRead >= open) {
        open = a.start;
        changed = true;
      }
    }
  }
  return n - open;
}

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

function bookName(code: string): string {
  return bookByCode(code)?.name ?? code;
}

/** Numbers only: "3:16", "13:4-7", "1-2", "1:31-2:3". */
function formatNumbers(ref: BibleReference): string {
  const { chapterStart: cs, chapterEnd: ce, verseEnd: ve } = ref;
  if (ref.verseStart === undefined && ve === undefined) return cs === ce ? `${cs}` : `${cs}-${ce}`;
  if (ve === undefined) {
    throw new TypeError(`Referência inconsistente: versículo inicial sem versículo final (${JSON.stringify(ref)}).`);
  }
  const vs = ref.verseStart ?? 1;
  if (cs === ce) return vs === ve ? `${cs}:${vs}` : `${cs}:${vs}-${ve}`;
  return `${cs}:${vs}-${ce}:${ve}`;
}

/**
 * Canonical form: "João 3:16", "1 Coríntios 13:4-7", "Salmos 23", "Gênesis 1-2",
 * "Gênesis 1:31-2:3", "Judas 1:3". A span with `verseEnd` but no `verseStart` starts at verse 1.
 */
export function formatReference(ref: BibleReference): string {
  return `${bookName(ref.book)} ${formatNumbers(ref)}`;
}

/**
 * Several spans, compactly: the book is not repeated, verses of the same chapter are joined with
 * ", ", other items with "; ": "Romanos 3:23; 6:23", "João 3:16, 18; 1 João 4:8". Parses back.
 */
export function formatReferences(refs: readonly BibleReference[]): string {
  let out = "";
  let prev: BibleReference | undefined;
  for (const ref of refs) {
    if (!prev || prev.book !== ref.book) {
      out += (prev ? "; " : "") + formatReference(ref);
    } else if (
      prev.verseEnd !== undefined &&
      ref.verseStart !== undefined &&
      ref.chapterStart === ref.chapterEnd &&
      ref.chapterStart === prev.chapterEnd
    ) {
      const nums = formatNumbers(ref);
      out += ", " + nums.slice(nums.indexOf(":") + 1);
    } else {
      out += "; " + formatNumbers(ref);
    }
    prev = ref;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Existence
// ---------------------------------------------------------------------------------------------

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Checks that a span exists in a versification: book, chapters and verses, and that it does not
 * run backwards. Messages are in Portuguese ("João não tem capítulo 30 (o livro tem 21
 * capítulos)"). A missing `verseStart` means verse 1, a missing `verseEnd` the last verse.
 */
export function validateReference(ref: BibleReference, v: Versification): ValidationResult {
  const name = bookName(ref.book);
  const chapters = v.get(ref.book);
  if (!chapters || chapters.length === 0) {
    return { ok: false, code: "unknown_book", message: `Livro desconhecido nesta versificação: ${name}.` };
  }
  const chapterOk = (c: number) => Number.isInteger(c) && c >= 1 && c <= chapters.length && (chapters[c - 1] ?? 0) > 0;
  const badChapter = (c: number): ValidationResult => ({
    ok: false,
    code: "unknown_chapter",
    message: `${name} não tem capítulo ${c} (o livro tem ${plural(chapters.length, "capítulo", "capítulos")}).`,
  });
  const badVerse = (c: number, verse: number): ValidationResult => ({
    ok: false,
    code: "unknown_verse",
    message: `${name} ${c} não tem versículo ${verse} (o capítulo tem ${plural(chapters[c - 1] ?? 0, "versículo", "versículos")}).`,
  });
  const verseOk = (c: number, verse: number) => Number.isInteger(verse) && verse >= 1 && verse <= (chapters[c - 1] ?? 0);
  const { chapterStart: cs, chapterEnd: ce, verseStart: vs, verseEnd: ve } = ref;
  if (!chapterOk(cs)) return badChapter(cs);
  if (vs !== undefined && !verseOk(cs, vs)) return badVerse(cs, vs);
  if (!chapterOk(ce)) return badChapter(ce);
  if (ve !== undefined && !verseOk(ce, ve)) return badVerse(ce, ve);
  const startVerse = vs ?? 1;
  const endVerse = ve ?? (chapters[ce - 1] as number);
  if (ce < cs || (ce === cs && endVerse < startVerse)) {
    let shown: string;
    try {
      shown = formatReference(ref);
    } catch {
      shown = `${name} ${cs}:${startVerse}-${ce}:${endVerse}`;
    }
    return {
      ok: false,
      code: "inverted_range",
      message: `Intervalo invertido em ${shown}: o fim vem antes do início.`,
    };
  }
  return { ok: true };
}

/** One verse's coordinate (USFX book code, chapter, verse). */
export interface VerseCoordinate {
  book: string;
  chapter: number;
  verse: number;
}

/**
 * How many verses a span covers, counted from the versification without listing them (at most
 * one step per chapter of the span). Throws a RangeError (the Portuguese message of
 * `validateReference`) when the span does not exist.
 */
export function countReferenceVerses(ref: BibleReference, v: Versification): number {
  const check = validateReference(ref, v);
  if (!check.ok) throw new RangeError(check.message);
  const chapters = v.get(ref.book) as readonly number[];
  let count = 0;
  for (let c = ref.chapterStart; c <= ref.chapterEnd; c++) {
    const first = c === ref.chapterStart ? (ref.verseStart ?? 1) : 1;
    const last = c === ref.chapterEnd ? (ref.verseEnd ?? (chapters[c - 1] as number)) : (chapters[c - 1] as number);
    count += Math.max(0, last - first + 1);
  }
  return count;
}

/**
 * Every verse of a span, in order, or only the first `limit` of them (the span is walked no
 * further than that, so a cap holds before anything is listed). Throws a RangeError (with the
 * Portuguese message of `validateReference`) when the span does not exist: never clamps or
 * drops silently.
 */
export function expandReference(ref: BibleReference, v: Versification, limit = Infinity): VerseCoordinate[] {
  const check = validateReference(ref, v);
  if (!check.ok) throw new RangeError(check.message);
  const chapters = v.get(ref.book) as readonly number[];
  const out: VerseCoordinate[] = [];
  for (let c = ref.chapterStart; c <= ref.chapterEnd && out.length < limit; c++) {
    const first = c === ref.chapterStart ? (ref.verseStart ?? 1) : 1;
    const last = c === ref.chapterEnd ? (ref.verseEnd ?? (chapters[c - 1] as number)) : (chapters[c - 1] as number);
    for (let verse = first; verse <= last && out.length < limit; verse++) out.push({ book: ref.book, chapter: c, verse });
  }
  return out;
}

/** The verses of several spans within a cap: see `expandReferences`. */
export interface BoundedVerses {
  /** The first distinct verses, in the order of the spans, at most the cap. */
  verses: VerseCoordinate[];
  /** How many verses the spans cover in all (a verse named twice counts twice). */
  total: number;
}

/**
 * The verses of several existing spans, in order, without repeats, at most `limit`: each span is
 * counted first (`countReferenceVerses`) and listed only while the cap is not reached, so the
 * work is bounded by the number of spans and the cap, never by what they name ("Sl 1-150;
 * 1-150;…"). Throws a RangeError for a span that does not exist (validate first).
 */
export function expandReferences(refs: readonly BibleReference[], v: Versification, limit: number): BoundedVerses {
  const verses: VerseCoordinate[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const ref of refs) {
    total += countReferenceVerses(ref, v);
    if (verses.length >= limit) continue;
    // Walking `limit` verses of a span always finds the new ones the cap still needs: at most
    // `verses.length` of them were seen before, and `limit - verses.length` is all that fits.
    for (const verse of expandReference(ref, v, limit)) {
      const key = `${verse.book} ${verse.chapter}:${verse.verse}`;
      if (seen.has(key)) continue;
      seen.add(key);
      verses.push(verse);
      if (verses.length >= limit) break;
    }
  }
  return { verses, total };
}

/**
 * Builds a versification from verses (e.g. the output of the USFX loader): for each book and
 * chapter, the highest verse number seen (a bridge counts with its `verseEnd`).
 */
export function buildVersification(
  verses: Iterable<{ book: string; chapter: number; verse: number; verseEnd?: number }>,
): Versification {
  const map = new Map<string, number[]>();
  for (const { book, chapter, verse, verseEnd } of verses) {
    let chapters = map.get(book);
    if (!chapters) map.set(book, (chapters = []));
    while (chapters.length < chapter) chapters.push(0);
    const last = Math.max(verse, verseEnd ?? verse);
    if (last > (chapters[chapter - 1] as number)) chapters[chapter - 1] = last;
  }
  return map;
}
