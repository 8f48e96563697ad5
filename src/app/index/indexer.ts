import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { loadUsfxFile, usfxSourceName } from "../../adapters/sources/usfx-file.js";
import { StoreError, type SourceRecord, type UnitStore } from "../../adapters/index/store.js";
import { loadVerses, verseUnit, windowFields } from "../../adapters/index/bible-units.js";
import { ANALYZER_VERSION, analyze } from "../../core/analysis/index.js";
import { buildContextWindows } from "../../core/sources/context.js";
import { UsfxError } from "../../core/sources/usfx.js";
import { planSync, type IndexedVersion } from "../../core/index/sync-plan.js";
import { printable } from "../../core/printable.js";
import { updateDense, type DenseChoice } from "./dense.js";
import { bibleDenseUnits } from "./bible-dense.js";
import { writeSourcesInBatches, type SourceUnits } from "./write-sources.js";
import { bumpGeneration, withIndexLock } from "./index-lock.js";
import type { IndexProgress } from "./progress.js";

export type { IndexPhase, IndexProgress } from "./progress.js";

export interface IndexOptions {
  store: UnitStore;
  corpusDir: string;
  contextWindow: number;
  batchSize: number;
  dense: DenseChoice;
  onProgress?: (progress: IndexProgress) => void;
  signal?: AbortSignal;
  /** How long the indexing lock of a shared store lasts without renewal (renewed every third of it). */
  lockTtlMs?: number;
  /**
   * Runs once the index is written, before "done" (and before a shared store's lock is
   * released): the caller saves the engine's snapshot there. Its outcome goes in the summary.
   */
  onIndexed?: () => Promise<IndexSummary["snapshot"]>;
  /**
   * Runs while the corpus LSA trains on another thread, when it does (the lexical side is
   * written by then): the caller prepares the snapshot `onIndexed` saves. It must not throw.
   */
  whileTraining?: () => Promise<void>;
  /**
   * Files that failed in an earlier run: one whose content is the same (its SHA-256) is not
   * parsed again, its error is reported again (`unchanged`) and its old verses stay.
   */
  knownFailures?: readonly IndexError[];
}

/** A corpus file that could not be indexed: its name, its content's hash, and where and why (Portuguese). */
export interface IndexError {
  file: string;
  sha256: string;
  code: string;
  message: string;
  line?: number;
  column?: number;
  /** The same content failed in an earlier run and was not parsed again. */
  unchanged?: boolean;
}

export interface SourceSummary {
  file: string;
  sha256: string;
  verses: number;
  action: "unchanged" | "indexed" | "resumed" | "failed";
}

export interface IndexSummary {
  sources: SourceSummary[];
  removedSources: string[];
  versesIndexed: number;
  versesTotal: number;
  termsRewritten: number;
  vectorsComputed: number;
  /** The dense embedder's id (null: dense off). */
  embedder: string | null;
  /** The key its vectors are stored under. */
  denseModel: string | null;
  errors: IndexError[];
  /** The engine's snapshot saved after indexing (`onIndexed`): its size and time; undefined when the one stored was current or none was asked for. */
  snapshot?: { bytes: number; ms: number } | undefined;
  /** Why the snapshot could not be saved (the index is written all the same; the next start builds the engine from it and says so). */
  snapshotFailed?: string;
  ms: number;
}

const CORPUS_FILE = /\.xml(\.gz)?$/i;

export async function listCorpusFiles(corpusDir: string): Promise<string[]> {
  const entries = await readdir(corpusDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && CORPUS_FILE.test(entry.name))
    .map((entry) => path.join(corpusDir, entry.name))
    .sort();
}

/** A stored source as `planSync` compares it (a Bible file, a document: its id is its identity). */
export function indexedVersion(source: SourceRecord): SourceRecord & IndexedVersion {
  return { ...source, complete: source.status === "complete" };
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Brings the store in line with CORPUS_DIR. Incremental: an unchanged source costs a hash;
 * a changed source is re-indexed alone; a removed source's verses go; a source interrupted
 * mid-way resumes from its last committed batch; an analyzer change rewrites only the
 * lexical terms; a model or window change recomputes only vectors (and windows). A source
 * that fails to parse is reported and leaves what was indexed before untouched.
 *
 * On a shared store (Chroma) the run holds the indexing lock, renewed every third of its
 * TTL (another holder: fails with `index_locked` before writing anything; a lock lost to
 * another process: stops at the next batch), and bumps the manifest's generation when the
 * lexical side, then the dense side, has changed, so the other replicas reload.
 */
export async function indexCorpus(options: IndexOptions): Promise<IndexSummary> {
  if (!options.store.shared) return indexUnlocked(options);
  const ttlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  return withIndexLock(
    options.store,
    {
      ttlMs,
      renewEveryMs: Math.max(250, Math.floor(ttlMs / 3)),
      refused: (holder, until) => new StoreError("index_locked", `Outra réplica (${holder}) está indexando; a trava vale até ${until} se ela não a renovar.`),
      lost: () => new StoreError("index_locked", "A trava de indexação venceu e outra réplica a assumiu; esta indexação parou."),
    },
    (lost) => indexUnlocked({ ...options, signal: options.signal ? AbortSignal.any([options.signal, lost]) : lost }),
  );
}

export const DEFAULT_LOCK_TTL_MS = 30_000;

async function indexUnlocked(options: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const { store, onProgress } = options;
  const summary: IndexSummary = {
    sources: [],
    removedSources: [],
    versesIndexed: 0,
    versesTotal: 0,
    termsRewritten: 0,
    vectorsComputed: 0,
    embedder: null,
    denseModel: null,
    errors: [],
    ms: 0,
  };
  onProgress?.({ phase: "scanning", done: 0, total: 0 });

  const files = await listCorpusFiles(options.corpusDir);
  const hashes = new Map<string, { file: string; sha256: string }>();
  for (const file of files) hashes.set(usfxSourceName(file), { file, sha256: await sha256File(file) });

  const plan = planSync(
    (await store.listSources()).map(indexedVersion),
    [...hashes].map(([name, { sha256 }]) => ({ id: name, sha256 })),
    { resume: true },
  );
  for (const name of plan.removed) {
    await store.removeSource(name);
    summary.removedSources.push(name);
  }

  if ((await store.getManifest("analyzer_version")) !== ANALYZER_VERSION) {
    if ((await store.unitCount()) > 0) summary.termsRewritten = await store.rewriteTerms((text) => analyze(text).join(" "), options.batchSize);
    await store.setManifest("analyzer_version", ANALYZER_VERSION);
  }
  const windowChanged = (await store.getManifest("context_window")) !== String(options.contextWindow);

  const known = new Map((options.knownFailures ?? []).map((failure) => [failure.file, failure]));
  /** Reports a file that failed (its old verses stay as they were). */
  const failed = (error: IndexError, verses: number) => {
    summary.errors.push(error);
    summary.sources.push({ file: error.file, sha256: error.sha256, verses, action: "failed" });
  };

  // Parsed one by one as the write loop asks: a file that fails to parse is reported and leaves its old verses as they were.
  async function* parsed(): AsyncGenerator<SourceUnits> {
    for (const { id: name, action, indexed } of plan.steps) {
      options.signal?.throwIfAborted();
      const { file, sha256 } = hashes.get(name)!;
      const verses = indexed?.unitCount ?? 0;
      if (action === "keep") {
        try {
          if (windowChanged) await rewriteWindows(store, name, file, options.contextWindow);
        } catch (error) {
          if (!(error instanceof UsfxError)) throw error;
          failed(indexError(error, name, sha256), verses);
          continue;
        }
        summary.sources.push({ file: name, sha256, verses, action: "unchanged" });
        continue;
      }
      const before = known.get(name);
      if (before?.sha256 === sha256) {
        failed({ ...before, unchanged: true }, verses);
        continue;
      }
      let source: SourceUnits;
      try {
        source = await verseSource(name, file, sha256, options.contextWindow);
      } catch (error) {
        if (!(error instanceof UsfxError)) throw error;
        failed(indexError(error, name, sha256), verses);
        continue;
      }
      const from = action === "resume" ? await store.committedUnitCount(name) : 0;
      if (from > 0) source.resumeFrom = from;
      summary.sources.push({ file: name, sha256, verses: source.units.length, action: from > 0 ? "resumed" : "indexed" });
      yield source;
    }
  }
  summary.versesIndexed = await writeSourcesInBatches(store, parsed(), {
    batchUnits: options.batchSize,
    batchSources: 1,
    signal: options.signal,
    onWritten: (source, done, total) => onProgress?.({ phase: "lexical", done, total, source }),
  });
  await store.setManifest("context_window", String(options.contextWindow));
  summary.versesTotal = await store.unitCount();
  const lexicalChanged =
    summary.versesIndexed > 0 || summary.removedSources.length > 0 || summary.termsRewritten > 0 || windowChanged || summary.sources.some((s) => s.action === "indexed" || s.action === "resumed");
  if (lexicalChanged) await bumpGeneration(store);

  // Every vector embedded the old window (a transformers model reads it, the LSA's linked documents too).
  if (windowChanged) await store.deleteVectorsExcept("");
  const dense = await updateDense(store, bibleDenseUnits(store, options), options.dense, { signal: options.signal, onProgress, whileTraining: options.whileTraining });
  summary.embedder = dense.embedder?.id ?? null;
  summary.denseModel = dense.model ?? null;
  summary.vectorsComputed = dense.vectorsComputed;
  options.signal?.throwIfAborted();
  // The snapshot before the generation: replicas that reload on the bump read it instead of building.
  // The index is committed: a snapshot that cannot be saved (a unit the engine cannot be built
  // from) leaves the next start to build the engine from the index, where the failure is told.
  let snapshot: IndexSummary["snapshot"];
  try {
    snapshot = await options.onIndexed?.();
  } catch (error) {
    options.signal?.throwIfAborted();
    summary.snapshotFailed = error instanceof Error ? error.message : String(error);
  }
  if (snapshot) summary.snapshot = snapshot;
  if (dense.changed || snapshot) await bumpGeneration(store);
  onProgress?.({ phase: "done", done: summary.versesTotal, total: summary.versesTotal });
  summary.ms = Math.round(performance.now() - started);
  return summary;
}

function indexError(error: UsfxError, file: string, sha256: string): IndexError {
  return {
    file,
    sha256,
    code: error.code,
    message: printable(error.message),
    ...(error.line !== undefined ? { line: error.line, column: error.column } : {}),
  };
}

/** A file's verses with their windows and analysed terms, ready to write (parsed before the store is touched). */
async function verseSource(name: string, file: string, sha256: string, contextWindow: number): Promise<SourceUnits> {
  const windows = buildContextWindows(await loadUsfxFile(file), contextWindow);
  return { id: name, sha256, units: windows.map((entry, ord) => verseUnit({ ...entry, source: name }, ord, analyze(entry.text).join(" "))) };
}

async function rewriteWindows(store: UnitStore, name: string, file: string, contextWindow: number): Promise<void> {
  const windows = buildContextWindows(await loadUsfxFile(file), contextWindow);
  const ids = new Map((await loadVerses(store)).filter((v) => v.source === name).map((v) => [v.ord, v.id]));
  await store.updateFields(
    windows.flatMap((entry, ord) => {
      const id = ids.get(ord);
      return id === undefined ? [] : [{ id, fields: windowFields(entry) }];
    }),
  );
}
