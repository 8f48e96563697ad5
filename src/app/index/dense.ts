import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Awaitable, UnitStore } from "../../adapters/index/store.js";
import { loadVerses, type MissingVector } from "../../adapters/index/bible-units.js";
import { CROSS_REFERENCES_FILE, loadCrossReferences } from "../../adapters/sources/cross-references-file.js";
import { createTransformersEmbedder, EmbedderLoadError } from "../../adapters/index/transformers-embedder.js";
import type { Embedder } from "../../core/index/embedder.js";
import { analyzeTokens, SHORT_STEM_RULE } from "../../core/analysis/index.js";
import { createLsaEmbedder, deserializeLsa, lsaTerms, trainLsaFromBags, type LsaModel } from "../../core/index/lsa.js";
import {
  collectVerseLinks,
  documentBag,
  LINKED_DOCUMENT_WEIGHTS,
  linkedDocumentsVersion,
  linkNeighbours,
  trainingBags,
} from "../../core/index/linked-documents.js";
import { findProjectRoot } from "../../project-root.js";
import { yieldToEventLoop } from "./event-loop.js";

/**
 * Chooses the dense side from EMBEDDING_MODEL:
 * - "lsa" (default): Latent Semantic Analysis learned from this corpus at index time, each
 *   verse together with the verses OpenBible.info readers link it with (linked documents,
 *   src/core/index/linked-documents.ts); persisted in the store, retrained only when the
 *   corpus, the window or the links change.
 * - "none" / "off": no dense side; search is lexical and says so.
 * - anything else: a transformers.js model id (downloaded on a machine with internet) or a
 *   local folder.
 */
export type DenseChoice = { kind: "lsa" } | { kind: "none"; reason: string } | { kind: "transformers"; model: string };

export function parseDenseChoice(embeddingModel: string): DenseChoice {
  const value = embeddingModel.trim();
  if (value === "" || value.toLowerCase() === "lsa") return { kind: "lsa" };
  if (["none", "off", "false", "0"].includes(value.toLowerCase())) {
    return { kind: "none", reason: "EMBEDDING_MODEL=none: o lado denso foi desligado na configuração" };
  }
  return { kind: "transformers", model: value };
}

export interface DenseContext {
  store: UnitStore;
  /** Fingerprint of everything the corpus-trained model depends on (sources, window). */
  corpusFingerprint: string;
  onTraining?: (phase: "start" | "done", detail: { documents: number; ms?: number }) => void;
}

/** Loads the dense embedder for a choice, training and persisting the LSA model if needed. */
export async function prepareEmbedder(choice: DenseChoice, context: DenseContext): Promise<Embedder | undefined> {
  switch (choice.kind) {
    case "none":
      return undefined;
    case "transformers":
      return createTransformersEmbedder({ model: choice.model });
    case "lsa":
      return prepareLsa(context);
  }
}

/**
 * The transformers.js model (or `preloaded`), or why it could not be loaded (Portuguese), for
 * a caller that then serves lexical search: the Bible's engine and every collection.
 */
export async function transformersOrReason(model: string, preloaded?: Embedder): Promise<{ embedder: Embedder } | { reason: string }> {
  if (preloaded) return { embedder: preloaded };
  try {
    return { embedder: await createTransformersEmbedder({ model }) };
  } catch (error) {
    // The adapter's own errors already name the model ("Não foi possível carregar o modelo de embeddings '…': …").
    const detail = error instanceof Error ? error.message : String(error);
    const reason = error instanceof EmbedderLoadError ? detail : `o modelo de embeddings "${model}" não pôde ser carregado: ${detail}`;
    return { reason: `${reason} (busca só léxica)` };
  }
}

/**
 * The vectors of `units` as one matrix in their order (row i: unit i), what the search core
 * scans; a unit without a vector of `dimensions` gets a zero row (no dense signal for it).
 */
export function vectorMatrix(units: readonly { id: number }[], vectors: ReadonlyMap<number, Float32Array>, dimensions: number): Float32Array {
  const matrix = new Float32Array(units.length * dimensions);
  units.forEach((unit, row) => {
    const vector = vectors.get(unit.id);
    if (vector && vector.length === dimensions) matrix.set(vector, row * dimensions);
  });
  return matrix;
}

export interface EmbedBatchesOptions<Row> {
  batchSize: number;
  /** The vectors of one batch, in its order. */
  embed(batch: readonly Row[]): Awaitable<Float32Array[]>;
  /** Stores one batch's vectors (before the next batch is embedded). */
  save(rows: { id: number; vector: Float32Array }[]): Awaitable<void>;
  /** Rows done so far, after each batch. */
  onBatch?(done: number): void;
  signal?: AbortSignal | undefined;
}

/**
 * Embeds rows batch by batch, each batch saved before the next (an interrupted run keeps what
 * it saved, and the next run embeds only what is still missing); the signal is checked before
 * each batch, and the event loop runs after each. The one loop of the Bible's and the
 * collections' dense sides. How many rows were embedded.
 */
export async function embedInBatches<Row extends { id: number }>(rows: readonly Row[], options: EmbedBatchesOptions<Row>): Promise<number> {
  for (let start = 0; start < rows.length; start += options.batchSize) {
    options.signal?.throwIfAborted();
    const batch = rows.slice(start, start + options.batchSize);
    const vectors = await options.embed(batch);
    await options.save(batch.map((row, i) => ({ id: row.id, vector: vectors[i]! })));
    options.onBatch?.(start + batch.length);
    await yieldToEventLoop();
  }
  return rows.length;
}

/** Loads the stored LSA model for the current corpus without training (for serving). */
export async function loadStoredLsa(store: UnitStore, corpusFingerprint: string): Promise<Embedder | undefined> {
  const data = await store.loadModel(lsaModelKey(corpusFingerprint));
  return data ? lsaEmbedder(deserializeLsa(data)) : undefined;
}

function lsaModelKey(corpusFingerprint: string): string {
  return `lsa-for:${corpusFingerprint}`;
}

/** The LSA model behind an embedder this module made (for the linked document vectors). */
const lsaModels = new WeakMap<Embedder, LsaModel>();
/** The linked corpus a model was just trained on, so indexing right after does not read it again. */
const trainedOn = new WeakMap<LsaModel, LinkedCorpus>();

type LinkedCorpus = Awaited<ReturnType<typeof linkedCorpus>>;

function lsaEmbedder(model: LsaModel): Embedder {
  const embedder = createLsaEmbedder(model);
  lsaModels.set(embedder, model);
  return embedder;
}

/**
 * The words that stand for themselves in the corpus LSA, by the lexical side's rule for
 * collision-prone short stems (`SHORT_STEM_RULE`). Measured: "estou com medo do futuro" stopped bringing Ezekiel's
 * measurements (docs/RETRIEVAL.md).
 */
function collisionProneWords(texts: readonly string[]): string[] {
  const { maxLength, minExactDf } = SHORT_STEM_RULE;
  const df = new Map<string, number>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const token of analyzeTokens(text)) {
      if (token.term.length <= maxLength && token.surface !== token.term) seen.add(token.surface);
    }
    for (const word of seen) df.set(word, (df.get(word) ?? 0) + 1);
  }
  return [...df].filter(([, count]) => count >= minExactDf).map(([word]) => word).sort();
}

/** Verses (non-empty, in store order), their LSA terms and their linked neighbours. */
async function linkedCorpus(
  store: UnitStore,
  wordTerms?: ReadonlySet<string>,
): Promise<{ ids: number[]; terms: string[][]; neighbours: number[][]; position: Map<number, number>; wordTerms: string[] }> {
  const verses = (await loadVerses(store)).filter((verse) => verse.text !== "");
  const words = wordTerms ? [...wordTerms] : collisionProneWords(verses.map((verse) => verse.text));
  const wordSet = new Set(words);
  const terms = verses.map((verse) => lsaTerms(verse.text, wordSet));
  const links = collectVerseLinks(verses, await loadCrossReferences());
  const neighbours = linkNeighbours(verses.length, links, LINKED_DOCUMENT_WEIGHTS.linksPerVerse);
  const ids = verses.map((verse) => verse.id);
  return { ids, terms, neighbours, position: new Map(ids.map((id, i) => [id, i])), wordTerms: words };
}

async function prepareLsa({ store, corpusFingerprint, onTraining }: DenseContext): Promise<Embedder | undefined> {
  const stored = await loadStoredLsa(store, corpusFingerprint);
  if (stored) return stored;
  const corpus = await linkedCorpus(store);
  if (corpus.ids.length === 0) return undefined;
  onTraining?.("start", { documents: corpus.ids.length });
  const started = performance.now();
  const model = trainLsaFromBags(trainingBags(corpus.terms, corpus.neighbours), { wordTerms: corpus.wordTerms });
  trainedOn.set(model, corpus);
  await store.saveModel(lsaModelKey(corpusFingerprint), model.serialize());
  onTraining?.("done", { documents: corpus.ids.length, ms: performance.now() - started });
  return lsaEmbedder(model);
}

/** How the index computes the stored vectors of verses for an embedder. */
export interface DocumentVectorizer {
  vectors(rows: readonly MissingVector[]): Promise<Float32Array[]>;
}

/**
 * The corpus LSA embeds each verse's linked document (the verse, its window and the verses
 * readers link it with, as weighted bags); any other embedder embeds the window text.
 */
export async function documentVectorizer(embedder: Embedder, store: UnitStore): Promise<DocumentVectorizer> {
  const model = lsaModels.get(embedder);
  if (!model) {
    return { vectors: (rows) => embedder.embed(rows.map((row) => denseDocument(row.contextBefore, row.text, row.contextAfter)), "document") };
  }
  const corpus = trainedOn.get(model) ?? (await linkedCorpus(store, model.wordTerms));
  return {
    vectors: (rows) =>
      Promise.resolve(
        rows.map((row) => {
          const at = corpus.position.get(row.id);
          const own = at === undefined ? [] : corpus.terms[at]!;
          const links = at === undefined ? [] : corpus.neighbours[at]!.map((j) => corpus.terms[j]!);
          const context = lsaTerms(joinWindow(row.contextBefore, "", row.contextAfter), model.wordTerms);
          return model.embedBag(documentBag({ verse: own, context, links }));
        }),
      ),
  };
}

let crossReferencesDigest: Promise<string> | undefined;

/** Part of the corpus fingerprint: the links file and the weights the linked LSA is built with. */
export function linkedLsaVersion(): Promise<string> {
  crossReferencesDigest ??= readFile(join(findProjectRoot(), CROSS_REFERENCES_FILE)).then((bytes) =>
    createHash("sha256").update(bytes).digest("hex").slice(0, 16),
  );
  return crossReferencesDigest.then((digest) => `${linkedDocumentsVersion()}/links=${digest}`);
}

/** The verse with its context window, in reading order. */
export function joinWindow(before: string, text: string, after: string): string {
  return [before, text, after].filter((part) => part !== "").join(" ");
}

/**
 * Version of what the dense side embeds for a verse; part of the key vectors are stored
 * under, so changing the document format recomputes them for every embedder.
 */
export const DENSE_DOCUMENT_FORMAT = "window+verse/v2";

/**
 * The text the dense side embeds for a verse: its context window, then the verse once more,
 * so the window gives the topic and the verse stays the centre of gravity (measured on LSA:
 * MRR 0.43 → 0.58 on nearest-window checks, and better fused results on the dev queries).
 */
export function denseDocument(before: string, text: string, after: string): string {
  return `${joinWindow(before, text, after)} ${text}`;
}

/** The key under which an embedder's vectors are stored (model id + document format). */
export function vectorKey(embedder: Pick<Embedder, "id">): string {
  const format = embedder.id.startsWith("lsa:") ? linkedDocumentsVersion() : DENSE_DOCUMENT_FORMAT;
  return `${embedder.id}|${format}`;
}

export function fingerprint(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\u0000");
  return hash.digest("hex").slice(0, 16);
}
