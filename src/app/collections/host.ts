/**
 * Where the document collections' searches live: in this thread (`localCollectionHost`, the CLI
 * and `SEARCH_WORKERS=0`), or in the search workers with the Bible's engine
 * (`SearchPool.collectionHost`), so that a collection's retrieval, gate and prompt run off the
 * event loop like the Bible's. The collection service keeps only each collection's summary.
 */
import type { CollectionIndexStore } from "../../adapters/store/collection-index.js";
import type { ChatTurn } from "../../core/chat/llm.js";
import type { DocumentSearch, DocumentSearchOptions, DocumentSearchResponse } from "../../core/documents/search.js";
import { prepareCollectionAnswer, type PreparedCollectionAnswer } from "./chat.js";
import type { CollectionDenseKind } from "./dense.js";
import { loadCollection, type CollectionLoadSettings, type LoadedCollection } from "./load.js";

/** What the service reports of a loaded collection, wherever its search lives. */
export interface CollectionSummary {
  name: string;
  documents: number;
  chunks: number;
  /** Its lexical silos, sorted. */
  disciplines: string[];
  /** The dense side it is served with. */
  dense: CollectionDenseKind;
  /** Why the collection has no dense side (Portuguese), when it has none. */
  denseOffReason?: string;
  denseAvailable: boolean;
}

export function summarizeCollection(loaded: LoadedCollection): CollectionSummary {
  const summary: CollectionSummary = {
    name: loaded.name,
    documents: loaded.documents,
    chunks: loaded.chunks,
    disciplines: loaded.search.disciplines(),
    dense: loaded.dense,
    denseAvailable: loaded.search.denseAvailable,
  };
  if (loaded.denseOffReason !== undefined) summary.denseOffReason = loaded.denseOffReason;
  return summary;
}

export interface CollectionSearchHost {
  /**
   * Builds collection `name`'s search from its index and swaps it in (a failure keeps the one
   * served before). `store` is this thread's open index of it: the local host reads it, the
   * search workers read their own connection to the same index.
   */
  load(name: string, store: CollectionIndexStore): Promise<CollectionSummary>;
  /** `prepareCollectionAnswer` over a loaded collection. */
  prepare(name: string, question: string, history: readonly ChatTurn[], topK: number, signal?: AbortSignal): Promise<PreparedCollectionAnswer>;
  search(name: string, query: string, options: DocumentSearchOptions): Promise<DocumentSearchResponse>;
}

/** A collection asked of a host that has not loaded it (a bug of the caller: the service loads before it serves). */
export function notLoaded(name: string): Error {
  return new Error(`collection "${name}" is not loaded here`);
}

/** The collections' searches in this thread. */
export function localCollectionHost(settings: CollectionLoadSettings): CollectionSearchHost {
  const searches = new Map<string, DocumentSearch>();
  const searchOf = (name: string): DocumentSearch => {
    const search = searches.get(name);
    if (!search) throw notLoaded(name);
    return search;
  };
  return {
    async load(name, store) {
      const loaded = await loadCollection(name, store, settings);
      searches.set(name, loaded.search);
      return summarizeCollection(loaded);
    },
    prepare: async (name, question, history, topK) => prepareCollectionAnswer(searchOf(name), question, history, topK),
    search: async (name, query, options) => searchOf(name).search(query, options),
  };
}
