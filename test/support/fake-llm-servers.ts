import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Local stand-ins for the LLM providers, on 127.0.0.1 with a random port, speaking each
 * provider's real streaming wire format so that the AI SDK's real code path (HTTP, SSE or
 * NDJSON parsing, error handlers) is what the tests exercise:
 *
 * - `openai`: POST /v1/chat/completions, SSE `data: {chat.completion.chunk}` … `data: [DONE]`;
 * - `groq`: the same format under /openai/v1 (with Groq's `x_groq` usage block);
 * - `anthropic`: POST /v1/messages, SSE `event: message_start` … `message_stop`;
 * - `ollama`: POST /api/chat, NDJSON lines ending with a `done: true` line with stats.
 *
 * Each fake records what it received (secrets redacted), checks the key like the real API
 * (a wrong or missing key gets the provider's real 401 body), and does what the test script
 * says: answer in chunks, fail with a status, hang, cut the socket, send a malformed chunk,
 * send an in-stream error event, or stall with the connection open.
 */

export type FakeKind = "openai" | "groq" | "anthropic" | "ollama";

export interface FakeScript {
  /** Text deltas to stream, in order. */
  chunks?: string[];
  /** Pause before each chunk, in milliseconds. */
  delayMs?: number;
  /** Answer with this HTTP status and the provider's real error body instead of a stream. */
  fail?: number;
  /** Accept the request and never answer (the headers are never sent). */
  hang?: boolean;
  /** Destroy the socket after this many chunks (no terminating events, no final chunk). */
  cutAfter?: number;
  /** Send a malformed chunk (invalid JSON) after this many chunks, then carry on. */
  malformedAfter?: number;
  /** Send the provider's in-stream error event after this many chunks, then end. */
  errorEventAfter?: number;
  /** End the response cleanly after this many chunks, without the final events (a truncated stream). */
  truncateAfter?: number;
  /** Stop sending after this many chunks and keep the connection open until the client leaves. */
  stallAfter?: number;
  /** Pause before the very last final event (`[DONE]`, `message_stop`, the `done: true` line), in milliseconds. */
  lastEventDelayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names; `authorization` and `x-api-key` values replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Whether the request carried the key the fake expects, in the provider's header. */
  auth: "valid" | "invalid" | "missing" | "not-required";
  body: unknown;
  /** The client's port: two requests on one kept-alive connection share it. */
  clientPort: number;
}

export interface FakeLlmServer {
  readonly kind: FakeKind;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The base URL to configure the provider with (the AI SDK convention: version path included). */
  readonly baseUrl: string;
  /** The key this fake accepts ("" for Ollama, which has none). */
  readonly apiKey: string;
  readonly requests: RecordedRequest[];
  /** Sets what the next requests get (until set again). */
  script(script: FakeScript): void;
  /** Forgets the recorded requests and disconnects, and goes back to the default script. */
  reset(): void;
  /** How many streaming responses the client closed before the fake ended them. */
  readonly clientDisconnects: number;
  /** Resolves true once a client has disconnected mid-response, false after `timeoutMs`. */
  waitForClientDisconnect(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key"]);
const MODEL_FALLBACK = "fake-model";
const DEFAULT_SCRIPT: FakeScript = { chunks: ["Olá"] };

interface Wire {
  /** Path prefix in front of the version path: the base URL is origin + this. */
  basePath: string;
  /** The streaming endpoint, relative to the origin. */
  endpoint: string;
  contentType: string;
  /** Key check: which header, and how the key appears in it. */
  authHeader?: { name: string; value: (key: string) => string };
  errorBody(status: number): unknown;
  start(model: string): string[];
  chunk(model: string, text: string): string;
  end(model: string, body: Record<string, unknown>): string[];
  malformed(): string;
  errorEvent(): string;
}

function sse(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`;
}

const CREATED = 1_730_000_000;
const CREATED_AT = "2024-10-27T03:33:20.000000Z";

function openAiCompatibleWire(kind: "openai" | "groq"): Wire {
  const id = kind === "groq" ? "chatcmpl-groq-fake-1" : "chatcmpl-fake-1";
  const base = (model: string) => ({
    id,
    object: "chat.completion.chunk",
    created: CREATED,
    model,
    system_fingerprint: "fp_fake",
  });
  const usage = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };
  return {
    basePath: kind === "groq" ? "/openai/v1" : "/v1",
    endpoint: kind === "groq" ? "/openai/v1/chat/completions" : "/v1/chat/completions",
    contentType: "text/event-stream; charset=utf-8",
    authHeader: { name: "authorization", value: (key) => `Bearer ${key}` },
    errorBody(status) {
      if (kind === "groq") {
        if (status === 401) return { error: { message: "Invalid API Key", type: "invalid_request_error", code: "invalid_api_key" } };
        if (status === 429)
          return {
            error: {
              message: "Rate limit reached for model `llama-3.3-70b-versatile` on tokens per minute (TPM). Please try again in 7.66s.",
              type: "tokens",
              code: "rate_limit_exceeded",
            },
          };
        if (status === 404)
          return { error: { message: "The model `nope` does not exist or you do not have access to it.", type: "invalid_request_error", code: "model_not_found" } };
        return { error: { message: "Internal Server Error", type: "internal_server_error" } };
      }
      if (status === 401)
        return {
          error: {
            message: "Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        };
      if (status === 429)
        return {
          error: {
            message: "Rate limit reached for gpt-4o-mini in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1.",
            type: "requests",
            param: null,
            code: "rate_limit_exceeded",
          },
        };
      if (status === 404)
        return { error: { message: "The model `nope` does not exist or you do not have access to it.", type: "invalid_request_error", param: null, code: "model_not_found" } };
      return {
        error: {
          message: "The server had an error while processing your request. Sorry about that!",
          type: "server_error",
          param: null,
          code: null,
        },
      };
    },
    start: (model) => [
      sse({ ...base(model), choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] }),
    ],
    chunk: (model, text) =>
      sse({ ...base(model), choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }] }),
    end(model, body) {
      const events = [];
      if (kind === "groq") {
        events.push(
          sse({
            ...base(model),
            choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }],
            x_groq: { id: "req_fake", usage: { queue_time: 0.01, prompt_time: 0.002, completion_time: 0.01, total_time: 0.02, ...usage } },
          }),
        );
      } else {
        events.push(sse({ ...base(model), choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }] }));
        const streamOptions = body["stream_options"] as { include_usage?: boolean } | undefined;
        if (streamOptions?.include_usage) events.push(sse({ ...base(model), choices: [], usage }));
      }
      events.push(sse("[DONE]"));
      return events;
    },
    malformed: () => `data: {"id":"${id}","object":"chat.completion.chunk","choices":[{"delta":{"content":"Amai\n\n`,
    errorEvent: () =>
      sse({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } }),
  };
}

function anthropicWire(): Wire {
  const errorTypes: Record<number, [string, string]> = {
    400: ["invalid_request_error", "messages: at least one message is required"],
    401: ["authentication_error", "invalid x-api-key"],
    403: ["permission_error", "Your API key does not have permission to use the specified resource."],
    404: ["not_found_error", "model: nope"],
    429: ["rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit."],
    500: ["api_error", "Internal server error"],
    529: ["overloaded_error", "Overloaded"],
  };
  return {
    basePath: "/v1",
    endpoint: "/v1/messages",
    contentType: "text/event-stream; charset=utf-8",
    authHeader: { name: "x-api-key", value: (key) => key },
    errorBody(status) {
      const [type, message] = errorTypes[status] ?? ["api_error", "Internal server error"];
      return { type: "error", error: { type, message } };
    },
    start: (model) => [
      sse(
        {
          type: "message_start",
          message: {
            id: "msg_fake_01",
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
          },
        },
        "message_start",
      ),
      sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
      sse({ type: "ping" }, "ping"),
    ],
    chunk: (_model, text) =>
      sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta"),
    end: () => [
      sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      sse({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 7 } }, "message_delta"),
      sse({ type: "message_stop" }, "message_stop"),
    ],
    malformed: () => `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n`,
    errorEvent: () => sse({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "error"),
  };
}

function ollamaWire(): Wire {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  return {
    basePath: "",
    endpoint: "/api/chat",
    contentType: "application/x-ndjson",
    errorBody(status) {
      if (status === 401) return { error: "unauthorized" };
      if (status === 404) return { error: 'model "nope" not found, try pulling it first' };
      if (status === 429 || status === 503) return { error: "server busy, please try again.  maximum pending requests exceeded" };
      return { error: "llama runner process has terminated: exit status 2" };
    },
    start: () => [],
    chunk: (model, text) => line({ model, created_at: CREATED_AT, message: { role: "assistant", content: text }, done: false }),
    end: (model) => [
      line({
        model,
        created_at: CREATED_AT,
        message: { role: "assistant", content: "" },
        done_reason: "stop",
        done: true,
        total_duration: 4_883_583_458,
        load_duration: 1_334_875,
        prompt_eval_count: 26,
        prompt_eval_duration: 342_546_000,
        eval_count: 7,
        eval_duration: 4_535_599_000,
      }),
    ],
    malformed: () => `{"model":"llama3.1","created_at":"${CREATED_AT}","message":{"role":"assistant","content":"Am\n`,
    errorEvent: () => line({ error: "an error was encountered while running the model: unexpected EOF" }),
  };
}

function wireFor(kind: FakeKind): Wire {
  switch (kind) {
    case "openai":
    case "groq":
      return openAiCompatibleWire(kind);
    case "anthropic":
      return anthropicWire();
    case "ollama":
      return ollamaWire();
  }
}

function defaultKey(kind: FakeKind): string {
  switch (kind) {
    case "openai":
      return "sk-test-openai-0123456789";
    case "groq":
      return "gsk_test_groq_0123456789";
    case "anthropic":
      return "sk-ant-test-0123456789";
    case "ollama":
      return "";
  }
}

function redact(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startFakeLlmServer(kind: FakeKind, options: { apiKey?: string } = {}): Promise<FakeLlmServer> {
  const wire = wireFor(kind);
  const apiKey = options.apiKey ?? defaultKey(kind);
  const requests: RecordedRequest[] = [];
  let current: FakeScript = DEFAULT_SCRIPT;
  let clientDisconnects = 0;
  let disconnectWaiters: (() => void)[] = [];

  const checkAuth = (req: http.IncomingMessage): RecordedRequest["auth"] => {
    if (wire.authHeader === undefined || apiKey === "") return "not-required";
    const got = req.headers[wire.authHeader.name];
    if (got === undefined) return "missing";
    return got === wire.authHeader.value(apiKey) ? "valid" : "invalid";
  };

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      const auth = checkAuth(req);
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: redact(req.headers), auth, body, clientPort: req.socket.remotePort ?? 0 });
      void respond(req, res, auth, body, { ...current });
    });
  });

  const sendError = (res: http.ServerResponse, status: number) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (kind === "anthropic") headers["request-id"] = "req_fake_01";
    if (status === 429) headers["retry-after"] = "7";
    res.writeHead(status, headers);
    res.end(JSON.stringify(wire.errorBody(status)));
  };

  async function respond(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    auth: RecordedRequest["auth"],
    body: unknown,
    script: FakeScript,
  ): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "POST" || path !== wire.endpoint) {
      sendError(res, 404);
      return;
    }
    if (auth === "missing" || auth === "invalid") {
      sendError(res, 401);
      return;
    }
    if (script.fail !== undefined) {
      sendError(res, script.fail);
      return;
    }

    let clientGone = false;
    let serverCut = false;
    res.on("close", () => {
      if (res.writableFinished || serverCut) return;
      clientGone = true;
      clientDisconnects += 1;
      const waiters = disconnectWaiters;
      disconnectWaiters = [];
      for (const wake of waiters) wake();
    });

    if (script.hang) return; // never answer; the client's abort closes the socket

    const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const model = typeof fields["model"] === "string" ? fields["model"] : MODEL_FALLBACK;
    res.writeHead(200, { "content-type": wire.contentType, "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    for (const event of wire.start(model)) res.write(event);

    const chunks = script.chunks ?? [];
    for (let index = 0; index <= chunks.length; index += 1) {
      if (clientGone) return;
      if (script.cutAfter === index) {
        serverCut = true;
        await wait(20); // let what was written reach the client first
        res.socket?.destroy();
        return;
      }
      if (script.malformedAfter === index) res.write(wire.malformed());
      if (script.errorEventAfter === index) {
        res.end(wire.errorEvent());
        return;
      }
      if (script.truncateAfter === index) {
        res.end();
        return;
      }
      if (script.stallAfter === index) return; // keep the connection open; the client's abort closes it
      if (index === chunks.length) break;
      if (script.delayMs) await wait(script.delayMs);
      if (clientGone) return;
      res.write(wire.chunk(model, chunks[index]!));
    }
    const ending = wire.end(model, fields);
    for (const [index, event] of ending.entries()) {
      if (index === ending.length - 1 && script.lastEventDelayMs) {
        await wait(script.lastEventDelayMs);
        if (clientGone) return;
      }
      res.write(event);
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    kind,
    origin,
    baseUrl: origin + wire.basePath,
    apiKey,
    requests,
    script(script: FakeScript) {
      current = script;
    },
    reset() {
      requests.length = 0;
      clientDisconnects = 0;
      current = DEFAULT_SCRIPT;
    },
    get clientDisconnects() {
      return clientDisconnects;
    },
    waitForClientDisconnect(timeoutMs = 2_000) {
      if (clientDisconnects > 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        disconnectWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
