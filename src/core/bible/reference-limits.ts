/**
 * How much one request may ask of the verse grammar: what `/api/verses` and a chat message's
 * references are held to, counted before anything is listed (./references.ts
 * `countReferenceVerses`, `expandReferences`), so a long list of long ranges ("Sl 1-150;1-150;…")
 * costs its parsing and a few sums, never the verses it names.
 */

/** The longest `ref` `/api/verses` parses (characters); longer is refused (413 `reference_too_long`). */
export const MAX_REFERENCE_QUERY_CHARS = 1000;

/**
 * Spans one request may name: `/api/verses` refuses more (413 `too_many_references`); a chat
 * message's references beyond them are not looked up (the rest of the message is searched).
 */
export const MAX_REFERENCE_SPANS = 50;

/** Verses one `/api/verses` answer lists: the first ones, with `truncated` and a notice when the reference names more. */
export const MAX_VERSES_PER_REQUEST = 200;
