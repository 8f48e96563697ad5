/**
 * Chunking of documents: overlapping windows of words of the body, each prefixed with the
 * document's title, the metadata block going into chunk 0 only. Bounded in characters as well
 * as in words: a window ends early when its body would pass `chunkChars`, and a "word" longer
 * than that (a run without spaces) is first cut into pieces that fit, so no chunk, no prompt
 * passage and no `sources` event grows with a hostile document. Pure.
 */
import type { DocumentChunk, DocumentPage, SplitDocument } from "../documents/types.js";

export interface ChunkOptions {
  /** Words per chunk (DB_CHUNK_WORDS), an integer ≥ 1. */
  chunkWords: number;
  /** Words shared by consecutive chunks (DB_CHUNK_OVERLAP), an integer ≥ 0 and < `chunkWords`. */
  overlap: number;
  /**
   * Most characters of a chunk's body (DB_CHUNK_CHARS), an integer from 1 to
   * {@link MAX_CHUNK_CHARS}; default {@link DEFAULT_CHUNK_CHARS}.
   */
  chunkChars?: number;
}

/** Default {@link ChunkOptions.chunkChars}: 500 words of Portuguese average about 3,000 characters. */
export const DEFAULT_CHUNK_CHARS = 6000;

/**
 * The most characters a chunk's body may be set to hold (DB_CHUNK_CHARS' ceiling), and so the
 * most of a stored chunk any passage shows (see core/grounding/document-passages.ts).
 */
export const MAX_CHUNK_CHARS = 20_000;

export const DEFAULT_CHUNK_OPTIONS: Readonly<Required<ChunkOptions>> = Object.freeze({
  chunkWords: 500,
  overlap: 50,
  chunkChars: DEFAULT_CHUNK_CHARS,
});

/** Longest title kept (block, PDF metadata, row), in characters: a longer one is cut and ends with "…". */
export const MAX_TITLE_CHARS = 300;

/** Largest document content accepted, in UTF-16 code units (`string.length`). */
export const MAX_CONTENT_CHARS = 4_000_000;

/** Whether `content` is longer than `max` UTF-16 code units (the caller skips such documents). */
export function isOversized(content: string, max: number = MAX_CONTENT_CHARS): boolean {
  return content.length > max;
}

export type DocumentChunkErrorCode = "invalid_chunk_options" | "pages_mismatch";

/** Error raised by the chunker; its message is user-facing (Portuguese). */
export class DocumentChunkError extends Error {
  readonly code: DocumentChunkErrorCode;
  constructor(code: DocumentChunkErrorCode, message: string) {
    super(message);
    this.name = "DocumentChunkError";
    this.code = code;
  }
}

export interface ChunkInput {
  sourceId: string;
  /** Title known before parsing the block (row title, PDF metadata, file name). */
  title?: string;
  slug: string;
  split: SplitDocument;
  /** Pages of a paginated document, in order (their texts joined make the split content). */
  pages?: DocumentPage[];
}

/** @throws {DocumentChunkError} `invalid_chunk_options` when the options are not usable. */
export function validateChunkOptions(options: ChunkOptions): void {
  const { chunkWords, overlap, chunkChars = DEFAULT_CHUNK_CHARS } = options;
  const invalid = (message: string) => new DocumentChunkError("invalid_chunk_options", message);
  if (!Number.isSafeInteger(chunkWords) || chunkWords < 1) {
    throw invalid(`tamanho de trecho inválido: ${String(chunkWords)} (use um inteiro >= 1 palavras)`);
  }
  if (!Number.isSafeInteger(overlap) || overlap < 0) {
    throw invalid(`sobreposição de trechos inválida: ${String(overlap)} (use um inteiro >= 0 palavras)`);
  }
  if (overlap >= chunkWords) {
    throw invalid(`sobreposição de trechos (${overlap}) deve ser menor que o tamanho do trecho (${chunkWords})`);
  }
  if (!Number.isSafeInteger(chunkChars) || chunkChars < 1 || chunkChars > MAX_CHUNK_CHARS) {
    throw invalid(`limite de caracteres por trecho inválido: ${String(chunkChars)} (use um inteiro de 1 a ${MAX_CHUNK_CHARS})`);
  }
}

/**
 * The words of a text (runs of non-whitespace), a word longer than `maxChars` cut into
 * consecutive pieces of at most `maxChars` UTF-16 units (never inside a surrogate pair).
 */
export function boundedWords(text: string, maxChars: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === "") continue;
    if (word.length <= maxChars) {
      out.push(word);
      continue;
    }
    for (let start = 0; start < word.length; ) {
      let end = Math.min(start + maxChars, word.length);
      // A cut between a high and a low surrogate would leave both halves broken.
      if (end < word.length && end - start > 1 && isHighSurrogate(word.charCodeAt(end - 1))) end--;
      out.push(word.slice(start, end));
      start = end;
    }
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A title with its whitespace collapsed and trimmed, cut to {@link MAX_TITLE_CHARS} (ending
 * with "…"); undefined when not a string or blank.
 */
export function cleanTitle(title: unknown): string | undefined {
  if (typeof title !== "string") return undefined;
  // Only the start of a huge value is looked at: the title is at most MAX_TITLE_CHARS anyway.
  const clean = title.slice(0, MAX_TITLE_CHARS * 4).replace(/\s+/g, " ").trim();
  if (clean === "") return undefined;
  return clean.length <= MAX_TITLE_CHARS ? clean : `${clean.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
}

/** Title of a document's chunks: the block's title, else the document's title, else its slug. */
export function documentTitle(input: Pick<ChunkInput, "title" | "slug" | "split">): string {
  return cleanTitle(input.split.meta?.title) ?? cleanTitle(input.title) ?? input.slug;
}

/**
 * The body's words, and for paginated documents the page of each word.
 *
 * With pages, the words are the pages' words in order. The split was made on the joined
 * content, so a metadata block (if any) sits at the start of the first page(s): the body's
 * words are then a suffix of the pages' words, and the leading page words (the block and its
 * markers) are dropped, so the block is indexed once, in chunk 0, through `metaText`. Without a
 * block the body's words must be exactly the pages' words. Otherwise the inputs do not describe
 * the same document and `pages_mismatch` is thrown.
 */
function bodyWords(
  split: SplitDocument,
  pages: readonly DocumentPage[] | undefined,
  maxWordChars: number,
): { words: string[]; pageOf?: number[]; blockPage?: number } {
  const words = (text: string) => boundedWords(text, maxWordChars);
  const body = words(split.body);
  if (pages === undefined) return { words: body };

  const pageWords: string[] = [];
  const pageOfAll: number[] = [];
  for (const { page, text } of pages) {
    for (const word of words(text)) {
      pageWords.push(word);
      pageOfAll.push(page);
    }
  }
  const skip = pageWords.length - body.length;
  // Leading page words may only be dropped when they are the metadata block.
  const skipAllowed = skip === 0 || (skip > 0 && split.metaText !== undefined);
  if (!skipAllowed || !body.every((word, i) => pageWords[skip + i] === word)) {
    throw new DocumentChunkError(
      "pages_mismatch",
      "o texto das páginas não corresponde ao corpo do documento",
    );
  }
  return { words: body, pageOf: pageOfAll.slice(skip), blockPage: pageOfAll[0] };
}

/**
 * Cuts a document into chunks of `chunkWords` words of its body, consecutive chunks sharing
 * `overlap` words (windows start at 0, step, 2·step, … with step = chunkWords − overlap, and
 * stop at the first window that reaches the last word, so no chunk is made only of the
 * previous chunk's tail).
 *
 * Characters. A window also ends before the word that would take its body (words joined by
 * single spaces) past `chunkChars`; it always holds at least one word, and a word longer than
 * `chunkChars` was cut into pieces first (see boundedWords), so every body fits. A window cut
 * short by characters shares with the next one the same share of its words as a full one
 * (⌊words · overlap / chunkWords⌋), so the document is not repeated many times over; the next
 * window always starts at least one word further. Text of ordinary words never meets the bound
 * (500 words are about 3,000 characters) and is cut exactly as by words alone.
 *
 * Every chunk's `text` is `Título: {title}` on its first line, then, separated by a blank line,
 * the metadata block (`split.metaText`, chunk 0 only), then the chunk's words joined by single
 * spaces (`body`). A document with a block but an empty body gives a single chunk (title and
 * block); a document with neither gives no chunk.
 *
 * Paginated documents (`pages`): see bodyWords; a chunk's `page` is the page of its first word
 * and `pageEnd` the page of its last word when different. A chunk 0 without body words (block
 * only) gets the page where the block is.
 *
 * @throws {DocumentChunkError} `invalid_chunk_options` for unusable options, `pages_mismatch`
 *   when `pages` and `split` disagree.
 */
export function chunkDocument(
  input: ChunkInput,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
): DocumentChunk[] {
  validateChunkOptions(options);
  const { chunkWords, overlap, chunkChars = DEFAULT_CHUNK_CHARS } = options;
  const title = documentTitle(input);
  const metaText = input.split.metaText?.trim() ?? "";
  const { words: all, pageOf, blockPage } = bodyWords(input.split, input.pages, chunkChars);
  if (all.length === 0 && metaText === "") return [];

  const titleLine = `Título: ${title}`;
  const chunks: DocumentChunk[] = [];
  for (let start = 0; ; ) {
    let end = start;
    let chars = 0;
    while (end < all.length && end - start < chunkWords) {
      const added = all[end]!.length + (end > start ? 1 : 0);
      if (end > start && chars + added > chunkChars) break;
      chars += added;
      end++;
    }
    const body = all.slice(start, end).join(" ");
    const parts = [titleLine];
    if (chunks.length === 0 && metaText !== "") parts.push(metaText);
    if (body !== "") parts.push(body);
    const chunk: DocumentChunk = {
      sourceId: input.sourceId,
      chunk: chunks.length,
      title,
      text: parts.join("\n\n"),
      body,
    };
    if (pageOf !== undefined) {
      const page = end > start ? pageOf[start] : blockPage;
      const pageEnd = end > start ? pageOf[end - 1] : undefined;
      if (page !== undefined) chunk.page = page;
      if (pageEnd !== undefined && pageEnd !== page) chunk.pageEnd = pageEnd;
    }
    chunks.push(chunk);
    if (end >= all.length) break;
    const taken = end - start;
    const shared = taken === chunkWords ? overlap : Math.floor((taken * overlap) / chunkWords);
    start = Math.max(start + 1, end - shared);
  }
  return chunks;
}
