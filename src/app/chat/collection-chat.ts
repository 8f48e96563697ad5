/**
 * A document collection's answer planner: numbered excerpts as sources, the lesson header shown
 * to the model once per source, and the collection's citation check on the model's stream (`[n]`
 * becomes the human citation; sources the model was not shown never reach the browser; a Bible
 * reference stays plain text when the verse exists and goes when it does not). The
 * answer itself is every collection's (src/app/chat/grounded-answer.ts).
 */
import type { ChatTurn } from "../../core/chat/llm.js";
import type { DocumentPassage } from "../../core/grounding/document-passages.js";
import type { Versification } from "../../core/bible/references.js";
import { CollectionAnswerCheck } from "../../core/grounding/collection-answer-check.js";
import { DOCUMENT_NO_EVIDENCE_MESSAGE, documentOutOfScopeMessage } from "../../core/grounding/document-prompt.js";
import { inThread } from "../grounding/answer-engine.js";
import type { PreparedCollectionAnswer } from "../grounding/collection-host.js";
import type { AnswerPlanner, DocumentSourceJson } from "./grounded-answer.js";

export interface CollectionPlannerDependencies {
  collection: string;
  /** `prepareCollectionAnswer` over the collection's search, wherever that search lives. */
  prepare(question: string, history: readonly ChatTurn[], signal: AbortSignal): Promise<PreparedCollectionAnswer>;
  /**
   * The Bible's versification, for the Bible references a model writes in a collection's answer
   * (kept as plain text when the verse exists, removed when not); undefined while the Bible's
   * index is not loaded (then every one is removed).
   */
  bibleVersification?: () => Versification | undefined;
}

/** Plans answers over one document collection: its prepared answer as sources, the model's request and the check. */
export function collectionPlanner(deps: CollectionPlannerDependencies): AnswerPlanner {
  const { collection } = deps;
  return async (input) => {
    const prepared = await deps.prepare(input.message, input.history, input.signal);
    if (prepared.kind === "out_of_scope") {
      return { kind: "out_of_scope", scope: prepared.scope, message: documentOutOfScopeMessage(collection), collection };
    }
    const { passages, prompt, doubt } = prepared;
    return {
      kind: "grounded",
      collection,
      ...(doubt ? { doubt } : {}),
      sources: passages.map((passage, i) => toSourceJson(passage, collection, prepared.disciplines[i]!)),
      noEvidenceMessage: DOCUMENT_NO_EVIDENCE_MESSAGE,
      request: {
        system: prompt.system,
        messages: prompt.messages,
        passages: passages.map((p) => ({ reference: `[${p.number}]`, text: withoutMarkdownMarks(p.text) })),
        question: input.message,
        corpusLabel: `a coleção “${collection}”`,
        // The writer at risk: the stub answers with care instead of echoing the message.
        ...(input.care ? { care: input.care } : {}),
      },
      check: () => inThread(new CollectionAnswerCheck(passages, deps.bibleVersification?.())),
    };
  };
}

function toSourceJson(passage: DocumentPassage, collection: string, discipline: string): DocumentSourceJson {
  const source: DocumentSourceJson = {
    kind: "document",
    id: `${collection}:${passage.sourceId}#${passage.chunk}`,
    number: passage.number,
    collection,
    sourceId: passage.sourceId,
    chunk: passage.chunk,
    title: passage.title,
    discipline,
    citation: passage.citation,
    text: passage.text,
  };
  if (passage.page !== undefined) source.page = passage.page;
  if (passage.pageEnd !== undefined) source.pageEnd = passage.pageEnd;
  return source;
}

/** The excerpt without Markdown marks (headings, emphasis, code ticks), for the offline stub's quotes. */
function withoutMarkdownMarks(text: string): string {
  return text
    .replace(/(^|\s)#{1,6}\s+/g, "$1")
    .replace(/[*_`]{1,3}([^*_`]+)[*_`]{1,3}/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
