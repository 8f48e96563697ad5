import { useEffect, useId, useRef } from "react";
import { conversationTitle, type Conversation } from "../lib/storage";
import { Sheet } from "./Sheet";

const dateTime = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short" });

function questionCount(conversation: Conversation): number {
  return conversation.messages.filter((message) => message.role === "user").length;
}

function describe(conversation: Conversation): string {
  const count = questionCount(conversation);
  const questions = count === 1 ? "1 pergunta" : `${count} perguntas`;
  const where = conversation.collection ? `coleção “${conversation.collection}”` : "Bíblia";
  return `${questions} · ${where} · ${dateTime.format(new Date(conversation.updatedAt))}`;
}

/**
 * The conversations kept in this browser: the one on screen and the earlier ones, newest
 * first. One opens with a tap; "Apagar" removes one (with "Desfazer" on the page).
 */
export function ConversationsSheet(props: {
  current: Conversation;
  saved: readonly Conversation[];
  onOpen(id: string): void;
  onDelete(id: string): void;
  onNew(): void;
  onClose(): void;
}) {
  const { current, saved, onOpen, onDelete, onNew, onClose } = props;
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Sheet labelledBy={titleId} onClose={onClose} className="conversations" side="left">
      <div className="reading-bar">
        <button type="button" className="button small" onClick={onNew} disabled={current.messages.length === 0}>
          <span aria-hidden="true">+</span> Nova conversa
        </button>
        <button type="button" className="button ghost small" onClick={onClose} aria-label="Fechar">
          Fechar <span aria-hidden="true">✕</span>
        </button>
      </div>
      <h2 id={titleId} ref={heading} tabIndex={-1} className="sheet-title">
        Conversas
      </h2>
      <p className="muted sheet-note">Ficam só neste navegador.</p>
      {current.messages.length > 0 && (
        <section aria-label="Conversa atual" className="conversation-group">
          <h3>Agora</h3>
          <ul className="conversation-list">
            <li className="conversation-item current" aria-current="true">
              <span className="conversation-title">{conversationTitle(current)}</span>
              <span className="conversation-meta">{describe(current)}</span>
            </li>
          </ul>
        </section>
      )}
      <section aria-label="Conversas anteriores" className="conversation-group">
        <h3>Anteriores</h3>
        {saved.length === 0 ? (
          <p className="muted">Nenhuma conversa anterior ainda. Ao começar uma nova, a atual fica guardada aqui.</p>
        ) : (
          <ul className="conversation-list">
            {saved.map((conversation) => {
              const title = conversationTitle(conversation);
              return (
                <li key={conversation.id} className="conversation-item" data-conversation={conversation.id}>
                  <button type="button" className="conversation-open" onClick={() => onOpen(conversation.id)}>
                    <span className="conversation-title">{title}</span>
                    <span className="conversation-meta">{describe(conversation)}</span>
                  </button>
                  <button type="button" className="button ghost small conversation-delete" aria-label={`Apagar a conversa “${title}”`} onClick={() => {
                      onDelete(conversation.id);
                      // The button goes away with its conversation: the focus stays in the list.
                      heading.current?.focus();
                    }}
                  >
                    Apagar
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </Sheet>
  );
}
