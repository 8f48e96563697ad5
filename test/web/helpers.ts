import { vi } from "vitest";
import type { CollectionStatus, DocumentSource, ServerStatus, Source } from "../../web/src/lib/api";

/** Test doubles for the server's API, answering through a mocked global `fetch`. */

export const READY_STATUS: ServerStatus = {
  sources: [{ file: "por-blivre.usfx.xml", verses: 31_102 }],
  versesIndexed: 31_102,
  indexing: false,
  progress: { phase: "done", done: 31_102, total: 31_102 },
  errors: [],
  embedding: { enabled: true, model: "lsa:256:abc" },
  llm: { provider: "stub", model: "extrativo" },
  lexicalReady: true,
};

export const JOHN_3_16: Source = {
  id: "JHN.3.16",
  ref: "JHN 3:16",
  reference: "João 3:16",
  book: "João",
  bookCode: "JHN",
  chapter: 3,
  verse: 16,
  verseEnd: 16,
  text: "Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito.",
};

export const ROMANS_8_28: Source = {
  id: "ROM.8.28",
  ref: "ROM 8:28",
  reference: "Romanos 8:28",
  book: "Romanos",
  bookCode: "ROM",
  chapter: 8,
  verse: 28,
  verseEnd: 28,
  text: "E sabemos que todas as coisas contribuem juntamente para o bem daqueles que amam a Deus.",
};

export const EXEMPLO: CollectionStatus = {
  name: "exemplo",
  kind: "folder",
  documents: 4,
  chunks: 4,
  disciplines: ["Hermenêutica", "Teologia Sistemática"],
  dense: { enabled: true, reason: null },
  reloading: false,
  lastReload: { finishedAt: "2026-11-29T22:48:07.247Z", ms: 24, added: 4, changed: 0, unchanged: 0, removed: 0, skipped: 0 },
  error: null,
};

export const EMPTY_COLLECTION: CollectionStatus = {
  ...EXEMPLO,
  name: "apostilas",
  kind: "pdf",
  documents: 0,
  chunks: 0,
  disciplines: [],
  dense: { enabled: false, reason: "a coleção ainda não foi carregada" },
  lastReload: null,
};

export const TRINDADE: DocumentSource = {
  kind: "document",
  id: "exemplo:teologia/a-trindade.md#0",
  number: 1,
  collection: "exemplo",
  sourceId: "teologia/a-trindade.md",
  chunk: 0,
  title: "A Trindade",
  discipline: "Teologia Sistemática",
  citation: "A Trindade (teologia/a-trindade.md, trecho 1)",
  text:
    '# A Trindade ## Introdução A palavra "Trindade" não aparece na Bíblia, mas a doutrina que ela resume está presente do começo ao fim ' +
    "das Escrituras. A igreja usou esse termo para expressar, de forma breve, aquilo que os textos bíblicos afirmam juntos: existe um só " +
    "Deus, e esse único Deus se revela como Pai, Filho e Espírito Santo. ## Erros a evitar - **Modalismo**: pensar que Deus apenas troca de máscara.",
};

export const APOSTILA: DocumentSource = {
  kind: "document",
  id: "apostilas:hermeneutica/apostila.pdf#3",
  number: 2,
  collection: "exemplo",
  sourceId: "hermeneutica/apostila.pdf",
  chunk: 3,
  page: 12,
  pageEnd: 13,
  title: "Apostila de Hermenêutica",
  discipline: "Hermenêutica",
  citation: "Apostila de Hermenêutica, pp. 12–13",
  text: "Ler cada parábola no seu contexto.",
};

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export function sseText(events: { event: string; data: unknown }[]): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join("");
}

/**
 * An SSE response whose body the test feeds by hand: `send` an event, `end` it, or `fail` the
 * connection. An abort of the request's signal errors the body like a real fetch does.
 */
export interface ManualStream {
  response: Response;
  send(event: string, data: unknown): void;
  raw(text: string): void;
  end(): void;
  fail(): void;
  readonly aborted: boolean;
}

export function manualStream(signal?: AbortSignal | null): ManualStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let aborted = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  signal?.addEventListener("abort", () => {
    aborted = true;
    if (!closed) {
      closed = true;
      controller.error(new DOMException("The operation was aborted.", "AbortError"));
    }
  });
  const write = (text: string) => {
    if (!closed) controller.enqueue(encoder.encode(text));
  };
  return {
    response: new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    raw: write,
    end() {
      if (!closed) {
        closed = true;
        controller.close();
      }
    },
    fail() {
      if (!closed) {
        closed = true;
        controller.error(new TypeError("network error"));
      }
    },
    get aborted() {
      return aborted;
    },
  };
}

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** Installs a fetch mock that routes by path; unknown paths answer 404. Returns the mock. */
export function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const handler = routes[url.pathname];
    if (!handler) return json({ error: { code: "not_found", message: "Rota não encontrada" } }, 404);
    return handler(url, init);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/**
 * A ready server whose /api/chat answers with a `ManualStream` per request (the test sends its
 * events): the streams in order, the request bodies, and the fetch mock.
 */
export function chatServer() {
  const streams: ManualStream[] = [];
  const bodies: unknown[] = [];
  const fetchMock = mockApi({
    "/api/status": () => json(READY_STATUS),
    "/api/chat": (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      const stream = manualStream(init?.signal);
      streams.push(stream);
      return stream.response;
    },
  });
  return { fetchMock, streams, bodies };
}
