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
  /** The page's own key for this conversation (never sent to the server). */
  id: string;
  /** The id the server issued in the `sources` event; sent back with the next question, never invented. */
  conversationId?: string;
  /** The document collection it asks; absent for the Bible. */
  collection?: string;
  /** When it last changed (ms since the epoch), for the list of conversations. */
  updatedAt: number;
  messages: Message[];
}

/** The conversation on screen and the earlier ones, newest first. */
export interface Library {
  current: Conversation;
  saved: Conversation[];
}

export const STORAGE_KEY = "pastor-online:conversas:v2";
/** Where the single conversation of earlier versions was kept (read once, then moved). */
export const LEGACY_STORAGE_KEY = "pastor-online:conversa:v1";
/** Only the most recent messages of a conversation are kept (the server uses the last 10 exchanges). */
export const MAX_SAVED_MESSAGES = 80;
/** How many earlier conversations the list keeps. */
export const MAX_SAVED_CONVERSATIONS = 30;

export function emptyConversation(collection?: string): Conversation {
  return { id: newId("c"), updatedAt: Date.now(), messages: [], ...(collection && collection !== BIBLE_COLLECTION ? { collection } : {}) };
}

export function emptyLibrary(): Library {
  return { current: emptyConversation(), saved: [] };
}

/** The conversation's name in the list: its first question, cut short. */
export function conversationTitle(conversation: Conversation): string {
  const first = conversation.messages.find((message) => message.role === "user");
  const text = (first?.content ?? "").replace(/\s+/gu, " ").trim();
  if (text === "") return "Conversa sem perguntas";
  return text.length > 80 ? `${text.slice(0, 79).trimEnd()}…` : text;
}

export function loadLibrary(storage: Storage | undefined = safeStorage()): Library {
  if (!storage) return emptyLibrary();
  try {
    const raw = storage.getItem(STORAGE_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as { current?: unknown; saved?: unknown };
      const current = readConversation(parsed.current) ?? emptyConversation();
      const saved = (Array.isArray(parsed.saved) ? parsed.saved : [])
        .map(readConversation)
        .filter((conversation): conversation is Conversation => conversation !== undefined && conversation.messages.length > 0);
      return { current, saved: saved.slice(0, MAX_SAVED_CONVERSATIONS) };
    }
    // An earlier version kept one conversation under another key: it becomes the current one.
    const legacy = storage.getItem(LEGACY_STORAGE_KEY);
    const current = legacy ? readConversation(JSON.parse(legacy) as unknown) : undefined;
    return { current: current ?? emptyConversation(), saved: [] };
  } catch {
    return emptyLibrary();
  }
}

/** One stored conversation in the shape the page renders, or undefined when it is not one. */
function readConversation(value: unknown): Conversation | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const parsed = value as Partial<Conversation>;
  if (!Array.isArray(parsed.messages)) return undefined;
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
  const conversation: Conversation = {
    id: typeof parsed.id === "string" && parsed.id !== "" ? parsed.id : newId("c"),
    updatedAt: typeof parsed.updatedAt === "number" && Number.isFinite(parsed.updatedAt) ? parsed.updatedAt : Date.now(),
    messages,
  };
  if (typeof parsed.conversationId === "string" && parsed.conversationId !== "") conversation.conversationId = parsed.conversationId;
  const collection = typeof parsed.collection === "string" && parsed.collection !== "" ? parsed.collection : firstCollection(messages);
  if (collection && collection !== BIBLE_COLLECTION) conversation.collection = collection;
  return conversation;
}

function firstCollection(messages: readonly Message[]): string | undefined {
  for (const message of messages) if (message.role === "assistant") return message.collection;
  return undefined;
}

function trimmed(conversation: Conversation): Conversation {
  return conversation.messages.length > MAX_SAVED_MESSAGES ? { ...conversation, messages: conversation.messages.slice(-MAX_SAVED_MESSAGES) } : conversation;
}

/**
 * Saves the library; when the storage is full, the oldest conversations of the list are let go
 * one by one until it fits (the one on screen is kept to the last).
 */
export function saveLibrary(library: Library, storage: Storage | undefined = safeStorage()): void {
  if (!storage) return;
  try {
    storage.removeItem(LEGACY_STORAGE_KEY);
  } catch {
    // storage disabled
  }
  let saved = library.saved.slice(0, MAX_SAVED_CONVERSATIONS).map(trimmed);
  for (;;) {
    try {
      if (library.current.messages.length === 0 && saved.length === 0) storage.removeItem(STORAGE_KEY);
      else storage.setItem(STORAGE_KEY, JSON.stringify({ current: trimmed(library.current), saved }));
      return;
    } catch {
      // storage full or disabled (private mode)
      if (saved.length === 0) return;
      saved = saved.slice(0, -1);
    }
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
