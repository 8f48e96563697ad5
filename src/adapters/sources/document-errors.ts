/**
 * Errors and warnings of the document readers (folder of lessons, PDF). Messages are
 * user-facing (Brazilian Portuguese) and always name the file or folder concerned; `code` is a
 * stable string for programs and tests.
 */

/** Why a document or a collection could not be read. */
export type DocumentReadErrorCode =
  /** The collection folder does not exist or is not a folder. */
  | "collection_not_found"
  /** The collection folder exists but could not be listed (permissions…). */
  | "collection_unreadable"
  /** A file (or a sub-folder) could not be read from disk. */
  | "file_unreadable"
  /** Not a PDF, or a damaged PDF that PDF.js cannot open. */
  | "pdf_unreadable"
  /** A password-protected PDF. */
  | "pdf_encrypted"
  /** The document's text is longer than the configured limit. */
  | "document_too_large"
  /** A PDF whose reading took longer than the time limit (PDF_TIMEOUT_MS) and was stopped. */
  | "pdf_timeout"
  /** A PDF whose reading ran out of the memory it was given, or whose reader died. */
  | "pdf_extraction_failed";

/** Error raised by the document readers; its message is user-facing (Portuguese). */
export class DocumentReadError extends Error {
  readonly code: DocumentReadErrorCode;
  /** The file or folder the error refers to, as given to the reader (a label or a path). */
  readonly file: string;

  constructor(code: DocumentReadErrorCode, file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DocumentReadError";
    this.code = code;
    this.file = file;
  }
}

/** Codes of the warnings a folder read reports (the document concerned is skipped or, for
 * `encoding_fallback`, loaded anyway). */
export type DocumentWarningCode = DocumentReadErrorCode | "encoding_fallback";

/** A problem with one document that did not stop the load of the collection. */
export interface DocumentWarning {
  code: DocumentWarningCode;
  /** Path of the document relative to the collection folder, forward slashes. */
  file: string;
  /** Portuguese, for logs and the user: what happened and to which file. */
  message: string;
  /**
   * The SHA-256 of the file's bytes, when the failure is theirs (a PDF that could not be read
   * within the limits): the same bytes would fail the same way, so the reload records it and
   * does not read them again (see app/index/collection-indexer.ts).
   */
  sha256?: string;
}
