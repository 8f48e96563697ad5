import { useState } from "react";
import type { Source } from "../lib/api";
import { appLink, copyText, shareLink } from "../lib/clipboard";
import { plainAnswer } from "../lib/plain-answer";
import type { AssistantMessage, Message } from "../lib/storage";
import { AnswerText } from "./AnswerText";
import { CareNoticeView } from "./CareNoticeView";
import { SourcesPanel } from "./SourcesPanel";

/** The query parameter of a shared question link: `/?pergunta=…` opens the app with it in the box. */
export const QUESTION_PARAMETER = "pergunta";

export interface MessageActions {
  /** "Tentar de novo" / "Perguntar de novo": the same question again, in place of this answer. */
  onRetry(message: AssistantMessage): void;
  /** A suggestion tapped under a refusal: asked as a new question. */
  onAsk(text: string): void;
  /** What to suggest after a refusal, for the collection the answer was asked of. */
  suggestionsFor(collection: string | undefined): string[];
  /** An answer is streaming: nothing can be asked again meanwhile. */
  busy: boolean;
}

export function MessageView({ message, actions }: { message: Message; actions: MessageActions }) {
  if (message.role === "user") {
    return (
      <article className="message user" aria-label="Sua pergunta" data-message={message.id}>
        <p className="question">{message.content}</p>
      </article>
    );
  }
  if (message.refusal === "out_of_scope") return <OutOfScopeView message={message} actions={actions} />;
  const waiting = message.status === "streaming" && message.content === "";
  const found = message.sources.length > 0;
  const thinking = message.collection
    ? found
      ? "Lendo os trechos encontrados…"
      : "Procurando nos documentos…"
    : found
      ? "Lendo os versículos encontrados…"
      : "Procurando nas Escrituras…";
  return (
    <article className="message assistant" aria-label="Resposta" aria-busy={message.status === "streaming"} data-status={message.status} data-message={message.id}>
      {message.care && <CareNoticeView notice={message.care} answer={message.content} />}
      {message.doubtful && (
        <div className="notice info doubt" role="note" data-doubt="true">
          <p>
            Não tenho certeza de ter entendido a sua pergunta. {message.collection ? "Os trechos" : "Os versículos"} abaixo são os mais próximos que encontrei; se
            não ajudarem, tente dizer com outras palavras.
          </p>
        </div>
      )}
      <div className={message.status === "streaming" && !waiting ? "answer streaming" : "answer"}>
        {waiting && (
          <p className="muted thinking">
            <span className="spinner" aria-hidden="true" /> {thinking}
          </p>
        )}
        <AnswerText text={message.content} sources={message.sources} citations={message.citations} verseChips={!message.collection} />
      </div>
      {message.refusal === "no_evidence" && message.status === "done" && (
        <Suggestions items={actions.suggestionsFor(message.collection)} onAsk={actions.onAsk} disabled={actions.busy} />
      )}
      {message.status === "stopped" && (
        <div className="notice info">
          <p>Resposta interrompida.</p>
          <button type="button" className="button small" onClick={() => actions.onRetry(message)} disabled={actions.busy}>
            Perguntar de novo
          </button>
        </div>
      )}
      {message.status === "error" && message.error && (
        <div className="notice error" role="alert">
          <p>{message.error.message}</p>
          <button type="button" className="button small" onClick={() => actions.onRetry(message)}>
            Tentar de novo
          </button>
        </div>
      )}
      <SourcesPanel sources={message.sources} citations={message.citations} answer={message.content} />
      {(message.status === "done" || message.status === "stopped") && message.content.trim() !== "" && (
        <AnswerActions message={message} sources={message.sources} actions={actions} />
      )}
    </article>
  );
}

/** Copy, share and ask again, under every finished answer. */
function AnswerActions({ message, sources, actions }: { message: AssistantMessage; sources: Source[]; actions: MessageActions }) {
  const [notice, setNotice] = useState("");
  const copy = async () => {
    const ok = await copyText(plainAnswer(message.question, message.content, sources));
    setNotice(ok ? "Resposta copiada." : "Não foi possível copiar aqui.");
  };
  const share = async () => {
    const outcome = await shareLink({ title: "Pastor Online", text: message.question, url: appLink(QUESTION_PARAMETER, message.question) });
    setNotice(outcome === "copied" ? "Link copiado: ele abre o Pastor Online com esta pergunta." : outcome === "shared" ? "Compartilhado." : outcome === "failed" ? "Não foi possível copiar o link aqui." : "");
  };
  return (
    <div className="answer-actions" role="group" aria-label="Ações da resposta">
      <button type="button" className="button ghost small" onClick={() => void copy()}>
        Copiar
      </button>
      <button type="button" className="button ghost small" onClick={() => void share()}>
        Compartilhar
      </button>
      {message.status === "done" && (
        <button type="button" className="button ghost small" onClick={() => actions.onRetry(message)} disabled={actions.busy}>
          Perguntar de novo
        </button>
      )}
      <span className="answer-actions-notice" role="status">
        {notice}
      </span>
    </div>
  );
}

function Suggestions({ items, onAsk, disabled }: { items: string[]; onAsk(text: string): void; disabled: boolean }) {
  if (items.length === 0) return null;
  return (
    <div className="suggestions">
      <p className="suggestions-label">Você pode perguntar, por exemplo:</p>
      <ul className="examples">
        {items.map((item) => (
          <li key={item}>
            <button type="button" className="example" onClick={() => onAsk(item)} disabled={disabled}>
              {item}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * An answer the server refused because the question is out of what the Bible (or the
 * collection) treats: a kind reply with questions it can answer, a tap away.
 */
function OutOfScopeView({ message, actions }: { message: AssistantMessage; actions: MessageActions }) {
  return (
    <article className="message assistant refusal" aria-label="Pergunta fora do tema" data-status={message.status} data-refusal="out_of_scope" data-message={message.id}>
      {message.care && <CareNoticeView notice={message.care} answer={message.content} />}
      <div className="refusal-box" role="note">
        <p className="refusal-title">{message.collection ? "Isso fica fora do que esta coleção trata" : "Isso fica fora do que a Bíblia trata"}</p>
        {/* Plain text: the reply's examples ("João 3:16") are suggestions, not citations. */}
        <p className="refusal-text">{message.content}</p>
      </div>
      {message.status === "done" && <Suggestions items={actions.suggestionsFor(message.collection)} onAsk={actions.onAsk} disabled={actions.busy} />}
    </article>
  );
}
