/**
 * Where each document collection reads from: every sub-folder of COLLECTIONS_DIR (the folder's
 * name is the collection's name) and, when MYSQL_URL is set, one MySQL/MariaDB table (collection
 * MYSQL_COLLECTION, table MYSQL_TABLE).
 */
import { readdirSync, type Dirent } from "node:fs";
import path from "node:path";
import { readCollectionFolder } from "../../adapters/sources/folder.js";
import type { DocumentWarningCode } from "../../adapters/sources/document-errors.js";
import { PdfExtractor } from "../sources/pdf-extractor.js";
import { COLLECTION_NAME } from "../../adapters/index/collection-names.js";
import type { Settings } from "../../config/settings.js";
import type { RawDocument } from "../../core/documents/types.js";
import { BIBLE_COLLECTION, collectionKey, isBibleCollection } from "../../core/types.js";

export type CollectionSource = { kind: "folder"; name: string; dir: string } | { kind: "mysql"; name: string; url: string; table?: string };

/** Settings the sources read. */
export type CollectionSourceSettings = Pick<Settings, "COLLECTIONS_DIR" | "MYSQL_URL" | "MYSQL_TABLE" | "MYSQL_COLLECTION" | "MAX_CONTENT_CHARS">;

/**
 * A problem with one document (or one sub-folder, or one row) that did not stop the read, or a
 * note from discovery. `sourceId` is the document's source id (relative path or
 * `db:{discipline}/{slug}`), or the folder concerned.
 */
export interface CollectionWarning {
  code: string;
  sourceId: string;
  /** Portuguese, for logs and the user. */
  message: string;
}

/** A warning as the source reports it: with the bytes' SHA-256 when the failure is theirs (a PDF that could not be read). */
export interface SourceWarning extends CollectionWarning {
  sha256?: string;
}

export interface ReadSourceOptions {
  /** A document's earlier failure with these very bytes (see readCollectionFolder's `knownFailure`). */
  knownFailure?: (sourceId: string, sha256: string) => CollectionWarning | undefined;
}

/** Warning codes for which the document concerned was NOT loaded (everything but `encoding_fallback`). */
export function isSkipWarning(warning: Pick<CollectionWarning, "code">): boolean {
  return !["encoding_fallback", "collection_name_invalid", "collection_name_reserved", "collection_name_conflict", "collection_name_clash"].includes(warning.code);
}

/**
 * Every collection to index, sorted by name: the sub-folders of COLLECTIONS_DIR (hidden ones
 * skipped; a missing COLLECTIONS_DIR means no folder collection) plus the MySQL collection when
 * MYSQL_URL is set. Names are compared by `collectionKey` (case, accents and NFC/NFD ignored).
 * A sub-folder whose name is not a valid collection name (`collection_name_invalid`), that is
 * the Bible's name (`collection_name_reserved`), or that has the MySQL collection's name
 * (`collection_name_conflict`: the configured table wins), is left out and reported through
 * `onWarning`; so are two or more sub-folders whose names differ only by case or accents
 * (`collection_name_clash`: one warning per folder, each naming them all): they would be one
 * index file on a disk that ignores case, and which one is meant is the operator's choice.
 */
export function discoverCollections(
  settings: CollectionSourceSettings,
  onWarning?: (warning: CollectionWarning) => void,
): CollectionSource[] {
  const sources: CollectionSource[] = [];
  const mysqlName = settings.MYSQL_URL ? settings.MYSQL_COLLECTION : undefined;
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(settings.COLLECTIONS_DIR, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || !entry.isDirectory()) continue;
    const skip = (code: string, reason: string) =>
      onWarning?.({
        code,
        sourceId: entry.name,
        message: `Pasta "${entry.name}" ignorada em ${settings.COLLECTIONS_DIR}: ${reason}`,
      });
    if (!COLLECTION_NAME.test(entry.name)) {
      skip("collection_name_invalid", "o nome de uma coleção só pode ter letras sem acento, números, _ e - (até 64 caracteres).");
    } else if (isBibleCollection(entry.name)) {
      skip("collection_name_reserved", `"${BIBLE_COLLECTION}" é o nome da Bíblia; renomeie a pasta.`);
    } else if (mysqlName !== undefined && collectionKey(entry.name) === collectionKey(mysqlName)) {
      skip(
        "collection_name_conflict",
        `a coleção "${mysqlName}" é a da tabela MySQL (MYSQL_COLLECTION); renomeie a pasta ou mude MYSQL_COLLECTION.`,
      );
    } else {
      sources.push({ kind: "folder", name: entry.name, dir: path.join(settings.COLLECTIONS_DIR, entry.name) });
    }
  }
  const clashing = new Map<string, CollectionSource[]>();
  for (const source of sources) clashing.set(collectionKey(source.name), [...(clashing.get(collectionKey(source.name)) ?? []), source]);
  for (const group of clashing.values()) {
    if (group.length < 2) continue;
    const names = group.map((source) => source.name).sort();
    for (const name of names) {
      onWarning?.({
        code: "collection_name_clash",
        sourceId: name,
        message: collectionClashMessage(names, settings.COLLECTIONS_DIR),
      });
    }
    for (const source of group) sources.splice(sources.indexOf(source), 1);
  }
  if (settings.MYSQL_URL && mysqlName !== undefined) {
    sources.push({ kind: "mysql", name: mysqlName, url: settings.MYSQL_URL, table: settings.MYSQL_TABLE });
  }
  return sources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The configuration error of folders whose names differ only by case or accents (Portuguese). */
export function collectionClashMessage(names: readonly string[], dir: string): string {
  const quoted = names.map((name) => `"${name}"`);
  const listed = `${quoted.slice(0, -1).join(", ")} e ${quoted.at(-1)!}`;
  return (
    `Pastas ${listed} em ${dir} só diferem por maiúsculas ou acentos: seriam o mesmo índice num disco que não distingue maiúsculas, ` +
    `e nenhuma delas é lida; renomeie ou junte as pastas (as outras coleções seguem normalmente).`
  );
}

/**
 * Reads every document a source offers. Documents that cannot be used (unreadable, damaged
 * PDF, larger than MAX_CONTENT_CHARS, invalid or duplicate row…) are left out and reported
 * through `onWarning`. A folder's PDFs are read in a worker thread (./../sources/pdf-extractor.ts),
 * each within PDF_TIMEOUT_MS and MAX_CONTENT_CHARS, so a hostile one never blocks this thread.
 *
 * @throws {DocumentReadError} (folder missing or unreadable) or {@link MysqlSourceError}
 *   (server unreachable, access denied, table missing…) when the source fails as a whole.
 */
export async function readSourceDocuments(
  source: CollectionSource,
  settings: Pick<Settings, "MAX_CONTENT_CHARS" | "PDF_TIMEOUT_MS">,
  onWarning: (warning: SourceWarning) => void,
  options: ReadSourceOptions = {},
): Promise<RawDocument[]> {
  if (source.kind === "folder") {
    const pdfs = new PdfExtractor({ timeoutMs: settings.PDF_TIMEOUT_MS, maxChars: settings.MAX_CONTENT_CHARS });
    const { knownFailure } = options;
    try {
      return await readCollectionFolder(source.dir, {
        collection: source.name,
        maxContentChars: settings.MAX_CONTENT_CHARS,
        readPdf: (bytes, file) => pdfs.extract(bytes, file),
        ...(knownFailure
          ? {
              knownFailure: (file, sha256) => {
                const known = knownFailure(file, sha256);
                return known && { code: known.code as DocumentWarningCode, file, message: known.message };
              },
            }
          : {}),
        onWarning: (warning) =>
          onWarning({ code: warning.code, sourceId: warning.file, message: warning.message, ...(warning.sha256 === undefined ? {} : { sha256: warning.sha256 }) }),
      });
    } finally {
      await pdfs.close();
    }
  }
  // Imported only for a MySQL source: the client library costs every other start (the CLI's search) ≈ 0.1–0.2 s.
  const { readMysqlLessons } = await import("../../adapters/sources/mysql-source.js");
  return readMysqlLessons(
    { url: source.url, collection: source.name, ...(source.table === undefined ? {} : { table: source.table }) },
    // A MySQL warning is already { code, sourceId, message }.
    { maxContentChars: settings.MAX_CONTENT_CHARS, onWarning },
  );
}
