/**
 * The normalising shadow of a model's answer: the text the citation check's reference scanner
 * (./reference-scan.ts) reads instead of the answer itself, with a map back to the answer's
 * offsets (./mapped-text.ts). Every rewrite here makes a reference the model wrote in some odd
 * way look like one the grammar of ../bible/references.ts recognises:
 *
 * - per character: Unicode NFKC (full-width letters, digits and colons), other decimal digits
 *   to ASCII, colon look-alikes to ":", Cyrillic/Greek look-alike letters to Latin, combining
 *   accents composed (leftover marks dropped), invisible characters (zero-width space, soft
 *   hyphen, word joiner, bidi controls, variation selectors) and right-to-left letters (which
 *   reorder the digits beside them on screen) dropped, superscript digits
 *   (footnote marks) dropped, line breaks to spaces, Markdown emphasis and link brackets
 *   (`*`, `_`, `~`, `` ` ``) dropped, link brackets to spaces;
 * - URLs: a Bible URL becomes the canonical text of its reference (./bible-urls.ts), any
 *   other URL a neutral word, so nothing inside it reads as a reference;
 * - then: spaces around a colon between digits dropped ("3 : 16"), leading zeros dropped
 *   ("03:016"), English book names to Portuguese ("John 3:16" → "João 3:16"), number words
 *   after "capítulo"/"versículo"/"Salmo" to digits ("capítulo três" → "capítulo 3"), a space
 *   between a letter and a digit ("Rm5:8" → "Rm 5:8"), and a book outside the canon to a
 *   placeholder book whose original range is reported in `outside` (always removed).
 *
 * `partial` (for streaming): the text may go on, so a word being written at the end that may
 * become an English name, a number word or a book outside the canon is already rewritten to
 * one (the caller then holds it back as a reference in progress).
 * Every rewrite looks only at a few words around it, so the shadow of a window of the answer
 * equals the window of the answer's shadow away from the window's edges.
 */
import { foldText } from "../bible/books.js";
import { readBibleUrl, URL_PATTERN } from "./bible-urls.js";
import { ENGLISH_BOOK_NAMES, OUTSIDE_CANON_NAMES, OUTSIDE_CANON_NUMBERED_ONLY } from "./extra-book-names.js";
import { MappedText } from "./mapped-text.js";
import { prefixSet } from "./text-chars.js";

export interface Shadow {
  mapped: MappedText;
  /** Original ranges [start, end) standing for a book outside the canon (or an unreadable Bible URL). */
  outside: Array<readonly [number, number]>;
}

/** The canonical book a book outside the canon is written as in the shadow (then recognised by `outside`). */
export const OUTSIDE_PLACEHOLDER = "Gênesis";

// ---------------------------------------------------------------------------------------------
// Per character
// ---------------------------------------------------------------------------------------------

const FORMAT = /^\p{Cf}$/u;
/** Invisible code points besides the format characters: fillers, grapheme joiner, variation selectors. */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x034f, 0x034f], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f], [0x3164, 0x3164],
  [0xfe00, 0xfe0f], [0xffa0, 0xffa0], [0xe0100, 0xe01ef],
];
function isInvisible(c: string): boolean {
  const cp = c.codePointAt(0) as number;
  return FORMAT.test(c) || INVISIBLE_RANGES.some(([a, b]) => cp >= a && cp <= b);
}
const MARK = /^\p{M}$/u;
/**
 * Letters of the right-to-left scripts: next to digits they reorder what is shown ("Ap א22:21"
 * displays as "Ap 22:21א"), so the shadow reads past them.
 */
const RTL_LETTER = /^(?=\p{L})[\p{Script_Extensions=Hebrew}\p{Script_Extensions=Arabic}\p{Script_Extensions=Syriac}\p{Script_Extensions=Thaana}\p{Script_Extensions=Nko}\p{Script_Extensions=Samaritan}\p{Script_Extensions=Mandaic}\p{Script_Extensions=Adlam}\p{Script_Extensions=Hanifi_Rohingya}]$/u;
const MARKS = /\p{M}/gu;
const DECIMAL = /^\p{Nd}$/u;
const MARKDOWN = new Set(["*", "_", "~", "`"]);
/** Inline HTML emphasis tags, a few entities, and a backslash before a Markdown character. */
const HTML = /<\/?(?:b|i|u|s|em|strong|mark|del|ins|small|span|code)(?:\s[^<>]{0,80})?>|&(?:nbsp|#160|#xa0|colon|#58|#x3a);|\\(?=[*_~`[\]])/iy;
const PARTIAL_MARKUP = /(?:<\/?[a-z]*(?:\s[^<>]{0,80})?|&#?[a-z0-9]{0,5}|\\)$/gi;
const PARTIAL_MARKUP_TEST = new RegExp(PARTIAL_MARKUP.source, "i");

/** The text ends in markup still being written (an HTML tag or entity, a backslash). */
export function endsInMarkup(text: string): boolean {
  return PARTIAL_MARKUP_TEST.test(text);
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ["&nbsp;", " "], ["&#160;", " "], ["&#xa0;", " "], ["&colon;", ":"], ["&#58;", ":"], ["&#x3a;", ":"],
]);
/** Link brackets read as spaces: a link's text and target are words of their own. */
const LINK_BRACKETS = new Set(["[", "]"]);
const NEWLINES = new Set(["\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c"]);
const SUPERSCRIPT_DIGITS = /^[\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]$/u;
/** Kept as written: NFKC would turn them into "a"/"o" and the grammar reads them as ordinals. */
const KEEP = new Set(["ª", "º", "°"]);
const COLONS = new Set(["\u2236", "\ua789", "\u02f8", "\u05c3", "\u0589", "\u02d0", "\u1365", "\u16ec", "\ufe13", "\ufe55", "\uff1a"]);

/** Cyrillic and Greek letters that look like Latin ones. */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  [
    "АA", "ВB", "ЕE", "КK", "МM", "НH", "ОO", "РP", "СC", "ТT", "ХX", "ІI", "ЈJ", "ЅS", "аa", "еe", "оo", "рp",
    "сc", "уy", "хx", "іi", "јj", "ѕs", "ԁd", "һh", "ӏl", "ΑA", "ΒB", "ΕE", "ΖZ", "ΗH", "ΙI", "ΚK", "ΜM", "ΝN",
    "ΟO", "ΡP", "ΤT", "ΥY", "ΧX", "οo", "αa", "ιi", "νv", "κk", "ρp", "τt", "υu",
  ].map((p): [string, string] => [p[0] as string, p[1] as string]),
);

function asciiDigit(c: string): string {
  const cp = c.codePointAt(0) as number;
  let start = cp;
  while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1)) && cp - start < 60) start--;
  return String((cp - start) % 10);
}

/** The shadow of one character with its combining marks. */
function normaliseCluster(cluster: string): string {
  let s = "";
  for (const c of cluster) s += LOOK_ALIKES.get(c) ?? c;
  s = s.normalize("NFKC");
  let out = "";
  for (const c of s) {
    if (MARK.test(c) || isInvisible(c) || RTL_LETTER.test(c)) continue;
    if (COLONS.has(c)) out += ":";
    else if (c >= "0" && c <= "9") out += c;
    else if (DECIMAL.test(c)) out += asciiDigit(c);
    else if (NEWLINES.has(c)) out += " ";
    else out += c;
  }
  return out.replace(MARKS, "");
}

function perCharacter(text: string, outside: Array<readonly [number, number]>): MappedText {
  const b = MappedText.builder(text.length);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    if (c === "h" || c === "w") {
      URL_PATTERN.lastIndex = i;
      const url = URL_PATTERN.exec(text);
      if (url && (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1] as string))) {
        const end = i + url[0].length;
        const reading = readBibleUrl(url[0]);
        if (reading.kind === "reference") b.push(` ${reading.text} `, i, end);
        else if (reading.kind === "unreadable") {
          b.push(` ${OUTSIDE_PLACEHOLDER} 1:1 `, i, end);
          outside.push([i, end]);
        } else b.push(" url ", i, end);
        i = end;
        continue;
      }
    }
    if (c === "<" || c === "&" || c === "\\") {
      HTML.lastIndex = i;
      const tag = HTML.exec(text);
      if (tag) {
        const entity = tag[0].startsWith("&") ? ENTITIES.get(tag[0].toLowerCase()) : undefined;
        if (entity !== undefined) b.push(entity, i, i + tag[0].length);
        i += tag[0].length;
        continue;
      }
    }
    const code = c.charCodeAt(0);
    if (code < 0x80 && !(i + 1 < n && text.charCodeAt(i + 1) >= 0x80 && MARK.test(text[i + 1] as string))) {
      if (MARKDOWN.has(c)) {
        i++;
        continue;
      }
      if (c === "\n" || c === "\r" || c === "\u000b" || c === "\u000c" || LINK_BRACKETS.has(c)) b.pushUnit(" ", i, i + 1);
      else b.pushUnit(c, i, i + 1);
      i++;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    let j = i + (cp > 0xffff ? 2 : 1);
    while (j < n) {
      const next = text.codePointAt(j) as number;
      const ch = String.fromCodePoint(next);
      if (!MARK.test(ch) && !isInvisible(ch)) break;
      j += next > 0xffff ? 2 : 1;
    }
    const cluster = text.slice(i, j);
    const head = String.fromCodePoint(cp);
    if (KEEP.has(head) && j === i + 1) b.pushUnit(head, i, j);
    else if (!SUPERSCRIPT_DIGITS.test(head) || !/[0-9]/.test(text[i - 1] ?? "")) b.push(normaliseCluster(cluster), i, j);
    i = j;
  }
  return b.build();
}

// ---------------------------------------------------------------------------------------------
// Word-level rewrites
// ---------------------------------------------------------------------------------------------

const COLON_SPACES = /(?<=\d)[\t ]*:[\t ]*(?=\d)/g;
const LEADING_ZEROS = /(?<![\d.,])0+(?=\d)/g;
const TRAILING_ZEROS = /(?<![\d.,])0+$/g;
const LETTER_DIGIT = /(?<=\p{L})(?=\d)/gu;

function alternation(words: Iterable<string>): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /g, "[\\t ]+").replace(/\./g, "\\."))
    .join("|");
}

/** Number words (folded) → value. Ordinals too ("capítulo terceiro"). */
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ["um", 1], ["uma", 1], ["dois", 2], ["duas", 2], ["tres", 3], ["quatro", 4], ["cinco", 5], ["seis", 6],
  ["sete", 7], ["oito", 8], ["nove", 9], ["dez", 10], ["onze", 11], ["doze", 12], ["treze", 13],
  ["catorze", 14], ["quatorze", 14], ["quinze", 15], ["dezesseis", 16], ["dezasseis", 16], ["dezessete", 17],
  ["dezassete", 17], ["dezoito", 18], ["dezenove", 19], ["dezanove", 19], ["vinte", 20], ["trinta", 30],
  ["quarenta", 40], ["cinquenta", 50], ["sessenta", 60], ["setenta", 70], ["oitenta", 80], ["noventa", 90],
  ["cem", 100], ["cento", 100], ["primeiro", 1], ["segundo", 2], ["terceiro", 3], ["quarto", 4],
  ["quinto", 5], ["sexto", 6], ["setimo", 7], ["oitavo", 8], ["nono", 9], ["decimo", 10], ["vigesimo", 20],
  ["trigesimo", 30],
]);
const NUMBER_WORD = `(?:${alternation(NUMBER_WORDS.keys())})`;
/** Cheap test before the number-word passes. */
const NUMBER_KEYWORD_PRESENT = /cap|vers|v\.|vv|salm|psalm/i;
const NUMBER_KEYWORDS = "(?:capitulos?|cap\\.|versiculos?|vers\\.|vv?\\.|salmos?|psalms?)";
/** Number words after a keyword (matched on folded text; lengths equal the original's). */
const NUMBER_WORDS_AFTER_KEYWORD = new RegExp(
  `(?<=(?<![\\p{L}])${NUMBER_KEYWORDS}[\\t ]+)${NUMBER_WORD}(?:[\\t ]+(?:e[\\t ]+)?${NUMBER_WORD})*(?!\\p{L})`,
  "giu",
);
/** A number word being written at the end (streaming). */
const PARTIAL_NUMBER_WORD = new RegExp(
  `(?<=(?<![\\p{L}])${NUMBER_KEYWORDS}[\\t ]+)(?:${NUMBER_WORD}[\\t ]+(?:e[\\t ]+)?)*\\p{L}*$`,
  "iu",
);

/**
 * The longest run of number words at the start of `words` that composes one number ("vinte e
 * tres" → 23, "decimo nono" → 19, "um e dois" → 1): its value and how many words it took.
 */
export function numberWordsValue(words: readonly string[]): { value: number; used: number } | undefined {
  let total = 0;
  let limit = Infinity;
  let used = 0;
  for (const w of words) {
    const v = NUMBER_WORDS.get(w);
    if (v === undefined || v >= limit) break;
    total += v;
    used++;
    limit = v === 100 ? 100 : (v >= 20 && v % 10 === 0) || w === "decimo" ? 10 : 0;
  }
  return used > 0 ? { value: total, used } : undefined;
}

const NUMBER_WORD_PREFIXES = prefixSet(NUMBER_WORDS.keys());

/** The start of a word, or of a name glued to its ordinal ("1John"). */
const WORD_START = "(?:(?<![\\p{L}\\p{N}])|(?<=(?<![\\p{L}\\p{N}])[1-3]))";
/** "IJoão", "IICo": a roman ordinal glued to a capitalised name. */
const GLUED_ROMAN = /(?<![\p{L}\p{N}])I{1,3}(?=\p{Lu}\p{Ll})/gu;
const GLUED_ROMAN_AT_END = /(?<![\p{L}\p{N}])I{1,3}(?=\p{Lu}$)/gu;
/** A Roman chapter and its verse after a name ("Juan III.17"), folded. */
const ROMAN_CHAPTER = "(?<=[.\\t ])[ivxlc]{1,8}[\\t ]*[:.,][\\t ]*(?:v\\.?[\\t ]*)?\\d";
/** The same still being written at the end (streaming). */
const ROMAN_CHAPTER_AT_END = "(?<=[.\\t ])[ivxlc]{1,8}[\\t ]*(?:[:.,][\\t ]*(?:v\\.?[\\t ]*)?)?$";
const ENGLISH = new RegExp(
  `${WORD_START}(?:${alternation(ENGLISH_BOOK_NAMES.keys())})(?!\\p{L})(?=\\.?[\\t ]*(?:\\d|cap|c\\p{L}*\\.?[\\t ]*$|${ROMAN_CHAPTER}))`,
  "giu",
);
/** "First John 4:8" → "1 John 4:8". */
const ENGLISH_ORDINAL = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:first|second|third|1st|2nd|3rd)(?=[\\t ]+(?:${alternation(ENGLISH_BOOK_NAMES.keys())})(?!\\p{L}))`,
  "giu",
);
const ORDINAL_WORDS: Readonly<Record<string, string>> = { fi: "1", "1s": "1", se: "2", "2n": "2", th: "3", "3r": "3" };
const ENGLISH_AT_END = new RegExp(`${WORD_START}(?:${alternation(ENGLISH_BOOK_NAMES.keys())})(?=\\.?[\\t ]*(?:${ROMAN_CHAPTER_AT_END}|$))`, "iu");
/** A word being written at the end: the start of a name (letters, maybe spaces inside). */
const WORDS_AT_END = new RegExp(`${WORD_START}[\\p{L}][\\p{L}\\t ]*$`, "u");

const ORDINAL = "(?:[1-4](?:[ªºao°])?[\\t ]*|(?:i{1,3}|iv)[\\t ]+)";
const ORDINAL_AT_END = new RegExp(`(?<![\\p{L}\\p{N}])${ORDINAL}$`, "u");
const OUTSIDE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${ORDINAL}(?:${alternation([...OUTSIDE_CANON_NAMES, ...OUTSIDE_CANON_NUMBERED_ONLY])})|(?:${alternation(OUTSIDE_CANON_NAMES)}))(?!\\p{L})(?=\\.?[\\t ]*(?:(?:,?[\\t ]*cap\\S*[\\t ]*)?\\d|,?[\\t ]*c\\p{L}*\\.?[\\t ]*$|${ROMAN_CHAPTER}))`,
  "giu",
);
/** A book outside the canon named after its numbers: "capítulo 3 de Tobias", "versículo 9 do capítulo 1 de Enoque". */
const OUTSIDE_INVERTED = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:versiculos?|vers\\.|vv?\\.)[\\t ]*(\\d{1,3})(?:(?:-|[\\t ]+(?:a|ate|ao)[\\t ]+)\\d{1,3})?[\\t ]+d[eo][\\t ]+)?` +
    `(?:capitulos?|cap\\.?)[\\t ]*\\d{1,3}[\\t ]+d[eoa]s?[\\t ]+(?:(?:livro|evangelho|carta|epistola)[\\t ]+(?:d[eoa]s?|aos?)[\\t ]+)?` +
    `(?:${ORDINAL}(?:${alternation([...OUTSIDE_CANON_NAMES, ...OUTSIDE_CANON_NUMBERED_ONLY])})|(?:${alternation(OUTSIDE_CANON_NAMES)}))(?!\\p{L})`,
  "giu",
);
const OUTSIDE_AT_END = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${ORDINAL})?(?:${alternation(OUTSIDE_CANON_NAMES)})(?=\\.?[\\t ]*(?:${ROMAN_CHAPTER_AT_END}|,[\\t ]*$|$))`,
  "iu",
);
const NAME_PREFIXES = prefixSet([
  ...ENGLISH_BOOK_NAMES.keys(),
  ...["first", "second", "third"].flatMap((o) => [...ENGLISH_BOOK_NAMES.keys()].map((name) => `${o} ${name}`)),
  ...OUTSIDE_CANON_NAMES,
]);

/**
 * A word (or a few) being written at the end that may become an English name or a book outside
 * the canon, rewritten to the placeholder book, so that it is held back as a header in progress.
 */
function partialName(t: MappedText): MappedText {
  const folded = t.folded(foldText);
  const m = WORDS_AT_END.exec(folded);
  if (!m) return t;
  for (let s = m.index; s < folded.length; s++) {
    if (s > m.index && !/[\t ]/.test(folded[s - 1] as string)) continue;
    if (NAME_PREFIXES.has(folded.slice(s).replace(/[\t ]+/g, " "))) {
      // an ordinal before it belongs to it ("1 Joh" may become "1 John")
      const ordinal = ORDINAL_AT_END.exec(folded.slice(Math.max(0, s - 8), s));
      const from = ordinal ? s - ordinal[0].length : s;
      return t.replaceSpans([[from, folded.length, capitalised(t.text.slice(s), OUTSIDE_PLACEHOLDER)]]);
    }
  }
  return t;
}

function capitalised(original: string, replacement: string): string {
  const first = original.charAt(0);
  return first !== first.toLowerCase() ? replacement : replacement.toLowerCase();
}

/**
 * Runs `re` on the folded text (same length as the text) and rewrites on the text, so that
 * matching ignores case and accents.
 */
function replaceFolded(t: MappedText, re: RegExp, replacement: (m: string, start: number) => string | undefined): MappedText {
  const folded = t.folded(foldText);
  const spans: Array<[number, number, string]> = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(folded)) !== null) {
    if (m[0].length > 0) {
      const r = replacement(m[0], m.index);
      if (r !== undefined) spans.push([m.index, m.index + m[0].length, r]);
    } else re.lastIndex++;
    if (!re.global) break;
  }
  return t.replaceSpans(spans);
}

/**
 * `partial` (streaming): the words at the end may still become a name (see the module comment).
 * `namesAtEnd: false` leaves the last word as written even then: a caller reads both when that
 * word may also be something else ("Juan III" is a Roman chapter in progress, and "III" the
 * start of no name).
 */
export function buildShadow(text: string, partial = false, namesAtEnd = true): Shadow {
  const outside: Array<readonly [number, number]> = [];
  let t = perCharacter(text, outside);
  // streaming: markup still being written ("Jo&nb", "<stro") is not seen yet
  if (partial) t = t.replace(PARTIAL_MARKUP, () => "");
  t = t.replace(COLON_SPACES, () => ":");
  t = t.replace(LEADING_ZEROS, () => "");
  // streaming: "Jo 0" may become "Jo 03:16"
  if (partial) t = t.replace(TRAILING_ZEROS, () => "1");
  t = replaceFolded(t, ENGLISH_ORDINAL, (m) => ORDINAL_WORDS[m.slice(0, 2)]);
  const englishName = (m: string, start: number): string =>
    capitalised(t.text.slice(start), ENGLISH_BOOK_NAMES.get(m.replace(/[\t ]+/g, " ")) as string);
  t = replaceFolded(t, ENGLISH, englishName);
  const numbers = NUMBER_KEYWORD_PRESENT.test(t.text);
  if (partial && numbers) {
    // streaming: number words still being written ("versículo cento e setenta e oi") hold as a number
    t = replaceFolded(t, PARTIAL_NUMBER_WORD, (m) => {
      const last = /\p{L}*$/u.exec(m)?.[0] ?? "";
      return last === "" || NUMBER_WORD_PREFIXES.has(last) ? "1" : undefined;
    });
  }
  if (numbers) t = replaceFolded(t, NUMBER_WORDS_AFTER_KEYWORD, (m, start) => {
    // words with their offsets in m; "e" joins, it is no number
    const words = [...m.matchAll(/\p{L}+/gu)].filter((w) => w[0] !== "e");
    const v = numberWordsValue(words.map((w) => w[0]));
    if (v === undefined) return undefined;
    const last = words[v.used - 1] as RegExpExecArray;
    const rest = last.index + last[0].length;
    return String(v.value) + t.text.slice(start + rest, start + m.length);
  });
  if (partial) t = replaceFolded(t, ENGLISH_AT_END, englishName);
  t = t.replace(LETTER_DIGIT, () => " ");
  t = t.replace(GLUED_ROMAN, (m) => `${m[0]} `);
  if (partial && namesAtEnd) t = t.replace(GLUED_ROMAN_AT_END, (m) => `${m[0]} `);
  const recordOutside = (start: number, length: number): string => {
    outside.push([t.originalStart(start), t.originalEnd(start + length)]);
    return OUTSIDE_PLACEHOLDER;
  };
  // "capítulo 3 de Tobias[, versículo 4]": the placeholder book with a chapter (and the verse when it came first)
  t = replaceFolded(t, OUTSIDE_INVERTED, (m, start) => {
    const verse = /^(?:versiculos?|vers\.|vv?\.)/u.test(m);
    return `${recordOutside(start, m.length)} ${verse ? "1:1" : "1"}`;
  });
  t = replaceFolded(t, OUTSIDE, (m, start) => recordOutside(start, m.length));
  if (partial) {
    const before = t;
    t = replaceFolded(t, OUTSIDE_AT_END, (m, start) => recordOutside(start, m.length));
    if (t === before && namesAtEnd) t = partialName(t);
  }
  return { mapped: t, outside };
}
