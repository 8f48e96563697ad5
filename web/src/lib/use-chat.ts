import { useCallback, useEffect, useReducer, useRef } from "react";
import { ApiError, BIBLE_COLLECTION, streamChat, type CareNotice, type ChatRequest, type ChatTurn, type Refusal, type Source } from "./api";
import { emptyConversation, loadLibrary, newId, saveLibrary, type AssistantMessage, type Conversation, type Library, type Message } from "./storage";

/** How many past messages go back to the server as history (it keeps the last 10 exchanges). */
const HISTORY_MESSAGES = 20;
/** Each past message is sent cut to this many characters (the server refuses longer entries with 413). */
const HISTORY_ENTRY_CHARS = 4000;

type Action =
  | { type: "start"; user: Message; assistant: AssistantMessage; replace?: { userId?: string; assistantId: string } }
  | { type: "sources"; id: string; conversationId: string; sources: Source[]; doubtful?: boolean }
  | { type: "care"; id: string; notice: CareNotice }
  | { type: "token"; id: string; text: string }
  | { type: "done"; id: string; citations: string[]; refusal?: Refusal; smallTalk?: boolean }
  | { type: "stopped"; id: string }
  | { type: "error"; id: string; error: NonNullable<AssistantMessage["error"]> }
  | { type: "new"; collection?: string }
  | { type: "open"; id: string }
  | { type: "delete"; id: string }
  | { type: "restore"; library: Library };

function updateAssistant(state: Conversation, id: string, change: (message: AssistantMessage) => AssistantMessage): Conversation {
  return {
    ...state,
    messages: state.messages.map((message) => (message.id === id && message.role === "assistant" ? change(message) : message)),
  };
}

/** What one answer's events do to the conversation on screen. */
export function chatReducer(state: Conversation, action: Exclude<Action, { type: "new" | "open" | "delete" | "restore" }>): Conversation {
  switch (action.type) {
    case "start": {
      const kept = action.replace
        ? state.messages.filter((message) => message.id !== action.replace!.assistantId && message.id !== action.replace!.userId)
        : state.messages;
      const collection = action.assistant.collection;
      return { ...state, ...(collection && state.messages.length === 0 ? { collection } : {}), messages: [...kept, action.user, action.assistant] };
    }
    case "sources": {
      const next = updateAssistant(state, action.id, (message) => ({ ...message, sources: action.sources, ...(action.doubtful ? { doubtful: true } : {}) }));
      // Only an id the server issued is kept (and sent back); an empty one changes nothing.
      return action.conversationId === "" ? next : { ...next, conversationId: action.conversationId };
    }
    case "care":
      // One notice per answer, even if the event came twice.
      return updateAssistant(state, action.id, (message) => (message.care ? message : { ...message, care: action.notice }));
    case "token":
      return updateAssistant(state, action.id, (message) => ({ ...message, content: message.content + action.text }));
    case "done":
      return updateAssistant(state, action.id, (message) => ({
        ...message,
        citations: action.citations,
        status: "done",
        ...(action.refusal ? { refusal: action.refusal } : {}),
        ...(action.smallTalk ? { smallTalk: true } : {}),
      }));
    case "stopped":
      return updateAssistant(state, action.id, (message) => (message.status === "streaming" ? { ...message, status: "stopped" } : message));
    case "error":
      return updateAssistant(state, action.id, (message) => ({ ...message, status: "error", error: action.error }));
  }
}

function stoppedIfStreaming(message: Message): Message {
  return message.role === "assistant" && message.status === "streaming" ? { ...message, status: "stopped" } : message;
}

/** Keeps the conversation on screen in the list (when it has messages), newest first. */
function archive(saved: readonly Conversation[], conversation: Conversation): Conversation[] {
  const others = saved.filter((item) => item.id !== conversation.id);
  return conversation.messages.length === 0 ? others : [conversation, ...others];
}

/**
 * The conversations: the answer's events change the one on screen; "new" keeps it in the list
 * and starts an empty one, "open" brings one of the list back, "delete" drops one of the list,
 * "restore" puts a whole earlier state back (what "Desfazer" does).
 */
export function libraryReducer(state: Library, action: Action): Library {
  switch (action.type) {
    case "new":
      return { current: emptyConversation(action.collection), saved: archive(state.saved, state.current) };
    case "open": {
      const chosen = state.saved.find((conversation) => conversation.id === action.id);
      if (!chosen) return state;
      return { current: chosen, saved: archive(state.saved.filter((conversation) => conversation.id !== action.id), state.current) };
    }
    case "delete":
      return { ...state, saved: state.saved.filter((conversation) => conversation.id !== action.id) };
    case "restore":
      // An answer that was streaming when the state was taken has stopped since.
      return { ...action.library, current: { ...action.library.current, messages: action.library.current.messages.map(stoppedIfStreaming) } };
    default: {
      const current = chatReducer(state.current, action);
      return current === state.current ? state : { ...state, current: { ...current, updatedAt: Date.now() } };
    }
  }
}

/** The finished exchanges, oldest first, as the server's `history`. */
export function historyOf(messages: readonly Message[]): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || message.content.trim() === "") continue;
    if (message.status !== "done" && message.status !== "stopped") continue;
    // A refusal, or the fixed reply to a greeting, is not part of the conversation the model should see.
    if (message.refusal === "out_of_scope" || message.smallTalk) continue;
    turns.push({ role: "user", content: message.question.slice(0, HISTORY_ENTRY_CHARS) }, { role: "assistant", content: message.content.slice(0, HISTORY_ENTRY_CHARS) });
  }
  return turns.slice(-HISTORY_MESSAGES);
}

export interface ChatFailure {
  question: string;
  error: ApiError;
}

/**
 * The conversation and its streaming answer. `collection` is what the questions are asked of:
 * "biblia" (the default, not sent) or a document collection, sent as `collection`.
 */
export function useChat(options: { onFailure?: (failure: ChatFailure) => void; collection?: string } = {}) {
  const [library, dispatch] = useReducer(libraryReducer, undefined, loadLibrary);
  const conversation = library.current;
  const controller = useRef<AbortController | null>(null);
  const streamingId = useRef<string | null>(null);
  const latest = useRef(conversation);
  latest.current = conversation;
  const latestLibrary = useRef(library);
  latestLibrary.current = library;
  const onFailure = useRef(options.onFailure);
  onFailure.current = options.onFailure;
  const collection = useRef(options.collection);
  collection.current = options.collection;

  useEffect(() => {
    saveLibrary(library);
  }, [library]);

  useEffect(() => () => controller.current?.abort(), []);

  const streaming = conversation.messages.some((message) => message.role === "assistant" && message.status === "streaming");

  const send = useCallback(async (text: string, retryOf?: string) => {
    const question = text.trim();
    if (question === "" || controller.current) return;
    const before = latest.current;
    let replace: { userId?: string; assistantId: string } | undefined;
    let previous: readonly Message[] = before.messages;
    if (retryOf) {
      const index = before.messages.findIndex((message) => message.id === retryOf);
      if (index !== -1) {
        const user = before.messages[index - 1];
        replace = { assistantId: retryOf, ...(user?.role === "user" ? { userId: user.id } : {}) };
        previous = before.messages.slice(0, user?.role === "user" ? index - 1 : index);
      }
    }
    const target = collection.current && collection.current !== BIBLE_COLLECTION ? collection.current : undefined;
    const user: Message = { id: newId("p"), role: "user", content: question };
    const assistant: AssistantMessage = {
      id: newId("r"),
      role: "assistant",
      question,
      content: "",
      sources: [],
      citations: null,
      status: "streaming",
      ...(target ? { collection: target } : {}),
    };
    dispatch({ type: "start", user, assistant, ...(replace ? { replace } : {}) });

    const abort = new AbortController();
    controller.current = abort;
    streamingId.current = assistant.id;
    const request: ChatRequest = {
      message: question,
      history: historyOf(previous),
      ...(before.conversationId ? { conversationId: before.conversationId } : {}),
      ...(target ? { collection: target } : {}),
    };
    try {
      for await (const event of streamChat(request, abort.signal)) {
        if (event.type === "sources")
          dispatch({ type: "sources", id: assistant.id, conversationId: event.conversationId, sources: event.sources, ...(event.doubtful ? { doubtful: true } : {}) });
        else if (event.type === "care") dispatch({ type: "care", id: assistant.id, notice: event.notice });
        else if (event.type === "token") dispatch({ type: "token", id: assistant.id, text: event.text });
        else
          dispatch({
            type: "done",
            id: assistant.id,
            citations: event.citations,
            ...(event.refusal ? { refusal: event.refusal } : {}),
            ...(event.smallTalk ? { smallTalk: true } : {}),
          });
      }
      if (abort.signal.aborted) dispatch({ type: "stopped", id: assistant.id });
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : new ApiError("protocol", "unexpected", "Algo deu errado ao mostrar a resposta. Tente de novo.");
      dispatch({ type: "error", id: assistant.id, error: { kind: error.kind, code: error.code, message: error.message } });
      onFailure.current?.({ question, error });
    } finally {
      if (controller.current === abort) controller.current = null;
      if (streamingId.current === assistant.id) streamingId.current = null;
    }
  }, []);

  const stop = useCallback(() => {
    const id = streamingId.current;
    controller.current?.abort();
    controller.current = null;
    streamingId.current = null;
    if (id) dispatch({ type: "stopped", id });
  }, []);

  const abortStream = useCallback(() => {
    const id = streamingId.current;
    controller.current?.abort();
    controller.current = null;
    streamingId.current = null;
    if (id) dispatch({ type: "stopped", id });
  }, []);

  /**
   * Starts an empty conversation (asking `collection`), keeping the one on screen in the list.
   * Returns the state before, for "Desfazer".
   */
  const startNew = useCallback(
    (collectionName?: string): Library => {
      const before = latestLibrary.current;
      abortStream();
      dispatch({ type: "new", ...(collectionName ? { collection: collectionName } : {}) });
      return before;
    },
    [abortStream],
  );

  /** Brings a conversation of the list back to the screen; returns the state before. */
  const open = useCallback(
    (id: string): Library => {
      const before = latestLibrary.current;
      abortStream();
      dispatch({ type: "open", id });
      return before;
    },
    [abortStream],
  );

  /** Drops a conversation of the list; returns the state before. */
  const remove = useCallback((id: string): Library => {
    const before = latestLibrary.current;
    dispatch({ type: "delete", id });
    return before;
  }, []);

  /** Puts an earlier state back ("Desfazer"). */
  const restore = useCallback(
    (earlier: Library) => {
      abortStream();
      dispatch({ type: "restore", library: earlier });
    },
    [abortStream],
  );

  return { conversation, saved: library.saved, streaming, send, stop, startNew, open, remove, restore };
}
