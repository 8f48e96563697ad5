import { serve, type ServerType } from "@hono/node-server";
import type { Server as HttpServer } from "node:http";
import { loadRetrievalAids } from "../../src/app/retrieval/retrieval-aids.js";
import { SearchService } from "../../src/app/search-service.js";
import { CollectionService } from "../../src/app/collection-service.js";
import { readSettings, type Settings } from "../../src/config/settings.js";
import type { GenerateRequest, LlmProvider } from "../../src/core/chat/llm.js";
import { openStore } from "../../src/app/runtime.js";
import { createApp } from "../../src/http/app.js";
import { silentLogger } from "../../src/http/logger.js";
import { httpServerOptions } from "../../src/http/main.js";
import { storeEnvFor } from "./store.js";

/** A provider for tests: answers with scripted chunks and records what it was asked. */
export class ScriptedProvider implements LlmProvider {
  readonly id = "stub" as const;
  readonly model = "roteiro";
  readonly requests: GenerateRequest[] = [];
  aborted = false;

  constructor(
    public chunks: string[] | ((request: GenerateRequest) => string[]),
    public delayMs = 0,
    public failWith?: Error,
  ) {}

  async *stream(request: GenerateRequest): AsyncIterable<string> {
    this.requests.push(request);
    const chunks = typeof this.chunks === "function" ? this.chunks(request) : this.chunks;
    for (const chunk of chunks) {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (request.signal?.aborted) {
        this.aborted = true;
        throw request.signal.reason;
      }
      yield chunk;
    }
    if (this.failWith) throw this.failWith;
  }
}

export interface TestServer {
  url: string;
  service: SearchService;
  collections: CollectionService;
  settings: Settings;
  close(): Promise<void>;
}

/**
 * The real app (Hono on a real node:http server on loopback) over an existing index, in the
 * run's store (SQLite, or with STORE=chroma the Chroma collections standing for `dataDir`).
 */
export async function startTestServer(dataDir: string, provider: LlmProvider, env: Record<string, string> = {}): Promise<TestServer> {
  // The suites hit one server from 127.0.0.1 far faster than a person would: generous
  // per-client limits unless a test sets its own (test/server.abuse.test.ts tests the limits).
  const settings = readSettings({
    DATA_DIR: dataDir,
    AUTO_INDEX: "false",
    CHAT_RATE_PER_MINUTE: "600",
    ADMIN_RATE_PER_MINUTE: "600",
    ...storeEnvFor(dataDir),
    ...env,
  });
  const store = await openStore(settings);
  const service = new SearchService(store, settings, await loadRetrievalAids());
  await service.reload();
  const collections = new CollectionService(settings);
  await collections.open();
  const app = createApp({ service, provider, settings, collections, logger: silentLogger });
  const server: ServerType = await new Promise((resolve) => {
    const instance = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", serverOptions: httpServerOptions(settings) }, () => resolve(instance));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    service,
    collections,
    settings,
    async close() {
      await service.close();
      await collections.close();
      (server as HttpServer).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses an SSE body into events (the framing itself is asserted byte for byte elsewhere). */
export function parseSse(body: string): SseEvent[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))!.slice(7);
      const data = lines
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      return { event, data: JSON.parse(data) as unknown };
    });
}

export async function postChat(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

/** What a conversation id the server issued looks like (src/http/conversations.ts): 44 base64url characters. */
export const ISSUED_CONVERSATION_ID = /^[A-Za-z0-9_-]{44}$/;

/** The conversation id an answer's first event (`sources`) carries. */
export function conversationIdOf(body: string): string {
  const first = parseSse(body)[0];
  if (first?.event !== "sources") throw new Error(`the answer does not start with sources: ${body.slice(0, 200)}`);
  return (first.data as { conversationId: string }).conversationId;
}
