import { useCallback, useEffect, useRef, useState } from "react";
import { CollectionPicker } from "./components/CollectionPicker";
import { Composer } from "./components/Composer";
import { MessageView } from "./components/MessageView";
import { ReferenceProvider } from "./components/references";
import { StatusPanel } from "./components/StatusPanel";
import { BIBLE_COLLECTION, type CollectionStatus, type ServerStatus } from "./lib/api";
import { loadCollectionChoice, saveCollectionChoice, type AssistantMessage } from "./lib/storage";
import { effectiveCollection, useCollections } from "./lib/use-collections";
import { useChat, type ChatFailure } from "./lib/use-chat";
import { useServerStatus } from "./lib/use-status";
import { progressFraction } from "./lib/status-text";

export const ATTRIBUTION =
  "Textos bíblicos: Bíblia Livre (BLIVRE), © Diego Santos, Mario Sérgio e Marco Teles, CC BY 3.0 BR, versão 2025.1.0 · Referências cruzadas: OpenBible.info (CC BY)";

const EXAMPLES = ["Estou com medo do futuro", "O que Jesus disse sobre amar os inimigos?", "João 3:16", "Como perdoar quem me magoou?"];

export function App() {
  const [draft, setDraft] = useState("");
  const [statusOpen, setStatusOpen] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const { status, unreachable, refresh } = useServerStatus();
  const collections = useCollections(status?.collections);
  const [choice, setChoice] = useState(loadCollectionChoice);
  const collection = effectiveCollection(choice, collections);
  const current = collection === BIBLE_COLLECTION ? undefined : collections?.find((c) => c.name === collection);

  const onFailure = useCallback(
    (failure: ChatFailure) => {
      // Nothing typed is lost: the question goes back into an empty box.
      setDraft((current) => (current.trim() === "" ? failure.question : current));
      // The status panel says at once whether the server itself is down.
      if (failure.error.kind === "network" || failure.error.status === 503) refresh();
    },
    [refresh],
  );
  const { conversation, streaming, send, stop, reset } = useChat({ onFailure, collection });
  const messages = conversation.messages;

  const ask = (text: string, retryOf?: string) => {
    if (text.trim() === "" || streaming) return;
    setDraft((current) => (current.trim() === text.trim() ? "" : current));
    void send(text, retryOf);
    requestAnimationFrame(() => scrollToEnd("smooth"));
  };

  const onRetry = (message: AssistantMessage) => {
    const text = message.error?.code === "message_too_long" && draft.trim() !== "" ? draft : message.question;
    ask(text, message.id);
  };

  const newConversation = () => {
    reset();
    setDraft("");
    input.current?.focus();
  };

  // Another collection starts a new conversation (a conversation never mixes sources); what is typed stays.
  const chooseCollection = (name: string) => {
    if (name === collection) return;
    setChoice(name);
    saveCollectionChoice(name);
    reset();
    input.current?.focus();
  };

  // Give the focus back to the box when an answer ends (it was disabled while streaming).
  const wasStreaming = useRef(streaming);
  useEffect(() => {
    if (wasStreaming.current && !streaming && document.activeElement === document.body) input.current?.focus();
    wasStreaming.current = streaming;
  }, [streaming]);

  // Follow the streaming answer while the reader is at the bottom of the page.
  const last = messages[messages.length - 1];
  const lastLength = last ? last.content.length : 0;
  const lastStatus = last?.role === "assistant" ? last.status : undefined;
  useEffect(() => {
    if (streaming && nearBottom()) scrollToEnd("auto");
  }, [streaming, lastLength]);
  // A failure or a stop shows a notice at the end of the answer: bring it into view.
  useEffect(() => {
    if (lastStatus === "error" || lastStatus === "stopped") requestAnimationFrame(() => scrollToEnd("smooth"));
  }, [lastStatus]);

  return (
    <ReferenceProvider>
      <a className="skip-link" href="#pergunta">
        Ir para a caixa de pergunta
      </a>
      <div className="app">
        <header className="topbar">
          <div className="brand">
            <span className="logo" aria-hidden="true">
              ✢
            </span>
            <div>
              <h1>Pastor Online</h1>
              <p className="tagline">Respostas a partir da Bíblia, com cada referência à vista</p>
            </div>
          </div>
          <div className="topbar-actions">
            <button
              type="button"
              className="button ghost status-toggle"
              aria-expanded={statusOpen}
              aria-controls="painel-situacao"
              aria-label={statusLabel(status, unreachable)}
              onClick={() => setStatusOpen((open) => !open)}
            >
              <span className={`dot ${statusTone(status, unreachable)}`} aria-hidden="true" />
              <StatusShort status={status} unreachable={unreachable} />
            </button>
            <button type="button" className="button ghost" aria-label="Nova conversa" onClick={newConversation} disabled={messages.length === 0 && draft === ""}>
              Nova<span className="wide-only"> conversa</span>
            </button>
          </div>
        </header>

        <div className="layout">
          <aside id="painel-situacao" className={statusOpen ? "side open" : "side"} aria-label="Situação do serviço">
            <StatusPanel status={status} unreachable={unreachable} />
            <section className="about">
              <h2>Como funciona</h2>
              <p>
                As respostas usam apenas versículos encontrados na Bíblia. Toda referência citada foi conferida e pode ser aberta para
                leitura; referências que não existem ou que não foram consultadas nunca aparecem.
              </p>
              {collections && collections.length > 0 && (
                <p>
                  Em “Consultar” você escolhe uma coleção de documentos (aulas, apostilas) em vez da Bíblia: a resposta cita os trechos
                  usados, e cada um aparece abaixo dela. Trocar a consulta começa uma nova conversa.
                </p>
              )}
            </section>
          </aside>

          <main className="chat" id="conversa">
            <h2 className="visually-hidden">Conversa</h2>
            <div className="messages" aria-live="polite" aria-relevant="additions text" aria-busy={streaming} data-testid="answer-region">
              {messages.length === 0 ? (
                <Welcome onPick={(text) => ask(text)} collection={current} />
              ) : (
                messages.map((message) => <MessageView key={message.id} message={message} onRetry={onRetry} />)
              )}
            </div>
            <Composer
              ref={input}
              value={draft}
              onChange={setDraft}
              onSend={() => ask(draft)}
              onStop={stop}
              streaming={streaming}
              placeholder={current ? `Pergunte à coleção “${current.name}”…` : undefined}
              tools={
                collections && collections.length > 0 ? (
                  <CollectionPicker collections={collections} value={collection} onChange={chooseCollection} disabled={streaming} />
                ) : undefined
              }
            />
          </main>
        </div>

        <footer className="attribution">
          <p>{ATTRIBUTION}</p>
        </footer>
      </div>
    </ReferenceProvider>
  );
}

function Welcome({ onPick, collection }: { onPick(text: string): void; collection: CollectionStatus | undefined }) {
  if (collection) {
    return (
      <section className="welcome" aria-labelledby="welcome-title">
        <h2 id="welcome-title">Consulte a coleção “{collection.name}”</h2>
        <p>
          As respostas vêm dos {collection.documents === 1 ? "textos de 1 documento" : `textos de ${collection.documents} documentos`} desta
          coleção, e cada trecho citado aparece logo abaixo da resposta. Para perguntar à Bíblia, escolha “Bíblia” em “Consultar” (trocar
          a consulta começa uma nova conversa).
        </p>
      </section>
    );
  }
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Converse com as Escrituras</h2>
      <p>
        Escreva o que está no seu coração ou o que deseja estudar. A resposta vem dos próprios versículos, e cada referência pode ser
        aberta e lida no seu contexto.
      </p>
      <p className="welcome-label">Experimente:</p>
      <ul className="examples">
        {EXAMPLES.map((example) => (
          <li key={example}>
            <button type="button" className="example" onClick={() => onPick(example)}>
              {example}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function statusTone(status: ServerStatus | undefined, unreachable: boolean): string {
  if (unreachable) return "bad";
  if (!status) return "idle";
  if (status.indexing || !status.lexicalReady) return "busy";
  return "ok";
}

function statusLabel(status: ServerStatus | undefined, unreachable: boolean): string {
  if (unreachable) return "Situação: servidor fora do ar";
  if (status?.indexing) {
    const fraction = progressFraction(status.progress);
    return fraction === undefined ? "Situação: indexando…" : `Situação: indexando ${Math.round(fraction * 100)}%`;
  }
  return "Situação";
}

/** The status button's visible label; on a phone "Indexando 45%" shows as "45%" (the word stays for screen readers). */
function StatusShort({ status, unreachable }: { status: ServerStatus | undefined; unreachable: boolean }) {
  if (unreachable) return <>Fora do ar</>;
  if (status?.indexing) {
    const fraction = progressFraction(status.progress);
    if (fraction === undefined) return <>Indexando…</>;
    return (
      <>
        <span className="wide-only">Indexando </span>
        {Math.round(fraction * 100)}%
      </>
    );
  }
  return <>Situação</>;
}

function nearBottom(): boolean {
  const doc = document.documentElement;
  return doc.scrollHeight - (window.scrollY + window.innerHeight) < 160;
}

/**
 * Scrolls to the bottom of the page, where the sticky question box rests below the last
 * message (so nothing is hidden behind it).
 */
function scrollToEnd(behavior: ScrollBehavior): void {
  const page = document.scrollingElement;
  if (!page) return;
  if (typeof page.scrollTo === "function") page.scrollTo({ top: page.scrollHeight, behavior });
  else page.scrollTop = page.scrollHeight;
}
