import { useId, useState } from "react";
import type { DocumentSource, Source, VerseSource } from "../lib/api";
import { isCited } from "../lib/citations";
import { useReferences } from "./references";

/** Excerpts longer than this start clamped to a few lines, with "ver mais". */
export const EXCERPT_CLAMP_CHARS = 280;

/**
 * What the server consulted for one answer, in its order: verses of the Bible or excerpts of a
 * document collection, each marked when the answer cited it (known once the answer is done).
 */
export function SourcesPanel({ sources, citations }: { sources: Source[]; citations: string[] | null }) {
  if (sources.length === 0) return null;
  const citedCount = citations ? sources.filter((source) => isCited(source, citations)).length : 0;
  const documents = sources.filter((source) => source.kind === "document").length;
  const title = documents === 0 ? "Versículos consultados" : documents === sources.length ? "Trechos consultados" : "Fontes consultadas";
  return (
    <details className="sources" open>
      <summary>
        <span className="sources-title">
          {title} ({sources.length})
        </span>
        {citations && (
          <span className="sources-summary">
            {citedCount === 0 ? "nenhum citado" : citedCount === 1 ? "1 citado na resposta" : `${citedCount} citados na resposta`}
          </span>
        )}
      </summary>
      <ol className="sources-list">
        {sources.map((source) => {
          const cited = citations !== null && isCited(source, citations);
          return source.kind === "document" ? (
            <DocumentItem key={source.id} source={source} cited={cited} />
          ) : (
            <VerseItem key={source.id} source={source} cited={cited} />
          );
        })}
      </ol>
    </details>
  );
}

function CitedBadge() {
  return (
    <span className="badge">
      <span aria-hidden="true">✓ </span>citado na resposta
    </span>
  );
}

function VerseItem({ source, cited }: { source: VerseSource; cited: boolean }) {
  const { open } = useReferences();
  return (
    <li className={cited ? "source cited" : "source"} data-cited={cited ? "true" : "false"}>
      <div className="source-head">
        <button type="button" className="source-ref" aria-haspopup="dialog" onClick={() => open(source.reference)}>
          {source.reference}
        </button>
        {cited && <CitedBadge />}
      </div>
      <p className="scripture source-text">{source.text}</p>
      <p className="visually-hidden">
        {source.book}, capítulo {source.chapter}, versículo {source.verseEnd > source.verse ? `${source.verse} a ${source.verseEnd}` : source.verse}
      </p>
    </li>
  );
}

function DocumentItem({ source, cited }: { source: DocumentSource; cited: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const textId = useId();
  const text = excerptText(source.text);
  const long = text.length > EXCERPT_CLAMP_CHARS;
  const pages = pageText(source);
  return (
    <li
      className={cited ? "source document cited" : "source document"}
      data-cited={cited ? "true" : "false"}
      data-kind="document"
      data-citation={source.citation}
      tabIndex={-1}
    >
      <div className="source-head">
        <span className="source-title">{source.title || source.sourceId}</span>
        {cited && <CitedBadge />}
      </div>
      <p className="source-meta">
        <cite className="source-citation">{source.citation}</cite>
        {pages !== "" && !/\bpp?\.\s*\d/u.test(source.citation) && <span className="source-pages">{pages}</span>}
        {source.discipline !== "" && <span className="source-discipline">{source.discipline}</span>}
      </p>
      <p id={textId} className={long && !expanded ? "source-excerpt clamped" : "source-excerpt"}>
        {text}
      </p>
      {long && (
        <button type="button" className="link-button" aria-expanded={expanded} aria-controls={textId} onClick={() => setExpanded((value) => !value)}>
          {expanded ? "ver menos" : "ver mais"}
        </button>
      )}
    </li>
  );
}

/** "p. 12" or "pp. 12–14" for an excerpt of a paged document; "" otherwise. */
export function pageText(source: Pick<DocumentSource, "page" | "pageEnd">): string {
  if (source.page === undefined) return "";
  if (source.pageEnd !== undefined && source.pageEnd > source.page) return `pp. ${source.page}–${source.pageEnd}`;
  return `p. ${source.page}`;
}

/** The excerpt as plain reading text: Markdown heading marks and bold asterisks dropped, spaces collapsed. */
export function excerptText(text: string): string {
  return text
    .replace(/(^|\s)#{1,6}(?=\s)/gu, "$1")
    .replace(/\*\*/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
}
