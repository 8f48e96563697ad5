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
import { ANALYZER_VERSION, analyzeTokens, SHORT_STEM_RULE } from "../../core/analysis/index.js";
import { lsaTerms, trainLsaFromBags, type LsaModel } from "../../core/index/lsa.js";
import {
  collectVerseLinks,
  documentBag,
  LINKED_DOCUMENT_WEIGHTS,
  linkedDocumentsVersion,
  linkNeighbours,
  trainingBags,
} from "../../core/index/linked-documents.js";
import { findProjectRoot } from "../../project-root.js";
import { fingerprint, type DenseUnits } from "./dense.js";

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
    trainLsa: async (starting) => {
      const corpus = await linkedCorpus(store);
      if (corpus.ids.length === 0) return { reason: "o índice está vazio: não há versículos para treinar o modelo semântico (busca só léxica)" };
      starting();
      let model: LsaModel;
      try {
        model = trainLsaFromBags(trainingBags(corpus.terms, corpus.neighbours), { wordTerms: corpus.wordTerms });
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
      return (rows) =>
        model.embedBags(
          rows.map((row) => {
            const at = corpus.position.get(row.id);
            const own = at === undefined ? [] : corpus.terms[at]!;
            const links = at === undefined ? [] : corpus.neighbours[at]!.map((j) => corpus.terms[j]!);
            const context = lsaTerms(joinWindow(row.contextBefore, "", row.contextAfter), model.wordTerms);
            return documentBag({ verse: own, context, links });
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
function collisionProneWords(texts: readonly string[]): string[] {
  const { maxLength, minExactDf } = SHORT_STEM_RULE;
  const df = new Map<string, number>();
  for (const text of texts) {
    const short = analyzeTokens(text).filter((token) => token.term.length <= maxLength && token.surface !== token.term);
    for (const word of new Set(short.map((token) => token.surface))) df.set(word, (df.get(word) ?? 0) + 1);
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
