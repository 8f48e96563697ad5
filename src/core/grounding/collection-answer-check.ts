/**
 * The citation check of a document collection's answer: its Bible references first, then its
 * excerpt citations. A collection's answer consults no verse, so a Bible reference in it is
 * never a checked citation: one that names a verse of the Bible (in the Bible's versification)
 * is kept as plain text, one that does not exist ("João 3:99", a book outside the canon) is
 * removed with the Bible check's cleanup (./citations.ts, every existing verse counting as
 * "shown"). Without the Bible's versification (its index not loaded yet) nothing can be told to
 * exist, so every Bible reference is removed. Then the excerpt markers and source ids
 * (./document-citations.ts) on what is left; the answer's `citations` are the excerpts' only, so
 * the browser never sees a verse as a checked citation of a collection.
 */
import { type BibleReference, type Versification, validateReference } from "../bible/references.js";
import { CitationStreamFilter, type ShownSet } from "./citations.js";
import type { DocumentPassage } from "./document-passages.js";
import { DocumentCitationStreamFilter } from "./document-citations.js";
import type { StreamCitationCheck } from "./stream-check.js";

/** Every span that exists in `versification` counts as shown (none without one). */
export function existingVerses(versification: Versification | undefined): ShownSet {
  return { covers: (ref: BibleReference) => versification !== undefined && validateReference(ref, versification).ok };
}

/** A collection answer's streaming check (see the module comment). */
export class CollectionAnswerCheck implements StreamCitationCheck {
  private readonly verses: CitationStreamFilter;
  private readonly documents: DocumentCitationStreamFilter;

  constructor(passages: readonly DocumentPassage[], versification: Versification | undefined) {
    this.verses = new CitationStreamFilter(existingVerses(versification), versification);
    this.documents = new DocumentCitationStreamFilter(passages);
  }

  push(delta: string): string {
    return this.documents.push(this.verses.push(delta));
  }

  end(): string {
    return this.documents.push(this.verses.end()) + this.documents.end();
  }

  /** The excerpts cited (their human citations): never a Bible reference. */
  get citations(): string[] {
    return this.documents.citations;
  }

  /** What was removed: the Bible references that do not exist, then the invented excerpt citations. */
  get removed(): string[] {
    return [...this.verses.removed, ...this.documents.removed];
  }
}

/** The whole answer checked at once (the same as the stream for any chunking). */
export function checkCollectionAnswer(
  text: string,
  passages: readonly DocumentPassage[],
  versification: Versification | undefined,
): { text: string; citations: string[]; removed: string[] } {
  const check = new CollectionAnswerCheck(passages, versification);
  const out = check.push(text) + check.end();
  return { text: out, citations: check.citations, removed: check.removed };
}
