/**
 * Reads a document collection from a folder: every lesson file under it, recursively, as
 * {@link RawDocument}s ready for the core (metadata block splitting, chunking).
 *
 * Files. `.md`, `.markdown`, `.txt` and `.pdf` (extension case ignored); every other file is
 * ignored, and so are hidden files and folders (name starting with ".") and symbolic links
 * (never followed: no loops, nothing read from outside the folder). Documents come sorted by
 * their path relative to the folder (code-unit order, forward slashes), so two reads of the same
 * folder give the same sequence on every system.
 *
 * Fields. `sourceId` is the relative path (`teologia/aula-1.md`). `discipline` is the first
 * sub-folder under the collection folder, as written (`teologia`), or the collection name for a
 * file at the top level; the core may replace it with the metadata block's "Disciplina".
 * `slug` is the file name without extension, made URL-safe (accents folded, lowercase, every run
 * of other characters turned into "-"; "documento" when nothing is left); when two files of the
 * same discipline give the same slug, the later one in path order gets "-2", "-3"…
 * `sha256` is the hex SHA-256 of the file's raw bytes. Text files are decoded as UTF-8 with the
 * BOM removed (a file that is not valid UTF-8 is decoded as Windows-1252, the usual legacy
 * encoding of Portuguese texts, with an `encoding_fallback` warning) and have no `title` (their
 * metadata block gives it). PDFs get `pages` (see `pdf.ts`), `content` = the pages' texts joined
 * by "\n\n", and `title` from the PDF's metadata when present.
 *
 * Problems. One bad document never fails the load: an unreadable file (`file_unreadable`), a
 * damaged or encrypted PDF (`pdf_unreadable`, `pdf_encrypted`), a PDF whose reading was stopped
 * (`pdf_timeout`, `pdf_extraction_failed`, by the caller's `readPdf`) or a document whose text
 * exceeds `maxContentChars` (`document_too_large`; a PDF's reading stops as soon as it does) is
 * skipped and reported through `onWarning`; a PDF's warning carries its bytes' `sha256`, and
 * `knownFailure` lets the caller skip bytes that failed before without reading them again. Only
 * a collection folder that is missing (`collection_not_found`) or cannot be listed
 * (`collection_unreadable`) throws a {@link DocumentReadError}.
 */
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { MAX_CONTENT_CHARS } from "../../core/sources/chunker.js";
import type { DocumentPage, RawDocument } from "../../core/documents/types.js";
import { DocumentReadError, type DocumentWarning } from "./document-errors.js";
import { readPdf, type PdfContent } from "./pdf.js";

/** Default {@link ReadCollectionFolderOptions.maxContentChars}: the core's MAX_CONTENT_CHARS (4 million characters). */
export const DEFAULT_MAX_CONTENT_CHARS = MAX_CONTENT_CHARS;

/** Extensions of the lesson files, lowercase: text (read as UTF-8) and PDF. */
const LESSON_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".markdown", ".txt", ".pdf"]);

export interface ReadCollectionFolderOptions {
  /** Collection name stored in every document (usually the folder's name). */
  collection: string;
  /** Documents whose text is longer than this are skipped with a warning. Default 4,000,000. */
  maxContentChars?: number;
  /** Called once per document skipped (or loaded with a caveat); never throws for those. */
  onWarning?: (warning: DocumentWarning) => void;
  /**
   * Reads a PDF's text within `maxChars` (default: `readPdf` in this thread). The server and the
   * CLI pass a reader in a worker thread with a time limit (src/app/sources/pdf-extractor.ts).
   */
  readPdf?: (bytes: Uint8Array, file: string, maxChars: number) => Promise<PdfContent>;
  /**
   * A PDF's earlier failure with these very bytes, if any: the file is skipped with that
   * warning, unread. Undefined reads it.
   */
  knownFailure?: (file: string, sha256: string) => DocumentWarning | undefined;
}

/** Hex SHA-256 of raw bytes (a document's identity for incremental reloads). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * URL-safe slug of a file name without its extension: accents folded (NFD, combining marks
 * removed), lowercase, runs of characters other than a–z and 0–9 turned into one "-", no "-" at
 * either end; "documento" when nothing is left.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "documento" : slug;
}

/**
 * Reads every lesson file of a collection folder (see the module doc for the rules).
 *
 * @throws {DocumentReadError} `collection_not_found` when `dir` is missing or not a folder,
 *   `collection_unreadable` when it cannot be listed.
 */
export async function readCollectionFolder(
  dir: string,
  options: ReadCollectionFolderOptions,
): Promise<RawDocument[]> {
  const { collection, onWarning } = options;
  const maxContentChars = options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  const pdfReader = options.readPdf ?? ((bytes: Uint8Array, file: string, maxChars: number) => readPdf(bytes, file, { maxChars }));
  const warn = (warning: DocumentWarning): void => onWarning?.(warning);

  await assertCollectionFolder(dir);
  const files = await listLessonFiles(dir, warn);

  const documents: RawDocument[] = [];
  const slugsByDiscipline = new Map<string, Set<string>>();
  for (const relPath of files) {
    const segments = relPath.split("/");
    const extension = extname(relPath);
    const discipline = segments.length > 1 ? (segments[0] ?? collection) : collection;

    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(dir, ...segments));
    } catch (error) {
      warn({
        code: "file_unreadable",
        file: relPath,
        message: `${relPath}: não foi possível ler o arquivo (${describe(error)}); documento ignorado.`,
      });
      continue;
    }

    const sha256 = hashBytes(bytes);
    let content: string;
    let pages: DocumentPage[] | undefined;
    let title: string | undefined;
    if (extension.toLowerCase() === ".pdf") {
      const known = options.knownFailure?.(relPath, sha256);
      if (known) {
        warn(known);
        continue;
      }
      try {
        const pdf = await pdfReader(bytes, relPath, maxContentChars);
        pages = pdf.pages;
        title = pdf.title;
        content = pdf.pages.map((p) => p.text).join("\n\n");
      } catch (error) {
        if (error instanceof DocumentReadError) {
          warn({ code: error.code, file: relPath, message: `${error.message} Documento ignorado.`, sha256 });
          continue;
        }
        throw error;
      }
    } else {
      content = decodeText(bytes, relPath, warn);
    }

    if (content.length > maxContentChars) {
      warn({
        code: "document_too_large",
        file: relPath,
        message:
          `${relPath}: documento grande demais (${content.length.toLocaleString("pt-BR")} caracteres; ` +
          `limite ${maxContentChars.toLocaleString("pt-BR")}); documento ignorado.`,
      });
      continue;
    }

    const slug = uniqueSlug(slugify(basename(relPath, extension)), discipline, slugsByDiscipline);
    const document: RawDocument = {
      collection,
      discipline,
      slug,
      sourceId: relPath,
      content,
      sha256,
    };
    if (title !== undefined) document.title = title;
    if (pages !== undefined) document.pages = pages;
    documents.push(document);
  }
  return documents;
}

async function assertCollectionFolder(dir: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(dir)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") isDirectory = false;
    else {
      throw new DocumentReadError(
        "collection_unreadable",
        dir,
        `Não foi possível abrir a pasta da coleção "${dir}" (${describe(error)}).`,
        { cause: error },
      );
    }
  }
  if (!isDirectory) {
    throw new DocumentReadError(
      "collection_not_found",
      dir,
      `Pasta da coleção não encontrada: "${dir}" (verifique o caminho; deve ser uma pasta com as aulas).`,
    );
  }
}

/** Relative paths (forward slashes) of the lesson files under `dir`, sorted. */
async function listLessonFiles(dir: string, warn: (w: DocumentWarning) => void): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(relDir === "" ? dir : join(dir, ...relDir.split("/")), { withFileTypes: true });
    } catch (error) {
      if (relDir === "") {
        throw new DocumentReadError(
          "collection_unreadable",
          dir,
          `Não foi possível listar a pasta da coleção "${dir}" (${describe(error)}).`,
          { cause: error },
        );
      }
      warn({
        code: "file_unreadable",
        file: relDir,
        message: `${relDir}: não foi possível listar a pasta (${describe(error)}); seus documentos foram ignorados.`,
      });
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const relPath = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(relPath);
      else if (entry.isFile() && LESSON_EXTENSIONS.has(extname(entry.name).toLowerCase())) found.push(relPath);
    }
  };
  await walk("");
  return found.sort(); // code-unit order
}

function uniqueSlug(base: string, discipline: string, used: Map<string, Set<string>>): string {
  const slugs = used.get(discipline) ?? new Set<string>();
  used.set(discipline, slugs);
  let slug = base;
  for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
  slugs.add(slug);
  return slug;
}

/** UTF-8 without BOM; Windows-1252 (with a warning) when the bytes are not valid UTF-8. */
function decodeText(bytes: Uint8Array, relPath: string, warn: (w: DocumentWarning) => void): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    warn({
      code: "encoding_fallback",
      file: relPath,
      message: `${relPath}: o arquivo não está em UTF-8; lido como Windows-1252 (salve-o em UTF-8 para evitar erros de acentuação).`,
    });
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permissão negada";
  if (error instanceof Error) return code ? `${code}: ${error.message}` : error.message;
  return String(error);
}
