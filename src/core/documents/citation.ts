/**
 * How a document chunk is cited to humans, and its stable machine key. Pure.
 */

import { foldAccents } from "../analysis/fold.js";
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

/** The header line of a lesson's index metadata block, as it may survive in an excerpt's text. */
const INDEX_HEADER = /^\s*\[[^\]\n]{0,80}INDEXA[ÇC][ÃA]O[^\]\n]{0,40}\]\s*/iu;
const INDEX_END = /={3,}\s*FIM\s+DOS\s+METADADOS\s*={3,}\s*/iu;
const FIRST_HEADING = /(^|\s)#{1,6}\s/u;
/** A block's `Título:` field, up to the next field name, heading or end marker. */
const TITLE_FIELD = /(?:^|\s)T[íi]tulo(?: da aula)?\s*:\s*(.+?)(?=\s+(?:\p{L}+|Palavras[- ]chaves?|Conceitos[- ]chave|Objetivos da aula):|\s+#|\s*={3,}|$)/u;

/**
 * An excerpt as a reader sees it: without the index metadata block a lesson may start with
 * ("[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA] Disciplina: … Keywords: …"), which is
 * left in the text when the block has no end marker. The block ends at its end marker, else at
 * the first heading.
 */
export function readableExcerpt(text: string): string {
  const header = INDEX_HEADER.exec(text);
  if (!header) return text;
  const rest = text.slice(header[0].length);
  const end = INDEX_END.exec(rest);
  if (end) return rest.slice(end.index + end[0].length).trimStart();
  const heading = FIRST_HEADING.exec(rest);
  if (heading) return rest.slice(heading.index).trimStart();
  // Heading marks already dropped: the body starts where the block's title comes again.
  const field = TITLE_FIELD.exec(rest);
  const again = field?.[1] ? rest.indexOf(field[1].trim(), field.index + field[0].length) : -1;
  return again === -1 ? rest : rest.slice(again);
}

function fold(text: string): string {
  return foldAccents(text).toLowerCase();
}

/**
 * The title a reader sees for an excerpt. The lesson's own title when it has one; when the
 * title is only the file's name ("como-ler-a-biblia"), the `Título:` of a metadata block left
 * in the text, else the first words of the opening heading that spell the file's name ("Como
 * Ler a Bíblia"), else the file's name in words ("Como ler a biblia").
 */
export function readableTitle(place: Pick<ChunkPlace, "title" | "sourceId">, text: string): string {
  const title = place.title.replace(/\s+/g, " ").trim();
  const base = (place.sourceId.split("/").pop() ?? place.sourceId).replace(/\.[^.]+$/u, "");
  if (title !== "" && title !== base) return title;
  if (base === "") return title;
  const header = INDEX_HEADER.exec(text);
  if (header) {
    const block = text.slice(header[0].length);
    const field = TITLE_FIELD.exec(block);
    if (field?.[1]) return field[1].trim();
  }
  const slug = fold(base).split(/[-_\s]+/u).filter((word) => word !== "");
  const heading = /^\s*#{1,6}\s+(.*)$/su.exec(readableExcerpt(text));
  if (heading?.[1]) {
    const words = heading[1].split(/\s+/u).slice(0, slug.length);
    if (words.length === slug.length && words.every((word, i) => fold(word).replace(/[^\p{L}\p{N}]/gu, "") === slug[i])) return words.join(" ");
  }
  const spelled = base.replace(/[-_]+/gu, " ").trim();
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
}
