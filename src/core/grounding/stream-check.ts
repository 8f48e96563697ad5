/**
 * What the chat needs of a stream-safe citation check, whatever its citation grammar (Bible
 * references in `citations.ts`, numbered excerpts in `document-citations.ts`): feed the
 * model's deltas to `push`, which returns the text safe to show now; `end` returns the rest;
 * `citations` are the kept citations as the answer shows them, in order of first citation.
 */
export interface StreamCitationCheck {
  push(delta: string): string;
  end(): string;
  readonly citations: string[];
  readonly removed: string[];
}
