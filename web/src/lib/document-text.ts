import type { DocumentSource } from "./api";

/** How a document excerpt reads to a person: its lesson's title and page, never a file path. */

const SLUG = /^[\p{Ll}\p{N}]+(?:[-_][\p{Ll}\p{N}]+)+$/u;

/** The lesson's title; a file name ("como-ler-a-biblia", from older servers) spelled as words. */
export function documentTitle(source: Pick<DocumentSource, "title" | "sourceId">): string {
  const title = source.title.replace(/\s+/gu, " ").trim();
  const name = title !== "" ? title : (source.sourceId.split("/").pop() ?? source.sourceId).replace(/\.[^.]+$/u, "");
  if (!SLUG.test(name)) return name;
  const spelled = name.replace(/[-_]+/gu, " ");
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
}

/** "p. 12" or "pp. 12–14" for an excerpt of a paged document; "" otherwise. */
export function pageText(source: Pick<DocumentSource, "page" | "pageEnd">): string {
  if (source.page === undefined) return "";
  if (source.pageEnd !== undefined && source.pageEnd > source.page) return `pp. ${source.page}–${source.pageEnd}`;
  return `p. ${source.page}`;
}

/** "A Trindade", or "Apostila de Hermenêutica, pp. 12–13". */
export function documentLabel(source: Pick<DocumentSource, "title" | "sourceId" | "page" | "pageEnd">): string {
  const pages = pageText(source);
  return pages === "" ? documentTitle(source) : `${documentTitle(source)}, ${pages}`;
}

/**
 * The excerpt as plain reading text: an index metadata block left at its start dropped (older
 * servers sent it), Markdown heading marks and bold asterisks dropped, spaces collapsed.
 */
export function excerptText(text: string): string {
  return text
    .replace(/^\s*\[[^\]\n]{0,80}INDEXA[ÇC][ÃA]O[^\]\n]{0,40}\][\s\S]*?(?:={3,}\s*FIM\s+DOS\s+METADADOS\s*={3,}|(?=(?:^|\s)#{1,6}\s))/iu, "")
    .replace(/(^|\s)#{1,6}(?=\s)/gu, "$1")
    .replace(/\*\*/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
}
