/**
 * The Bible's chat: retrieval, the gate and the prompt from the `AnswerEngine` (in this thread
 * or in a search worker), the verses with their windows as sources, and the Bible citation
 * check; the stream itself is shared (src/app/grounded-answer.ts).
 */
import type { LlmProvider } from "../core/chat/llm.js";
import type { Passage } from "../core/grounding/passages.js";
import { NO_EVIDENCE_MESSAGE, OUT_OF_SCOPE_MESSAGE } from "../core/grounding/prompt.js";
import type { AnswerEngine, PreparedAnswer } from "./answer-engine.js";
import { refuseOutOfScope, SearchUnavailableError, streamGroundedAnswer, type ChatEvent, type ChatInput, type SourceJson } from "./grounded-answer.js";

export type { AnySourceJson, ChatEvent, ChatInput, Refusal, ScopeJson, SourceJson } from "./grounded-answer.js";

export interface ChatDependencies {
  /** The loaded index, in this thread or in the search workers. */
  engine: AnswerEngine;
  provider: LlmProvider;
  topK: number;
  contextWindow: number;
}

/**
 * One answer over the Bible, as the events the SSE route writes. Out of scope: the fixed
 * reply, no model call. No evidence: a fixed message, no model call. A search worker that died
 * with the question: the Portuguese `search_failed` error event.
 */
export async function* answerQuestion(deps: ChatDependencies, input: ChatInput): AsyncGenerator<ChatEvent> {
  const { engine } = deps;
  let prepared: PreparedAnswer;
  try {
    prepared = await engine.prepare(input.message, input.history, { topK: deps.topK, contextWindow: deps.contextWindow }, input.signal);
  } catch (error) {
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
  yield* streamGroundedAnswer(deps.provider, input, {
    sources: passages.map(toSourceJson),
    noEvidenceMessage: NO_EVIDENCE_MESSAGE,
    request: {
      system: prompt?.system ?? "",
      messages: prompt?.messages ?? [],
      passages: passages.map((p) => ({ reference: p.reference, text: p.text })),
      question: input.message,
    },
    check: () => engine.checkCitations(passages),
  });
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
