import type { ContextText, Verse } from "../../core/types.js";
import type { StoredUnit, UnitFields, UnitStore, UnitWrite } from "./store.js";

/**
 * The Bible's view of its units: a unit is a verse (its source is the USFX file, its position
 * in the file the unit's `ord`), with the book, chapter, verse numbers and context window as
 * fields. The store knows nothing of verses; this module is the one place that maps them.
 */

export interface StoredVerse extends Verse, ContextText {
  id: number;
  /** Position of the verse inside its source file (0-based). */
  ord: number;
}

/** A stored verse with the analysed terms the BM25 index is rebuilt from (space-separated). */
export interface IndexedVerse extends StoredVerse {
  terms: string;
}

/** What the dense side embeds of a verse: its text and window. */
export interface MissingVector extends ContextText {
  id: number;
  text: string;
}

/** The fields of a verse's context window (what `updateFields` rewrites after CONTEXT_WINDOW changes). */
export function windowFields(window: ContextText): UnitFields {
  return { contextBefore: window.contextBefore, contextAfter: window.contextAfter };
}

/** One verse of a file, with its window and analysed terms, as the unit to write. */
export function verseUnit(verse: Verse & ContextText, ord: number, terms: string): UnitWrite {
  return {
    source: verse.source,
    ord,
    text: verse.text,
    terms,
    fields: {
      book: verse.book,
      bookName: verse.bookName,
      canonical: verse.canonical,
      chapter: verse.chapter,
      verse: verse.verse,
      verseEnd: verse.verseEnd,
      ...windowFields(verse),
    },
  };
}

/** A stored unit of the Bible's index as the verse it is. */
export function verseOfUnit(unit: StoredUnit): IndexedVerse {
  const f = unit.fields;
  return {
    id: unit.id,
    source: unit.source,
    ord: unit.ord,
    book: String(f.book),
    bookName: String(f.bookName),
    canonical: f.canonical === true,
    chapter: Number(f.chapter),
    verse: Number(f.verse),
    verseEnd: Number(f.verseEnd),
    text: unit.text,
    contextBefore: String(f.contextBefore ?? ""),
    contextAfter: String(f.contextAfter ?? ""),
    terms: unit.terms,
  };
}

/** Every verse with its analysed terms, ordered by source, then position in the file (what the engine is built from). */
export async function loadIndexedVerses(store: Pick<UnitStore, "loadUnits">): Promise<IndexedVerse[]> {
  return (await store.loadUnits()).map(verseOfUnit);
}

/** Every verse, in the same order, without its terms. */
export async function loadVerses(store: Pick<UnitStore, "loadUnits">): Promise<StoredVerse[]> {
  return (await loadIndexedVerses(store)).map(({ terms: _terms, ...verse }) => verse);
}

/** Non-empty verses without a vector under `model`, ordered by source, then position. */
export async function versesMissingVectors(store: Pick<UnitStore, "unitsMissingVectors">, model: string): Promise<MissingVector[]> {
  return (await store.unitsMissingVectors(model))
    .map(verseOfUnit)
    .map(({ id, text, contextBefore, contextAfter }) => ({ id, text, contextBefore, contextAfter }));
}

