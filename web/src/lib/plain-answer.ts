import type { Source } from "./api";
import { documentLabel } from "./document-text";
import { TRANSLATION_NAME } from "./passage";

/**
 * An answer as plain text to copy: the question, the answer without Markdown marks, document
 * citations by title and page, and where the texts come from.
 */
export function plainAnswer(question: string, content: string, sources: readonly Source[]): string {
  let text = content;
  for (const source of sources) {
    if (source.kind === "document") text = text.split(`[${source.citation}]`).join(`(${documentLabel(source)})`).split(source.citation).join(documentLabel(source));
  }
  text = text
    .replace(/\*\*([^*]+)\*\*/gu, "$1")
    .replace(/(^|[^\p{L}\p{N}*])\*([^*\s][^*]*)\*/gu, "$1$2")
    .replace(/^\s{0,3}#{1,6}\s+/gmu, "")
    .trim();
  const origin = sources.some((source) => source.kind === "document") ? "Pastor Online" : `Pastor Online · Textos bíblicos: ${TRANSLATION_NAME}`;
  return `${question.trim()}\n\n${text}\n\n— ${origin}`;
}
