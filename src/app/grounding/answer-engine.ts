import type { CrossReference, CrossReferenceIndex } from "../../core/bible/cross-references.js";
import type { Versification } from "../../core/bible/references.js";
import { CitationStreamFilter } from "../../core/grounding/citations.js";
import { passagesFromResults, ShownVerses, type Passage } from "../../core/grounding/passages.js";
import { buildChatPrompt, type ChatPrompt, type ChatTurn } from "../../core/grounding/prompt.js";
import type { ScopeDecision } from "../../core/retrieval/scope/gate.js";
import type { EngineVerse, SearchEngine } from "../../core/retrieval/engine.js";
import type { StreamCitationCheck } from "../../core/grounding/stream-check.js";
import { retrievalQuery } from "../../core/reading/follow-up.js";
import { messageKind, type MessageKind } from "../../core/reading/kinds.js";
import { kindNote, shapeOf, type AnswerShape } from "../../core/grounding/answer-shape.js";
import type { TraceEntry } from "../../core/retrieval/stages/stage.js";
import { carePassagesQuery } from "../../core/grounding/care-passages.js";
import type { CrisisKind } from "../../core/reading/crisis.js";

/**
 * What an answer needs from retrieval before the model is called, as plain data (it crosses
 * a worker boundary by structured clone): the gate's refusal, or the passages and the prompt
 * built from them (no prompt when nothing was found).
 */
export type PreparedAnswer =
  | { kind: "out_of_scope"; scope: ScopeDecision }
  | { kind: "passages"; passages: Passage[]; prompt: ChatPrompt | undefined; doubt?: ScopeDecision; shape?: AnswerShape; explain?: TraceEntry[] };

export interface PrepareOptions {
  topK: number;
  contextWindow: number;
  /**
   * A person at risk who speaks of themselves (core/reading/crisis.ts): the answer is built over
   * that crisis' chosen passages of consolation, resolved by reference, instead of a search of
   * the message's words.
   */
  care?: CrisisKind;
  /** Return the search's explain trace with the passages. */
  explain?: boolean;
}

/** A verse as `/api/verses` shows it: the engine's record without its analysed terms, with its strongest OpenBible.info links. */
export type VerseRecord = Omit<EngineVerse, "terms"> & { links: CrossReference[] };

/** How many cross references `/api/verses` gives per verse. */
export const LINKS_PER_VERSE = 5;

export interface VerseCoordinate {
  book: string;
  chapter: number;
  verse: number;
}

/** The search worker serving this answer stopped (it is replaced); safe to show. */
export class SearchUnavailableError extends Error {
  readonly code = "search_failed";
  constructor(message = "A resposta foi interrompida porque um processo de busca parou; ele já foi reiniciado. Tente de novo.") {
    super(message);
    this.name = "SearchUnavailableError";
  }
}

/**
 * The citation check one answer streams through: a `StreamCitationCheck` in this thread
 * (`inThread`), or one that lives in a search worker (its calls then resolve later).
 */
export interface AnswerCitationCheck {
  push(delta: string): string | Promise<string>;
  /** The held tail, checked, and the citations kept. */
  finish(): { tail: string; citations: string[] } | Promise<{ tail: string; citations: string[] }>;
  /** Frees a check cut short (idempotent). */
  close(): void;
}

/** A stream-safe citation filter of this thread, as an answer's check. */
export function inThread(filter: StreamCitationCheck): AnswerCitationCheck {
  return {
    push: (delta) => filter.push(delta),
    finish: () => ({ tail: filter.end(), citations: filter.citations }),
    close: () => undefined,
  };
}

/** The check in this thread. */
export function localCitationCheck(passages: readonly Passage[], versification: Versification): AnswerCitationCheck {
  return inThread(new CitationStreamFilter(new ShownVerses(passages), versification));
}

/**
 * The loaded index as the server uses it: in this thread (`localAnswerEngine`) or in the
 * search workers (`SearchPool`). Everything the event loop keeps is small: counts and the
 * primary source's versification (chapters and verse counts, for the citation check).
 */
export interface AnswerEngine {
  readonly size: number;
  readonly denseAvailable: boolean;
  /** The primary source's versification (what citations are checked against). */
  readonly versification: Versification;
  prepare(question: string, history: readonly ChatTurn[], options: PrepareOptions, signal?: AbortSignal): Promise<PreparedAnswer>;
  versesAt(coordinates: readonly VerseCoordinate[]): Promise<(VerseRecord | undefined)[]>;
  /** The citation check for an answer over these passages (in a worker, with workers: ≈ 100–250 µs a delta). */
  checkCitations(passages: readonly Passage[]): AnswerCitationCheck;
}

/**
 * Retrieval and prompt building for one question: search (with the out-of-scope gate; the
 * question without the small talk around it, a follow-up with the question it follows:
 * core/reading/follow-up.ts), the passages with their context windows, the prompt. The same function runs in a search worker
 * and in process, so both give byte-identical answers.
 */
export async function prepareAnswer(engine: SearchEngine, question: string, history: readonly ChatTurn[], options: PrepareOptions): Promise<PreparedAnswer> {
  const { query, kind } = options.care ? { query: carePassagesQuery(options.care), kind: { kind: "question" } as const } : readForSearch(question, history);
  const response = await engine.search(query, { k: options.topK, kind, ...(options.explain ? { explain: true } : {}) });
  if (response.scope && !response.scope.inScope) return { kind: "out_of_scope", scope: response.scope };
  const passages = passagesFromResults(response.results, (result) =>
    engine.windowCoordinates(result.book, result.chapter, result.verse, options.contextWindow),
  );
  const doubt = response.scope?.doubtful ? response.scope : undefined;
  const shape = options.care ? undefined : shapeOf(response.reading, passages.map((passage, i) => ({ reference: passage.reference, via: response.results[i]!.via })));
  const note = shape ? kindNote(shape) : undefined;
  // A question about the assistant is answered even with no passage (what it is needs none).
  const prompt = passages.length === 0 && shape?.kind !== "about_assistant" ? undefined : buildChatPrompt({ question, passages, history: [...history], ...(doubt ? { doubtful: true } : {}), ...(note ? { kindNote: note } : {}) });
  return { kind: "passages", passages, prompt, ...(doubt ? { doubt } : {}), ...(shape ? { shape } : {}), ...(response.explain ? { explain: response.explain } : {}) };
}

/**
 * What a message is searched as, and its kind (`core/reading/kinds.ts`): the question without
 * the small talk around it, a follow-up with the question it leans on (core/reading/follow-up.ts),
 * and a request for a finished text without a subject ("só me dá a versão final") with the
 * study asked for before it.
 */
export function readForSearch(question: string, history: readonly ChatTurn[]): { query: string; kind: MessageKind } {
  const query = retrievalQuery(question, history);
  const kind = messageKind(query);
  if (kind.kind !== "study_prep" || kind.subject !== "") return { query, kind };
  const before = history.filter((turn) => turn.role === "user").map((turn) => retrievalQuery(turn.content, []));
  for (const earlier of before.reverse()) {
    const read = messageKind(earlier);
    if (read.kind === "study_prep" && read.subject !== "") return { query: earlier, kind: { ...read, push: read.push || kind.push, form: kind.form === "note" ? kind.form : read.form } };
  }
  return { query, kind };
}

/** The verses at these coordinates in the primary source, without their terms, with their links. */
export function versesAt(engine: SearchEngine, coordinates: readonly VerseCoordinate[], crossReferences?: CrossReferenceIndex): (VerseRecord | undefined)[] {
  return coordinates.map((c) => {
    const found = engine.verseAt(c.book, c.chapter, c.verse);
    if (!found) return undefined;
    const { terms: _terms, ...verse } = found;
    const links = crossReferences?.strongest(verse.book, verse.chapter, verse.verse, LINKS_PER_VERSE) ?? [];
    return { ...verse, links };
  });
}

/** The engine in this thread (SEARCH_WORKERS=0): search runs on the event loop. */
export function localAnswerEngine(engine: SearchEngine, crossReferences?: CrossReferenceIndex): AnswerEngine {
  const versification = engine.versificationOf();
  return {
    size: engine.size,
    denseAvailable: engine.denseAvailable,
    versification,
    prepare: (question, history, options) => prepareAnswer(engine, question, history, options),
    versesAt: async (coordinates) => versesAt(engine, coordinates, crossReferences),
    checkCitations: (passages) => localCitationCheck(passages, versification),
  };
}
