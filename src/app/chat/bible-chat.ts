/**
 * The Bible's answer planner: retrieval, the gate and the prompt from the `AnswerEngine` (in
 * this thread or in a search worker), the verses with their windows as sources, and the Bible
 * citation check; the answer itself is every collection's (src/app/chat/grounded-answer.ts).
 */
import type { Passage } from "../../core/grounding/passages.js";
import { NO_EVIDENCE_MESSAGE, OUT_OF_SCOPE_MESSAGE } from "../../core/grounding/prompt.js";
import type { AnswerEngine } from "../grounding/answer-engine.js";
import type { AnswerPlanner, SourceJson } from "./grounded-answer.js";

export interface BiblePlannerDependencies {
  /** The loaded index, in this thread or in the search workers. */
  engine: AnswerEngine;
  topK: number;
  contextWindow: number;
}

/** Plans answers over the Bible (a search worker that dies with the question rejects with `SearchUnavailableError`). */
export function biblePlanner(deps: BiblePlannerDependencies): AnswerPlanner {
  const { engine } = deps;
  return async (input) => {
    const { care } = input;
    const prepared = await engine.prepare(
      input.message,
      input.history,
      { topK: deps.topK, contextWindow: deps.contextWindow, ...(care ? { care } : {}), ...(input.explain ? { explain: true } : {}) },
      input.signal,
    );
    if (prepared.kind === "out_of_scope") return { kind: "out_of_scope", scope: prepared.scope, message: OUT_OF_SCOPE_MESSAGE };
    const { passages, prompt, doubt, shape, explain } = prepared;
    return {
      kind: "grounded",
      sources: passages.map(toSourceJson),
      ...(doubt ? { doubt } : {}),
      ...(shape ? { shape } : {}),
      ...(explain ? { explain } : {}),
      noEvidenceMessage: NO_EVIDENCE_MESSAGE,
      request: {
        system: prompt?.system ?? "",
        messages: prompt?.messages ?? [],
        passages: passages.map((p) => ({ reference: p.reference, text: p.text })),
        question: input.message,
        ...(care ? { care } : {}),
        ...(shape ? { shape } : {}),
      },
      check: () => engine.checkCitations(passages),
    };
  };
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
