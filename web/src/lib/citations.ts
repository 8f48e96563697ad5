import { parseReference, type BibleReference } from "../../../src/core/bible/references";
import type { DocumentSource, Source, VerseSource } from "./api";

/**
 * Whether the answer cited a consulted source: the `done` event lists the citations that
 * survived the server's check ("João 3:16", "Salmos 23:1-4"); a verse counts as cited when a
 * citation names it exactly or covers one of its verses. A document excerpt counts when its
 * human citation ("A Trindade (teologia/a-trindade.md, trecho 1)") is listed.
 */
export function isCited(source: Source, citations: readonly string[]): boolean {
  if (source.kind === "document") return citations.includes(source.citation);
  if (citations.includes(source.reference)) return true;
  return citations.some((citation) => {
    const parsed = parseReference(citation);
    return parsed.ok && parsed.references.some((reference) => overlaps(reference, source));
  });
}

/**
 * Whether every span of a reference found in the answer is among the citations the server
 * confirmed (the `done` event: the references it checked against the verses consulted), so the
 * reference may be shown as a checked chip.
 */
export function isConfirmed(references: readonly BibleReference[], citations: readonly string[]): boolean {
  const confirmed = citations.flatMap((citation) => {
    const parsed = parseReference(citation);
    return parsed.ok ? parsed.references : [];
  });
  return references.length > 0 && references.every((reference) => confirmed.some((citation) => within(reference, citation)));
}

function within(inner: BibleReference, outer: BibleReference): boolean {
  if (inner.book !== outer.book) return false;
  const start = position(inner.chapterStart, inner.verseStart ?? 1);
  const end = position(inner.chapterEnd, inner.verseEnd ?? 999);
  return position(outer.chapterStart, outer.verseStart ?? 1) <= start && end <= position(outer.chapterEnd, outer.verseEnd ?? 999);
}

function overlaps(reference: BibleReference, source: VerseSource): boolean {
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

/** The human citations of the document excerpts among the sources (what the answer may show in brackets). */
export function documentCitations(sources: readonly Source[]): string[] {
  return [...new Set(sources.filter((source): source is DocumentSource => source.kind === "document").map((source) => source.citation))];
}
