/**
 * Document collections (lessons in markdown/text with a metadata block, PDFs, rows of a
 * MySQL table): the shapes shared by the pure core (metadata block, chunking) and the
 * adapters that read documents (folder, PDF, MySQL). Types only.
 */

/** The fields of a lesson's metadata block, as written by the course authors. */
export interface LessonMetadata {
  /** "Disciplina:" */
  discipline?: string;
  /** "Título:" */
  title?: string;
  /** "Conceitos:" */
  concepts?: string;
  /** "Keywords:" */
  keywords?: string;
  /** "Objetivos:" */
  objectives?: string;
  /** Every `Name: value` line of the block, keyed by the name as written (trimmed). */
  fields: Record<string, string>;
}

/** Why a document's metadata block was ignored (the document is then read as legacy, body only). */
export type MetaBlockProblemCode = "meta_block_malformed" | "meta_block_parse_error" | "meta_block_too_large";

export interface MetaBlockProblem {
  code: MetaBlockProblemCode;
  /** Portuguese, for logs: what is wrong (e.g. "marcador de fim ausente"). */
  detail: string;
}

/** A document split into its optional metadata block and its markdown body. */
export interface SplitDocument {
  /** Parsed block, when the document has a well-formed one. */
  meta?: LessonMetadata;
  /** The block's text between the markers, trimmed (what chunk 0 indexes), when well-formed. */
  metaText?: string;
  /** The markdown body (the whole content for a legacy document). */
  body: string;
  /** Set when markers were present but the block was ignored. */
  problem?: MetaBlockProblem;
}

/** The text of one page of a paginated document (PDF), 1-based page numbers. */
export interface DocumentPage {
  page: number;
  text: string;
}

/** A document as read from a source, before splitting and chunking. */
export interface RawDocument {
  /** Collection name (a folder under collections/, or the name given to a MySQL source). */
  collection: string;
  /** Discipline: the lexical silo inside the collection (from the row, the metadata block or the sub-folder). */
  discipline: string;
  /** Stable slug inside the discipline (file name without extension, or the row's slug). */
  slug: string;
  /** Source id shown in results and citations: `db:{discipline}/{slug}` for MySQL rows, the relative file path for files. */
  sourceId: string;
  /** Human title when known before parsing the block (row title, PDF metadata, file name). */
  title?: string;
  /** Full text (for PDFs, the pages joined by blank lines). */
  content: string;
  /** Pages, for paginated documents: chunks then keep the page where they start. */
  pages?: DocumentPage[];
  /** SHA-256 (hex) of the raw bytes or row content: an unchanged document costs nothing on reload. */
  sha256: string;
}

/**
 * Where a chunk is: its document and position (its stable coordinate, `documentKey`), its pages
 * and its lesson's title, what its human citation is made of. Every form a chunk takes (stored,
 * found, shown to the model, sent to the browser) carries it.
 */
export interface ChunkPlace {
  sourceId: string;
  /** 0-based position of the chunk in its document. */
  chunk: number;
  /** Page where the chunk starts (paginated documents only). */
  page?: number;
  /** Page where the chunk ends, when it differs from `page`. */
  pageEnd?: number;
  /** Title of the lesson (from the block, else the document's title, else its slug). */
  title: string;
}

/** One indexed piece of a document. */
export interface DocumentChunk extends ChunkPlace {
  /**
   * What the lexical index and the embedder see: `Título: {title}` on the first line, then
   * (chunk 0 only) the metadata block, then this chunk's words of the body.
   */
  text: string;
  /** This chunk's words of the body alone (what a prompt quotes). */
  body: string;
}

/** A chunk as the search core holds it: the stored chunk plus where it comes from and its analysed terms. */
export interface IndexedChunk extends DocumentChunk {
  collection: string;
  /** The lexical silo: each discipline has its own BM25 statistics. */
  discipline: string;
  slug: string;
  /** The lesson's metadata block text (same for every chunk of a document), when it has one. */
  metaText?: string;
  /** Analysed terms of `text` (the foundation's `analyze`), as persisted. */
  terms: readonly string[];
}

/** One search result over a collection: the chunk (its text as indexed) without its terms, and how it was found. */
export interface DocumentHit extends Omit<IndexedChunk, "terms"> {
  /** Human citation ("Apostila X, p. 12", "A Trindade (teologia/a-trindade.md, trecho 2)"). */
  citation: string;
  /** Which sides found it. */
  via: ("lexical" | "dense")[];
  /** Query terms (analysed) that scored > 0 in this chunk, in query order. */
  matchedTerms: string[];
  /** BM25 score in its discipline's silo, when the lexical side found it. */
  lexicalScore?: number;
  similarity?: number;
  /** Fused RRF score (or the lexical score / similarity in a single-side mode). */
  score: number;
  /** 1-based position in the fused ranking. */
  rank: number;
}
