import { foldAccents } from "./analysis/fold.js";

/**
 * The collection name that means the Bible: the default target of search and chat, in the API
 * (`"collection": "biblia"`) and the CLI (`--collection biblia`). No document collection may take it.
 */
export const BIBLE_COLLECTION = "biblia";

/**
 * What two collection names are compared by: spaces around, letter case, accents and Unicode
 * normalisation (NFC or NFD, as a disk may store a folder's name) ignored. Two names with the
 * same key name the same collection: "Exemplo" and "exemplo" would share one index file on a
 * disk that ignores case, so they are never two collections.
 */
export function collectionKey(name: string): string {
  return foldAccents(name.trim().toLowerCase()).toLowerCase();
}

/** True when `name` names the Bible (compared by {@link collectionKey}: "Biblia", "Bíblia", " biblia "). */
export function isBibleCollection(name: string): boolean {
  return collectionKey(name) === BIBLE_COLLECTION;
}

/** One verse as read from a USFX source file. */
export interface Verse {
  /** Source file name (basename, e.g. "por-blivre.usfx.xml"): part of the verse's identity. */
  source: string;
  /** Book code exactly as in the file (`GEN`…`REV`, `TOB`, `FRT`…). */
  book: string;
  /** Book name as given by the file (`<h>`, else `<toc level="2">`/`level="1"`, else the code). */
  bookName: string;
  /** True for the 66 books of the Protestant canon, false for deuterocanon, front matter, glossary. */
  canonical: boolean;
  chapter: number;
  /** First verse number (for a bridge `15-16`, 15). */
  verse: number;
  /** Last verse number (equals `verse` unless the verse is a bridge). */
  verseEnd: number;
  /** Plain text: notes, cross references, headings removed; whitespace normalised. */
  text: string;
}

/** The text of a verse's context window, the verse's own text kept apart. */
export interface ContextText {
  /** Up to CONTEXT_WINDOW preceding non-empty verses of the same source and book (crossing chapters), space-joined. */
  contextBefore: string;
  /** Up to CONTEXT_WINDOW following non-empty verses of the same source and book (crossing chapters), space-joined. */
  contextAfter: string;
}
