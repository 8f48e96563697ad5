import { useId, useState } from "react";
import type { DocumentSource, Source, VerseSource } from "../lib/api";
import { isCited, isQuotedIn } from "../lib/citations";
import { documentTitle, excerptText, pageText } from "../lib/document-text";
import { useReferences } from "./references";

/** Excerpts longer than this start clamped to a few lines, with "ver mais". */
export const EXCERPT_CLAMP_CHARS = 280;

/**
 * What the server consulted for one answer, numbered in its order (the answer's chips show
 * these numbers), closed by default. A verse the answer already quotes shows only its
 * reference, so no verse is read twice; the others show their text. Each is marked when the
 * answer cited it (known once the answer is done).
 */
export function SourcesPanel({ sources, citations, answer = "" }: { sources: Source[]; citations: string[] | null; answer?: string }) {
  if (sources.length === 0) return null;
  const citedCount = citations ? sources.filter((source) => isCited(source, citations)).length : 0;
  const documents = sources.filter((source) => source.kind === "document").length;
  const title = documents === 0 ? "Versículos consultados" : documents === sources.length ? "Trechos consultados" : "Fontes consultadas";
  return (
    <details className="sources">
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
        {sources.map((source, index) => {
          const cited = citations !== null && isCited(source, citations);
          return source.kind === "document" ? (
            <DocumentItem key={source.id} source={source} cited={cited} number={index + 1} />
          ) : (
            <VerseItem key={source.id} source={source} cited={cited} number={index + 1} quoted={isQuotedIn(source, answer)} />
          );
        })}
      </ol>
    </details>
  );
}

function SourceNumber({ value }: { value: number }) {
  return (
    <span className="source-n" aria-hidden="true">
      {value}
    </span>
  );
}

function CitedMark({ quoted }: { quoted?: boolean }) {
  return (
    <span className="badge">
      <span aria-hidden="true">✓ </span>
      {quoted ? "citado no texto acima" : "citado na resposta"}
    </span>
  );
}

function VerseItem({ source, cited, number, quoted }: { source: VerseSource; cited: boolean; number: number; quoted: boolean }) {
  const { open } = useReferences();
  return (
    <li className={cited ? "source cited" : "source"} data-cited={cited ? "true" : "false"} data-quoted={quoted ? "true" : "false"} data-n={number}>
      <SourceNumber value={number} />
      <div className="source-body">
        <div className="source-head">
          <button type="button" className="source-ref" aria-haspopup="dialog" onClick={() => open(source.reference)}>
            {source.reference}
          </button>
          {cited && <CitedMark quoted={quoted} />}
        </div>
        {!quoted && <p className="scripture source-text">{source.text}</p>}
      </div>
    </li>
  );
}

function DocumentItem({ source, cited, number }: { source: DocumentSource; cited: boolean; number: number }) {
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
      data-n={number}
      tabIndex={-1}
    >
      <SourceNumber value={number} />
      <div className="source-body">
        <div className="source-head">
          <span className="source-title">{documentTitle(source)}</span>
          {cited && <CitedMark />}
        </div>
        {(pages !== "" || source.discipline !== "") && (
          <p className="source-meta">
            {pages !== "" && <span className="source-pages">{pages}</span>}
            {source.discipline !== "" && <span className="source-discipline">{source.discipline}</span>}
          </p>
        )}
        <p id={textId} className={long && !expanded ? "source-excerpt clamped" : "source-excerpt"}>
          {text}
        </p>
        {long && (
          <button type="button" className="link-button" aria-expanded={expanded} aria-controls={textId} onClick={() => setExpanded((value) => !value)}>
            {expanded ? "ver menos" : "ver mais"}
          </button>
        )}
      </div>
    </li>
  );
}
