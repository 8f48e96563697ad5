import { useEffect, useId, useRef, useState } from "react";
import { ApiError, fetchVerses, type VersesResponse } from "../lib/api";
import { appLink, copyText, shareLink } from "../lib/clipboard";
import {
  chapterQuery,
  copiedPassageText,
  crossReferencesOf,
  neighbourChapter,
  passageOf,
  TRANSLATION_NAME,
  versesToCopy,
  type Passage,
} from "../lib/passage";
import { Sheet } from "./Sheet";

/** Chapters already loaded this session: reopening one is instant. */
const cache = new Map<string, VersesResponse>();

export function clearVerseCache(): void {
  cache.clear();
}

type State = { kind: "loading" } | { kind: "ready"; data: VersesResponse } | { kind: "error"; message: string };

const MAX_CROSS_REFERENCES = 8;

/** The query parameter of a shared passage link: `/?passagem=João%203:16`. */
export const PASSAGE_PARAMETER = "passagem";

/**
 * The reading view: a reference opens its whole chapter with the reference's verses
 * highlighted and brought into view, the chapters before and after a tap away, the passage
 * copied with its reference and the translation's name, and a link that opens the app on it.
 * "Veja também" cross references open in the same view, with a way back.
 */
export function VersePanel(props: {
  query: string;
  canGoBack: boolean;
  onBack(): void;
  onClose(): void;
  onOpenReference(query: string): void;
  onNavigate(query: string): void;
}) {
  const { query, canGoBack, onBack, onClose, onOpenReference, onNavigate } = props;
  const passage = passageOf(query);
  const chapterKey = passage ? chapterQuery(passage.book, passage.chapter) : query;
  const [state, setState] = useState<State>(() => {
    const cached = cache.get(chapterKey);
    return cached ? { kind: "ready", data: cached } : { kind: "loading" };
  });
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState("");
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const cached = cache.get(chapterKey);
    if (cached) {
      setState({ kind: "ready", data: cached });
      return;
    }
    setState({ kind: "loading" });
    const controller = new AbortController();
    fetchVerses(chapterKey, controller.signal).then(
      (data) => {
        cache.set(chapterKey, data);
        if (!controller.signal.aborted) setState({ kind: "ready", data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof ApiError
            ? error.code === "reference_not_found" || error.code === "invalid_reference"
              ? `Não encontrei ${passage?.label ?? query} na Bíblia. ${error.message}`
              : error.message
            : "Não foi possível carregar o capítulo.";
        setState({ kind: "error", message });
      },
    );
    return () => controller.abort();
    // The passage is derived from the query: the chapter key stands for both.
  }, [chapterKey, attempt]);

  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    setNotice("");
  }, [query]);

  // The highlighted verse comes into view (the chapter around it above and below).
  const ready = state.kind === "ready";
  useEffect(() => {
    if (!ready || !body.current) return;
    const mark = body.current.querySelector<HTMLElement>("mark");
    if (mark && typeof mark.scrollIntoView === "function") mark.scrollIntoView({ block: "center", behavior: "auto" });
    else body.current.closest(".sheet")?.scrollTo?.({ top: 0 });
  }, [ready, query]);

  const copy = async () => {
    if (state.kind !== "ready" || !passage) return;
    const verses = versesToCopy(state.data.verses, passage.highlighted);
    const whole = passage.highlighted.size === 0;
    const ok = await copyText(copiedPassageText(verses, whole ? chapterQuery(passage.book, passage.chapter) : passage.label, whole));
    setNotice(ok ? `${whole ? "Capítulo copiado" : "Passagem copiada"}, com a referência e o nome da tradução.` : "Não foi possível copiar aqui.");
  };
  const share = async () => {
    const label = passage?.label ?? query;
    const outcome = await shareLink({ title: `${label} (${TRANSLATION_NAME})`, url: appLink(PASSAGE_PARAMETER, label) });
    setNotice(outcome === "copied" ? "Link copiado: ele abre o Pastor Online nesta passagem." : outcome === "shared" ? "Passagem compartilhada." : outcome === "failed" ? "Não foi possível copiar o link aqui." : "");
  };

  const previous = passage ? neighbourChapter(passage.book, passage.chapter, -1) : undefined;
  const next = passage ? neighbourChapter(passage.book, passage.chapter, 1) : undefined;
  const previousQuery = previous ? chapterQuery(previous.book, previous.chapter) : undefined;
  const nextQuery = next ? chapterQuery(next.book, next.chapter) : undefined;
  const title = passage?.label ?? query;
  const chapterName = passage ? chapterQuery(passage.book, passage.chapter) : "";

  return (
    <Sheet labelledBy={titleId} onClose={onClose} className="reading">
      <div className="reading-head">
        <div className="reading-bar">
          {canGoBack ? (
            <button type="button" className="button ghost small" onClick={onBack}>
              <span aria-hidden="true">←</span> Voltar
            </button>
          ) : (
            <span />
          )}
          {passage && (
            <span className="reading-bar-nav">
              <button type="button" className="button ghost small" disabled={!previousQuery} aria-label={previousQuery ? `Capítulo anterior: ${previousQuery}` : "Capítulo anterior"} onClick={() => previousQuery && onNavigate(previousQuery)}>
                <span aria-hidden="true">‹</span>
              </button>
              <button type="button" className="button ghost small" disabled={!nextQuery} aria-label={nextQuery ? `Próximo capítulo: ${nextQuery}` : "Próximo capítulo"} onClick={() => nextQuery && onNavigate(nextQuery)}>
                <span aria-hidden="true">›</span>
              </button>
            </span>
          )}
          <button type="button" className="button ghost small" onClick={onClose} aria-label="Fechar">
            Fechar <span aria-hidden="true">✕</span>
          </button>
        </div>
        <h2 id={titleId} ref={heading} tabIndex={-1} className="reading-title">
          {title}
        </h2>
        <p className="reading-subtitle">
          {passage && passage.highlighted.size > 0 ? `${chapterName} · ` : ""}
          {TRANSLATION_NAME}
        </p>
        {passage && (
          <div className="reading-actions" role="group" aria-label="Ações da passagem">
            <button type="button" className="button small" onClick={() => void copy()} disabled={!ready}>
              Copiar
            </button>
            <button type="button" className="button small" onClick={() => void share()}>
              Compartilhar
            </button>
          </div>
        )}
        <p className="reading-notice" role="status">
          {notice}
        </p>
      </div>
      <div ref={body} className="reading-body">
        {state.kind === "loading" && (
          <p className="muted" role="status">
            Carregando o capítulo…
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
        {state.kind === "ready" && passage && <Chapter data={state.data} passage={passage} onOpenReference={onOpenReference} />}
        {passage && (previousQuery || nextQuery) && (
          <nav className="chapter-nav" aria-label="Capítulos">
            {previousQuery ? (
              <button type="button" className="button small" onClick={() => onNavigate(previousQuery)}>
                <span aria-hidden="true">‹</span> {previousQuery}
              </button>
            ) : (
              <span />
            )}
            {nextQuery && (
              <button type="button" className="button small" onClick={() => onNavigate(nextQuery)}>
                {nextQuery} <span aria-hidden="true">›</span>
              </button>
            )}
          </nav>
        )}
        {state.kind === "ready" && <p className="verse-attribution">Texto: Bíblia Livre (BLIVRE). {state.data.attribution}</p>}
      </div>
    </Sheet>
  );
}

function Chapter({ data, passage, onOpenReference }: { data: VersesResponse; passage: Passage; onOpenReference(query: string): void }) {
  if (data.verses.length === 0) return <p className="muted">Nenhum versículo encontrado para esta referência.</p>;
  const highlighted = data.verses.filter((verse) => passage.highlighted.has(verse.verse));
  const crossReferences = crossReferencesOf(highlighted, MAX_CROSS_REFERENCES);
  return (
    <>
      <div className="scripture chapter-text" data-chapter={`${passage.book.code} ${passage.chapter}`}>
        <p>
          {data.verses.map((verse) => {
            const content = (
              <>
                <sup className="verse-number">{verse.verse}</sup>
                {verse.text}
              </>
            );
            return (
              <span key={verse.ref} className="verse" data-verse={verse.verse}>
                {passage.highlighted.has(verse.verse) ? <mark className="verse-highlight">{content}</mark> : content}{" "}
              </span>
            );
          })}
        </p>
      </div>
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
    </>
  );
}
