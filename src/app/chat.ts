/**
 * The Bible's chat: the search, the gate's decision, the verses with their windows as the
 * model's passages, and the Bible citation check; the stream itself is shared
 * (src/app/grounded-answer.ts).
 */
import type { LlmProvider } from "../core/chat/llm.js";
import { CitationStreamFilter } from "../core/grounding/citations.js";
import { passagesFromResults, ShownVerses, type Passage } from "../core/grounding/passages.js";
import { buildChatPrompt, NO_EVIDENCE_MESSAGE, OUT_OF_SCOPE_MESSAGE } from "../core/grounding/prompt.js";
import type { SearchEngine } from "../core/search/engine.js";
import { inThread, refuseOutOfScope, streamGroundedAnswer, type ChatEvent, type ChatInput, type SourceJson } from "./grounded-answer.js";

export type { AnySourceJson, ChatEvent, ChatInput, Refusal, ScopeJson, SourceJson } from "./grounded-answer.js";

export interface ChatDependencies {
  engine: SearchEngine;
  provider: LlmProvider;
  topK: number;
  contextWindow: number;
}

/**
 * One answer over the Bible, as the events the SSE route writes. Out of scope: the fixed
 * reply, no model call. No evidence: a fixed message, no model call.
 */
export async function* answerQuestion(deps: ChatDependencies, input: ChatInput): AsyncGenerator<ChatEvent> {
  const { engine } = deps;
  const response = await engine.search(input.message, { k: deps.topK });
  if (response.scope && !response.scope.inScope) {
    yield* refuseOutOfScope(input.conversationId, response.scope, OUT_OF_SCOPE_MESSAGE);
    return;
  }
  const passages = passagesFromResults(response.results, (result) =>
    engine.windowCoordinates(result.book, result.chapter, result.verse, deps.contextWindow),
  );
  const prompt = buildChatPrompt({ question: input.message, passages, history: input.history });
  yield* streamGroundedAnswer(deps.provider, input, {
    sources: passages.map(toSourceJson),
    noEvidenceMessage: NO_EVIDENCE_MESSAGE,
    request: {
      system: prompt.system,
      messages: prompt.messages,
      passages: passages.map((p) => ({ reference: p.reference, text: p.text })),
      question: input.message,
    },
    check: () => inThread(new CitationStreamFilter(new ShownVerses(passages), engine.versificationOf())),
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
