import { BIBLE_COLLECTION, careNoticeOf, type ApiErrorKind, type CareNotice, type Refusal, type Source } from "./api";

/** The conversation as the page keeps it, saved in localStorage so that a reload keeps it. */

export interface UserMessage {
  id: string;
  role: "user";
  content: string;
}

export interface AssistantMessage {
  id: string;
  role: "assistant";
  /** The question this answers (what "Tentar de novo" sends again). */
  question: string;
  content: string;
  sources: Source[];
  /** The citations the server confirmed (the `done` event); null until then. */
  citations: string[] | null;
  status: "streaming" | "done" | "stopped" | "error";
  /** Set when the server answered without the model: "out_of_scope" is shown as its own state. */
  refusal?: Refusal;
  /** Set when the server answered a greeting, thanks or goodbye with its fixed reply (no search, no model). */
  smallTalk?: boolean;
  /** The server's gate kept the question with a doubt: the answer is shown as perhaps off the subject. */
  doubtful?: boolean;
  /** Who to call, shown before the answer: the server found the writer at risk. */
  care?: CareNotice;
  /** The document collection it was asked of; absent for the Bible. */
  collection?: string;
  error?: { kind: ApiErrorKind; code: string; message: string };
}

export type Message = UserMessage | AssistantMessage;

export interface Conversation {
  conversationId?: string;
  messages: Message[];
}

export const STORAGE_KEY = "pastor-online:conversa:v1";
/** Only the most recent messages are kept across reloads (the server uses the last 10 exchanges). */
export const MAX_SAVED_MESSAGES = 80;

export function emptyConversation(): Conversation {
  return { messages: [] };
}

export function loadConversation(storage: Storage | undefined = safeStorage()): Conversation {
  if (!storage) return emptyConversation();
  try {
    const raw = storage.getItem(STORAGE_KEY);
    if (!raw) return emptyConversation();
    const parsed = JSON.parse(raw) as Partial<Conversation>;
    if (!Array.isArray(parsed.messages)) return emptyConversation();
    const messages = parsed.messages.filter(isMessage).map((message) => {
      if (message.role !== "assistant") return message;
      // An answer that was still streaming when the page closed did not finish.
      const kept: AssistantMessage = message.status === "streaming" ? { ...message, status: "stopped" } : { ...message };
      // A saved care notice is shown again only in the shape the page renders.
      const care = kept.care === undefined ? undefined : careNoticeOf(kept.care);
      if (care) kept.care = care;
      else delete kept.care;
      if (kept.doubtful !== true) delete kept.doubtful;
      return kept;
    });
    const conversation: Conversation = { messages };
    if (typeof parsed.conversationId === "string" && parsed.conversationId !== "") conversation.conversationId = parsed.conversationId;
    return conversation;
  } catch {
    return emptyConversation();
  }
}

export function saveConversation(conversation: Conversation, storage: Storage | undefined = safeStorage()): void {
  if (!storage) return;
  try {
    if (conversation.messages.length === 0 && !conversation.conversationId) storage.removeItem(STORAGE_KEY);
    else storage.setItem(STORAGE_KEY, JSON.stringify({ ...conversation, messages: conversation.messages.slice(-MAX_SAVED_MESSAGES) }));
  } catch {
    // storage full or disabled (private mode): the conversation just won't survive a reload
  }
}

/** The collection chosen in "Consultar" ("biblia" or a document collection), kept across reloads. */
export const COLLECTION_KEY = "pastor-online:colecao:v1";

export function loadCollectionChoice(storage: Storage | undefined = safeStorage()): string {
  try {
    const value = storage?.getItem(COLLECTION_KEY);
    return value && value.trim() !== "" ? value : BIBLE_COLLECTION;
  } catch {
    return BIBLE_COLLECTION;
  }
}

export function saveCollectionChoice(name: string, storage: Storage | undefined = safeStorage()): void {
  if (!storage) return;
  try {
    if (name === BIBLE_COLLECTION) storage.removeItem(COLLECTION_KEY);
    else storage.setItem(COLLECTION_KEY, name);
  } catch {
    // storage disabled: the choice just won't survive a reload
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  if (typeof m.id !== "string" || typeof m.content !== "string") return false;
  if (m.role === "user") return true;
  return m.role === "assistant" && typeof m.question === "string" && Array.isArray(m.sources) && typeof m.status === "string";
}

let counter = 0;
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}
