import { useCallback } from "react";
import type { BibleReference } from "../../../src/core/bible/references";
import { documentCitations, isConfirmed } from "../lib/citations";
import type { AssistantMessage, Message } from "../lib/storage";
import { AnswerText } from "./AnswerText";
import { CareNoticeView } from "./CareNoticeView";
import { SourcesPanel } from "./SourcesPanel";

export function MessageView({ message, onRetry }: { message: Message; onRetry(message: AssistantMessage): void }) {
  if (message.role === "user") {
    return (
      <article className="message user" aria-label="Sua pergunta">
        <p className="question">{message.content}</p>
      </article>
    );
  }
  return message.refusal === "out_of_scope" ? <OutOfScopeView message={message} /> : <AnswerView message={message} onRetry={onRetry} />;
}

/**
 * Which Bible references of an answer are checked chips: none in a document collection's answer
 * (it consults no verse; the server keeps an existing verse as plain text); in the Bible's, those
 * the server's `done` citations confirm, so none while the answer streams (text the grammar reads
 * as a reference is not always one the server checked: "https://x.example/Jo 3:17").
 */
function useCheckedReference(message: AssistantMessage): (references: readonly BibleReference[]) => boolean {
  const { collection, citations } = message;
  const key = citations === null ? null : citations.join("\n");
  return useCallback(
    (references: readonly BibleReference[]) => {
      if (collection || key === null) return false;
      return isConfirmed(references, key === "" ? [] : key.split("\n"));
    },
    [collection, key],
  );
}

function AnswerView({ message, onRetry }: { message: AssistantMessage; onRetry(message: AssistantMessage): void }) {
  const checkedReference = useCheckedReference(message);
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
    <article className="message assistant" aria-label="Resposta" aria-busy={message.status === "streaming"} data-status={message.status}>
      {message.care && <CareNoticeView notice={message.care} />}
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
        <AnswerText text={message.content} documentCitations={documentCitations(message.sources)} checkedReference={checkedReference} />
      </div>
      {message.status === "stopped" && (
        <div className="notice info">
          <p>Resposta interrompida.</p>
          <button type="button" className="button small" onClick={() => onRetry(message)}>
            Perguntar de novo
          </button>
        </div>
      )}
      {message.status === "error" && message.error && (
        <div className="notice error" role="alert">
          <p>{message.error.message}</p>
          <button type="button" className="button small" onClick={() => onRetry(message)}>
            Tentar de novo
          </button>
        </div>
      )}
      <SourcesPanel sources={message.sources} citations={message.citations} />
    </article>
  );
}

/**
 * An answer the server refused because the question is out of what the Bible (or the
 * collection) treats: its own state, with the kind reply and no sources panel.
 */
function OutOfScopeView({ message }: { message: AssistantMessage }) {
  return (
    <article className="message assistant refusal" aria-label="Pergunta fora do tema" data-status={message.status} data-refusal="out_of_scope">
      {message.care && <CareNoticeView notice={message.care} />}
      <div className="refusal-box" role="note">
        <p className="refusal-title">{message.collection ? "Fora do que esta coleção trata" : "Fora do que a Bíblia trata"}</p>
        {/* Plain text: the reply's examples ("João 3:16") are suggestions, not citations. */}
        <p className="refusal-text">{message.content}</p>
      </div>
    </article>
  );
}
