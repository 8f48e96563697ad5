/**
 * Context windows: each verse together with the text of its neighbours, for indexing and
 * embedding a verse "in context" while keeping the verse's own text apart.
 */
import type { ContextText, Verse } from "../types.js";

/** A verse with its context window (`windowSize` verses each side). `text` is still the verse alone. */
export interface VerseWithContext extends Verse, ContextText {
  /** `contextBefore`, `text` and `contextAfter` joined by single spaces (empty parts skipped). */
  window: string;
}

/**
 * Gives every verse `windowSize` neighbours on each side, taken from the same source and the
 * same book (a run of consecutive verses with equal `source` and `book`), crossing chapter
 * boundaries but never book or source boundaries. Empty verses (`text === ""`) are never used
 * as neighbours, but they still get a window of their own, so the result has exactly one entry
 * per input verse, in the same order.
 *
 * Pure; linear in the number of verses for a given window size (each entry joins at most
 * `2 * windowSize + 1` texts).
 *
 * @throws {RangeError} when `windowSize` is not a non-negative integer.
 */
export function buildContextWindows(
  verses: readonly Verse[],
  windowSize: number,
): VerseWithContext[] {
  if (!Number.isSafeInteger(windowSize) || windowSize < 0) {
    throw new RangeError(
      `tamanho de janela de contexto inválido: ${String(windowSize)} (use um inteiro >= 0)`,
    );
  }
  const result: VerseWithContext[] = new Array<VerseWithContext>(verses.length);
  let start = 0;
  while (start < verses.length) {
    const first = verses[start]!;
    let end = start + 1;
    while (end < verses.length && verses[end]!.source === first.source && verses[end]!.book === first.book) end++;

    // Non-empty texts of the run, and for each verse how many of them precede it.
    const texts: string[] = [];
    const precedingNonEmpty = new Int32Array(end - start);
    for (let i = start; i < end; i++) {
      precedingNonEmpty[i - start] = texts.length;
      const text = verses[i]!.text;
      if (text !== "") texts.push(text);
    }

    for (let i = start; i < end; i++) {
      const verse = verses[i]!;
      const before = precedingNonEmpty[i - start]!;
      const afterFrom = verse.text === "" ? before : before + 1;
      const contextBefore = texts.slice(Math.max(0, before - windowSize), before).join(" ");
      const contextAfter = texts.slice(afterFrom, afterFrom + windowSize).join(" ");
      const window = [contextBefore, verse.text, contextAfter].filter((part) => part !== "").join(" ");
      result[i] = { ...verse, contextBefore, contextAfter, window };
    }
    start = end;
  }
  return result;
}
