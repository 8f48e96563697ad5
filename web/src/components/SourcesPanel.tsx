import type { Source } from "../lib/api";
import { isCited } from "../lib/citations";
import { useReferences } from "./references";

/**
 * The verses the server consulted for one answer, in its order, each marked when the answer
 * cited it (known once the answer is done).
 */
export function SourcesPanel({ sources, citations }: { sources: Source[]; citations: string[] | null }) {
  const { open } = useReferences();
  if (sources.length === 0) return null;
  const citedCount = citations ? sources.filter((source) => isCited(source, citations)).length : 0;
  return (
    <details className="sources" open>
      <summary>
        <span className="sources-title">Versículos consultados ({sources.length})</span>
        {citations && (
          <span className="sources-summary">
            {citedCount === 0 ? "nenhum citado" : citedCount === 1 ? "1 citado na resposta" : `${citedCount} citados na resposta`}
          </span>
        )}
      </summary>
      <ol className="sources-list">
        {sources.map((source) => {
          const cited = citations !== null && isCited(source, citations);
          return (
            <li key={source.id} className={cited ? "source cited" : "source"} data-cited={cited ? "true" : "false"}>
              <div className="source-head">
                <button type="button" className="source-ref" aria-haspopup="dialog" onClick={() => open(source.reference)}>
                  {source.reference}
                </button>
                {cited && (
                  <span className="badge">
                    <span aria-hidden="true">✓ </span>citado na resposta
                  </span>
                )}
              </div>
              <p className="scripture source-text">{source.text}</p>
              <p className="visually-hidden">
                {source.book}, capítulo {source.chapter}, versículo {source.verseEnd > source.verse ? `${source.verse} a ${source.verseEnd}` : source.verse}
              </p>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
