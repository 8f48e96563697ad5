import { BOOKS, bookByCode, type BookInfo } from "../../../src/core/bible/books";
import { formatReferences, parseReference } from "../../../src/core/bible/references";
import type { CrossReference, Verse } from "./api";

/** The translation the verses come from, as a copied passage names it. */
export const TRANSLATION_NAME = "Bíblia Livre";

/** What the reading view shows for a reference: its chapter, with the reference's verses highlighted. */
export interface Passage {
  book: BookInfo;
  chapter: number;
  /** The verses of that chapter the reference names (empty for a whole chapter). */
  highlighted: ReadonlySet<number>;
  /** The reference as written canonically ("João 3:16-18"), or the chapter ("João 3"). */
  label: string;
}

/**
 * The passage a reference opens: the chapter of its first verse, with every verse of that
 * chapter the reference names highlighted. Undefined when it is not a reference.
 */
export function passageOf(query: string): Passage | undefined {
  const parsed = parseReference(query);
  if (!parsed.ok) return undefined;
  const first = parsed.references[0];
  const book = first ? bookByCode(first.book) : undefined;
  if (!first || !book) return undefined;
  const chapter = first.chapterStart;
  const highlighted = new Set<number>();
  for (const reference of parsed.references) {
    if (reference.book !== first.book || reference.verseStart === undefined) continue;
    if (chapter < reference.chapterStart || chapter > reference.chapterEnd) continue;
    const from = reference.chapterStart === chapter ? reference.verseStart : 1;
    const to = reference.chapterEnd === chapter ? (reference.verseEnd ?? reference.verseStart) : 999;
    for (let verse = from; verse <= Math.min(to, 999); verse += 1) highlighted.add(verse);
  }
  return { book, chapter, highlighted, label: formatReferences(parsed.references) };
}

/** "João 3": what /api/verses is asked for the whole chapter. */
export function chapterQuery(book: BookInfo, chapter: number): string {
  return `${book.name} ${chapter}`;
}

/** The chapter before or after, across books (Malaquias 4 → Mateus 1); undefined at either end of the Bible. */
export function neighbourChapter(book: BookInfo, chapter: number, step: -1 | 1): { book: BookInfo; chapter: number } | undefined {
  const next = chapter + step;
  if (next >= 1 && next <= book.chapters) return { book, chapter: next };
  const other = BOOKS[book.order - 1 + step];
  if (!other) return undefined;
  return { book: other, chapter: step === 1 ? 1 : other.chapters };
}

/** The highlighted verses of a chapter, in order (all of them when none is highlighted). */
export function versesToCopy(verses: readonly Verse[], highlighted: ReadonlySet<number>): Verse[] {
  const chosen = verses.filter((verse) => highlighted.has(verse.verse));
  return chosen.length > 0 ? chosen : [...verses];
}

/**
 * The text a person copies: the verses, then the reference and the translation's name.
 * "“Porque Deus amou o mundo…” — João 3:16 (Bíblia Livre)"; a whole chapter keeps its verse numbers.
 */
export function copiedPassageText(verses: readonly Verse[], label: string, wholeChapter: boolean): string {
  if (verses.length === 0) return `${label} (${TRANSLATION_NAME})`;
  const body = wholeChapter
    ? verses.map((verse) => `${verse.verse} ${verse.text.trim()}`).join(" ")
    : `“${verses.map((verse) => verse.text.trim()).join(" ")}”`;
  return `${body}\n— ${label} (${TRANSLATION_NAME})`;
}

/** Cross references of the chosen verses, strongest first, without verses of the same chapter shown. */
export function crossReferencesOf(verses: readonly Verse[], limit: number): CrossReference[] {
  const shown = new Set(verses.map((verse) => verse.reference));
  const best = new Map<string, number>();
  for (const verse of verses) {
    for (const cross of verse.crossReferences ?? []) {
      if (shown.has(cross.reference)) continue;
      best.set(cross.reference, Math.max(best.get(cross.reference) ?? 0, cross.votes));
    }
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([reference, votes]) => ({ reference, votes }));
}
