/**
 * Hybrid search over one document collection: `UnitSearch` (the search every collection
 * shares) over the collection's chunks, with one lexical silo per discipline (plain BM25 by
 * default, the Bible's refinements a setting away) and the chunk's coordinate (source and
 * position) as its identity; the discipline filter and the hit with its human citation are
 * what only chunks have. Pure apart from the embedder call.
 */
import type { Trace, TraceEntry } from "./stages/stage.js";
import { analyze, foldAccents } from "../analysis/index.js";
import type { CorpusVocabulary } from "./scope/features.js";
import type { ScopeDecision } from "./scope/gate.js";
import { DEFAULT_HYBRID_SETTINGS } from "./fusion.js";
import type { SearchMode } from "./dense-side.js";
import { PLAIN_LEXICAL } from "./lexical-side.js";
import { UnitSearch, type RankedUnit, type Silo, type UnitSearchDependencies, type UnitSearchSettings, type UnitShape } from "./unit-search.js";
import { documentKey, formatDocumentCitation } from "../documents/citation.js";
import type { DocumentHit, IndexedChunk } from "../documents/types.js";

export type DocumentSearchMode = SearchMode;

export type DocumentSearchSettings = UnitSearchSettings;

/** Plain BM25 in every silo (no phrase, exact-word or expansion signal: not measured on lessons yet). */
export const DEFAULT_DOCUMENT_SEARCH_SETTINGS: DocumentSearchSettings = { ...DEFAULT_HYBRID_SETTINGS, ...PLAIN_LEXICAL };

/** The embedder (or why there is none) and the gate's data, judged against this collection's vocabulary. */
export type DocumentSearchDependencies = Omit<UnitSearchDependencies, "expander">;

export interface DocumentSearchOptions {
  /** How many results (default: settings.topK). */
  k?: number;
  mode?: DocumentSearchMode;
  /** Search only this discipline's silo. */
  discipline?: string;
  /** Return the explain trace: one entry per stage, in order. */
  explain?: boolean;
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
  /** The explain trace, when asked for (`stages/stage.ts`). */
  explain?: TraceEntry[];
}

/**
 * Search over one collection's chunks: the one `UnitSearch` with a lexical silo per discipline,
 * chunks identified by source and position, and what only chunks have — the discipline filter
 * and the hit with its citation.
 */
export class DocumentSearch {
  private readonly hybrid: UnitSearch<IndexedChunk>;

  constructor(
    readonly collection: string,
    chunks: readonly IndexedChunk[],
    /** Row i is the unit vector of chunks[i]. */
    vectorMatrix: Float32Array | undefined,
    deps: DocumentSearchDependencies = {},
    readonly settings: DocumentSearchSettings = DEFAULT_DOCUMENT_SEARCH_SETTINGS,
  ) {
    this.hybrid = new UnitSearch(chunks, CHUNK_SHAPE, vectorMatrix, deps, settings);
  }

  get size(): number {
    return this.hybrid.size;
  }

  /** The collection's vocabulary, for the out-of-scope gate. */
  vocabulary(): CorpusVocabulary {
    return this.hybrid.vocabulary();
  }

  get denseAvailable(): boolean {
    return this.hybrid.denseAvailable;
  }

  /** The collection's disciplines (its lexical silos), sorted. */
  disciplines(): string[] {
    return this.hybrid.silos.map((silo) => silo.name).sort((a, b) => a.localeCompare(b, "pt"));
  }

  chunkAt(sourceId: string, chunk: number): IndexedChunk | undefined {
    const doc = this.hybrid.docAt(documentKey(sourceId, chunk));
    return doc === undefined ? undefined : this.hybrid.units[doc];
  }

  async search(query: string, options: DocumentSearchOptions = {}): Promise<DocumentSearchResponse> {
    const k = Math.max(0, Math.floor(options.k ?? this.settings.topK));
    const { mode, notices } = this.hybrid.effectiveMode(options.mode ?? "hybrid");
    const trace: Trace | undefined = options.explain ? { entries: [], label: (doc) => this.hybrid.keyAt(doc) } : undefined;
    /** `searched`: the silos the results come from (none when nothing could be searched). */
    const respond = async (results: DocumentHit[], searched?: readonly Silo[]): Promise<DocumentSearchResponse> => {
      const response: DocumentSearchResponse = { query, collection: this.collection, mode, results, notices };
      const passages = (hits: readonly DocumentHit[]) => hits.map((hit) => ({ via: hit.via, matchedTerms: hit.matchedTerms, reference: hit.citation }));
      const searchAgain = async (depth: number, hybrid: SearchMode) => passages(searched ? await this.hits(query, depth, hybrid, searched) : []);
      const scope = await this.hybrid.scopeFor(query, { k, mode, results: passages(results) }, searchAgain);
      if (scope) response.scope = scope;
      if (trace) {
        if (scope) trace.entries.push({ stage: "gate", inScope: scope.inScope, doubtful: scope.doubtful, outOfScopeProbability: scope.outOfScopeProbability, reasons: scope.reasons });
        response.explain = trace.entries;
      }
      return response;
    };

    let silos: Silo[] | undefined;
    if (options.discipline !== undefined) {
      const silo = findSilo(this.hybrid.silos, options.discipline);
      if (!silo) {
        notices.push(unknownDisciplineNotice(options.discipline, this.collection, this.disciplines()));
        return respond([]);
      }
      silos = [silo];
    }
    if (trace) trace.entries.push({ stage: "silos", searched: (silos ?? this.hybrid.silos).map((silo) => silo.name) });
    return respond(await this.hits(query, k, mode, silos, trace), silos ?? this.hybrid.silos);
  }

  /** The k hits for a query (none for a query with no searchable word: empty, stopwords only). */
  private async hits(query: string, k: number, mode: SearchMode, silos: readonly Silo[] | undefined, trace?: Trace): Promise<DocumentHit[]> {
    if (analyze(query).length === 0 || k === 0) return [];
    const ranked = await this.hybrid.rank(query, { mode, k, silos, trace });
    return ranked.slice(0, k).map((item, index) => toHit(this.hybrid.units[item.doc]!, item, index + 1));
  }
}

const CHUNK_SHAPE: UnitShape<IndexedChunk> = {
  keyOf: (chunk) => documentKey(chunk.sourceId, chunk.chunk),
  siloOf: (chunk) => chunk.discipline,
  staleVectors: "os vetores não correspondem aos trechos da coleção",
};

/** The silo of a discipline: the exact name, else the only one equal ignoring case and accents. */
function findSilo(silos: readonly Silo[], discipline: string): Silo | undefined {
  const exact = silos.find((silo) => silo.name === discipline);
  if (exact) return exact;
  const wanted = looseName(discipline);
  const loose = silos.filter((silo) => looseName(silo.name) === wanted);
  return loose.length === 1 ? loose[0] : undefined;
}

function looseName(name: string): string {
  return foldAccents(name.toLowerCase()).replace(/\s+/g, " ").trim();
}

function toHit(chunk: IndexedChunk, ranked: RankedUnit, rank: number): DocumentHit {
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
    via: ranked.via as DocumentHit["via"],
    matchedTerms: [...ranked.matchedTerms],
    score: ranked.score,
    rank,
  };
  if (chunk.page !== undefined) hit.page = chunk.page;
  if (chunk.pageEnd !== undefined) hit.pageEnd = chunk.pageEnd;
  if (chunk.metaText !== undefined) hit.metaText = chunk.metaText;
  if (ranked.lexicalScore !== undefined) hit.lexicalScore = ranked.lexicalScore;
  if (ranked.similarity !== undefined) hit.similarity = ranked.similarity;
  return hit;
}

function unknownDisciplineNotice(discipline: string, collection: string, known: readonly string[]): string {
  const list = known.length > 0 ? ` Disciplinas disponíveis: ${known.join(", ")}.` : "";
  return `Disciplina "${discipline}" não encontrada na coleção "${collection}".${list}`;
}
