import type { ChatTurn, LlmProvider } from "../core/chat/llm.js";
import { isLlmError } from "../core/chat/llm.js";
import type { Passage } from "../core/grounding/passages.js";
import { NO_EVIDENCE_MESSAGE, OUT_OF_SCOPE_MESSAGE } from "../core/grounding/prompt.js";
import type { ScopeDecision } from "../core/scope/gate.js";
import type { AnswerEngine, PreparedAnswer } from "./answer-engine.js";
import type { DocumentSourceJson } from "./collections/chat.js";

/** What the browser receives for a source (the verse itself; the model saw its window). */
export interface SourceJson {
  id: string;
  ref: string;
  reference: string;
  book: string;
  bookCode: string;
  chapter: number;
  verse: number;
  verseEnd: number;
  text: string;
  cited?: boolean;
}

/** A consulted source as sent to the browser: a verse, or a document excerpt. */
export type AnySourceJson = SourceJson | DocumentSourceJson;

/** Why an answer came without the model: the gate found the question out of scope, or retrieval found nothing. */
export type Refusal = "out_of_scope" | "no_evidence";

/** The gate's decision as the browser receives it (only with an out-of-scope refusal). */
export interface ScopeJson {
  inScope: boolean;
  confidence: number;
  reasons: ScopeDecision["reasons"];
}

export type ChatEvent =
  | { event: "sources"; data: { conversationId: string; collection?: string; sources: AnySourceJson[]; scope?: ScopeJson } }
  | { event: "token"; data: { text: string } }
  | { event: "done"; data: { citations: string[]; refusal?: Refusal } }
  | { event: "error"; data: { code: string; message: string } };

export interface ChatInput {
  message: string;
  history: ChatTurn[];
  conversationId: string;
  signal: AbortSignal;
}

export interface ChatDependencies {
  /** The loaded index, in this thread or in the search workers. */
  engine: AnswerEngine;
  provider: LlmProvider;
  topK: number;
  contextWindow: number;
}

/** Errors that are not the provider's get one stable code and a plain message. */
export const INTERNAL_ERROR = { code: "internal_error", message: "Ocorreu um erro inesperado ao preparar a resposta." };

/**
 * One answer, as the events the SSE route writes: the consulted sources, the model's text
 * with every reference checked against what the model was shown (invented ones never leave
 * the server, not even half-written), and the citations that survived. No evidence: a fixed
 * message and the model is not called.
 */
export async function* answerQuestion(deps: ChatDependencies, input: ChatInput): AsyncGenerator<ChatEvent> {
  const { engine } = deps;
  let prepared: PreparedAnswer;
  try {
    prepared = await engine.prepare(input.message, input.history, { topK: deps.topK, contextWindow: deps.contextWindow }, input.signal);
  } catch (error) {
    // A search worker that died with this question (it is replaced) says so in Portuguese.
    if (error instanceof SearchUnavailableError) {
      yield { event: "error", data: { code: error.code, message: error.message } };
      return;
    }
    throw error;
  }
  if (prepared.kind === "out_of_scope") {
    yield* refuseOutOfScope(input.conversationId, prepared.scope, OUT_OF_SCOPE_MESSAGE);
    return;
  }
  const { passages, prompt } = prepared;
  yield { event: "sources", data: { conversationId: input.conversationId, sources: passages.map(toSourceJson) } };

  if (!prompt) {
    yield { event: "token", data: { text: NO_EVIDENCE_MESSAGE } };
    yield { event: "done", data: { citations: [], refusal: "no_evidence" } };
    return;
  }

  const check = engine.checkCitations(passages);
  try {
    const stream = deps.provider.stream({
      system: prompt.system,
      messages: prompt.messages,
      signal: input.signal,
      passages: passages.map((p) => ({ reference: p.reference, text: p.text })),
      question: input.message,
    });
    for await (const delta of stream) {
      const text = await check.push(delta);
      if (text !== "") yield { event: "token", data: { text } };
    }
    const { tail, citations } = await check.finish();
    if (tail !== "") yield { event: "token", data: { text: tail } };
    yield { event: "done", data: { citations } };
  } catch (error) {
    if (input.signal.aborted) return;
    const data = isLlmError(error) || error instanceof SearchUnavailableError ? { code: error.code, message: error.message } : INTERNAL_ERROR;
    yield { event: "error", data };
  } finally {
    check.close();
  }
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
 * The answer to a question the gate found out of scope: no sources, the fixed reply, no model
 * call, no citations; the decision's reasons go with the (empty) sources.
 */
export async function* refuseOutOfScope(
  conversationId: string,
  scope: ScopeDecision,
  message: string,
  collection?: string,
): AsyncGenerator<ChatEvent> {
  const data: Extract<ChatEvent, { event: "sources" }>["data"] = { conversationId, sources: [] };
  if (collection !== undefined) data.collection = collection;
  data.scope = { inScope: scope.inScope, confidence: scope.confidence, reasons: scope.reasons };
  yield { event: "sources", data };
  yield { event: "token", data: { text: message } };
  yield { event: "done", data: { citations: [], refusal: "out_of_scope" } };
}

function toSourceJson(passage: Passage): SourceJson {
  const range = passage.verseEnd > passage.verse ? `${passage.verse}-${passage.verseEnd}` : String(passage.verse);
  return {
    id: passage.id,
    ref: `${passage.book} ${passage.chapter}:${range}`,
    reference: passage.reference,
    book: passage.reference.slice(0, passage.reference.lastIndexOf(" ")),
    bookCode: passage.book,
    chapter: passage.chapter,
    verse: passage.verse,
    verseEnd: passage.verseEnd,
    text: passage.text,
  };
}
