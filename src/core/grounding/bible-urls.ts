/**
 * Bible references written as URLs ("https://www.bibliaonline.com.br/acf/jo/3/16",
 * "https://www.bible.com/bible/1608/JHN.3.16.ARA", "https://www.biblegateway.com/passage/?search=John+3%3A16"),
 * for the citation check's normalising shadow (./shadow.ts). Pure string code.
 */
import { type BibleReference, formatReferences } from "../bible/references.js";
import { bookByCode, foldText, resolveBookName } from "../bible/books.js";
import { osisToUsfx } from "../bible/osis.js";
import { ENGLISH_BOOK_NAMES } from "./extra-book-names.js";

/** A URL in running text, without trailing sentence punctuation. Markdown parentheses end it. */
export const URL_PATTERN = /(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]*[^\s<>"'()[\]{}.,;:!?]/y;

/** Hosts of Bible sites: a path with numbers there is taken as a reference even when unparsed. */
const BIBLE_HOST = /bibl|bible|youversion|bibliaon|blueletter|jw\.org|biblia/;

const PATH_REFERENCE =
  /(?:^|[/?&=#.+_\s-])((?:[1-3][\s_+-]?)?[a-z\u00e0-\u00fc]+)[/.\s+_:-]+(\d{1,3})(?:[/.:\s+_,]+(\d{1,3})(?:-(\d{1,3}))?)?(?!\d)/g;

export type UrlReading =
  /** Not a reference. */
  | { kind: "none" }
  /** A reference: its canonical text. */
  | { kind: "reference"; text: string }
  /** A Bible site's address with numbers this module cannot read: treated as a reference to something not shown. */
  | { kind: "unreadable" };

function bookCode(name: string): string | undefined {
  const m = /^([1-3])[\s_+-]?(.+)$/.exec(name);
  const ordinal = m ? (m[1] as string) : "";
  const stem = m ? (m[2] as string) : name;
  const english = ENGLISH_BOOK_NAMES.get(stem);
  const candidates = [
    name,
    ordinal ? `${ordinal} ${stem}` : stem,
    english ? (ordinal ? `${ordinal} ${english}` : english) : undefined,
  ];
  for (const c of candidates) {
    if (c === undefined) continue;
    const book = resolveBookName(c);
    if (book) return book.code;
  }
  const upper = `${ordinal}${stem}`.toUpperCase();
  if (bookByCode(upper)) return upper;
  return osisToUsfx(`${ordinal}${stem.charAt(0).toUpperCase()}${stem.slice(1)}`);
}

/** Reads the reference a URL points at. */
export function readBibleUrl(url: string): UrlReading {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url.replace(/\+/g, " "));
  } catch {
    // keep it encoded
  }
  decoded = foldText(decoded.normalize("NFC"));
  const hostEnd = decoded.search(/[/?#]/);
  const host = hostEnd < 0 ? decoded : decoded.slice(0, hostEnd);
  const path = hostEnd < 0 ? "" : decoded.slice(hostEnd);
  const bibleSite = BIBLE_HOST.test(host);
  const refs: BibleReference[] = [];
  PATH_REFERENCE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PATH_REFERENCE.exec(path)) !== null) {
    const code = bookCode(m[1] as string);
    if (code === undefined) {
      PATH_REFERENCE.lastIndex = m.index + 1;
      continue;
    }
    const chapter = Number(m[2]);
    if (m[3] === undefined) {
      if (!bibleSite) continue;
      refs.push({ book: code, chapterStart: chapter, chapterEnd: chapter });
    } else {
      const verse = Number(m[3]);
      const verseEnd = m[4] === undefined ? verse : Number(m[4]);
      refs.push({ book: code, chapterStart: chapter, chapterEnd: chapter, verseStart: verse, verseEnd });
    }
    break;
  }
  if (refs.length > 0) return { kind: "reference", text: formatReferences(refs) };
  if (bibleSite && /\d/.test(path)) return { kind: "unreadable" };
  return { kind: "none" };
}
