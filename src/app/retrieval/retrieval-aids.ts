import { loadCrossReferences } from "../../adapters/sources/cross-references-file.js";
import { loadLexicon } from "../../adapters/sources/lexicon-files.js";
import { loadStories, loadTopics } from "./topics-file.js";
import type { CrossReferenceIndex } from "../../core/bible/cross-references.js";
import type { ScopeGateData } from "../../core/retrieval/scope/gate.js";
import type { CrossLinks } from "../../core/retrieval/engine.js";
import type { QueryExpander } from "../../core/retrieval/lexical-side.js";
import type { TopicalIndex } from "../../core/retrieval/topical-index.js";
import { loadScopeResources, provideScopeResources } from "./scope.js";
import { loadSnapshotAids, type AidsSnapshotUse } from "./aids-snapshot.js";
import { loadKnowledge } from "../../adapters/sources/knowledge-files.js";
import type { KnowledgeIndex } from "../../core/knowledge/knowledge-index.js";
import type { UnitStore } from "../../adapters/index/store.js";
import { analyzeWord } from "../../core/analysis/index.js";
import type { TermDictionary } from "../../core/retrieval/term-dictionary.js";

async function fromFiles() {
  const [lexicon, crossReferences, scope, topics, stories] = await Promise.all([loadLexicon(), loadCrossReferences(), loadScopeResources(), loadTopics(), loadStories()]);
  return { lexicon, crossReferences, scope, topics, stories };
}

export interface RetrievalAids {
  expander?: QueryExpander;
  crossLinks?: CrossLinks;
  /** The out-of-scope gate's lexicons and classifier (resources/scope/). */
  scope?: ScopeGateData;
  /** OpenBible.info links whole (with their end verses), for `/api/verses`. */
  crossReferences?: CrossReferenceIndex;
  /** Themes and feelings with the verses a pastor gives for them (resources/topics/). */
  topics?: TopicalIndex;
  /** Bible episodes with the ways people recall them and the verses that tell them (resources/stories/). */
  stories?: TopicalIndex;
  /** People, places, events and terms from Theographic, Easton's, Torrey's and Nave's, in Portuguese (resources/knowledge/); its ordinary words told by the gate's dictionary. */
  knowledge?: KnowledgeIndex;
  /** How the aids that have a snapshot were loaded (absent without a store). */
  snapshot?: AidsSnapshotUse;
}

export interface AidsOptions {
  /** The index's store: the aids' snapshot is read from it (and saved to it with `snapshot: "save"`). */
  store?: UnitStore | undefined;
  snapshot?: "save" | "build";
}

/** How many candidate expansions one query word offers (verb↔noun partners, then synonyms); the engine keeps those its corpus uses. */
const EXPANSIONS_PER_WORD = 16;

/**
 * Loads the data that helps retrieval beyond the corpus: OpenWordNet-PT (query expansion),
 * OpenBible.info cross references (links between verses), the project's topical index (themes
 * and feelings with their verses), its story index (Bible episodes as people recall them) and the
 * knowledge index (people, places, events and terms). All ship in resources/.
 */
export async function loadRetrievalAids(options: AidsOptions = {}): Promise<RetrievalAids> {
  const fromStore = options.store ? await loadSnapshotAids(options.store, options.snapshot ?? "build") : undefined;
  const { lexicon, crossReferences, scope, topics, stories } = fromStore?.aids ?? (await fromFiles());
  if (fromStore) provideScopeResources(fromStore.aids.scope);
  const stems = "stems" in scope ? (scope.stems as TermDictionary) : undefined;
  const knowledge = await loadKnowledge(stems ? { isWord: (word) => stems.has(analyzeWord(word)) } : {});
  const expander: QueryExpander = {
    expand: (word) => {
      // Verb↔noun partners first, then synonyms each followed by its own partners
      // ("medo" → "temor" → "temer": the Bible says "não temas" where the asker says "medo").
      const synonyms = lexicon.synonyms(word);
      const expansions = [...lexicon.related(word), ...synonyms.flatMap((synonym) => [synonym, ...lexicon.related(synonym)])];
      return [...new Set(expansions)].filter((candidate) => candidate !== word).slice(0, EXPANSIONS_PER_WORD);
    },
  };
  return {
    expander,
    crossReferences,
    topics,
    stories,
    knowledge,
    ...(fromStore ? { snapshot: fromStore.use } : {}),
    scope: { model: scope.model, lexicons: { ...scope.lexicons, related: (word) => expander.expand(word) } },
    crossLinks: {
      strongest: (book, chapter, verse, limit) =>
        crossReferences
          .strongest(book, chapter, verse, limit)
          .map((link) => ({ book: link.book, chapter: link.chapter, verse: link.verse, votes: link.votes })),
      inboundVotes: (book, chapter, verse) => crossReferences.inboundVotes(book, chapter, verse),
    },
  };
}
