/**
 * Hybrid search over one document collection: the lexical side in silos (one per discipline,
 * so a word common in one discipline keeps its weight in another; the same `LexicalSide` as
 * the Bible's, plain BM25 by default, with the words typed without accents restored to the
 * collection's spelling as for the Bible) and dense
 * similarity over the chunks' vectors, fused by rank (RRF) with the lexical-only quota.
 *
 * Scores of different silos are not comparable (each has its own IDF and average length),
 * so silo rankings are merged by rank, never by score. Pure apart from the embedder call.
 */
import { analyze, analyzeTokens, corpusAccentRestorer, foldAccents, restoreAccentsIn, type AccentRestorer } from "../analysis/index.js";
import { textVocabulary, type CorpusVocabulary } from "./scope/features.js";
import { decideScope, type ScopeDecision, type ScopeGateData } from "./scope/gate.js";
import type { Embedder } from "../index/embedder.js";
import { DEFAULT_HYBRID_SETTINGS, DENSE, LEXICAL, fuseHybrid, type HybridSearchSettings } from "./fusion.js";
import { reciprocalRankFusion, RRF_K } from "./rrf.js";
import { denseAvailable, denseHits, denseSide, effectiveMode, type DenseSide, type SearchMode } from "./dense-side.js";
import { LexicalSide, PLAIN_LEXICAL, type LexicalSettings } from "./lexical-side.js";
import { documentKey, formatDocumentCitation } from "../documents/citation.js";
import type { DocumentHit, IndexedChunk } from "../documents/types.js";

export type DocumentSearchMode = SearchMode;

/** The hybrid search's settings and its lexical side's (phrases, exact words, expansions…). */
export type DocumentSearchSettings = HybridSearchSettings & LexicalSettings;

/** Plain BM25 in every silo (no phrase, exact-word or expansion signal: not measured on lessons yet). */
export const DEFAULT_DOCUMENT_SEARCH_SETTINGS: DocumentSearchSettings = { ...DEFAULT_HYBRID_SETTINGS, ...PLAIN_LEXICAL };

export interface DocumentSearchDependencies {
  embedder?: Embedder;
  /** Why there is no dense side, when there is none (shown to the user). */
  denseUnavailableReason?: string;
  /** The out-of-scope gate's lexicons and classifier, judged against this collection's vocabulary. */
  scope?: ScopeGateData;
}

export interface DocumentSearchOptions {
  /** How many results (default: settings.topK). */
  k?: number;
  mode?: DocumentSearchMode;
  /** Search only this discipline's silo. */
  discipline?: string;
}

export interface DocumentSearchResponse {
  query: string;
  collection: string;
  /** The mode actually used (hybrid and dense fall back to lexical without a dense side). */
  mode: DocumentSearchMode;
  results: DocumentHit[];
  /** Plain-Portuguese notes about how the answer was produced (degraded modes, unknown discipline). */
  notices: string[];
  /** Whether the collection has anything to say about the question (the out-of-scope gate), when loaded. */
  scope?: ScopeDecision;
}

/** One discipline's lexical statistics: a lexical side over its chunks alone. */
interface Silo {
  discipline: string;
  lexical: LexicalSide;
  /** Silo-local document id → position in the collection's chunk list. */
  docs: number[];
}

/** A lexical hit, `doc` being the position in the collection's chunk list. */
interface LexicalHit {
  doc: number;
  score: number;
  matchedTerms: string[];
}

interface DenseHit {
  doc: number;
  similarity: number;
}

interface RankedDoc {
  doc: number;
  score: number;
  via: ("lexical" | "dense")[];
}


/**
 * Search over one collection's chunks. Thin: the ranking is the pure functions below;
 * the class holds the silos, the vector index and the lookup of chunks by coordinate.
 */
export class DocumentSearch {
  private readonly chunks: readonly IndexedChunk[];
  private readonly silos: ReadonlyMap<string, Silo>;
  private readonly dense: DenseSide;
  private readonly byKey = new Map<string, number>();
  private vocabularyValue: CorpusVocabulary | undefined;
  /** Unaccented words back to the collection's spelling, for its silos and the gate alike. */
  private readonly restoreAccents: AccentRestorer;

  constructor(
    readonly collection: string,
    chunks: readonly IndexedChunk[],
    /** Row i is the unit vector of chunks[i]. */
    vectorMatrix: Float32Array | undefined,
    private readonly deps: DocumentSearchDependencies = {},
    readonly settings: DocumentSearchSettings = DEFAULT_DOCUMENT_SEARCH_SETTINGS,
  ) {
    this.chunks = chunks;
    this.restoreAccents = corpusAccentRestorer(chunks, (term) => this.termDocuments(term) > 0);
    this.silos = buildSilos(chunks, settings, this.restoreAccents);
    chunks.forEach((chunk, doc) => {
      const key = documentKey(chunk.sourceId, chunk.chunk);
      if (!this.byKey.has(key)) this.byKey.set(key, doc);
    });
    this.dense = denseSide(vectorMatrix, deps.embedder, chunks.length, {
      unavailable: deps.denseUnavailableReason,
      mismatch: "os vetores não correspondem aos trechos da coleção",
    });
  }

  get size(): number {
    return this.chunks.length;
  }

  /** The collection's vocabulary, for the out-of-scope gate. */
  vocabulary(): CorpusVocabulary {
    this.vocabularyValue ??= textVocabulary(this.chunks, (text) => analyzeTokens(text, this.restoreAccents));
    return this.vocabularyValue;
  }

  get denseAvailable(): boolean {
    return denseAvailable(this.dense);
  }

  /** The collection's disciplines (its lexical silos), sorted. */
  disciplines(): string[] {
    return [...this.silos.keys()].sort((a, b) => a.localeCompare(b, "pt"));
  }

  chunkAt(sourceId: string, chunk: number): IndexedChunk | undefined {
    const doc = this.byKey.get(documentKey(sourceId, chunk));
    return doc === undefined ? undefined : this.chunks[doc];
  }

  async search(query: string, options: DocumentSearchOptions = {}): Promise<DocumentSearchResponse> {
    const k = Math.max(0, Math.floor(options.k ?? this.settings.topK));
    const { mode, notices } = effectiveMode(options.mode ?? "hybrid", this.dense);
    const respond = (results: DocumentHit[]): DocumentSearchResponse => {
      const response: DocumentSearchResponse = { query, collection: this.collection, mode, results, notices };
      const scope = this.deps.scope;
      if (scope) {
        const evidence = results.map((hit) => ({ via: hit.via, matchedTerms: hit.matchedTerms, reference: hit.citation }));
        response.scope = decideScope({ ...scope, vocabulary: this.vocabulary() }, { question: query, results: evidence });
      }
      return response;
    };

    let silos = [...this.silos.values()];
    if (options.discipline !== undefined) {
      const silo = findSilo(this.silos, options.discipline);
      if (!silo) {
        notices.push(unknownDisciplineNotice(options.discipline, this.collection, this.disciplines()));
        return respond([]);
      }
      silos = [silo];
    }

    // A query with no searchable word (empty, stopwords only) finds nothing on either side.
    if (analyze(query).length === 0 || k === 0) return respond([]);

    const depth = k * this.settings.candidateMultiplier;
    const lexical = mode === "dense" ? [] : mergeSiloRankings(silos.map((silo) => searchSilo(silo, query, depth)), depth);
    let dense: DenseHit[] = [];
    if (mode !== "lexical") {
      const only = silos.length === this.silos.size ? undefined : new Set(silos.map((silo) => silo.discipline));
      const allowed = only ? (doc: number) => only.has(this.chunks[doc]!.discipline) : undefined;
      dense = await denseHits(this.dense, restoreAccentsIn(query, this.restoreAccents), depth, this.settings.minSimilarity, allowed);
    }

    const ranked = rankDocs(mode, lexical, dense, k, this.settings, (doc) => this.key(doc));
    const lexicalByDoc = new Map(lexical.map((hit) => [hit.doc, hit]));
    const similarityByDoc = new Map(dense.map((hit) => [hit.doc, hit.similarity]));
    return respond(
      ranked.map((item, index) =>
        toHit(this.chunks[item.doc]!, item, index + 1, lexicalByDoc.get(item.doc), similarityByDoc.get(item.doc)),
      ),
    );
  }

  /** How many chunks of the collection, whatever their silo, have an analysed term. */
  private termDocuments(term: string): number {
    let count = 0;
    for (const silo of this.silos.values()) count += silo.lexical.index.documentFrequency(term);
    return count;
  }

  private key(doc: number): string {
    const chunk = this.chunks[doc]!;
    return documentKey(chunk.sourceId, chunk.chunk);
  }
}

/** One silo per discipline, in order of first appearance, each indexing its own chunks only. */
function buildSilos(chunks: readonly IndexedChunk[], settings: LexicalSettings, restoreAccents: AccentRestorer): Map<string, Silo> {
  const members = new Map<string, number[]>();
  chunks.forEach((chunk, doc) => {
    const docs = members.get(chunk.discipline);
    if (docs) docs.push(doc);
    else members.set(chunk.discipline, [doc]);
  });
  const silos = new Map<string, Silo>();
  for (const [discipline, docs] of members) {
    silos.set(discipline, { discipline, lexical: new LexicalSide(docs.map((doc) => chunks[doc]!), settings, { restoreAccents }), docs });
  }
  return silos;
}

/** The silo of a discipline: the exact name, else the only one equal ignoring case and accents. */
function findSilo(silos: ReadonlyMap<string, Silo>, discipline: string): Silo | undefined {
  const exact = silos.get(discipline);
  if (exact) return exact;
  const wanted = looseName(discipline);
  const loose = [...silos.values()].filter((silo) => looseName(silo.discipline) === wanted);
  return loose.length === 1 ? loose[0] : undefined;
}

function looseName(name: string): string {
  return foldAccents(name.toLowerCase()).replace(/\s+/g, " ").trim();
}

/**
 * A silo's lexical ranking (best first, ties to the earlier chunk), mapped to collection
 * positions. Every term reported as matched contributed a score > 0 (its idf is always
 * positive and the term is in the chunk), so `matchedTerms` never lists a term that did not score.
 */
function searchSilo(silo: Silo, query: string, depth: number): LexicalHit[] {
  return [...silo.lexical.hits(query, depth)]
    .filter(([, hit]) => hit.score > 0)
    .sort((a, b) => b[1].score - a[1].score || a[0] - b[0])
    .slice(0, depth)
    .map(([doc, hit]) => ({ doc: silo.docs[doc]!, score: hit.score, matchedTerms: hit.matchedTerms }));
}

/**
 * Merges silo rankings by rank with RRF (equal weights, never by raw score: a BM25 score
 * means something only inside its silo). A chunk belongs to one silo, so equal ranks tie;
 * ties go to the earlier chunk of the collection. Keeps the best `limit`.
 */
function mergeSiloRankings(rankings: readonly LexicalHit[][], limit: number): LexicalHit[] {
  if (rankings.length === 1) return rankings[0]!.slice(0, limit);
  const fused = reciprocalRankFusion(
    rankings.map((items, index) => ({ name: String(index), items })),
    (hit) => String(hit.doc),
    { k: RRF_K },
  );
  return fused
    .sort((a, b) => b.score - a.score || a.item.doc - b.item.doc)
    .slice(0, limit)
    .map((entry) => entry.item);
}

/**
 * The final order: lexical alone (by merged silo rank), dense alone (by similarity), or
 * both fused by RRF on the chunk's coordinate with the lexical-only quota.
 */
function rankDocs(
  mode: DocumentSearchMode,
  lexical: readonly LexicalHit[],
  dense: readonly DenseHit[],
  k: number,
  settings: DocumentSearchSettings,
  keyOf: (doc: number) => string,
): RankedDoc[] {
  if (mode === "lexical") return lexical.slice(0, k).map((hit) => ({ doc: hit.doc, score: hit.score, via: [LEXICAL] }));
  if (mode === "dense") return dense.slice(0, k).map((hit) => ({ doc: hit.doc, score: hit.similarity, via: [DENSE] }));
  const fused = fuseHybrid<{ doc: number }>(lexical, dense, (item) => keyOf(item.doc), {
    limit: k,
    maxKeywordOnly: settings.maxKeywordOnly,
    k: RRF_K,
    lexicalWeight: settings.lexicalWeight,
    denseWeight: settings.denseWeight,
  });
  return fused.map((item) => ({ doc: item.item.doc, score: item.score, via: item.via as RankedDoc["via"] }));
}

function toHit(
  chunk: IndexedChunk,
  ranked: RankedDoc,
  rank: number,
  lexical: LexicalHit | undefined,
  similarity: number | undefined,
): DocumentHit {
  const hit: DocumentHit = {
    sourceId: chunk.sourceId,
    collection: chunk.collection,
    discipline: chunk.discipline,
    slug: chunk.slug,
    title: chunk.title,
    chunk: chunk.chunk,
    text: chunk.text,
    body: chunk.body,
    citation: formatDocumentCitation(chunk),
    via: ranked.via,
    matchedTerms: lexical ? [...lexical.matchedTerms] : [],
    score: ranked.score,
    rank,
  };
  if (chunk.page !== undefined) hit.page = chunk.page;
  if (chunk.pageEnd !== undefined) hit.pageEnd = chunk.pageEnd;
  if (chunk.metaText !== undefined) hit.metaText = chunk.metaText;
  if (lexical) hit.lexicalScore = lexical.score;
  if (similarity !== undefined) hit.similarity = similarity;
  return hit;
}

function unknownDisciplineNotice(discipline: string, collection: string, known: readonly string[]): string {
  const list = known.length > 0 ? ` Disciplinas disponíveis: ${known.join(", ")}.` : "";
  return `Disciplina "${discipline}" não encontrada na coleção "${collection}".${list}`;
}
