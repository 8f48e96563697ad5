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
 * Errors. Bytes PDF.js cannot open (not a PDF, truncated, damaged) reject with a
 * {@link DocumentReadError} `pdf_unreadable`; a password-protected PDF with `pdf_encrypted`.
 * The caller's bytes are never detached or modified (PDF.js receives a copy).
 */
import { getDocumentProxy } from "unpdf";
import type { DocumentPage } from "../../core/documents/types.js";
import { cleanTitle } from "../../core/sources/chunker.js";
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

/**
 * Extracts the text of every page of a PDF and its title metadata.
 *
 * @param bytes the whole PDF file.
 * @param fileLabel name used in error messages (e.g. the path relative to the collection).
 * @throws {DocumentReadError} `pdf_unreadable` or `pdf_encrypted`.
 */
export async function readPdf(bytes: Uint8Array, fileLabel: string): Promise<PdfContent> {
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
    for (let page = 1; page <= pdf.numPages; page++) {
      const proxy = await pdf.getPage(page);
      const { items } = await proxy.getTextContent();
      // Marked-content delimiters (no `str`) carry no text.
      const raw = items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
      pages.push({ page, text: normalizePageText(raw) });
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
