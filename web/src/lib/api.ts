import { readSse } from "./sse";

/** The JSON shapes of the server's API (src/http/app.ts). */

/** A verse the Bible search consulted (no `kind`). */
export interface VerseSource {
  kind?: undefined;
  id: string;
  ref: string;
  reference: string;
  book: string;
  bookCode: string;
  chapter: number;
  verse: number;
  verseEnd: number;
  text: string;
}

/** An excerpt of a document collection (src/app/chat/collection-chat.ts, DocumentSourceJson). */
export interface DocumentSource {
  kind: "document";
  id: string;
  /** The excerpt's number in the prompt. */
  number: number;
  collection: string;
  sourceId: string;
  /** 0-based. */
  chunk: number;
  page?: number;
  pageEnd?: number;
  title: string;
  discipline: string;
  /** The human citation the answer shows for it: "A Trindade (teologia/a-trindade.md, trecho 1)", "Apostila X, p. 12". */
  citation: string;
  text: string;
}

/** A consulted source: a verse, or a document excerpt (`kind: "document"`). */
export type Source = VerseSource | DocumentSource;

export function isDocumentSource(source: Source): source is DocumentSource {
  return source.kind === "document";
}

/** The collection name that means the Bible (the server's default). */
export const BIBLE_COLLECTION = "biblia";

/** How far an index run is (the Bible's indexing, or a collection's reload). */
export interface IndexProgress {
  phase: IndexPhase | string;
  done: number;
  total: number;
  /** What done and total count; absent: verses. */
  counts?: "verses" | "documents" | "chunks";
}

export interface CollectionStatus {
  name: string;
  kind: string;
  documents: number;
  chunks: number;
  disciplines: string[];
  dense: { enabled: boolean; reason: string | null };
  reloading: boolean;
  /** The running reload's progress (absent from servers before it). */
  progress?: IndexProgress | null;
  lastReload: { finishedAt: string; ms: number; added: number; changed: number; unchanged: number; removed: number; skipped: number } | null;
  error: { code: string; message: string } | null;
}

export interface CollectionsResponse {
  default: string;
  collections: CollectionStatus[];
}

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  message: string;
  history?: ChatTurn[];
  conversationId?: string;
  /** A document collection; absent for the Bible. */
  collection?: string;
}

/** Why an answer came without the model: out of what the Bible (or the collection) treats, or nothing found. */
export type Refusal = "out_of_scope" | "no_evidence";

/** A service to call, as the care notice lists it. */
export interface CareContact {
  name: string;
  phone: string;
  detail: string;
  url?: string;
}

/** What the server sends first to a person at risk: who to call, before any text. */
export interface CareNotice {
  kind: string;
  title: string;
  text: string;
  contacts: CareContact[];
}

export type ChatEvent =
  | { type: "sources"; conversationId: string; collection?: string; sources: Source[]; doubtful?: boolean }
  | { type: "care"; notice: CareNotice }
  | { type: "token"; text: string }
  | { type: "done"; citations: string[]; refusal?: Refusal; smallTalk?: boolean };

export interface CrossReference {
  reference: string;
  votes: number;
}

export interface Verse {
  ref: string;
  reference: string;
  book: string;
  bookCode: string;
  chapter: number;
  verse: number;
  text: string;
  crossReferences: CrossReference[];
}

export interface VersesResponse {
  reference: string;
  verses: Verse[];
  attribution: string;
  /** The reference names more verses than one answer lists: the first ones came, and the server's notice says so. */
  truncated?: boolean;
  notice?: string;
}

export type IndexPhase = "scanning" | "lexical" | "training" | "dense" | "done";

export interface ServerStatus {
  sources: { file: string; sha256?: string; verses: number; status?: string }[];
  versesIndexed: number;
  indexing: boolean;
  progress: IndexProgress | null;
  errors: { file?: string; code?: string; message: string }[];
  embedding: { enabled: boolean; model: string | null; reason?: string | null; mode?: string };
  llm: { provider: string; model: string };
  lexicalReady: boolean;
  /** The document collections (servers without them omit it or send []). */
  collections?: CollectionStatus[];
}

/** Where a failure came from decides what the person is told and whether retrying can help. */
export type ApiErrorKind = "network" | "http" | "stream" | "protocol";

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const NETWORK_MESSAGE = "Não foi possível falar com o servidor. Verifique sua conexão com a internet e tente de novo.";
export const INTERRUPTED_MESSAGE = "A conexão caiu no meio da resposta. O que chegou até aqui está acima; você pode tentar de novo.";
const GENERIC_MESSAGE = "O servidor não conseguiu responder agora. Tente de novo em instantes.";

function isAbort(error: unknown): boolean {
  return error instanceof DOMException ? error.name === "AbortError" : error instanceof Error && error.name === "AbortError";
}

/** Turns a non-2xx response into an ApiError with the server's Portuguese message when it has one. */
async function errorFromResponse(response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let message = "";
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // not JSON: a proxy page or an empty body
  }
  if (response.status === 413 || code === "message_too_long") {
    const detail = message === "" ? "" : ` (${message.charAt(0).toLowerCase()}${message.slice(1).replace(/\.$/u, "")})`;
    return new ApiError("http", "message_too_long", `Sua pergunta ficou longa demais${detail}. Encurte o texto e tente de novo.`, response.status);
  }
  if (response.status === 503 && message === "") message = "O servidor está se preparando. Tente de novo em instantes.";
  if (response.status >= 502 && response.status <= 504 && message === "") message = "O servidor não está respondendo agora. Tente de novo em instantes.";
  return new ApiError("http", code, message === "" ? GENERIC_MESSAGE : message, response.status);
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new ApiError("protocol", "bad_event", "A resposta do servidor veio num formato inesperado. Tente de novo.");
  }
}

/**
 * Sends a question and yields the answer's events as they arrive (sources, tokens, done).
 * Throws ApiError for HTTP errors, network failures, an `error` event or a stream that ends
 * before `done`. An abort through `signal` ends the iteration quietly.
 */
/** The care event's notice, when it has the fields the page shows (contacts without a phone are left out). */
export function careNoticeOf(data: unknown): CareNotice | undefined {
  const notice = data as Partial<CareNotice> | null;
  if (!notice || typeof notice.title !== "string" || typeof notice.text !== "string") return undefined;
  const contacts = (Array.isArray(notice.contacts) ? notice.contacts : []).filter(
    (contact): contact is CareContact => typeof contact?.name === "string" && typeof contact.phone === "string" && /^[0-9]{2,15}$/.test(contact.phone),
  );
  return {
    kind: typeof notice.kind === "string" ? notice.kind : "",
    title: notice.title,
    text: notice.text,
    contacts: contacts.map((contact) => ({
      name: contact.name,
      phone: contact.phone,
      detail: typeof contact.detail === "string" ? contact.detail : "",
      ...(typeof contact.url === "string" && /^https:\/\//.test(contact.url) ? { url: contact.url } : {}),
    })),
  };
}

export async function* streamChat(request: ChatRequest, signal: AbortSignal, fetchImpl: typeof fetch = fetch): AsyncGenerator<ChatEvent> {
  let response: Response;
  try {
    response = await fetchImpl("/api/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (signal.aborted || isAbort(error)) return;
    throw new ApiError("network", "network", NETWORK_MESSAGE);
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (!response.body) throw new ApiError("protocol", "no_body", GENERIC_MESSAGE);

  let gotDone = false;
  try {
    for await (const message of readSse(response.body)) {
      if (message.event === "sources") {
        const data = parseJson(message.data) as { conversationId?: string; collection?: unknown; sources?: Source[]; scope?: { inScope?: unknown; doubtful?: unknown } };
        yield {
          type: "sources",
          conversationId: String(data.conversationId ?? ""),
          ...(typeof data.collection === "string" && data.collection !== "" ? { collection: data.collection } : {}),
          sources: Array.isArray(data.sources) ? data.sources : [],
          // The gate kept the question with a doubt: the answer comes, the doubt said above it.
          ...(data.scope?.inScope === true && data.scope.doubtful === true ? { doubtful: true } : {}),
        };
      } else if (message.event === "care") {
        const notice = careNoticeOf(parseJson(message.data));
        if (notice) yield { type: "care", notice };
      } else if (message.event === "token") {
        const data = parseJson(message.data) as { text?: unknown };
        if (typeof data.text === "string" && data.text !== "") yield { type: "token", text: data.text };
      } else if (message.event === "done") {
        const data = parseJson(message.data) as { citations?: unknown; refusal?: unknown; smallTalk?: unknown };
        gotDone = true;
        const citations = Array.isArray(data.citations) ? data.citations.filter((c): c is string => typeof c === "string") : [];
        const refusal = data.refusal === "out_of_scope" || data.refusal === "no_evidence" ? data.refusal : undefined;
        // A greeting's, thanks' or goodbye's fixed reply (the server names its kind).
        const smallTalk = typeof data.smallTalk === "string";
        yield { type: "done", citations, ...(refusal ? { refusal } : {}), ...(smallTalk ? { smallTalk } : {}) };
        return;
      } else if (message.event === "error") {
        const data = parseJson(message.data) as { code?: unknown; message?: unknown };
        throw new ApiError(
          "stream",
          typeof data.code === "string" ? data.code : "error",
          typeof data.message === "string" && data.message !== "" ? data.message : GENERIC_MESSAGE,
        );
      }
    }
  } catch (error) {
    if (signal.aborted || isAbort(error)) return;
    if (error instanceof ApiError) throw error;
    throw new ApiError("network", "interrupted", INTERRUPTED_MESSAGE);
  }
  if (!gotDone && !signal.aborted) throw new ApiError("network", "interrupted", INTERRUPTED_MESSAGE);
}

/** GET a JSON body; a failed connection becomes ApiError "network", an error status the server's ApiError. */
async function getJson(url: string, init: RequestInit, fetchImpl: typeof fetch): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(url, init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError("network", "network", NETWORK_MESSAGE);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response.json();
}

export async function fetchVerses(reference: string, signal?: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<VersesResponse> {
  return (await getJson(`/api/verses?ref=${encodeURIComponent(reference)}`, signal ? { signal } : {}, fetchImpl)) as VersesResponse;
}

export async function fetchStatus(signal?: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<ServerStatus> {
  return (await getJson("/api/status", signal ? { signal, cache: "no-store" } : { cache: "no-store" }, fetchImpl)) as ServerStatus;
}

/** The document collections the server offers; throws ApiError when it cannot say (older servers answer 404). */
export async function fetchCollections(signal?: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<CollectionsResponse> {
  const init: RequestInit = signal ? { signal, cache: "no-store" } : { cache: "no-store" };
  const body = (await getJson("/api/collections", init, fetchImpl)) as Partial<CollectionsResponse>;
  return {
    default: typeof body.default === "string" && body.default !== "" ? body.default : BIBLE_COLLECTION,
    collections: Array.isArray(body.collections) ? body.collections.filter(isCollectionStatus) : [],
  };
}

function isCollectionStatus(value: unknown): value is CollectionStatus {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return typeof c.name === "string" && c.name !== "" && typeof c.documents === "number" && typeof c.chunks === "number";
}
