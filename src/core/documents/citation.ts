/**
 * How a document chunk is cited to humans, and its stable machine key. Pure.
 */

import type { ChunkPlace } from "./types.js";

export type DocumentCitationInput = ChunkPlace;

/**
 * Human citation of a chunk (Portuguese):
 * - paginated: `{title}, p. 12`, or `{title}, pp. 12–13` (en dash) when the chunk spans pages;
 * - otherwise: `{title} ({sourceId}, trecho N)`, where N is the 1-based chunk number
 *   (`chunk + 1`: humans count from 1, JSON keeps the 0-based `chunk`).
 *
 * A blank title is replaced by the source id (`{sourceId}, p. 12`, `{sourceId} (trecho N)`).
 */
export function formatDocumentCitation(input: DocumentCitationInput): string {
  const { sourceId, chunk, page, pageEnd } = input;
  const title = input.title.replace(/\s+/g, " ").trim();
  const label = title === "" ? sourceId : title;
  if (page !== undefined) {
    return pageEnd !== undefined && pageEnd > page
      ? `${label}, pp. ${page}–${pageEnd}`
      : `${label}, p. ${page}`;
  }
  const piece = `trecho ${chunk + 1}`;
  return title === "" ? `${sourceId} (${piece})` : `${title} (${sourceId}, ${piece})`;
}

/** Stable machine key of a chunk: `${sourceId}#${chunk}` (0-based chunk). */
export function documentKey(sourceId: string, chunk: number): string {
  return `${sourceId}#${chunk}`;
}
