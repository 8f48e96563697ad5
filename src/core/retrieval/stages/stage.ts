/**
 * The ranking as a pipeline of named stages behind two small contracts, after Meilisearch's
 * ranking rules and Lucene's `explain()`: a **candidate source** adds one ranked list of units
 * to the fusion by rank (the lexical and dense sides, the verses readers link the first hits to,
 * the verses around them, a theme's, a topic's, a story's, a stretch of text's), and a
 * **reranker** reorders the fused ranking (the reader prior, a lifted verse below its seed, a
 * confident lexical hit first, the lexical-only quota). Each stage names itself, reads only
 * the context it is handed and, when asked, says in the trace what it read, what it added or
 * moved and with which parameters. Pure.
 */
import { DENSE, LEXICAL } from "../fusion.js";
import type { FusedItem, RankedList } from "../rrf.js";

/** A unit in a candidate list: its position in the collection. */
export interface Candidate {
  doc: number;
}

/** A unit of the fused ranking. */
export type FusedUnit = FusedItem<Candidate>;

/** A unit the lexical side ranked, with its score and the analysed terms it matched. */
export interface LexicalHit {
  doc: number;
  score: number;
  matchedTerms: string[];
}

export interface DenseHit {
  doc: number;
  similarity: number;
}

/** The first fusion of the two sides, handed to a collection's refinement. */
export interface FirstFusion {
  fused: FusedUnit[];
  lexical: readonly LexicalHit[];
  dense: readonly DenseHit[];
  /** The fusion again, with further ranked lists of units after the two sides. */
  fuseWith(more: readonly RankedList<Candidate>[]): FusedUnit[];
}

/** What a candidate source adds: its ranked units and their weight in the fusion. */
export interface CandidateList<T extends Candidate = Candidate> {
  items: readonly T[];
  weight: number;
  /** What the source read and decided, for the trace (its parameters, the words it used…). */
  detail?: Record<string, unknown>;
}

export interface CandidateSource<C> {
  /** The stage's id: its name in the trace and its list's name in the fusion (`via`). */
  readonly id: string;
  /** The list this source adds for the context, or undefined when it has none (off, or nothing found). */
  candidates(context: C): CandidateList | undefined;
}

export interface Reranker<C> {
  readonly id: string;
  /** The ranking reordered, with what the stage read and decided, for the trace. */
  rerank(ranked: readonly FusedUnit[], context: C): { ranked: readonly FusedUnit[]; detail?: Record<string, unknown> };
}

/** One stage's entry in the explain trace. */
export interface TraceEntry {
  stage: string;
  [detail: string]: unknown;
}

/** The explain trace of one search: entries in stage order, and how a unit is named in them. */
export interface Trace {
  entries: TraceEntry[];
  label(doc: number): string;
}

/** How many units of a list or ranking the trace names. */
export const TRACE_DEPTH = 10;

/** A list's trace entry: its weight, its size and its first units, with the source's detail. */
export function listEntry(stage: string, list: CandidateList | undefined, trace: Trace): TraceEntry {
  if (!list || list.items.length === 0) return { stage, added: 0, ...list?.detail };
  return { stage, weight: list.weight, added: list.items.length, first: list.items.slice(0, TRACE_DEPTH).map((item) => trace.label(item.doc)), ...list.detail };
}

/**
 * A reranker's trace entry: the units it moved up into (or within) the first `TRACE_DEPTH`
 * positions, each with its position before and after (the units they passed moved down by as
 * many), and how many it dropped.
 */
export function rerankEntry(stage: string, before: readonly FusedUnit[], after: readonly FusedUnit[], trace: Trace, detail?: Record<string, unknown>): TraceEntry {
  const positionBefore = new Map(before.map((item, index) => [item.key, index + 1]));
  const moved: { unit: string; from: number; to: number }[] = [];
  after.slice(0, TRACE_DEPTH).forEach((item, index) => {
    const from = positionBefore.get(item.key);
    if (from !== undefined && from > index + 1) moved.push({ unit: trace.label(item.item.doc), from, to: index + 1 });
  });
  const dropped = before.length - after.length;
  return { stage, moved, ...(dropped > 0 ? { dropped } : {}), ...detail };
}

/**
 * The refinement of a first fusion: every source's list, fused again after the first fusion's
 * own lists (in source order: the order is part of the ranking, since a tie goes to the unit
 * seen first), then each reranker in turn. The trace, when given, gets one entry per stage.
 */
export function refineFusion<C>(
  context: C,
  first: FirstFusion,
  sources: readonly CandidateSource<C>[],
  rerankers: readonly Reranker<C>[],
  trace?: Trace,
): readonly FusedUnit[] {
  const lists: RankedList<Candidate>[] = [];
  for (const source of sources) {
    const list = source.candidates(context);
    if (trace) trace.entries.push(listEntry(source.id, list, trace));
    if (list && list.items.length > 0 && list.weight > 0) lists.push({ name: source.id, items: list.items, weight: list.weight });
  }
  let ranked: readonly FusedUnit[] = lists.length > 0 ? first.fuseWith(lists) : first.fused;
  if (trace && lists.length > 0) trace.entries.push({ stage: "fusion", lists: [LEXICAL, DENSE, ...lists.map((list) => list.name)], first: ranked.slice(0, TRACE_DEPTH).map((item) => trace.label(item.item.doc)) });
  for (const reranker of rerankers) {
    const { ranked: next, detail } = reranker.rerank(ranked, context);
    if (trace) trace.entries.push(rerankEntry(reranker.id, ranked, next, trace, detail));
    ranked = next;
  }
  return ranked;
}
