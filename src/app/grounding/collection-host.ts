/**
 * Where the document collections' searches live: in this thread (`localCollectionHost`, the CLI
 * and `SEARCH_WORKERS=0`), or in the search workers with the Bible's engine
 * (`SearchPool.collectionHost`), so that a collection's retrieval, gate and prompt run off the
 * event loop like the Bible's. The collection service keeps only each collection's summary.
 */
import type { UnitStore } from "../../adapters/index/store.js";
import type { DocumentSearch, DocumentSearchOptions, DocumentSearchResponse } from "../../core/retrieval/document-search.js";
import { buildDocumentPassages, type DocumentPassage } from "../../core/grounding/document-passages.js";
import { buildDocumentChatPrompt } from "../../core/grounding/document-prompt.js";
import type { ChatPrompt, ChatTurn } from "../../core/grounding/prompt.js";
import type { ScopeDecision } from "../../core/retrieval/scope/gate.js";
import { loadCollection, type CollectionLoadSettings, type LoadedCollection } from "../retrieval/collection-load.js";
import { retrievalQuery } from "../../core/reading/follow-up.js";

/**
 * What a document collection's answer needs from retrieval before the model is called, as
 * plain data (it crosses a worker boundary by structured clone): the gate's refusal, or the
 * numbered excerpts (with their disciplines) and the prompt built from them.
 */
export type PreparedCollectionAnswer =
  | { kind: "out_of_scope"; scope: ScopeDecision }
  | { kind: "passages"; passages: DocumentPassage[]; disciplines: string[]; prompt: ChatPrompt; doubt?: ScopeDecision };

/**
 * Retrieval and prompt building for one question over one collection: its search with the
 * out-of-scope gate (searched as core/reading/follow-up.ts says: without the small talk, a
 * follow-up with the question it follows), the excerpts, the prompt. The same function runs in
 * a search worker and in this thread, so both give byte-identical answers.
 */
export async function prepareCollectionAnswer(
  search: DocumentSearch,
  question: string,
  history: readonly ChatTurn[],
  topK: number,
): Promise<PreparedCollectionAnswer> {
  const response = await search.search(retrievalQuery(question, history), { k: topK });
  if (response.scope && !response.scope.inScope) return { kind: "out_of_scope", scope: response.scope };
  const passages = buildDocumentPassages(response.results);
  const doubt = response.scope?.doubtful ? response.scope : undefined;
  const prompt = buildDocumentChatPrompt({ collection: search.collection, question, passages, history: [...history], ...(doubt ? { doubtful: true } : {}) });
  return { kind: "passages", passages, disciplines: response.results.map((hit) => hit.discipline), prompt, ...(doubt ? { doubt } : {}) };
}

/** What the service reports of a loaded collection, wherever its search lives: the load without the search, and what the search says of itself. */
export interface CollectionSummary extends Omit<LoadedCollection, "search"> {
  /** Its lexical silos, sorted. */
  disciplines: string[];
  denseAvailable: boolean;
}

export interface CollectionSearchHost {
  /**
   * Builds collection `name`'s search from its index and swaps it in (a failure keeps the one
   * served before). `store` is this thread's open index of it: the local host reads it, the
   * search workers read their own connection to the same index.
   */
  load(name: string, store: UnitStore): Promise<CollectionSummary>;
  /** `prepareCollectionAnswer` over a loaded collection. */
  prepare(name: string, question: string, history: readonly ChatTurn[], topK: number, signal?: AbortSignal): Promise<PreparedCollectionAnswer>;
  search(name: string, query: string, options: DocumentSearchOptions): Promise<DocumentSearchResponse>;
}

/** The collections' searches in this thread. */
export function localCollectionHost(settings: CollectionLoadSettings): CollectionSearchHost {
  const searches = new Map<string, DocumentSearch>();
  const searchOf = (name: string): DocumentSearch => {
    const search = searches.get(name);
    // A bug of the caller: the service loads a collection before it serves it.
    if (!search) throw new Error(`collection "${name}" is not loaded here`);
    return search;
  };
  return {
    async load(name, store) {
      const { search, ...loaded } = await loadCollection(name, store, settings);
      searches.set(name, search);
      return { ...loaded, disciplines: search.disciplines(), denseAvailable: search.denseAvailable };
    },
    prepare: async (name, question, history, topK) => prepareCollectionAnswer(searchOf(name), question, history, topK),
    search: async (name, query, options) => searchOf(name).search(query, options),
  };
}
