/**
 * The Bible's side of the one dense updater (./dense.ts): what its corpus LSA learns from and
 * how a verse is embedded.
 *
 * - The corpus LSA learns from linked documents: each verse with the verses OpenBible.info
 *   readers link it with, as weighted bags (src/core/index/linked-documents.ts). Its
 *   fingerprint covers the sources, the window, the analyzer, the document format and the
 *   links file with their weights.
 * - A transformers model embeds the verse's context window, then the verse once more.
 * - Vectors are stored under the embedder's id and the document format (`vectorKey`), so
 *   changing what is embedded recomputes them for every embedder.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { UnitStore } from "../../adapters/index/store.js";
import { loadVerses, versesMissingVectors, type MissingVector } from "../../adapters/index/bible-units.js";
import { CROSS_REFERENCES_FILE, loadCrossReferences } from "../../adapters/sources/cross-references-file.js";
import { ANALYZER_VERSION, analyzeTokens, SHORT_STEM_RULE, type AnalyzedToken } from "../../core/analysis/index.js";
import { lsaTerms, lsaTokenTerms, trainLsaFromBags, trainLsaFromBagsWith, type LsaModel } from "../../core/index/lsa.js";
import {
  collectVerseLinks,
  LINKED_DOCUMENT_WEIGHTS,
  linkedDocumentsVersion,
  linkNeighbours,
  trainingBags,
} from "../../core/index/linked-documents.js";
import { findProjectRoot } from "../../project-root.js";
import { fingerprint, type DenseUnits } from "./dense.js";
import { svdWhile } from "./svd-thread.js";

/** From this many verses the LSA's SVD runs on a worker thread (the Bible: 31,102). */
const SVD_THREAD_MIN_DOCUMENTS = 2_000;

/** What the Bible's dense side needs to know about an index run. */
export interface BibleDenseOptions {
  contextWindow: number;
  /** Verses embedded (and written) per batch. */
  batchSize: number;
}

/** The Bible's verses as the dense updater and loader see them (see the module doc). */
export function bibleDenseUnits(store: UnitStore, options: BibleDenseOptions): DenseUnits<MissingVector> {
  // The linked corpus a model was just trained on, so embedding right after does not read it again.
  let trainedOn: { model: LsaModel; corpus: LinkedCorpus } | undefined;
  return {
    batchSize: { lsa: options.batchSize, transformers: options.batchSize },
    ...BIBLE_DENSE_SERVING,
    lsaFingerprint: async () =>
      fingerprint([
        ...(await store.listSources()).map((source) => `${source.id}:${source.sha256}:${source.status}`),
        `window=${options.contextWindow}`,
        `analyzer=${ANALYZER_VERSION}`,
        `dense-document=${DENSE_DOCUMENT_FORMAT}`,
        `linked-lsa=${await linkedLsaVersion()}`,
      ]),
    trainLsa: async (starting, whileTraining) => {
      const corpus = await linkedCorpus(store);
      if (corpus.ids.length === 0) return { reason: "o índice está vazio: não há versículos para treinar o modelo semântico (busca só léxica)" };
      starting();
      let model: LsaModel;
      try {
        const bags = trainingBags(corpus.terms, corpus.neighbours);
        const options = { wordTerms: corpus.wordTerms };
        // A corpus the size of a Bible trains its SVD on the second core; a small one here (a thread costs more than it saves).
        model = bags.length >= SVD_THREAD_MIN_DOCUMENTS ? await trainLsaFromBagsWith(bags, options, svdWhile(whileTraining)) : trainLsaFromBags(bags, options);
      } catch (error) {
        // Too few verses, or no word in more than one of them: nothing to learn from.
        if (!(error instanceof RangeError)) throw error;
        return { reason: "o corpus não tem vocabulário suficiente para treinar o modelo semântico (busca só léxica)" };
      }
      trainedOn = { model, corpus };
      return model;
    },
    missing: (key) => versesMissingVectors(store, key),
    lsaVectorizer: async (model) => {
      const corpus = trainedOn?.model === model ? trainedOn.corpus : await linkedCorpus(store, model.wordTerms);
      trainedOn = undefined;
      // Each verse's terms as the model's columns, once: a document is its verse, its window and its links.
      const columns = corpus.terms.map((terms) => model.columnsOf(terms));
      const weights = LINKED_DOCUMENT_WEIGHTS;
      return (rows) =>
        model.embedColumnBags(
          rows.map((row) => {
            const at = corpus.position.get(row.id);
            const part = (weight: number) => (j: number) => ({ columns: columns[j]!, weight });
            // The window's verses when the stored window is theirs (it is, unless the index was written otherwise); else its text analysed.
            const window = at === undefined ? undefined : windowVerses(corpus, at, row);
            const context = window
              ? window.map(part(weights.documentContext))
              : [{ columns: model.columnsOf(lsaTerms(joinWindow(row.contextBefore, "", row.contextAfter), model.wordTerms)), weight: weights.documentContext }];
            return [
              ...(at === undefined ? [] : [part(weights.documentVerse)(at)]),
              ...context,
              ...(at === undefined ? [] : corpus.neighbours[at]!.map(part(weights.documentLink))),
            ];
          }),
        );
    },
    documentText: (row) => denseDocument(row.contextBefore, row.text, row.contextAfter),
  };
}

/** What serving the Bible needs of its dense units: the stale reason and the vector key. */
export const BIBLE_DENSE_SERVING: Pick<DenseUnits<MissingVector>, "staleReason" | "vectorKey"> = {
  /** Why the Bible is served lexically when its vectors do not match EMBEDDING_MODEL. */
  staleReason: "o lado denso da Bíblia não foi calculado para o EMBEDDING_MODEL atual (rode a indexação)",
  /** The key under which an embedder's verse vectors are stored (model id + document format). */
  vectorKey: (embedderId) => `${embedderId}|${embedderId.startsWith("lsa:") ? linkedDocumentsVersion() : DENSE_DOCUMENT_FORMAT}`,
};

type LinkedCorpus = Awaited<ReturnType<typeof linkedCorpus>>;

/**
 * The words that stand for themselves in the corpus LSA, by the lexical side's rule for
 * collision-prone short stems (`SHORT_STEM_RULE`). Measured: "estou com medo do futuro" stopped bringing Ezekiel's
 * measurements (docs/RETRIEVAL.md).
 */
function collisionProneWords(analysed: readonly (readonly AnalyzedToken[])[]): string[] {
  const { maxLength, minExactDf } = SHORT_STEM_RULE;
  const df = new Map<string, number>();
  for (const tokens of analysed) {
    const short = tokens.filter((token) => token.term.length <= maxLength && token.surface !== token.term);
    for (const word of new Set(short.map((token) => token.surface))) df.set(word, (df.get(word) ?? 0) + 1);
  }
  return [...df].filter(([, count]) => count >= minExactDf).map(([word]) => word).sort();
}

/** Verses (non-empty, in store order), their LSA terms and their linked neighbours. */
async function linkedCorpus(
  store: UnitStore,
  wordTerms?: ReadonlySet<string>,
): Promise<{
  ids: number[];
  terms: string[][];
  /** Each verse's text, and its source and book (a window never leaves them). */
  texts: string[];
  runs: string[];
  neighbours: number[][];
  position: Map<number, number>;
  wordTerms: string[];
}> {
  const verses = (await loadVerses(store)).filter((verse) => verse.text !== "");
  // Each verse analysed once: the words that stand for themselves are found in the same tokens.
  const analysed = verses.map((verse) => analyzeTokens(verse.text));
  const words = wordTerms ? [...wordTerms] : collisionProneWords(analysed);
  const wordSet = new Set(words);
  const terms = analysed.map((tokens) => lsaTokenTerms(tokens, wordSet));
  const links = collectVerseLinks(verses, await loadCrossReferences());
  const neighbours = linkNeighbours(verses.length, links, LINKED_DOCUMENT_WEIGHTS.linksPerVerse);
  const ids = verses.map((verse) => verse.id);
  const texts = verses.map((verse) => verse.text);
  const runs = verses.map((verse) => `${verse.source}\u0000${verse.book}`);
  return { ids, terms, texts, runs, neighbours, position: new Map(ids.map((id, i) => [id, i])), wordTerms: words };
}

/**
 * The corpus positions whose texts make the row's stored window (before, then after: the
 * nearest verses of its book, joined by spaces, as `buildContextWindows` writes it), or
 * undefined when the stored window is not that. The window's terms are then theirs: the
 * analysis reads word by word.
 */
function windowVerses(corpus: Pick<LinkedCorpus, "texts" | "runs">, at: number, row: { contextBefore: string; contextAfter: string }): number[] | undefined {
  const before = side(corpus, at, row.contextBefore, -1);
  const after = before && side(corpus, at, row.contextAfter, 1);
  return before && after ? [...before.reverse(), ...after] : undefined;
}

/** The positions next to `at` in direction `step`, nearest first, whose texts joined (in reading order) are `joined`. */
function side(corpus: Pick<LinkedCorpus, "texts" | "runs">, at: number, joined: string, step: 1 | -1): number[] | undefined {
  if (joined === "") return [];
  const positions: number[] = [];
  let length = -1;
  for (let j = at + step; length < joined.length && j >= 0 && j < corpus.texts.length && corpus.runs[j] === corpus.runs[at]; j += step) {
    positions.push(j);
    length += corpus.texts[j]!.length + 1;
  }
  if (Math.max(length, 0) !== joined.length) return undefined;
  const reading = step === 1 ? positions : [...positions].reverse();
  return reading.map((j) => corpus.texts[j]).join(" ") === joined ? positions : undefined;
}

let crossReferencesDigest: Promise<string> | undefined;

/** Part of the corpus fingerprint: the links file and the weights the linked LSA is built with. */
function linkedLsaVersion(): Promise<string> {
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
