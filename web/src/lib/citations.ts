import { parseReference, type BibleReference } from "../../../src/core/bible/references";
import type { Source } from "./api";

/**
 * Whether the answer cited a consulted source: the `done` event lists the citations that
 * survived the server's check ("João 3:16", "Salmos 23:1-4"); a source counts as cited when a
 * citation names it exactly or covers one of its verses.
 */
export function isCited(source: Source, citations: readonly string[]): boolean {
  if (citations.includes(source.reference)) return true;
  return citations.some((citation) => {
    const parsed = parseReference(citation);
    return parsed.ok && parsed.references.some((reference) => overlaps(reference, source));
  });
}

function overlaps(reference: BibleReference, source: Source): boolean {
  if (reference.book !== source.bookCode) return false;
  const start = position(reference.chapterStart, reference.verseStart ?? 1);
  const end = position(reference.chapterEnd, reference.verseEnd ?? 999);
  const sourceStart = position(source.chapter, source.verse);
  const sourceEnd = position(source.chapter, Math.max(source.verse, source.verseEnd));
  return start <= sourceEnd && sourceStart <= end;
}

function position(chapter: number, verse: number): number {
  return chapter * 1000 + verse;
}
