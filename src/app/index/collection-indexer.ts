/**
 * Brings one collection's index (its UnitStore: documents are its sources, chunks its units) in
 * line with its source. Incremental:
 *
 * - The source is read first (folder or MySQL table). A source that fails as a whole (folder
 *   missing, MySQL down) throws its typed error before the store is touched: nothing already
 *   indexed is lost.
 * - Documents are diffed by SHA-256: an unchanged one costs nothing (it is only counted); a new
 *   or changed one is split (metadata block; a malformed or unparsable block is logged at
 *   ERROR and the document indexed as legacy, body only), chunked with DB_CHUNK_WORDS /
 *   DB_CHUNK_OVERLAP, its chunks' terms analysed, and written by the one write loop
 *   (./write-sources.ts): whole, in batches of documents (one transaction each in SQLite: a
 *   document is never half there); one of more than a batch of chunks in committed pieces,
 *   partial until its last (loading serves complete documents only).
 * - A document gone from the source is removed (chunks and vectors by cascade). So is one the
 *   source still lists but could not offer in a usable form (larger than MAX_CONTENT_CHARS,
 *   damaged PDF…): it is skipped with a warning naming it and, if it was indexed before,
 *   removed too (the summary says so with a `document_removed` warning).
 * - A document whose bytes could not be read within the limits (a PDF: damaged, encrypted, too
 *   much text, stopped after PDF_TIMEOUT_MS) is recorded in the manifest (`failed_documents`:
 *   its SHA-256, the limits, the warning); the next reloads skip those same bytes unread, with
 *   the same warning, so a hostile file costs its time once, not at every start. A changed file,
 *   or changed limits (MAX_CONTENT_CHARS, PDF_TIMEOUT_MS), is read again.
 * - A change of the chunk settings or of the analyzer re-chunks every document.
 * - Then the dense side (see ./collection-dense.ts).
 */
import type { UnitStore } from "../../adapters/index/store.js";
import { documentSource, type ChunkWrite, type DocumentWrite } from "../../adapters/index/document-units.js";
import type { Settings } from "../../config/settings.js";
import { ANALYZER_VERSION, analyze } from "../../core/analysis/index.js";
import { chunkDocument, documentTitle, DocumentChunkError } from "../../core/sources/chunker.js";
import { CollectionError } from "../../core/documents/errors.js";
import { splitMetaBlock } from "../../core/sources/meta-block.js";
import type { DocumentChunk, RawDocument } from "../../core/documents/types.js";
import type { Embedder } from "../../core/index/embedder.js";
import { planSync } from "../../core/index/sync-plan.js";
import { printable } from "../../core/printable.js";
import { parseDenseChoice, updateDense, type DenseChoice, type DenseKind } from "./dense.js";
import { indexedVersion, type IndexProgress } from "./indexer.js";
import { yieldToEventLoop } from "./event-loop.js";
import { writeSourcesInBatches, type SourceUnits } from "./write-sources.js";
import { collectionDenseUnits } from "./collection-dense.js";
import { isSkipWarning, readSourceDocuments, type CollectionSource, type CollectionWarning } from "./collection-sources.js";

/** Manifest key of the documents whose bytes failed to read (see the module doc). */
export const FAILED_DOCUMENTS_KEY = "failed_documents";

/** A document whose bytes failed to read, as recorded in the manifest. */
interface FailedDocument {
  sha256: string;
  /** The limits it failed under (failedLimitsKey): other limits read it again. */
  limits: string;
  code: string;
  message: string;
}

function failedLimitsKey(settings: Pick<Settings, "MAX_CONTENT_CHARS" | "PDF_TIMEOUT_MS">): string {
  return `chars=${settings.MAX_CONTENT_CHARS};pdf_timeout_ms=${settings.PDF_TIMEOUT_MS}`;
}

function parseFailedDocuments(value: string | undefined): Map<string, FailedDocument> {
  if (value === undefined) return new Map();
  try {
    const parsed = JSON.parse(value) as Record<string, FailedDocument>;
    return new Map(Object.entries(parsed).filter(([, failed]) => typeof failed?.sha256 === "string" && typeof failed.message === "string"));
  } catch {
    return new Map(); // an unreadable record only costs reading those documents again
  }
}

/** Structured logger (src/http/logger.ts's Logger fits): an event name and fields. */
export interface CollectionLogger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

/** Settings a reload reads. */
export type CollectionIndexSettings = Pick<Settings, "DB_CHUNK_WORDS" | "DB_CHUNK_OVERLAP" | "DB_CHUNK_CHARS" | "MAX_CONTENT_CHARS" | "PDF_TIMEOUT_MS" | "EMBEDDING_MODEL">;

/**
 * Bumped when what a chunk holds changes (chunker, title line, discipline rule); part of the
 * chunk settings key, so a change re-chunks every document. v2: bodies bounded in characters,
 * words longer than a chunk cut, titles and metadata blocks bounded.
 */
export const CHUNK_FORMAT_VERSION = "chunks/v2";

export interface ReloadCollectionOptions {
  store: UnitStore;
  settings: CollectionIndexSettings;
  logger?: CollectionLogger;
  /** Dense side; default parseDenseChoice(settings.EMBEDDING_MODEL). */
  dense?: DenseChoice;
  /** An already loaded embedder for a transformers choice (skips loading the model again). */
  embedder?: Embedder;
  signal?: AbortSignal;
  /**
   * How far the reload is, in the Bible indexer's terms: scanning (reading the source), lexical
   * (documents done / offered), training (LSA), dense (chunks' vectors), done; every report
   * says what it counts (documents, then chunks).
   */
  onProgress?: (progress: IndexProgress) => void;
}

export interface CollectionReloadSummary {
  collection: string;
  /** Documents and chunks in the index after the reload. */
  documents: number;
  chunks: number;
  /** Documents indexed for the first time. */
  added: number;
  /** Documents re-chunked (new content, or new chunk settings / analyzer). */
  changed: number;
  /** Documents left as they were (same SHA-256). */
  unchanged: number;
  /** Documents taken out of the index (gone from the source, or no longer offered in a usable form). */
  removed: number;
  /** Documents (or rows, or sub-folders) the source could not offer in a usable form. */
  skipped: number;
  /** Their source ids, sorted: what `pastor reload` names when it exits 1. */
  skippedDocuments: string[];
  /** Every warning, in order: skipped documents, ignored metadata blocks, removals of skipped documents. */
  warnings: CollectionWarning[];
  dense: DenseKind;
  /** Why the dense side is off (Portuguese). */
  denseOffReason?: string;
  /** Model the chunk vectors are stored under. */
  denseModel?: string;
  /** Vectors computed in this reload. */
  vectorsComputed: number;
  ms: number;
}

export type CollectionIndexErrorCode = "collection_mismatch";

/** Error raised by the collection indexer; its message is user-facing (Portuguese). */
export class CollectionIndexError extends CollectionError<CollectionIndexErrorCode> {}

/** The chunk settings key stored in the manifest: a different key re-chunks every document. */
export function chunkSettingsKey(settings: Pick<Settings, "DB_CHUNK_WORDS" | "DB_CHUNK_OVERLAP" | "DB_CHUNK_CHARS">): string {
  return `words=${settings.DB_CHUNK_WORDS};overlap=${settings.DB_CHUNK_OVERLAP};chars=${settings.DB_CHUNK_CHARS};${CHUNK_FORMAT_VERSION}`;
}

/**
 * Reloads a collection from its source (see the module doc).
 *
 * @throws {DocumentReadError} / {@link MysqlSourceError} when the source fails as a whole
 *   (the store is then untouched); {@link CollectionIndexError} `collection_mismatch` when the
 *   store belongs to another collection.
 */
export async function reloadCollection(source: CollectionSource, options: ReloadCollectionOptions): Promise<CollectionReloadSummary> {
  const started = performance.now();
  const { store, settings, logger, signal, onProgress } = options;
  if (store.name !== source.name) {
    throw new CollectionIndexError(
      "collection_mismatch",
      source.name,
      `O índice aberto é o da coleção "${store.name}", não o da coleção "${source.name}".`,
    );
  }
  const collection = source.name;
  const warnings: CollectionWarning[] = [];
  const warn: WarnFn = (raw, level = "warn", fields = {}) => {
    // The message names a file and may quote it: escaped for wherever it is shown (CLI, logs, /api/status).
    const warning = { ...raw, message: printable(raw.message) };
    warnings.push(warning);
    logger?.[level](warning.code, { collection, sourceId: warning.sourceId, ...fields, message: warning.message });
  };

  // Read everything before touching the store: a failing source throws here.
  onProgress?.({ phase: "scanning", done: 0, total: 0, counts: "documents" });
  const skippedIds = new Set<string>();
  const failedRecord = await store.getManifest(FAILED_DOCUMENTS_KEY);
  const failedBefore = parseFailedDocuments(failedRecord);
  const failedNow = new Map<string, FailedDocument>();
  const limits = failedLimitsKey(settings);
  const documents = await readSourceDocuments(
    source,
    settings,
    ({ sha256, ...warning }) => {
      if (sha256 !== undefined) failedNow.set(warning.sourceId, { sha256, limits, code: warning.code, message: warning.message });
      if (isSkipWarning(warning)) skippedIds.add(warning.sourceId);
      warn(warning);
    },
    {
      knownFailure: (sourceId, sha256) => {
        const failed = failedBefore.get(sourceId);
        if (!failed || failed.sha256 !== sha256 || failed.limits !== limits) return undefined;
        failedNow.set(sourceId, failed);
        return {
          code: failed.code,
          sourceId,
          message: `${failed.message} (Não foi lido de novo: falhou antes com este mesmo conteúdo; será relido quando o arquivo mudar.)`,
        };
      },
    },
  );
  signal?.throwIfAborted();
  const failedJson = JSON.stringify(Object.fromEntries([...failedNow].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  if (failedJson !== (failedRecord ?? "{}")) await store.setManifest(FAILED_DOCUMENTS_KEY, failedJson);

  const chunkSettings = chunkSettingsKey(settings);
  const rechunkAll = (await store.getManifest("chunk_settings")) !== chunkSettings || (await store.getManifest("analyzer_version")) !== ANALYZER_VERSION;
  const plan = planSync(
    (await store.listSources()).map(indexedVersion),
    documents.map((document) => ({ id: document.sourceId, sha256: document.sha256 })),
    { rebuild: rechunkAll },
  );
  const summary = { added: 0, changed: 0, unchanged: 0, removed: 0 };

  // Documents the source no longer offers (gone, or skipped this time).
  const remove = async (sourceId: string): Promise<void> => {
    if (!(await store.removeSource(sourceId))) return;
    summary.removed++;
    if (skippedIds.has(sourceId)) {
      warn({
        code: "document_removed",
        sourceId,
        message: `${sourceId}: removido do índice da coleção "${collection}": a fonte não oferece mais uma versão válida do documento (veja o aviso anterior).`,
      });
    }
  };
  for (const sourceId of plan.removed) await remove(sourceId);

  // Prepared documents are written whole, in batches (one transaction in SQLite, a few requests in Chroma).
  const lexicalProgress = (done: number) => onProgress?.({ phase: "lexical", done, total: documents.length, counts: "documents" });
  lexicalProgress(0);
  async function* prepared(): AsyncGenerator<SourceUnits> {
    for (const [i, document] of documents.entries()) {
      signal?.throwIfAborted();
      if (i > 0 && i % 25 === 0) lexicalProgress(i);
      const { action } = plan.steps[i]!;
      if (action === "keep") {
        summary.unchanged++;
        continue;
      }
      const write = await prepareDocument(document, source, settings, warn);
      if (!write) {
        // Could not be chunked: not a usable version; drop the old one as for any skipped document.
        skippedIds.add(document.sourceId);
        if (action !== "add") await remove(document.sourceId);
        continue;
      }
      if (action === "add") summary.added++;
      else summary.changed++;
      yield documentSource(write);
      // Chunking is the work here: the event loop runs between every 25 documents (an unchanged one costs nothing).
      if (i % 25 === 24) await yieldToEventLoop();
    }
  }
  await writeSourcesInBatches(store, prepared(), { batchUnits: WRITE_BATCH_CHUNKS, batchSources: WRITE_BATCH_DOCUMENTS, signal });
  lexicalProgress(documents.length);
  await store.setManifest("chunk_settings", chunkSettings);
  await store.setManifest("analyzer_version", ANALYZER_VERSION);

  const choice = options.dense ?? parseDenseChoice(settings.EMBEDDING_MODEL);
  const dense = await updateDense(store, collectionDenseUnits(store, chunkSettings), choice, { embedder: options.embedder, signal, onProgress });
  if (dense.dense === "off" && dense.reason) {
    // Off by configuration is news; off because a model failed or the collection is too small deserves a warning.
    const level = choice.kind === "none" ? "info" : "warn";
    logger?.[level]("collection_dense_off", { collection, reason: dense.reason });
  }
  await store.setManifest("reloaded_at", new Date().toISOString());
  const chunks = await store.unitCount();
  onProgress?.({ phase: "done", done: chunks, total: chunks, counts: "chunks" });

  const tally = { collection, documents: (await store.listSources()).length, chunks, ...summary, skipped: skippedIds.size };
  const ms = Math.round(performance.now() - started);
  const skippedDocuments = [...skippedIds].sort();
  const result: CollectionReloadSummary = { ...tally, skippedDocuments, warnings, dense: dense.dense, vectorsComputed: dense.vectorsComputed, ms };
  if (dense.reason) result.denseOffReason = dense.reason;
  if (dense.model) result.denseModel = dense.model;
  logger?.info("collection_reloaded", { ...tally, dense: dense.dense, ms });
  return result;
}

type WarnFn = (warning: CollectionWarning, level?: "warn" | "error", fields?: Record<string, unknown>) => void;

/** Documents (and chunks) written per batch. */
const WRITE_BATCH_DOCUMENTS = 100;
const WRITE_BATCH_CHUNKS = 2000;

/** The longest the analysis of one document's chunks runs before the event loop gets a turn, in ms. */
const ANALYSIS_SLICE_MS = 40;

/**
 * Splits, chunks and analyses one document, ready to write. Undefined when it cannot be chunked
 * (warned). The analysis (Snowball on every word: about 5 s for 4 million characters) lets the
 * event loop run every ANALYSIS_SLICE_MS, so one large document never holds the server.
 */
async function prepareDocument(
  document: RawDocument,
  source: CollectionSource,
  settings: CollectionIndexSettings,
  warn: WarnFn,
): Promise<DocumentWrite | undefined> {
  const split = splitMetaBlock(document.content);
  if (split.problem) {
    warn(
      {
        code: split.problem.code,
        sourceId: document.sourceId,
        message: `${document.sourceId}: bloco de metadados ignorado (${split.problem.detail}); documento indexado só pelo texto.`,
      },
      "error",
      { detail: split.problem.detail },
    );
  }
  let chunks;
  try {
    chunks = chunkDocument(
      {
        sourceId: document.sourceId,
        slug: document.slug,
        split,
        ...(document.title === undefined ? {} : { title: document.title }),
        ...(document.pages === undefined ? {} : { pages: document.pages }),
      },
      { chunkWords: settings.DB_CHUNK_WORDS, overlap: settings.DB_CHUNK_OVERLAP, chunkChars: settings.DB_CHUNK_CHARS },
    );
  } catch (error) {
    if (!(error instanceof DocumentChunkError)) throw error;
    warn({ code: error.code, sourceId: document.sourceId, message: `${document.sourceId}: ${error.message}; documento ignorado.` });
    return undefined;
  }
  // A folder's discipline is its sub-folder unless the block says otherwise; a row's is its column.
  const blockDiscipline = split.meta?.discipline?.replace(/\s+/g, " ").trim();
  const discipline = source.kind === "folder" && blockDiscipline ? blockDiscipline : document.discipline;
  return {
    sourceId: document.sourceId,
    discipline,
    slug: document.slug,
    title: documentTitle({ slug: document.slug, split, ...(document.title === undefined ? {} : { title: document.title }) }),
    sha256: document.sha256,
    ...(split.metaText === undefined ? {} : { metaText: split.metaText }),
    chunks: await analyseChunks(chunks),
  };
}

async function analyseChunks(chunks: readonly DocumentChunk[]): Promise<ChunkWrite[]> {
  const analysed: ChunkWrite[] = [];
  let slice = performance.now();
  for (const chunk of chunks) {
    analysed.push({
      chunk: chunk.chunk,
      ...(chunk.page === undefined ? {} : { page: chunk.page }),
      ...(chunk.pageEnd === undefined ? {} : { pageEnd: chunk.pageEnd }),
      title: chunk.title,
      text: chunk.text,
      body: chunk.body,
      terms: analyze(chunk.text).join(" "),
    });
    if (performance.now() - slice > ANALYSIS_SLICE_MS) {
      await yieldToEventLoop();
      slice = performance.now();
    }
  }
  return analysed;
}
