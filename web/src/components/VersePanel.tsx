import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { ApiError, fetchVerses, type CrossReference, type VersesResponse } from "../lib/api";

/** Verses already loaded this session: reopening a reference is instant. */
const cache = new Map<string, VersesResponse>();

export function clearVerseCache(): void {
  cache.clear();
}

type State = { kind: "loading" } | { kind: "ready"; data: VersesResponse } | { kind: "error"; message: string };

const MAX_CROSS_REFERENCES = 8;

/**
 * A dialog with the text of one reference and its "veja também" cross references, which open
 * in the same dialog. On a phone it is a bottom sheet, on a wide screen a side drawer.
 */
export function VersePanel(props: {
  query: string;
  canGoBack: boolean;
  onBack(): void;
  onClose(): void;
  onOpenReference(query: string): void;
}) {
  const { query, canGoBack, onBack, onClose, onOpenReference } = props;
  const [state, setState] = useState<State>(() => {
    const cached = cache.get(query);
    return cached ? { kind: "ready", data: cached } : { kind: "loading" };
  });
  const [attempt, setAttempt] = useState(0);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const cached = cache.get(query);
    if (cached) {
      setState({ kind: "ready", data: cached });
      return;
    }
    setState({ kind: "loading" });
    const controller = new AbortController();
    fetchVerses(query, controller.signal).then(
      (data) => {
        cache.set(query, data);
        if (!controller.signal.aborted) setState({ kind: "ready", data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof ApiError
            ? error.code === "reference_not_found" || error.code === "invalid_reference"
              ? `Não encontrei ${query} na Bíblia. ${error.message}`
              : error.message
            : "Não foi possível carregar os versículos.";
        setState({ kind: "error", message });
      },
    );
    return () => controller.abort();
  }, [query, attempt]);

  useEffect(() => {
    heading.current?.focus();
  }, [query]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        onClose();
        return;
      }
      if (event.key !== "Tab" || !dialog.current) return;
      const focusable = Array.from(
        dialog.current.querySelectorAll<HTMLElement>("button:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])"),
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === heading.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    },
    [onClose],
  );

  const title = state.kind === "ready" ? state.data.reference || query : query;
  return (
    <div className="verse-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialog} className="verse-panel" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="verse-panel-bar">
          {canGoBack ? (
            <button type="button" className="button ghost small" onClick={onBack}>
              <span aria-hidden="true">←</span> Voltar
            </button>
          ) : (
            <span />
          )}
          <button type="button" className="button ghost small" onClick={onClose} aria-label="Fechar">
            Fechar <span aria-hidden="true">✕</span>
          </button>
        </div>
        <h2 id={titleId} ref={heading} tabIndex={-1} className="verse-panel-title">
          {title}
        </h2>
        {state.kind === "loading" && (
          <p className="muted" role="status">
            Carregando o texto…
          </p>
        )}
        {state.kind === "error" && (
          <div className="notice error" role="alert">
            <p>{state.message}</p>
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              Tentar de novo
            </button>
          </div>
        )}
        {state.kind === "ready" && <VerseBody data={state.data} onOpenReference={onOpenReference} />}
      </div>
    </div>
  );
}

function VerseBody({ data, onOpenReference }: { data: VersesResponse; onOpenReference(query: string): void }) {
  const single = data.verses.length === 1;
  const crossReferences = mergeCrossReferences(data);
  return (
    <>
      {data.verses.length === 0 ? (
        <p className="muted">Nenhum versículo encontrado para esta referência.</p>
      ) : (
        <div className="scripture verse-text">
          {single ? (
            <p>{data.verses[0]!.text}</p>
          ) : (
            <p>
              {data.verses.map((verse) => (
                <span key={verse.ref} className="verse">
                  <sup className="verse-number" aria-label={`versículo ${verse.verse}`}>
                    {verse.verse}
                  </sup>
                  {verse.text}{" "}
                </span>
              ))}
            </p>
          )}
        </div>
      )}
      {data.truncated && data.notice && (
        <p className="notice info" role="note">
          {data.notice}
        </p>
      )}
      {crossReferences.length > 0 && (
        <section className="see-also" aria-label="Veja também">
          <h3>Veja também</h3>
          <ul>
            {crossReferences.map((cross) => (
              <li key={cross.reference}>
                <button type="button" className="ref-chip" aria-label={`Abrir ${cross.reference}`} onClick={() => onOpenReference(cross.reference)}>
                  {cross.reference}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="verse-attribution">Texto: Bíblia Livre (BLIVRE). {data.attribution}</p>
    </>
  );
}

/** Cross references of all the verses shown, strongest first, without the verses themselves. */
function mergeCrossReferences(data: VersesResponse): CrossReference[] {
  const shown = new Set(data.verses.map((verse) => verse.reference));
  const best = new Map<string, number>();
  for (const verse of data.verses) {
    for (const cross of verse.crossReferences ?? []) {
      if (shown.has(cross.reference)) continue;
      best.set(cross.reference, Math.max(best.get(cross.reference) ?? 0, cross.votes));
    }
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CROSS_REFERENCES)
    .map(([reference, votes]) => ({ reference, votes }));
}
