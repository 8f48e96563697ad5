/**
 * The model's answer through its citation check: what the chat streams to the browser. One
 * function of the provider and the check, run where the provider lives: in this thread
 * (`localAnswerStreamer`, SEARCH_WORKERS=0 and tests), or in a search worker (`SearchPool`), so
 * that the provider's HTTP client, its stream parsing and the per-token check stay off the
 * event loop, which then only frames the checked text as SSE.
 */
import type { Versification } from "../../core/bible/references.js";
import type { GenerateRequest, LlmProvider } from "../../core/chat/llm.js";
import { CitationStreamFilter } from "../../core/grounding/citations.js";
import { DocumentCitationStreamFilter } from "../../core/grounding/document-citations.js";
import type { DocumentPassage } from "../../core/grounding/document-passages.js";
import { ShownVerses, type Passage } from "../../core/grounding/passages.js";
import type { StreamCitationCheck } from "../../core/grounding/stream-check.js";

/**
 * What an answer's citations are checked against, as plain data (a worker builds the same
 * check from it): the verses a Bible answer was shown, or a document answer's numbered excerpts.
 */
export type CheckSpec =
  | { grammar: "bible"; passages: readonly Passage[] }
  | { grammar: "documents"; passages: readonly DocumentPassage[] };

/**
 * Streams one answer: yields the text safe to show as it comes (never empty), and returns the
 * citations kept. Provider errors (`LlmError`) are thrown as they are; the request's signal
 * aborts the provider's call.
 */
export interface AnswerStreamer {
  stream(request: GenerateRequest, check: CheckSpec): AsyncGenerator<string, string[]>;
}

/** The stream-safe check a spec describes (the Bible's against the primary versification). */
export function citationCheckFor(check: CheckSpec, versification: Versification): StreamCitationCheck {
  return check.grammar === "bible"
    ? new CitationStreamFilter(new ShownVerses(check.passages), versification)
    : new DocumentCitationStreamFilter(check.passages);
}

/** The provider in this thread, each delta through the check as it arrives. */
export function localAnswerStreamer(provider: LlmProvider, versification: () => Versification): AnswerStreamer {
  return {
    async *stream(request, check) {
      const filter = citationCheckFor(check, versification());
      for await (const delta of provider.stream(request)) {
        const text = filter.push(delta);
        if (text !== "") yield text;
      }
      const tail = filter.end();
      if (tail !== "") yield tail;
      return filter.citations;
    },
  };
}
