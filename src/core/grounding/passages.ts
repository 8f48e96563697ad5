/**
 * Passages: the retrieved verses the chat layer shows the model, and the set of verses that
 * counts as "shown" when the model's citations are checked (./citations.ts).
 *
 * A passage is one consulted verse (or verse bridge) plus its context window: the neighbouring
 * verses whose text goes into the prompt with it. The model sees the window, so it may cite any
 * verse of it: every verse of every window is "shown".
 */
import { bookByCode } from "../bible/books.js";
import {
  type BibleReference,
  type Versification,
  countReferenceVerses,
  expandReference,
  formatReference,
  validateReference,
} from "../bible/references.js";
import type { SearchResult } from "../retrieval/engine.js";
import type { ContextText, Verse } from "../types.js";

/** One verse coordinate (USFX book code). `verseEnd` marks a bridge ("15-16"). */
export interface VerseRef {
  book: string;
  chapter: number;
  verse: number;
  verseEnd?: number;
}

/** One consulted verse (its USFX book code, chapter, verse range and text) with its window's text. */
export interface Passage extends Pick<Verse, "book" | "chapter" | "verse" | "verseEnd" | "text">, ContextText {
  /** "S1", "S2"…: the passage's id in the prompt and in the UI. */
  id: string;
  /** Canonical reference of the consulted verse ("Mateus 5:44", "Mateus 5:44-45" for a bridge). */
  reference: string;
  /** Coordinates of every verse of the window, including the consulted verse itself. */
  windowRefs: VerseRef[];
}

/** The fields of a search result a passage is made from. */
export type PassageSource = Pick<
  SearchResult,
  "reference" | "book" | "chapter" | "verse" | "verseEnd" | "text" | "contextBefore" | "contextAfter"
>;

/** Canonical reference of a verse or bridge: "Mateus 5:44", "Mateus 5:44-45"; `fallback` for an unknown book. */
export function canonicalVerseReference(
  coordinate: { book: string; chapter: number; verse: number; verseEnd?: number },
  fallback?: string,
): string {
  if (bookByCode(coordinate.book) === undefined && fallback !== undefined) return fallback;
  return formatReference({
    book: coordinate.book,
    chapterStart: coordinate.chapter,
    verseStart: coordinate.verse,
    chapterEnd: coordinate.chapter,
    verseEnd: Math.max(coordinate.verse, coordinate.verseEnd ?? coordinate.verse),
  });
}

/**
 * Passages from search results, numbered "S1", "S2"… in order. `windowOf` gives the coordinates
 * of a result's context window (the chat layer asks the engine); without it, the window is the
 * verse (or bridge) alone. The verse itself is always part of `windowRefs`. The reference is
 * recomputed in canonical form from the coordinates (the result's own string is kept only for a
 * book this module does not know).
 */
export function passagesFromResults(
  results: readonly PassageSource[],
  windowOf?: (result: PassageSource, index: number) => readonly VerseRef[],
): Passage[] {
  return results.map((result, index): Passage => {
    const verseEnd = Math.max(result.verse, result.verseEnd);
    const own: VerseRef = { book: result.book, chapter: result.chapter, verse: result.verse };
    if (verseEnd > result.verse) own.verseEnd = verseEnd;
    const windowRefs = windowOf ? windowOf(result, index).map((ref) => ({ ...ref })) : [];
    const hasOwn = windowRefs.some(
      (ref) => ref.book === own.book && ref.chapter === own.chapter && ref.verse === own.verse,
    );
    if (!hasOwn) windowRefs.push(own);
    return {
      id: `S${index + 1}`,
      reference: canonicalVerseReference({ ...result, verseEnd }, result.reference),
      book: result.book,
      chapter: result.chapter,
      verse: result.verse,
      verseEnd,
      text: result.text,
      contextBefore: result.contextBefore,
      contextAfter: result.contextAfter,
      windowRefs,
    };
  });
}

function verseKey(book: string, chapter: number, verse: number): string {
  return `${book} ${chapter}:${verse}`;
}

/**
 * The verses the model was shown: every verse (and every verse of a bridge) of every passage and
 * of its context window.
 *
 * A reference span is shown only if EVERY verse it covers is shown (`covers`):
 * - a verse or a verse range inside one chapter ("João 3:16", "João 3:16-18") is checked verse by
 *   verse; this needs no versification (a verse that does not exist was never shown);
 * - a whole chapter ("Salmos 23", "Gênesis 1-2") and a range crossing chapters ("Gênesis
 *   1:31-2:3") need to know how many verses a chapter has: with a `Versification` the span is
 *   expanded and every verse checked; without one it is treated as NOT shown (the model was
 *   never shown "the whole chapter" unless we can prove it);
 * - with a versification, a span that does not exist ("João 3:99", "João 30:1") is not shown.
 */
export class ShownVerses {
  private readonly keys = new Set<string>();

  constructor(passages: Iterable<Pick<Passage, "book" | "chapter" | "verse" | "verseEnd" | "windowRefs">> = []) {
    for (const passage of passages) {
      this.add(passage);
      for (const ref of passage.windowRefs) this.add(ref);
    }
  }

  /** Marks a verse (or every verse of a bridge) as shown. */
  add(ref: VerseRef): void {
    const last = Math.max(ref.verse, ref.verseEnd ?? ref.verse);
    for (let verse = ref.verse; verse <= last; verse++) this.keys.add(verseKey(ref.book, ref.chapter, verse));
  }

  /** Number of distinct verses shown. */
  get size(): number {
    return this.keys.size;
  }

  has(book: string, chapter: number, verse: number): boolean {
    return this.keys.has(verseKey(book, chapter, verse));
  }

  /** True when every verse of the span was shown (see the class comment for chapters). */
  covers(ref: BibleReference, versification?: Versification): boolean {
    const wholeChapters = ref.verseStart === undefined && ref.verseEnd === undefined;
    if (wholeChapters || ref.chapterStart !== ref.chapterEnd) {
      if (!versification) return false;
      if (!validateReference(ref, versification).ok) return false; // the span does not exist
      // Counted first: a span of more verses than were shown is not listed ("Sl 1-150").
      const count = countReferenceVerses(ref, versification);
      if (count === 0 || count > this.keys.size) return false;
      return expandReference(ref, versification).every((v) => this.has(v.book, v.chapter, v.verse));
    }
    const first = ref.verseStart ?? 1;
    const last = ref.verseEnd ?? first;
    if (last < first) return false;
    for (let verse = first; verse <= last; verse++) {
      if (!this.has(ref.book, ref.chapterStart, verse)) return false;
    }
    if (versification) {
      const count = versification.get(ref.book)?.[ref.chapterStart - 1];
      if (count === undefined || last > count) return false;
    }
    return true;
  }
}
