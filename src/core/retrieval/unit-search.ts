/**
 * The one hybrid search of every collection, over its units (the Bible's verses, a document
 * collection's chunks): lexical silos (the Bible is one; a document collection has one per
 * discipline, so a word common in one discipline keeps its weight in another) merged by rank,
 * the dense side, fusion by rank (RRF) on each unit's coordinate with the further lists a
 * collection builds from the first fusion, and the lexical-only quota; the out-of-scope gate
 * judged against the collection's own vocabulary. What a unit is stays with the collection's
 * thin search around this one: references, cross references, neighbours and themes for
 * verses (`engine.ts`); disciplines and citations for chunks (`document-search.ts`).
 * Pure apart from the embedder call.
 */
import { AccentTable, analyzeTokens, corpusAccentRestorer, restoreAccentsIn, type AccentRestorer } from "../analysis/index.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";
import type { Int8Screen } from "./int8-screen.js";
import type { Embedder } from "../index/embedder.js";
import { textVocabulary, type CorpusVocabulary } from "./scope/features.js";
import { decideScope, SCOPE_EVIDENCE_DEPTH, type ScopeDecision, type ScopeGateData, type ScopePassage } from "./scope/gate.js";
import { applyKeywordOnlyQuota, DENSE, LEXICAL, type HybridSearchSettings } from "./fusion.js";
import { reciprocalRankFusion, RRF_K, type RankedList } from "./rrf.js";
import { denseAvailable, denseHits, denseSide, effectiveMode, type DenseSide, type SearchMode } from "./dense-side.js";
import { LexicalSide, type LexicalPrebuilt, type LexicalScore, type LexicalSettings, type LexicalUnit, type QueryExpander } from "./lexical-side.js";
import { withoutFrameWords } from "../reading/frames.js";
import { firstSorted } from "./first-sorted.js";
import { rerankEntry, TRACE_DEPTH, type DenseHit, type FirstFusion, type FusedUnit, type LexicalHit, type Trace } from "./stages/stage.js";

/** The hybrid search's settings and its lexical side's (phrases, exact words, expansions…). */
export type UnitSearchSettings = HybridSearchSettings & LexicalSettings;

/**
 * How much deeper than the fused depth a refined lexical side (phrases, exact words)
 * looks, so those scores can reorder its BM25 hits before the cut. Plain BM25 needs no margin.
 */
const REFINED_LEXICAL_DEPTH_FACTOR = 4;

export interface UnitSearchDependencies {
  embedder?: Embedder | undefined;
  /** Why there is no dense side, when there is none (shown to the user). */
  denseUnavailableReason?: string | undefined;
  expander?: QueryExpander | undefined;
  /** The out-of-scope gate's lexicons and classifier; without them no decision is made. */
  scope?: ScopeGateData | undefined;
  /** What the search builds from its units, read from a snapshot (`UnitSearch.read`); built from the units when absent. */
  prebuilt?: UnitSearchPrebuilt | undefined;
}

/** A unit search's structures as a snapshot holds them: each silo's lexical side, the accent table, the dense side's int8 screen. */
export interface UnitSearchPrebuilt {
  silos: readonly { name: string; lexical: LexicalPrebuilt }[];
  accents: AccentTable;
  /** The dense side's int8 screen (used when it fits the vector matrix). */
  screen?: Int8Screen | undefined;
}

/** What a collection says about its units. */
export interface UnitShape<U> {
  /** A unit's coordinate: its identity in the fusion and in lookups. */
  keyOf(unit: U): string;
  /** The lexical silo a unit belongs to; every unit in one silo when absent. */
  siloOf?: ((unit: U) => string) | undefined;
  /** Said when the stored vectors do not describe the units (a stale index). */
  staleVectors: string;
}

/** One silo's lexical side, over its units alone. */
export interface Silo {
  name: string;
  lexical: LexicalSide;
  /** Silo-local document id → position in the collection's units. */
  docs: readonly number[];
}

export type { DenseHit, FirstFusion, FusedUnit, LexicalHit } from "./stages/stage.js";

export interface RankRequest {
  mode: SearchMode;
  /** Results of a hybrid ranking, after the quota. */
  k: number;
  /** Rank in these silos only (all by default). */
  silos?: readonly Silo[] | undefined;
  /** The dense side's weight in the fusion (the settings' by default). */
  denseWeight?: number | undefined;
  /** Further lists and reorderings built on the first fusion (the Bible's cross references, neighbours, themes, reader prior). */
  refine?: ((first: FirstFusion) => readonly FusedUnit[]) | undefined;
  /** The explain trace, when asked for: the sides, the first fusion and the quota add their entries. */
  trace?: Trace | undefined;
}

/** A unit found for a query, and how. */
export interface RankedUnit {
  doc: number;
  score: number;
  via: string[];
  /** The analysed terms it matched on the lexical side (also when another side brought it). */
  matchedTerms: string[];
  lexicalScore?: number | undefined;
  similarity?: number | undefined;
}

export class UnitSearch<U extends LexicalUnit> {
  readonly silos: readonly Silo[];
  /** Unaccented words back to the collection's spelling, for its silos, its dense queries and the gate alike. */
  readonly restoreAccents: AccentRestorer;
  private readonly dense: DenseSide;
  /** Each unit's coordinate key, by position (built once: the fusion reads them on every query). */
  private readonly keys: readonly string[];
  private readonly byKey = new Map<string, number>();
  private vocabularyValue: CorpusVocabulary | undefined;
  private readonly accents: AccentTable;

  constructor(
    readonly units: readonly U[],
    shape: UnitShape<U>,
    /** Row i is the unit vector of units[i]. */
    vectorMatrix: Float32Array | undefined,
    private readonly deps: UnitSearchDependencies,
    readonly settings: UnitSearchSettings,
  ) {
    const prebuilt = deps.prebuilt;
    this.accents = prebuilt?.accents ?? AccentTable.learn(units);
    this.restoreAccents = corpusAccentRestorer(this.accents, (term) => this.termDocuments(term) > 0);
    this.silos = buildSilos(units, shape.siloOf, settings, { expander: deps.expander, restoreAccents: this.restoreAccents }, prebuilt?.silos);
    this.keys = units.map((unit) => shape.keyOf(unit));
    this.keys.forEach((key, doc) => {
      if (!this.byKey.has(key)) this.byKey.set(key, doc);
    });
    this.dense = denseSide(vectorMatrix, deps.embedder, units.length, { unavailable: deps.denseUnavailableReason, mismatch: shape.staleVectors }, prebuilt?.screen);
    if (deps.scope) {
      // The gate's statistics (word families, term and word counts) built at load, not on the first question.
      const vocabulary = this.vocabulary();
      vocabulary.wordsOfTerm("");
      vocabulary.termFrequency("");
      vocabulary.wordFrequency("");
      vocabulary.nameShare("");
    }
  }

  get size(): number {
    return this.units.length;
  }

  /**
   * Saves what this search built from its units under `name`: each silo's lexical side (all of
   * its indexes and tables, whatever the settings use) and the accent table. Read back with
   * `UnitSearch.read` (the dense side's matrix and screen are the caller's to save).
   */
  write(snapshot: SnapshotWriter, name: string): void {
    snapshot.putStrings(`${name}.silos`, this.silos.map((silo) => silo.name));
    this.silos.forEach((silo, i) => silo.lexical.write(snapshot, `${name}.silo${i}`));
    snapshot.putStrings(`${name}.accents.typed`, this.accents.typed);
    snapshot.putStrings(`${name}.accents.written`, this.accents.written);
  }

  /** What `write` saved under `name`, for a search with these settings. */
  static read(snapshot: SnapshotReader, name: string, settings: Pick<LexicalSettings, "bm25K1" | "bm25B">): UnitSearchPrebuilt {
    const silos = snapshot.strings(`${name}.silos`).map((siloName, i) => ({ name: siloName, lexical: LexicalSide.read(snapshot, `${name}.silo${i}`, settings) }));
    const accents = new AccentTable(snapshot.strings(`${name}.accents.typed`), snapshot.strings(`${name}.accents.written`));
    return { silos, accents };
  }

  get denseAvailable(): boolean {
    return denseAvailable(this.dense);
  }

  /** The position of the unit at a coordinate. */
  docAt(key: string): number | undefined {
    return this.byKey.get(key);
  }

  keyAt(doc: number): string {
    return this.keys[doc]!;
  }

  /** The mode a search runs in (lexical without a dense side), with the notice saying so. */
  effectiveMode(requested: SearchMode): { mode: SearchMode; notices: string[] } {
    return effectiveMode(requested, this.dense);
  }

  /** The corpus statistics the out-of-scope gate reads: its one silo's, or counted over every unit's text. */
  vocabulary(): CorpusVocabulary {
    if (this.silos.length === 1) return this.silos[0]!.lexical.vocabulary();
    this.vocabularyValue ??= textVocabulary(this.units, (text) => analyzeTokens(text, this.restoreAccents));
    return this.vocabularyValue;
  }

  /**
   * The out-of-scope gate's decision on a question (undefined when the gate is not loaded), over
   * the evidence it was fitted on whatever the asker's k and mode: the first
   * SCOPE_EVIDENCE_DEPTH results of the hybrid search. `asked` are the results of the search
   * made (its k and mode); when it was another, `searchAgain` searches at the gate's depth and
   * mode (a deeper search orders its head a little differently, and one side alone agrees with
   * nothing).
   */
  async scopeFor(
    question: string,
    asked: { k: number; mode: SearchMode; results: readonly ScopePassage[] },
    searchAgain: (k: number, mode: SearchMode) => Promise<readonly ScopePassage[]>,
    hasReference = false,
    keep?: string,
  ): Promise<ScopeDecision | undefined> {
    const scope = this.deps.scope;
    if (!scope) return undefined;
    const hybrid = this.effectiveMode("hybrid").mode;
    const results = asked.k === SCOPE_EVIDENCE_DEPTH && asked.mode === hybrid ? asked.results : await searchAgain(SCOPE_EVIDENCE_DEPTH, hybrid);
    return decideScope({ ...scope, vocabulary: this.vocabulary() }, { question, hasReference, results, ...(keep !== undefined ? { keep } : {}) });
  }

  /**
   * The units for a query: one side's whole ranking (`k × candidateMultiplier` deep) in
   * lexical or dense mode; in hybrid mode both sides fused by rank on the coordinate, refined
   * as the collection asks, and cut to `k` with the lexical-only quota.
   */
  async rank(query: string, request: RankRequest): Promise<RankedUnit[]> {
    const { mode, k } = request;
    const settings = this.settings;
    const depth = k * settings.candidateMultiplier;
    const silos = request.silos ?? this.silos;
    const { scores, ranking: lexical } = mode === "dense" ? { scores: new Map<number, LexicalScore>(), ranking: [] } : this.lexicalSide(query, silos, depth);
    const dense = mode === "lexical" ? [] : await this.denseRanking(query, silos, depth);
    const trace = request.trace;
    if (trace) this.traceSides(trace, query, silos, mode, depth, lexical, dense);
    if (mode === "lexical") return lexical.map((hit) => ({ doc: hit.doc, score: hit.score, via: [LEXICAL], matchedTerms: hit.matchedTerms, lexicalScore: hit.score }));
    if (mode === "dense") return dense.map((hit) => ({ doc: hit.doc, score: hit.similarity, via: [DENSE], matchedTerms: [], similarity: hit.similarity }));

    const sides: RankedList<{ doc: number }>[] = [
      { name: LEXICAL, items: lexical, weight: settings.lexicalWeight },
      { name: DENSE, items: dense, weight: request.denseWeight ?? settings.denseWeight },
    ];
    const fuseWith = (more: readonly RankedList<{ doc: number }>[]) =>
      reciprocalRankFusion<{ doc: number }>([...sides, ...more], (item) => this.keyAt(item.doc), { k: RRF_K });
    const first = fuseWith([]);
    if (trace) trace.entries.push({ stage: "fusion", rrfK: RRF_K, weights: { [LEXICAL]: settings.lexicalWeight, [DENSE]: sides[1]!.weight }, first: first.slice(0, TRACE_DEPTH).map((item) => trace.label(item.item.doc)) });
    const fused = request.refine ? request.refine({ fused: first, lexical, dense, fuseWith }) : first;
    const similarity = new Map(dense.map((hit) => [hit.doc, hit.similarity]));
    const kept = applyKeywordOnlyQuota(fused, settings.maxKeywordOnly, k);
    if (trace) trace.entries.push(rerankEntry("quota", fused, kept, trace, { maxKeywordOnly: settings.maxKeywordOnly, k }));
    return kept.map((item) => {
      const doc = item.item.doc;
      const entry = scores.get(doc);
      return { doc, score: item.score, via: item.via, matchedTerms: entry?.matchedTerms ?? [], lexicalScore: entry?.score, similarity: similarity.get(doc) };
    });
  }

  /**
   * The lexical side: every hit of the silos asked, by position in the collection (a refined
   * side looks deeper than `depth`, so its phrase and exact-word scores reorder BM25's hits
   * before the cut), and the ranking `depth` deep — each silo's hits best first (ties
   * to the earlier unit), merged by rank with RRF when there are several: a BM25 score means
   * something only inside its silo (its own IDF and average length), never across silos.
   */
  private lexicalSide(query: string, silos: readonly Silo[], depth: number): { scores: Map<number, LexicalScore>; ranking: LexicalHit[] } {
    const s = this.settings;
    const refined = s.phraseWeight > 0 || s.shortStemLength > 0;
    const scores = new Map<number, LexicalScore>();
    const rankings = silos.map((silo) => {
      const hits: LexicalHit[] = [];
      for (const [local, entry] of silo.lexical.hits(query, refined ? depth * REFINED_LEXICAL_DEPTH_FACTOR : depth)) {
        const doc = silo.docs[local]!;
        scores.set(doc, entry);
        if (entry.score > 0 && this.units[doc]!.text !== "") hits.push({ doc, score: entry.score, matchedTerms: entry.matchedTerms });
      }
      return firstSorted(hits, depth, (a, b) => b.score - a.score || a.doc - b.doc);
    });
    if (rankings.length <= 1) return { scores, ranking: rankings[0] ?? [] };
    const merged = reciprocalRankFusion(
      rankings.map((items, index) => ({ name: String(index), items })),
      (hit) => String(hit.doc),
      { k: RRF_K },
    );
    const ranking = merged
      .sort((a, b) => b.score - a.score || a.item.doc - b.item.doc)
      .slice(0, depth)
      .map((entry) => entry.item);
    return { scores, ranking };
  }

  /** The dense ranking: the query as the lexical side reads it (accents restored, frame words out when they weigh less), within the silos asked. */
  private async denseRanking(query: string, silos: readonly Silo[], depth: number): Promise<DenseHit[]> {
    const text = this.settings.frameWordWeight < 1 ? withoutFrameWords(query) : query;
    const within = silos.length === this.silos.length ? undefined : new Set(silos.flatMap((silo) => silo.docs));
    return denseHits(this.dense, restoreAccentsIn(text, this.restoreAccents), depth, this.settings.minSimilarity, within && ((doc) => within.has(doc)));
  }

  /** The lexical and dense sides' trace entries: what each read of the query and its first units. */
  private traceSides(trace: Trace, query: string, silos: readonly Silo[], mode: SearchMode, depth: number, lexical: readonly LexicalHit[], dense: readonly DenseHit[]): void {
    if (mode !== "dense") {
      const read = silos[0]?.lexical.query(query);
      trace.entries.push({
        stage: LEXICAL,
        terms: read?.own.map(({ term, weight }) => (weight === 1 ? term : `${term}^${weight}`)) ?? [],
        expansions: read?.expansions.map(({ term }) => term) ?? [],
        exact: read?.exact.map(({ term }) => term) ?? [],
        depth,
        found: lexical.length,
        first: lexical.slice(0, TRACE_DEPTH).map((hit) => `${trace.label(hit.doc)} ${hit.score.toFixed(3)}`),
      });
    }
    if (mode !== "lexical") {
      const text = this.settings.frameWordWeight < 1 ? withoutFrameWords(query) : query;
      trace.entries.push({
        stage: DENSE,
        available: this.denseAvailable,
        text: restoreAccentsIn(text, this.restoreAccents),
        minSimilarity: this.settings.minSimilarity,
        found: dense.length,
        first: dense.slice(0, TRACE_DEPTH).map((hit) => `${trace.label(hit.doc)} ${hit.similarity.toFixed(3)}`),
      });
    }
  }

  /** How many units of the collection, whatever their silo, have an analysed term. */
  private termDocuments(term: string): number {
    return this.silos.reduce((count, silo) => count + silo.lexical.index.documentFrequency(term), 0);
  }
}

/** One silo per name, in order of first appearance, each indexing its own units only. */
function buildSilos<U extends LexicalUnit>(
  units: readonly U[],
  siloOf: ((unit: U) => string) | undefined,
  settings: LexicalSettings,
  options: ConstructorParameters<typeof LexicalSide>[2],
  prebuilt?: UnitSearchPrebuilt["silos"],
): Silo[] {
  const members = new Map<string, number[]>();
  units.forEach((unit, doc) => {
    const name = siloOf ? siloOf(unit) : "";
    const docs = members.get(name);
    if (docs) docs.push(doc);
    else members.set(name, [doc]);
  });
  const silos = [...members];
  if (prebuilt) {
    const fits = prebuilt.length === silos.length && silos.every(([name, docs], i) => prebuilt[i]!.name === name && prebuilt[i]!.lexical.index.documentCount === docs.length);
    if (!fits) throw new SnapshotError("the snapshot's silos are not the units' silos");
  }
  return silos.map(([name, docs], i) => ({ name, docs, lexical: new LexicalSide(docs.map((doc) => units[doc]!), settings, { ...options, prebuilt: prebuilt?.[i]?.lexical }) }));
}
