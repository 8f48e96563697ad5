/**
 * Document passages: the retrieved chunks of a document collection that the chat layer shows
 * the model, numbered 1..n (the model cites them as `[n]`, see ./document-citations.ts).
 *
 * Lesson metadata block. A lesson's metadata block (Disciplina, Título, Conceitos…) is indexed
 * with its chunk 0 only, and `DocumentHit.body` never contains it. So that the model always
 * knows which lesson it is reading, the block is shown exactly ONCE per source:
 * - the selection contains chunk 0 of the source: the block is part of that passage
 *   (`metaText`, set on the first chunk-0 passage of the source);
 * - only chunks ≥ 1 are selected: the block is attached to the first passage of the source, in
 *   selection order (`lessonHeader`), never repeated on its other passages.
 * A source without a (non-blank) block gets neither field.
 *
 * Bounded. A passage's text is at most {@link MAX_CHUNK_CHARS} characters, its block at most
 * {@link MAX_META_BLOCK_CHARS}, its title {@link MAX_TITLE_CHARS} and its citation
 * {@link MAX_CITATION_CHARS}, whatever the index holds (an index built before chunks were
 * bounded may hold a chunk of millions): what goes to the model, to the browser's `sources`
 * event and to the conversation's record grows with TOP_K, never with a document. Pure.
 */
import type { ChunkPlace, DocumentHit } from "../documents/types.js";
import { MAX_CHUNK_CHARS, MAX_TITLE_CHARS } from "../sources/chunker.js";
import { MAX_META_BLOCK_CHARS } from "../sources/meta-block.js";

/** Longest citation a passage carries (a title and a path). */
export const MAX_CITATION_CHARS = 1000;

/** `text` cut to `max` characters, a cut one ending with "…" (never inside a surrogate pair). */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** The fields of a search hit a passage is made from. */
export type DocumentPassageSource = Pick<
  DocumentHit,
  "sourceId" | "chunk" | "page" | "pageEnd" | "title" | "citation" | "body" | "metaText"
>;

export interface DocumentPassage extends ChunkPlace {
  /** 1-based number: the `n` of `<trecho n="…">` in the prompt and of the `[n]` markers. */
  number: number;
  /** Human citation ("Apostila X, p. 12", "A Trindade (teologia/a-trindade.md, trecho 2)"). */
  citation: string;
  /** The chunk's body words (what the prompt quotes). */
  text: string;
  /**
   * Chunk 0 only: the lesson's metadata block, shown as part of this passage (once per source:
   * only on the first chunk-0 passage of the source).
   */
  metaText?: string;
  /**
   * The lesson's metadata block, on the first passage of a source whose chunk 0 is NOT in the
   * selection: the prompt shows it once before that passage (`<cabecalho>`).
   */
  lessonHeader?: string;
}

/**
 * Passages from search hits, numbered 1..n in order, with each lesson's metadata block shown
 * once per source (see the module comment).
 */
export function buildDocumentPassages(hits: readonly DocumentPassageSource[]): DocumentPassage[] {
  /** Sources with chunk 0 in the selection. */
  const withChunkZero = new Set<string>();
  /** The first non-blank block of each source. */
  const blocks = new Map<string, string>();
  for (const hit of hits) {
    if (hit.chunk === 0) withChunkZero.add(hit.sourceId);
    const block = hit.metaText?.trim();
    if (block && !blocks.has(hit.sourceId)) blocks.set(hit.sourceId, boundedText(block, MAX_META_BLOCK_CHARS));
  }

  const placed = new Set<string>();
  return hits.map((hit, index): DocumentPassage => {
    const passage: DocumentPassage = {
      number: index + 1,
      sourceId: hit.sourceId,
      chunk: hit.chunk,
      title: boundedText(hit.title, MAX_TITLE_CHARS),
      citation: boundedText(hit.citation, MAX_CITATION_CHARS),
      text: boundedText(hit.body, MAX_CHUNK_CHARS),
    };
    if (hit.page !== undefined) passage.page = hit.page;
    if (hit.pageEnd !== undefined) passage.pageEnd = hit.pageEnd;
    const block = blocks.get(hit.sourceId);
    // A source with chunk 0 selected shows its block in that chunk; any other, on its first passage.
    if (block !== undefined && !placed.has(hit.sourceId) && (hit.chunk === 0 || !withChunkZero.has(hit.sourceId))) {
      if (hit.chunk === 0) passage.metaText = block;
      else passage.lessonHeader = block;
      placed.add(hit.sourceId);
    }
    return passage;
  });
}
