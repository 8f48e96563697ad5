/**
 * The chat over a document collection: the same events as the Bible chat (src/app/chat.ts),
 * with numbered excerpts as sources, the lesson header shown to the model once per source,
 * and the document citation check on the model's stream (`[n]` becomes the human citation;
 * sources the model was not shown never reach the browser).
 */
import type { LlmProvider } from "../../core/chat/llm.js";
import { isLlmError } from "../../core/chat/llm.js";
import type { DocumentSearch } from "../../core/documents/search.js";
import { buildDocumentPassages, type DocumentPassage } from "../../core/grounding/document-passages.js";
import { DocumentCitationStreamFilter } from "../../core/grounding/document-citations.js";
import { buildDocumentChatPrompt, DOCUMENT_NO_EVIDENCE_MESSAGE, documentOutOfScopeMessage } from "../../core/grounding/document-prompt.js";
import { INTERNAL_ERROR, refuseOutOfScope, type ChatEvent, type ChatInput } from "../chat.js";

/** What the browser receives for a document excerpt. */
export interface DocumentSourceJson {
  kind: "document";
  id: string;
  /** The excerpt's number in the prompt (the model cites it as [n]). */
  number: number;
  collection: string;
  sourceId: string;
  /** 0-based. */
  chunk: number;
  page?: number;
  pageEnd?: number;
  title: string;
  discipline: string;
  /** Human citation, the text the answer shows for it. */
  citation: string;
  text: string;
  cited?: boolean;
}

export interface DocumentChatDependencies {
  search: DocumentSearch;
  provider: LlmProvider;
  topK: number;
}

export async function* answerFromCollection(deps: DocumentChatDependencies, input: ChatInput): AsyncGenerator<ChatEvent> {
  const { search } = deps;
  const response = await search.search(input.message, { k: deps.topK });
  if (response.scope && !response.scope.inScope) {
    yield* refuseOutOfScope(input.conversationId, response.scope, documentOutOfScopeMessage(search.collection), search.collection);
    return;
  }
  const passages = buildDocumentPassages(response.results);
  const sources = passages.map((passage, i) => toSourceJson(passage, search.collection, response.results[i]!.discipline));
  yield { event: "sources", data: { conversationId: input.conversationId, collection: search.collection, sources } };

  if (passages.length === 0) {
    yield { event: "token", data: { text: DOCUMENT_NO_EVIDENCE_MESSAGE } };
    yield { event: "done", data: { citations: [], refusal: "no_evidence" } };
    return;
  }

  const prompt = buildDocumentChatPrompt({ collection: search.collection, question: input.message, passages, history: input.history });
  const filter = new DocumentCitationStreamFilter(passages);
  try {
    const stream = deps.provider.stream({
      system: prompt.system,
      messages: prompt.messages,
      signal: input.signal,
      passages: passages.map((p) => ({ reference: `[${p.number}]`, text: withoutMarkdownMarks(p.text) })),
      question: input.message,
      corpusLabel: `a coleção “${search.collection}”`,
    });
    for await (const delta of stream) {
      const text = filter.push(delta);
      if (text !== "") yield { event: "token", data: { text } };
    }
    const tail = filter.end();
    if (tail !== "") yield { event: "token", data: { text: tail } };
    yield { event: "done", data: { citations: filter.cited.map((passage) => passage.citation) } };
  } catch (error) {
    if (input.signal.aborted) return;
    yield { event: "error", data: isLlmError(error) ? { code: error.code, message: error.message } : INTERNAL_ERROR };
  }
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
