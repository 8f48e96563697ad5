/**
 * A document collection's answer planner: numbered excerpts as sources, the lesson header shown
 * to the model once per source, and the document citation check on the model's stream (`[n]`
 * becomes the human citation; sources the model was not shown never reach the browser). The
 * answer itself is every collection's (src/app/grounded-answer.ts).
 */
import type { DocumentSearch } from "../../core/documents/search.js";
import { buildDocumentPassages, type DocumentPassage } from "../../core/grounding/document-passages.js";
import { DocumentCitationStreamFilter } from "../../core/grounding/document-citations.js";
import { buildDocumentChatPrompt, DOCUMENT_NO_EVIDENCE_MESSAGE, documentOutOfScopeMessage } from "../../core/grounding/document-prompt.js";
import { inThread, type AnswerPlanner, type DocumentSourceJson } from "../grounded-answer.js";

export interface CollectionPlannerDependencies {
  search: DocumentSearch;
  topK: number;
}

/** Plans answers over one document collection (its search runs in this thread). */
export function collectionPlanner(deps: CollectionPlannerDependencies): AnswerPlanner {
  const { search } = deps;
  return async (input) => {
    const response = await search.search(input.message, { k: deps.topK });
    if (response.scope && !response.scope.inScope) {
      return { kind: "out_of_scope", scope: response.scope, message: documentOutOfScopeMessage(search.collection), collection: search.collection };
    }
    const passages = buildDocumentPassages(response.results);
    const prompt = buildDocumentChatPrompt({ collection: search.collection, question: input.message, passages, history: input.history });
    return {
      kind: "grounded",
      collection: search.collection,
      sources: passages.map((passage, i) => toSourceJson(passage, search.collection, response.results[i]!.discipline)),
      noEvidenceMessage: DOCUMENT_NO_EVIDENCE_MESSAGE,
      request: {
        system: prompt.system,
        messages: prompt.messages,
        passages: passages.map((p) => ({ reference: `[${p.number}]`, text: withoutMarkdownMarks(p.text) })),
        question: input.message,
        corpusLabel: `a coleção “${search.collection}”`,
      },
      check: () => inThread(new DocumentCitationStreamFilter(passages)),
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
