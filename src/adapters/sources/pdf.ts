/**
 * PDF text extraction, page by page, through `unpdf` (a dependency-free, serverless build of
 * Mozilla's PDF.js: pure JavaScript, no worker, no canvas needed for text).
 *
 * Text. Each page's text items are concatenated in content-stream order; an item that PDF.js
 * marks as ending a line (`hasEOL`) ends the line. Then, per page: runs of horizontal
 * whitespace (including no-break spaces and tabs) collapse to one space, every line is trimmed,
 * runs of blank lines collapse to one blank line (a paragraph break) and the page is trimmed.
 * Line-end hyphens are mended following the Portuguese typographic rule: a word split between
 * syllables ends its line with "-" and the next line starts with a lowercase letter, so
 * "pala-\nvra" becomes "palavra"; a hyphenated compound broken at its hyphen repeats the hyphen
 * at the start of the next line, so "guarda-\n-chuva" becomes "guarda-chuva". Any other line
 * ending in "-" is left alone. Pages without text (scans, blank pages) are kept with `""` so page
 * numbers stay exact (1-based).
 *
 * Title. The document information dictionary's `Title`, else the XMP `dc:title`, trimmed;
 * absent when empty.
 *
 * Bounded. A small file can hold a content stream that inflates a thousandfold (a 143 KB PDF,
 * 40 MB of text operators): the text is read page by page as PDF.js streams it, its characters
 * counted as they come (runs of spaces and tabs as one, as the normalisation leaves them), and
 * the reading stops as soon as the document passes `maxChars` (`document_too_large`), never
 * after the whole text is held. This bounds memory and, for text, time; a stream that holds
 * no text but endless other operators is bounded by the caller's time limit (the server and the
 * CLI read PDFs in a worker thread they stop: src/app/sources/pdf-extractor.ts).
 *
 * Errors. Bytes PDF.js cannot open (not a PDF, truncated, damaged) reject with a
 * {@link DocumentReadError} `pdf_unreadable`; a password-protected PDF with `pdf_encrypted`;
 * a text longer than `maxChars` with `document_too_large`.
 * The caller's bytes are never detached or modified (PDF.js receives a copy).
 */
import { getDocumentProxy } from "unpdf";
import type { DocumentPage } from "../../core/documents/types.js";
import { cleanTitle, MAX_CONTENT_CHARS } from "../../core/sources/chunker.js";
import { DocumentReadError } from "./document-errors.js";

/** What {@link readPdf} returns. */
export interface PdfContent {
  /** One entry per page, in order, 1-based `page`. */
  pages: DocumentPage[];
  /** The document's Title metadata, when present and not blank. */
  title?: string;
}

/** PDF.js `VerbosityLevel.ERRORS`: no console warnings ("Indexing all PDF objects"…). */
const PDFJS_VERBOSITY_ERRORS = 0;

export interface ReadPdfOptions {
  /**
   * Most characters of the document's text (its pages joined by a blank line); the reading
   * stops with `document_too_large` as soon as more come. Default MAX_CONTENT_CHARS.
   */
  maxChars?: number;
}

/**
 * Extracts the text of every page of a PDF and its title metadata.
 *
 * @param bytes the whole PDF file.
 * @param fileLabel name used in error messages (e.g. the path relative to the collection).
 * @throws {DocumentReadError} `pdf_unreadable`, `pdf_encrypted` or `document_too_large`.
 */
export async function readPdf(bytes: Uint8Array, fileLabel: string, options: ReadPdfOptions = {}): Promise<PdfContent> {
  const maxChars = options.maxChars ?? MAX_CONTENT_CHARS;
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A plain Uint8Array copy: PDF.js may take ownership of (transfer) the buffer it is given,
    // and it refuses Node's Buffer (whose `slice` would share memory anyway).
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: PDFJS_VERBOSITY_ERRORS });
  } catch (error) {
    throw toReadError(error, fileLabel);
  }
  try {
    const pages: DocumentPage[] = [];
    // Characters of the pages read so far, with the blank line that joins two pages.
    let held = 0;
    for (let page = 1; page <= pdf.numPages; page++) {
      const proxy = await pdf.getPage(page);
      const before = held + (page > 1 ? 2 : 0);
      const raw = await readPageText(proxy, maxChars - before, () => tooLarge(fileLabel, maxChars, page));
      const text = normalizePageText(raw);
      pages.push({ page, text });
      held = before + text.length;
      proxy.cleanup();
    }
    const title = await readTitle(pdf);
    return title === undefined ? { pages } : { pages, title };
  } catch (error) {
    throw toReadError(error, fileLabel);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

type PageProxy = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>["getPage"]>>;

/**
 * One page's raw text, read from PDF.js's stream of text items: runs of spaces and tabs
 * collapsed as they come, and the reading cancelled (`tooLarge` thrown) as soon as the page
 * passes `room` characters, so a hostile page is never held whole.
 */
async function readPageText(proxy: PageProxy, room: number, tooLarge: () => Error): Promise<string> {
  const reader = proxy.streamTextContent().getReader();
  const parts: string[] = [];
  let length = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const item of value.items) {
        // Marked-content delimiters (no `str`) carry no text.
        if (!("str" in item)) continue;
        const piece = item.str.replace(/[^\S\n]+/g, " ") + (item.hasEOL ? "\n" : "");
        length += piece.length;
        if (length > room) throw tooLarge();
        parts.push(piece);
      }
    }
  } catch (error) {
    // Stops PDF.js's extraction of the page (its task is terminated) instead of reading on.
    // (PDF.js asserts that a cancel has a reason.)
    await reader.cancel(error).catch(() => undefined);
    throw error;
  }
  return parts.join("");
}

function tooLarge(fileLabel: string, maxChars: number, page: number): DocumentReadError {
  return new DocumentReadError(
    "document_too_large",
    fileLabel,
    `${fileLabel}: documento grande demais (o texto do PDF passa de ${maxChars.toLocaleString("pt-BR")} caracteres, ` +
      `o limite, já na página ${page}; a leitura foi interrompida ali).`,
  );
}

/** Whitespace and line-end hyphen normalisation of one page's raw text (see the module doc). */
export function normalizePageText(raw: string): string {
  const lines = raw
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim());
  const out: string[] = [];
  for (const line of lines) {
    const previous = out.at(-1);
    if (previous !== undefined && line !== "" && /\p{L}-$/u.test(previous)) {
      if (/^-\p{L}/u.test(line)) {
        // Compound word broken at its hyphen, hyphen repeated: "guarda-" + "-chuva".
        out[out.length - 1] = previous + line.slice(1);
        continue;
      }
      if (/^\p{Ll}/u.test(line)) {
        // Word split between syllables: "pala-" + "vra".
        out[out.length - 1] = previous.slice(0, -1) + line;
        continue;
      }
    }
    out.push(line);
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

async function readTitle(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | undefined> {
  try {
    const { info, metadata } = await pdf.getMetadata();
    return cleanTitle((info as Record<string, unknown> | undefined)?.["Title"]) ?? cleanTitle(metadata?.get("dc:title"));
  } catch {
    return undefined; // unreadable metadata never costs the document its text
  }
}

function toReadError(error: unknown, fileLabel: string): DocumentReadError {
  if (error instanceof DocumentReadError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === "PasswordException") {
    return new DocumentReadError(
      "pdf_encrypted",
      fileLabel,
      `${fileLabel}: o PDF está protegido por senha e não pode ser lido.`,
      { cause: error },
    );
  }
  return new DocumentReadError(
    "pdf_unreadable",
    fileLabel,
    `${fileLabel}: não foi possível ler o PDF (arquivo corrompido ou não é um PDF: ${detail}).`,
    { cause: error },
  );
}
