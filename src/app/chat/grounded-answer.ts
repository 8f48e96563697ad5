/**
 * What every chat answer shares, whatever the collection (the Bible in src/app/chat/bible-chat.ts, a
 * document collection in src/app/chat/collection-chat.ts): the events the SSE route writes, the
 * out-of-scope refusal, the no-evidence reply, and the model's stream through the collection's
 * citation check (invented citations never leave the server, not even half-written).
 */
import type { ChatTurn, GenerateRequest, LlmProvider } from "../../core/chat/llm.js";
import { isLlmError } from "../../core/chat/llm.js";
import { readableExcerpt, readableTitle } from "../../core/documents/citation.js";
import type { ChunkPlace } from "../../core/documents/types.js";
import type { ScopeDecision } from "../../core/retrieval/scope/gate.js";
import { smallTalkOf, type SmallTalk } from "../../core/reading/small-talk.js";
import { retrievalQuery } from "../../core/reading/follow-up.js";
import { smallTalkReply } from "../../core/chat/small-talk.js";
import { careNotice, crisisOf, type CareNotice, type CrisisKind } from "../../core/reading/crisis.js";
import { SearchUnavailableError, type AnswerCitationCheck } from "../grounding/answer-engine.js";
import { answerKindOf, type AnswerShape } from "../../core/grounding/answer-shape.js";
import type { TraceEntry } from "../../core/retrieval/stages/stage.js";

/** What the browser receives for a verse (the verse itself; the model saw its window). */
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

/** What the browser receives for a document excerpt. */
export interface DocumentSourceJson extends ChunkPlace {
  kind: "document";
  id: string;
  /** The excerpt's number in the prompt (the model cites it as [n]). */
  number: number;
  collection: string;
  discipline: string;
  /** Human citation, the text the answer shows for it. */
  citation: string;
  text: string;
  cited?: boolean;
}

/** A consulted source as sent to the browser: a verse, or a document excerpt. */
export type AnySourceJson = SourceJson | DocumentSourceJson;

/** Why an answer came without the model: the gate found the question out of scope, or retrieval found nothing. */
export type Refusal = "out_of_scope" | "no_evidence";

/** The gate's decision as the browser receives it: with an out-of-scope refusal, and with an answer the gate doubted. */
export interface ScopeJson {
  inScope: boolean;
  /** Kept with a doubt: the answer comes, the page saying first that the search is not sure it understood. */
  doubtful: boolean;
  confidence: number;
  reasons: ScopeDecision["reasons"];
}

function scopeJson(scope: ScopeDecision): ScopeJson {
  return { inScope: scope.inScope, doubtful: scope.doubtful, confidence: scope.confidence, reasons: scope.reasons };
}

export type ChatEvent =
  | { event: "sources"; data: { conversationId: string; collection?: string; sources: AnySourceJson[]; scope?: ScopeJson; explain?: TraceEntry[] } }
  | { event: "care"; data: CareNotice }
  | { event: "token"; data: { text: string } }
  | { event: "done"; data: { citations: string[]; kind: AnswerKind; refusal?: Refusal; smallTalk?: SmallTalk; care?: CrisisKind } }
  | { event: "error"; data: { code: string; message: string } };

export interface ChatInput {
  message: string;
  history: ChatTurn[];
  conversationId: string;
  signal: AbortSignal;
  /** The document collection asked; absent for the Bible. */
  collection?: string;
  /**
   * Set by `answerWith` when the writer at risk surely speaks of themselves (core/grounding/
   * crisis.ts, `personal`): the planner answers with care (the Bible over its chosen passages;
   * the provider is told).
   */
  care?: CrisisKind;
  /** Send the search's explain trace with the sources (`pastor search --explain`'s entries). */
  explain?: boolean;
}

/**
 * The kind of answer the `done` event names: small talk, a refusal (out of scope, no evidence),
 * or the kind of message answered (`core/grounding/answer-shape.ts`: about the assistant, a
 * saying checked, a passage explained or quoted, a study prepared, a person, place, event,
 * term or practice), else `question`.
 */
export type AnswerKind = "small_talk" | "out_of_scope" | "no_evidence" | ReturnType<typeof answerKindOf>;

/** Errors that are not the provider's get one stable code and a plain message. */
export const INTERNAL_ERROR = { code: "internal_error", message: "Ocorreu um erro inesperado ao preparar a resposta." };

/** One retrieved answer, ready to stream: what a collection's chat builds from its search. */
export interface GroundedPlan {
  /** The document collection's name; absent for the Bible. */
  collection?: string;
  sources: AnySourceJson[];
  /** The gate kept the question with a doubt (ScopeDecision.doubtful): sent with the sources. */
  doubt?: ScopeDecision;
  /** The kind of message and what retrieval found for it (the stub's voice, the `done` event's kind). */
  shape?: AnswerShape;
  /** The search's explain trace, when asked for. */
  explain?: TraceEntry[];
  /** The fixed reply when nothing was retrieved (the model is not called). */
  noEvidenceMessage: string;
  /** The request for the model (without the signal, which comes from the input). */
  request: Omit<GenerateRequest, "signal">;
  /** The check the model's stream goes through (built over what the model was shown). */
  check: () => AnswerCitationCheck;
}

/** What a collection's chat makes of a question: the gate's refusal, or a grounded answer's plan. */
export type AnswerPlan =
  | { kind: "out_of_scope"; scope: ScopeDecision; message: string; collection?: string }
  | ({ kind: "grounded" } & GroundedPlan);

/** How one collection (the Bible, or a document collection) plans its answers: retrieval, the gate, sources, prompt and check. */
export type AnswerPlanner = (input: ChatInput) => Promise<AnswerPlan>;

/**
 * One answer over any collection, as the events the SSE route writes. Small talk (a greeting,
 * thanks, a goodbye): a fixed friendly reply, no search, no model call. Out of scope: the fixed
 * reply, no model call. No evidence: a fixed message, no model call. Otherwise the sources and
 * the model's checked stream. A search worker that died with the question: the Portuguese
 * `search_failed` error event.
 *
 * A person at risk (core/reading/crisis.ts), in the message or in the question a follow-up leans
 * on, gets the `care` notice, with the numbers to call, right after the sources and before any
 * text, whatever follows; `done` names its kind.
 */
export async function* answerWith(planner: AnswerPlanner, provider: LlmProvider, input: ChatInput): AsyncGenerator<ChatEvent> {
  const talk = smallTalkOf(input.message);
  if (talk) {
    const sources = sourcesData(input.conversationId, [], input.collection);
    yield* fixedAnswer(sources, smallTalkReply(talk, input.collection), { kind: "small_talk", smallTalk: talk });
    return;
  }
  // A follow-up ("e agora, o que eu faço?") is read with the question it leans on.
  const crisis = crisisOf(retrievalQuery(input.message, input.history));
  const asked: ChatInput = crisis?.personal ? { ...input, care: crisis.kind } : input;
  let planned: AnswerPlan;
  try {
    planned = await planner(asked);
  } catch (error) {
    if (error instanceof SearchUnavailableError) {
      if (crisis) yield { event: "care", data: careNotice(crisis.kind) };
      yield { event: "error", data: { code: error.code, message: error.message } };
      return;
    }
    throw error;
  }
  // Out of scope: no sources, the fixed reply; the gate's reasons go with the (empty) sources.
  const answer =
    planned.kind === "out_of_scope"
      ? fixedAnswer(sourcesData(input.conversationId, [], planned.collection, planned.scope), planned.message, {
          kind: "out_of_scope",
          refusal: "out_of_scope",
        })
      : streamGroundedAnswer(provider, asked, planned);
  if (!crisis) {
    yield* answer;
    return;
  }
  for await (const event of answer) {
    if (event.event === "done") yield { event: "done", data: { ...event.data, care: crisis.kind } };
    else yield event;
    if (event.event === "sources") yield { event: "care", data: careNotice(crisis.kind) };
  }
}

/**
 * The events of one answer: the consulted sources, then the no-evidence reply or the model's
 * text with every citation checked, and the citations that survived. A provider failure, or a
 * search worker lost mid-answer, is an `error` event (its stable code); a client that went away
 * ends the stream quietly.
 */
async function* streamGroundedAnswer(provider: LlmProvider, input: ChatInput, plan: GroundedPlan): AsyncGenerator<ChatEvent> {
  const sources = sourcesData(input.conversationId, plan.sources, plan.collection, plan.doubt);
  if (plan.explain) sources.explain = plan.explain;
  if (plan.sources.length === 0 && plan.shape?.kind !== "about_assistant") {
    yield* fixedAnswer(sources, plan.noEvidenceMessage, { kind: "no_evidence", refusal: "no_evidence" });
    return;
  }
  yield { event: "sources", data: sources };

  const check = plan.check();
  try {
    // The offline stub's passages as the reader sees them too (no index metadata block to quote).
    const passages = plan.request.passages?.map((passage) => ({ ...passage, text: readableExcerpt(passage.text) }));
    for await (const delta of provider.stream({ ...plan.request, ...(passages ? { passages } : {}), ...(plan.doubt ? { doubtful: true } : {}), signal: input.signal })) {
      const text = await check.push(delta);
      if (text !== "") yield { event: "token", data: { text } };
    }
    const { tail, citations } = await check.finish();
    if (tail !== "") yield { event: "token", data: { text: tail } };
    yield { event: "done", data: { citations, kind: answerKindOf(plan.shape) } };
  } catch (error) {
    if (input.signal.aborted) return;
    const shown = isLlmError(error) || error instanceof SearchUnavailableError;
    yield { event: "error", data: shown ? { code: error.code, message: error.message } : INTERNAL_ERROR };
  } finally {
    check.close();
  }
}

/** A document excerpt as the reader sees it: its lesson's title and text, without index markup (the citation is unchanged). */
function readableSource(source: AnySourceJson): AnySourceJson {
  if (!("kind" in source)) return source;
  return { ...source, title: readableTitle(source, source.text), text: readableExcerpt(source.text) };
}

type SourcesData = Extract<ChatEvent, { event: "sources" }>["data"];

/** The `sources` event's data: `collection` for a document collection, `scope` with the gate's decision to show. */
function sourcesData(conversationId: string, sources: AnySourceJson[], collection?: string, scope?: ScopeDecision): SourcesData {
  const data: SourcesData = { conversationId, sources: sources.map(readableSource) };
  if (collection !== undefined) data.collection = collection;
  if (scope) data.scope = scopeJson(scope);
  return data;
}

/** An answer without the model: the sources, the fixed reply, and `done` with no citations (and why). */
async function* fixedAnswer(
  sources: SourcesData,
  text: string,
  done: Omit<Extract<ChatEvent, { event: "done" }>["data"], "citations">,
): AsyncGenerator<ChatEvent> {
  yield { event: "sources", data: sources };
  yield { event: "token", data: { text } };
  yield { event: "done", data: { citations: [], ...done } };
}
