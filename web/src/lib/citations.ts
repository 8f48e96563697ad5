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

/** Whether a reference in the answer ("João 3:16") is one the server confirmed (the `done` event's citations). */
export function isConfirmedReference(query: string, citations: readonly string[] | null): boolean {
  if (!citations || citations.length === 0) return false;
  if (citations.includes(query)) return true;
  const parsed = parseReference(query);
  if (!parsed.ok) return false;
  return citations.some((citation) => {
    const cited = parseReference(citation);
    return cited.ok && cited.references.some((a) => parsed.references.some((b) => rangesOverlap(a, b)));
  });
}

function rangesOverlap(a: BibleReference, b: BibleReference): boolean {
  if (a.book !== b.book) return false;
  return position(a.chapterStart, a.verseStart ?? 1) <= position(b.chapterEnd, b.verseEnd ?? 999) && position(b.chapterStart, b.verseStart ?? 1) <= position(a.chapterEnd, a.verseEnd ?? 999);
}

/** The 1-based numbers of the consulted sources a reference of the answer points to (verses it covers). */
export function sourceNumbersOf(query: string, sources: readonly Source[]): number[] {
  const parsed = parseReference(query);
  if (!parsed.ok) return [];
  const numbers: number[] = [];
  sources.forEach((source, index) => {
    if (source.kind === "document") return;
    if (parsed.references.some((reference) => overlaps(reference, source))) numbers.push(index + 1);
  });
  return numbers;
}

/** The 1-based number of the document excerpt a bracketed citation names, or undefined. */
export function documentNumberOf(citation: string, sources: readonly Source[]): number | undefined {
  const index = sources.findIndex((source) => source.kind === "document" && source.citation === citation);
  return index === -1 ? undefined : index + 1;
}

/** "2" or "2–4" or "2, 5": the numbers as the chip shows them. */
export function numbersText(numbers: readonly number[]): string {
  if (numbers.length === 0) return "";
  const consecutive = numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
  if (consecutive && numbers.length > 2) return `${numbers[0]}–${numbers[numbers.length - 1]}`;
  return numbers.join(", ");
}

/** Letters and digits only, lower case, accents folded: how a quotation is recognised in the answer. */
function plainWords(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Whether the answer already quotes a verse's text (its first words, or all of a short verse):
 * the sources list then shows only its reference, so no verse is read twice.
 */
export function isQuotedIn(source: VerseSource, answer: string): boolean {
  const verse = plainWords(source.text).split(" ");
  const probe = verse.slice(0, Math.min(verse.length, 8)).join(" ");
  return probe.length >= 12 && plainWords(answer).includes(probe);
}
