import { useCallback, useEffect, useReducer, useRef } from "react";
import { ApiError, BIBLE_COLLECTION, streamChat, type CareNotice, type ChatRequest, type ChatTurn, type Refusal, type Source } from "./api";
import { loadConversation, newId, saveConversation, type AssistantMessage, type Conversation, type Message } from "./storage";

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
  | { type: "reset" };

function updateAssistant(state: Conversation, id: string, change: (message: AssistantMessage) => AssistantMessage): Conversation {
  return {
    ...state,
    messages: state.messages.map((message) => (message.id === id && message.role === "assistant" ? change(message) : message)),
  };
}

export function chatReducer(state: Conversation, action: Action): Conversation {
  switch (action.type) {
    case "start": {
      const kept = action.replace
        ? state.messages.filter((message) => message.id !== action.replace!.assistantId && message.id !== action.replace!.userId)
        : state.messages;
      return { ...state, messages: [...kept, action.user, action.assistant] };
    }
    case "sources": {
      const next = updateAssistant(state, action.id, (message) => ({ ...message, sources: action.sources, ...(action.doubtful ? { doubtful: true } : {}) }));
      return action.conversationId === "" ? next : { ...next, conversationId: action.conversationId };
    }
    case "care":
      return updateAssistant(state, action.id, (message) => ({ ...message, care: action.notice }));
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
    case "reset":
      return { messages: [] };
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
  const [conversation, dispatch] = useReducer(chatReducer, undefined, loadConversation);
  const controller = useRef<AbortController | null>(null);
  const streamingId = useRef<string | null>(null);
  const latest = useRef(conversation);
  latest.current = conversation;
  const onFailure = useRef(options.onFailure);
  onFailure.current = options.onFailure;
  const collection = useRef(options.collection);
  collection.current = options.collection;

  useEffect(() => {
    saveConversation(conversation);
  }, [conversation]);

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

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    streamingId.current = null;
    dispatch({ type: "reset" });
  }, []);

  return { conversation, streaming, send, stop, reset };
}
