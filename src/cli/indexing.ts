import path from "node:path";
import type { UnitStore } from "../adapters/index/store.js";
import type { CollectionService } from "../app/collection-service.js";
import type { IndexSummary } from "../app/index/indexer.js";
import type { Settings } from "../config/settings.js";
import { printable } from "../core/printable.js";
import { InputError } from "./errors.js";
import { requireCorpusFiles, requireWritableDataDir } from "./folders.js";
import { indexState } from "./index-state.js";

/** Indexes CORPUS_DIR into the store, with the progress bar on stderr (when bars are allowed). */
export async function runIndexing(settings: Settings, store: UnitStore): Promise<IndexSummary> {
  await requireCorpusFiles(settings.CORPUS_DIR);
  // Loaded here, not at start: a search on a built index never needs the indexer, the USFX parser or the bar.
  const [{ parseDenseChoice }, { indexCorpus }, { indexSnapshots }, { createProgressReporter }] = await Promise.all([
    import("../app/index/dense.js"),
    import("../app/index/indexer.js"),
    import("../app/retrieval/engine-snapshot.js"),
    import("./progress.js"),
  ]);
  const progress = createProgressReporter();
  try {
    return await indexCorpus({
      store,
      corpusDir: path.resolve(settings.CORPUS_DIR),
      contextWindow: settings.CONTEXT_WINDOW,
      batchSize: settings.INDEX_BATCH_SIZE,
      dense: parseDenseChoice(settings.EMBEDDING_MODEL),
      lockTtlMs: settings.INDEX_LOCK_TTL_MS,
      ...(settings.SNAPSHOTS ? indexSnapshots(store) : {}),
      onProgress: (p) => {
        progress.update(p);
        if (process.env.PASTOR_PROGRESS_LINES === "1" && p.phase === "lexical") console.log(`progress ${p.done}/${p.total}`);
      },
    });
  } finally {
    progress.stop();
  }
}

/** The per-file errors of an indexing run, one `erro:` line each on stderr (file and line are in the message). */
export function printIndexErrors(summary: IndexSummary): void {
  for (const error of summary.errors) console.error(`erro: ${printable(error.message)}`);
}

/**
 * Makes sure there is an index to answer from. An empty one is built first (once; the notices
 * and the progress go to stderr, so `--json` output stays clean); one behind the corpus is
 * used as it is, with a notice. Returns the summary when it built the index: a corpus file
 * that failed is named and the caller exits with 1 after answering from the rest.
 */
export async function ensureIndex(settings: Settings, store: UnitStore): Promise<IndexSummary | undefined> {
  const files = await requireCorpusFiles(settings.CORPUS_DIR).catch(async (error: unknown) => {
    if ((await store.unitCount()) > 0) return undefined; // an index without its corpus folder (a replica): serve it
    throw error;
  });
  if (!files) return undefined;
  const state = await indexState(store, files);
  if (state.kind === "stale") console.error(`aviso: o índice está desatualizado (${printable(state.reason)}): rode \`pastor index\` para atualizá-lo.`);
  if (state.kind !== "empty") return undefined;

  console.error(`pastor: o índice está vazio; indexando ${printable(settings.CORPUS_DIR)} antes de responder (só desta vez; cerca de 20 s)…`);
  const summary = await runIndexing(settings, store);
  printIndexErrors(summary);
  if (summary.versesTotal === 0) throw new InputError(`nenhum versículo foi indexado de ${settings.CORPUS_DIR}`);
  console.error(`pastor: índice pronto: ${summary.versesTotal} versículos em ${(summary.ms / 1000).toFixed(1)} s.`);
  return summary;
}

/**
 * Makes sure a document collection has an index to answer from, as `ensureIndex` does for the
 * Bible: one never read (or read empty) is read from its source first, once, with the notices
 * and the progress on stderr. An unknown name fails with the collections there are.
 */
export async function ensureCollection(collections: CollectionService, name: string, settings: Settings): Promise<void> {
  const loaded = collections.get(name);
  if (loaded && loaded.chunks > 0) return;
  requireWritableDataDir(settings.DATA_DIR);
  console.error(`pastor: a coleção "${printable(name)}" ainda não foi lida; lendo sua fonte antes de responder (só desta vez)…`);
  const { createProgressReporter } = await import("./progress.js");
  const progress = createProgressReporter();
  const [summary] = await collections.reload(name, (_collection, report) => progress.update({ ...report, source: name })).finally(() => progress.stop());
  if (!summary || summary.chunks === 0) throw new InputError(`a coleção "${name}" está vazia: nenhum trecho foi lido de sua fonte`);
  console.error(`pastor: coleção pronta: ${summary.documents} documentos, ${summary.chunks} trechos em ${summary.ms} ms.`);
}
