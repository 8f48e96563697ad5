/**
 * Documents for the offline LSA that carry readers' topical knowledge ("linked LSA"): each
 * verse is learned together with the verses OpenBible.info readers link it with, so "não
 * temas" (ISA 41:10) lands next to "não tenhais medo" (DEU 31:6) and the model can bridge the
 * asker's words to the Bible's. Pure: verse terms and links in, weighted bags out (trained and
 * folded in by ./lsa.ts).
 *
 * - Training bag of verse i: `trainingVerse × terms(i) + trainingLink × Σ terms(j)`, j over the
 *   `linksPerVerse` most voted verses linked to or from i.
 * - Indexed bag of verse i: `documentVerse × terms(i) + documentContext × terms(window) +
 *   documentLink × Σ terms(j)`: the links weigh less than in training, so a verse's own words
 *   keep the upper hand when it is retrieved (quotations, stories).
 *
 * Measured (docs/RETRIEVAL.md): dense-only nDCG@10 on questions in the asker's own words
 * 0.039 → 0.137; behind the full engine, more hits on every query set.
 */
import type { CrossReferenceIndex } from "../bible/cross-references.js";
import { weightedBag, type TermBag } from "./lsa.js";

/** A reader-voted link between two verses, as indices into the verse array. */
export interface VerseLink {
  from: number;
  to: number;
  /** OpenBible.info votes; links with votes ≤ 0 are ignored. */
  votes: number;
}

export interface LinkedDocumentWeights {
  /** Linked verses per verse (most voted first, both directions). */
  linksPerVerse: number;
  trainingVerse: number;
  trainingLink: number;
  documentVerse: number;
  documentContext: number;
  documentLink: number;
}

/** Chosen on the odd half of eval/semantic-own.jsonl (docs/RETRIEVAL.md). */
export const LINKED_DOCUMENT_WEIGHTS: Readonly<LinkedDocumentWeights> = Object.freeze({
  linksPerVerse: 10,
  trainingVerse: 2,
  trainingLink: 0.5,
  documentVerse: 2,
  documentContext: 0.5,
  documentLink: 0.25,
});

/** Identifies the weights in model ids and vector keys. */
export function linkedDocumentsVersion(weights: LinkedDocumentWeights = LINKED_DOCUMENT_WEIGHTS): string {
  const w = weights;
  return `linked/v1/l${w.linksPerVerse}/t${w.trainingVerse},${w.trainingLink}/d${w.documentVerse},${w.documentContext},${w.documentLink}`;
}

/**
 * Each verse's strongest linked verses, both directions (a pair counts once, with its best
 * vote), most voted first, ties by index; self-links and links without votes are ignored.
 */
export function linkNeighbours(verseCount: number, links: readonly VerseLink[], limit: number): number[][] {
  const best: Map<number, number>[] = Array.from({ length: verseCount }, () => new Map<number, number>());
  for (const { from, to, votes } of links) {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < 0 || from >= verseCount || to >= verseCount) {
      throw new RangeError(`linkNeighbours: link ${from} → ${to} is outside 0…${verseCount - 1}`);
    }
    if (from === to || !(votes > 0)) continue;
    if ((best[from]!.get(to) ?? 0) < votes) best[from]!.set(to, votes);
    if ((best[to]!.get(from) ?? 0) < votes) best[to]!.set(from, votes);
  }
  return best.map((candidates) =>
    [...candidates]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, Math.max(0, limit))
      .map(([index]) => index),
  );
}

/** A verse's coordinate as the link collector needs it (a `Verse` fits). */
export interface LinkableVerse {
  /** Translation file: links never leave it. */
  source?: string;
  book: string;
  chapter: number;
  verse: number;
}

/**
 * The OpenBible.info links among `verses`, as index pairs. A link to a range counts for its
 * first `maxRangeVerses` verses (default 3) when the range stays in one chapter, else for its
 * first verse only; targets absent from `verses` are skipped; a link stays inside its verse's
 * source; a coordinate present twice in one source is linked at its first occurrence.
 */
export function collectVerseLinks(
  verses: readonly LinkableVerse[],
  index: Pick<CrossReferenceIndex, "linksFrom">,
  options: { maxRangeVerses?: number; minVotes?: number } = {},
): VerseLink[] {
  const maxRange = Math.max(1, options.maxRangeVerses ?? 3);
  const minVotes = options.minVotes ?? 1;
  const keyOf = (source: string | undefined, book: string, chapter: number, verse: number) => `${source ?? ""}|${book} ${chapter}:${verse}`;
  const position = new Map<string, number>();
  verses.forEach((v, i) => {
    const key = keyOf(v.source, v.book, v.chapter, v.verse);
    if (!position.has(key)) position.set(key, i);
  });
  const links: VerseLink[] = [];
  verses.forEach((v, from) => {
    for (const target of index.linksFrom(v.book, v.chapter, v.verse)) {
      if (target.votes < minVotes) continue;
      const last = target.endChapter === target.chapter ? Math.min(target.endVerse, target.verse + maxRange - 1) : target.verse;
      for (let verse = target.verse; verse <= last; verse++) {
        const to = position.get(keyOf(v.source, target.book, target.chapter, verse));
        if (to !== undefined && to !== from) links.push({ from, to, votes: target.votes });
      }
    }
  });
  return links;
}

/** The training bags: each verse with its linked verses (see the module comment). */
export function trainingBags(
  verseTerms: readonly (readonly string[])[],
  neighbours: readonly (readonly number[])[],
  weights: LinkedDocumentWeights = LINKED_DOCUMENT_WEIGHTS,
): TermBag[] {
  return verseTerms.map((terms, i) =>
    weightedBag([
      { terms, weight: weights.trainingVerse },
      ...(neighbours[i] ?? []).map((j) => ({ terms: verseTerms[j] ?? [], weight: weights.trainingLink })),
    ]),
  );
}

/** The indexed bag of one verse: itself, its context window and its linked verses. */
export function documentBag(
  parts: { verse: readonly string[]; context: readonly string[]; links: readonly (readonly string[])[] },
  weights: LinkedDocumentWeights = LINKED_DOCUMENT_WEIGHTS,
): TermBag {
  return weightedBag([
    { terms: parts.verse, weight: weights.documentVerse },
    { terms: parts.context, weight: weights.documentContext },
    ...parts.links.map((terms) => ({ terms, weight: weights.documentLink })),
  ]);
}
