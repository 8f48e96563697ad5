import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { CollectionPicker } from "./components/CollectionPicker";
import { Composer } from "./components/Composer";
import { ConversationsSheet } from "./components/ConversationsSheet";
import { prefersReducedMotion } from "./components/DocChip";
import { MessageView, QUESTION_PARAMETER, type MessageActions } from "./components/MessageView";
import { Popover } from "./components/Popover";
import { ReferenceProvider } from "./components/references";
import { StatusPanel } from "./components/StatusPanel";
import { PASSAGE_PARAMETER } from "./components/VersePanel";
import { BIBLE_COLLECTION, type CollectionStatus, type ServerStatus } from "./lib/api";
import { applyFontSize, FONT_SIZES, loadFontSize, saveFontSize, type FontSize } from "./lib/preferences";
import { chatAvailability, progressFraction } from "./lib/status-text";
import { loadCollectionChoice, saveCollectionChoice, type AssistantMessage, type Library, type Message } from "./lib/storage";
import { effectiveCollection, useCollections } from "./lib/use-collections";
import { useChat, type ChatFailure } from "./lib/use-chat";
import { useServerStatus } from "./lib/use-status";

export const ATTRIBUTION =
  "Textos bíblicos: Bíblia Livre (BLIVRE), © Diego Santos, Mario Sérgio e Marco Teles, CC BY 3.0 BR, versão 2025.1.0 · Referências cruzadas: OpenBible.info (CC BY)";

const EXAMPLES = ["Estou com medo do futuro", "O que Jesus disse sobre amar os inimigos?", "João 3:16", "Como perdoar quem me magoou?"];

/** What a refusal offers to ask instead, for the Bible (the topics its reply names). */
export const BIBLE_SUGGESTIONS = ["O que a Bíblia diz sobre o medo?", "Como perdoar quem me magoou?", "Palavras de conforto no luto", "João 3:16"];

/** An action that can be taken back: what the bar above the question box offers. */
interface Undoable {
  text: string;
  undo(): void;
}

/** Reads (and removes from the address) a query parameter a shared link carried. */
function takeParameter(name: string): string | undefined {
  try {
    const url = new URL(window.location.href);
    const value = url.searchParams.get(name)?.trim();
    if (!value) return undefined;
    return value.slice(0, 4000);
  } catch {
    return undefined;
  }
}

function dropParameter(name: string): void {
  try {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(name)) return;
    url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  } catch {
    // no history API: the address just keeps it
  }
}

export function App() {
  const [initialPassage] = useState(() => takeParameter(PASSAGE_PARAMETER));
  const [draft, setDraft] = useState(() => {
    const shared = takeParameter(QUESTION_PARAMETER);
    if (shared) dropParameter(QUESTION_PARAMETER);
    return shared ?? "";
  });
  const [fontSize, setFontSize] = useState<FontSize>(loadFontSize);
  const [listOpen, setListOpen] = useState(false);
  const [undoable, setUndoable] = useState<Undoable | null>(null);
  const [activeQuestion, setActiveQuestion] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const dock = useRef<HTMLDivElement>(null);
  const listButton = useRef<HTMLButtonElement>(null);
  const { status, unreachable, refresh } = useServerStatus();
  const collections = useCollections(status?.collections);
  const [choice, setChoice] = useState(loadCollectionChoice);
  const collection = effectiveCollection(choice, collections);
  const current = collection === BIBLE_COLLECTION ? undefined : collections?.find((c) => c.name === collection);

  useEffect(() => {
    applyFontSize(fontSize);
    saveFontSize(fontSize);
  }, [fontSize]);

  // The question box's height, for the page's scroll padding (focus never hides behind it).
  useLayoutEffect(() => {
    const element = dock.current;
    if (!element) return;
    const set = () => document.documentElement.style.setProperty("--dock-h", `${Math.ceil(element.getBoundingClientRect().height)}px`);
    set();
    if (typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(set);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onFailure = useCallback(
    (failure: ChatFailure) => {
      // Nothing typed is lost: the question goes back into an empty box.
      setDraft((current) => (current.trim() === "" ? failure.question : current));
      // The status indicator says at once whether the server itself is down.
      if (failure.error.kind === "network" || failure.error.status === 503) refresh();
    },
    [refresh],
  );
  const { conversation, saved, streaming, send, stop, startNew, open, remove, restore } = useChat({ onFailure, collection });
  const messages = conversation.messages;

  const ask = (text: string, retryOf?: string) => {
    if (text.trim() === "" || streaming) return;
    setDraft((current) => (current.trim() === text.trim() ? "" : current));
    setUndoable(null);
    void send(text, retryOf);
    setActiveQuestion("pending");
    // A button that asked (a suggestion, "Perguntar de novo") may go away: the focus waits in the box.
    if (document.activeElement !== input.current) input.current?.focus({ preventScroll: true });
  };

  const onRetry = (message: AssistantMessage) => {
    const text = message.error?.code === "message_too_long" && draft.trim() !== "" ? draft : message.question;
    ask(text, message.id);
  };

  const offerUndo = (text: string, before: Library, choiceBefore: string) => {
    setUndoable({
      text,
      undo: () => {
        restore(before);
        setChoice(choiceBefore);
        saveCollectionChoice(choiceBefore);
        setUndoable(null);
        setActiveQuestion(null);
        input.current?.focus();
      },
    });
  };

  const newConversation = () => {
    if (messages.length === 0) {
      input.current?.focus();
      return;
    }
    const before = startNew(collection);
    setActiveQuestion(null);
    offerUndo("Nova conversa iniciada. A anterior ficou em “Conversas”.", before, choice);
    setListOpen(false);
    input.current?.focus();
  };

  // Another collection starts a new conversation (a conversation never mixes sources); what is typed stays.
  const chooseCollection = (name: string) => {
    if (name === collection) return;
    const choiceBefore = choice;
    setChoice(name);
    saveCollectionChoice(name);
    if (messages.length === 0) {
      startNew(name);
      return;
    }
    const before = startNew(name);
    setActiveQuestion(null);
    offerUndo(`Nova conversa com ${name === BIBLE_COLLECTION ? "a Bíblia" : `a coleção “${name}”`}. A anterior ficou em “Conversas”.`, before, choiceBefore);
  };

  const openConversation = (id: string) => {
    const target = saved.find((item) => item.id === id);
    const choiceBefore = choice;
    const before = open(id);
    const wanted = target?.collection ?? BIBLE_COLLECTION;
    if (wanted !== collection) {
      setChoice(wanted);
      saveCollectionChoice(wanted);
    }
    setActiveQuestion(null);
    setListOpen(false);
    offerUndo("Conversa aberta.", before, choiceBefore);
    input.current?.focus();
    window.scrollTo({ top: 0 });
  };

  const deleteConversation = (id: string) => {
    const before = remove(id);
    offerUndo("Conversa apagada.", before, choice);
  };

  const closeList = () => {
    setListOpen(false);
    listButton.current?.focus();
  };

  // A new question comes to the top of the screen, its answer filling the space below it as it streams.
  const lastQuestion = [...messages].reverse().find((message) => message.role === "user");
  useLayoutEffect(() => {
    if (activeQuestion !== "pending" || !lastQuestion) return;
    setActiveQuestion(lastQuestion.id);
  }, [activeQuestion, lastQuestion]);
  useEffect(() => {
    if (!activeQuestion || activeQuestion === "pending") return;
    const element = document.querySelector<HTMLElement>(`[data-message="${activeQuestion}"]`);
    if (element && typeof element.scrollIntoView === "function") element.scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, [activeQuestion]);

  // A care notice (who to call) is brought into view as soon as it arrives.
  const last = messages[messages.length - 1];
  const lastCare = last?.role === "assistant" && last.care !== undefined && last.status === "streaming" ? last.id : undefined;
  useEffect(() => {
    if (!lastCare) return;
    requestAnimationFrame(() => {
      const care = document.querySelector<HTMLElement>(`[data-message="${lastCare}"] .care-box`);
      const question = activeQuestion ? document.querySelector<HTMLElement>(`[data-message="${activeQuestion}"]`) : null;
      bringIntoView(care, question);
    });
    // Only a new notice moves the page (not the question's own scroll).
  }, [lastCare]);
  // A failure or a stop shows a notice at the end of the answer: bring it into view.
  const lastStatus = last?.role === "assistant" ? last.status : undefined;
  useEffect(() => {
    if (lastStatus !== "error" && lastStatus !== "stopped") return;
    requestAnimationFrame(() => bringIntoView(document.querySelector<HTMLElement>(".message.assistant:last-of-type .notice, .exchange:last-child .notice")));
  }, [lastStatus]);

  const suggestionsFor = (name: string | undefined): string[] => {
    if (!name) return BIBLE_SUGGESTIONS;
    const found = collections?.find((item) => item.name === name);
    return (found?.disciplines ?? []).slice(0, 4).map((discipline) => `O que o material de ${discipline} ensina?`);
  };
  const actions: MessageActions = { onRetry, onAsk: (text) => ask(text), suggestionsFor, busy: streaming };

  const closedPassage = useCallback(() => dropParameter(PASSAGE_PARAMETER), []);

  return (
    <ReferenceProvider {...(initialPassage ? { initial: initialPassage } : {})} onClosed={closedPassage}>
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
            <Popover
              buttonLabel={statusLabel(status, unreachable)}
              buttonClassName="icon-button status-toggle"
              buttonContent={
                <>
                  <span className={`dot ${statusTone(status, unreachable)}`} aria-hidden="true" />
                  <StatusShort status={status} unreachable={unreachable} />
                </>
              }
              panelLabel="Situação do serviço"
              panelId="painel-situacao"
            >
              <StatusPanel status={status} unreachable={unreachable} />
            </Popover>
            <Popover buttonLabel="Tamanho do texto" buttonClassName="icon-button" buttonContent={<span aria-hidden="true" className="font-icon">Aa</span>} panelLabel="Tamanho do texto">
              <FontSizeChoice value={fontSize} onChange={setFontSize} />
            </Popover>
            <button ref={listButton} type="button" className="button ghost icon-button" aria-haspopup="dialog" aria-label="Conversas" onClick={() => setListOpen(true)}>
              <span aria-hidden="true" className="list-icon">☰</span>
              <span className="wide-only"> Conversas</span>
            </button>
            <button type="button" className="button ghost" aria-label="Nova conversa" onClick={newConversation} disabled={messages.length === 0}>
              Nova<span className="wide-only"> conversa</span>
            </button>
          </div>
        </header>

        <ServiceNotice status={status} unreachable={unreachable} />

        <main className="chat" id="conversa">
          <h2 className="visually-hidden">Conversa</h2>
          <div className="messages" aria-live="polite" aria-relevant="additions text" aria-busy={streaming} data-testid="answer-region">
            {messages.length === 0 ? (
              <Welcome onPick={(text) => ask(text)} collection={current} hasCollections={(collections?.length ?? 0) > 0} />
            ) : (
              exchanges(messages).map((exchange) => (
                <div key={exchange.key} className={exchange.key === activeQuestion ? "exchange active" : "exchange"}>
                  {exchange.messages.map((message) => (
                    <MessageView key={message.id} message={message} actions={actions} />
                  ))}
                </div>
              ))
            )}
          </div>
        </main>

        <div ref={dock} className="dock">
          {undoable && (
            <div className="undo-bar" role="status">
              <p>{undoable.text}</p>
              <button type="button" className="button small" onClick={undoable.undo}>
                Desfazer
              </button>
              <button type="button" className="button ghost small" aria-label="Fechar o aviso" onClick={() => setUndoable(null)}>
                <span aria-hidden="true">✕</span>
              </button>
            </div>
          )}
          <Composer
            ref={input}
            value={draft}
            onChange={setDraft}
            onSend={() => ask(draft)}
            onStop={stop}
            streaming={streaming}
            placeholder={current ? "Pergunte à coleção…" : undefined}
            tools={collections && collections.length > 0 ? <CollectionPicker collections={collections} value={collection} onChange={chooseCollection} /> : undefined}
          />
        </div>

        <footer className="attribution">
          <p>{ATTRIBUTION}</p>
        </footer>
      </div>
      {listOpen && (
        <ConversationsSheet current={conversation} saved={saved} onOpen={openConversation} onDelete={deleteConversation} onNew={newConversation} onClose={closeList} />
      )}
    </ReferenceProvider>
  );
}

/** The messages as exchanges: a question and its answer (the key is the question's id). */
function exchanges(messages: readonly Message[]): { key: string; messages: Message[] }[] {
  const out: { key: string; messages: Message[] }[] = [];
  for (const message of messages) {
    const open = out[out.length - 1];
    if (message.role === "user" || !open) out.push({ key: message.id, messages: [message] });
    else open.messages.push(message);
  }
  return out;
}

/**
 * Scrolls an element into view when any of it is hidden (the page's scroll padding keeps it
 * clear of the question box). With `anchor` (the question being answered, on its way to the
 * top of the screen), nothing moves when the element will be in view once the anchor is there.
 */
function bringIntoView(element: HTMLElement | null, anchor: HTMLElement | null = null): void {
  if (!element || typeof element.scrollIntoView !== "function") return;
  const rect = element.getBoundingClientRect();
  const dockTop = document.querySelector(".dock")?.getBoundingClientRect().top ?? window.innerHeight;
  if (rect.top >= 0 && rect.bottom <= dockTop) return;
  if (anchor && rect.bottom - anchor.getBoundingClientRect().top <= dockTop - 24) return;
  element.scrollIntoView({ block: rect.height > dockTop ? "start" : "nearest", behavior: "auto" });
}

function FontSizeChoice({ value, onChange }: { value: FontSize; onChange(size: FontSize): void }) {
  return (
    <fieldset className="font-sizes">
      <legend>Tamanho do texto</legend>
      {FONT_SIZES.map((size) => (
        <label key={size.id} className={`font-size-option size-${size.id}`}>
          <input type="radio" name="tamanho-do-texto" value={size.id} checked={value === size.id} onChange={() => onChange(size.id)} />
          <span>{size.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Said above the conversation only when the service cannot answer yet (the details stay behind the status indicator). */
function ServiceNotice({ status, unreachable }: { status: ServerStatus | undefined; unreachable: boolean }) {
  let text: ReactNode = null;
  if (unreachable) text = "O servidor não está respondendo. Tentando de novo…";
  else if (status && !status.lexicalReady) {
    const fraction = progressFraction(status.progress);
    text = `${status.indexing ? "Preparando o índice da Bíblia" : "O índice da Bíblia ainda não foi criado"}${fraction === undefined ? "" : `: ${Math.round(fraction * 100)}%`}. ${chatAvailability(status)}`;
  }
  if (text === null) return null;
  return (
    <p className="service-notice" role="status" data-testid="service-notice">
      <span className={`dot ${statusTone(status, unreachable)}`} aria-hidden="true" /> {text}
    </p>
  );
}

function Welcome({ onPick, collection, hasCollections }: { onPick(text: string): void; collection: CollectionStatus | undefined; hasCollections: boolean }) {
  if (collection) {
    return (
      <section className="welcome" aria-labelledby="welcome-title">
        <h2 id="welcome-title">Consulte a coleção “{collection.name}”</h2>
        <p>
          As respostas vêm dos {collection.documents === 1 ? "textos de 1 documento" : `textos de ${collection.documents} documentos`} desta
          coleção, e cada trecho citado aparece numerado logo abaixo da resposta. Para perguntar à Bíblia, escolha “Bíblia” na lista ao lado da
          caixa de pergunta (trocar começa uma nova conversa; a atual fica em “Conversas”).
        </p>
      </section>
    );
  }
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Converse com as Escrituras</h2>
      <p>
        Escreva o que está no seu coração ou o que deseja estudar. A resposta vem dos próprios versículos, e cada referência abre o capítulo
        inteiro, com o versículo em destaque.
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
      <details className="about">
        <summary>Como funciona</summary>
        <p>
          As respostas usam apenas versículos encontrados na Bíblia Livre. Toda referência citada foi conferida e pode ser aberta para leitura;
          referências que não existem ou que não foram consultadas nunca aparecem marcadas como citadas.
        </p>
        {hasCollections && (
          <p>
            Na lista ao lado da caixa de pergunta você pode consultar uma coleção de documentos (aulas, apostilas) em vez da Bíblia: a resposta
            cita os trechos usados pelo título e pela página.
          </p>
        )}
        <p>As conversas ficam só neste navegador, em “Conversas”.</p>
      </details>
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
  if (status && !status.lexicalReady) return "Situação: preparando";
  return status ? "Situação: pronto" : "Situação";
}

/** The status indicator's visible label, only when something is going on ("Indexando 45%", "Fora do ar"). */
function StatusShort({ status, unreachable }: { status: ServerStatus | undefined; unreachable: boolean }) {
  if (unreachable) return <span className="status-short">Fora do ar</span>;
  if (status?.indexing) {
    const fraction = progressFraction(status.progress);
    if (fraction === undefined) return <span className="status-short">Indexando…</span>;
    return (
      <span className="status-short">
        <span className="wide-only">Indexando </span>
        {Math.round(fraction * 100)}%
      </span>
    );
  }
  return null;
}
