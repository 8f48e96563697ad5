import http from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ANTHROPIC_MAX_OUTPUT_TOKENS,
  DEFAULT_MODELS,
  createProvider,
  providerConfigFromEnv,
  type ProviderConfig,
} from "../src/adapters/chat/providers.js";
import { STUB_NOTHING_FOUND, composeStubAnswer, createStubProvider } from "../src/adapters/chat/stub.js";
import { SITUATION_CLOSING } from "../src/core/chat/answer-kinds.js";
import {
  LLM_ERROR_MESSAGES,
  LLM_STREAM_INTERRUPTED_MESSAGE,
  LlmError,
  type ChatTurn,
  type GenerateRequest,
  type LlmErrorCode,
} from "../src/core/chat/llm.js";
import { startFakeLlmServer, type FakeKind, type FakeLlmServer } from "./support/fake-llm-servers.js";

const SYSTEM = "Você é o Pastor Online. Responda em português, citando só as passagens dadas.\n\n[Mateus 5:44] Amai a vossos inimigos.";
const MESSAGES: ChatTurn[] = [
  { role: "user", content: "Quem escreveu o Sermão do Monte?" },
  { role: "assistant", content: "O sermão está em Mateus 5–7, pregado por Jesus." },
  { role: "user", content: "Como devo tratar meus inimigos?" },
];
const CHUNKS = ["Jesus ", "ensina: ", "“amai ", "vossos ", "inimigos” ", "(Mateus 5:44)."];

interface Outcome {
  chunks: string[];
  error?: LlmError;
}

/** Drains a stream; an LlmError ends it (anything else fails the test). */
async function collect(stream: AsyncIterable<string>, onChunk?: (chunk: string, index: number) => void): Promise<Outcome> {
  const chunks: string[] = [];
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      onChunk?.(chunk, chunks.length - 1);
    }
    return { chunks };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { chunks, error };
  }
}

function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return { system: SYSTEM, messages: MESSAGES, ...overrides };
}

/** The error reached the user as a Portuguese sentence with no trace of the key. */
function expectSafeError(error: LlmError | undefined, code: LlmErrorCode, provider: string, key: string): LlmError {
  expect(error).toBeInstanceOf(LlmError);
  const llmError = error!;
  expect(llmError.code).toBe(code);
  expect(llmError.provider).toBe(provider);
  expect(llmError.message).toMatch(/^[A-ZÀ-Ú].*\.$/u);
  expect(llmError.message).toMatch(/provedor de IA|cancelada/u);
  if (key !== "") {
    expect(llmError.message).not.toContain(key);
    // Not even in the cause chain that a server log would print.
    expect(inspect(llmError, { depth: 8 })).not.toContain(key);
  }
  return llmError;
}

const KINDS: FakeKind[] = ["openai", "groq", "anthropic", "ollama"];

describe.each(KINDS)("%s provider through its client library against a local fake of its wire protocol", (kind) => {
  let fake: FakeLlmServer;

  beforeAll(async () => {
    fake = await startFakeLlmServer(kind);
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
  });

  const provider = (overrides: Partial<ProviderConfig> = {}) =>
    createProvider({
      provider: kind,
      baseUrl: fake.baseUrl,
      ...(fake.apiKey === "" ? {} : { apiKey: fake.apiKey }),
      timeoutMs: 3_000,
      ...overrides,
    });

  it("streams the chunks in order, as they arrive", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 5 });
    const llm = provider();
    expect(llm.id).toBe(kind);
    expect(llm.model).toBe(DEFAULT_MODELS[kind]);
    const { chunks, error } = await collect(llm.stream(request()));
    expect(error).toBeUndefined();
    expect(chunks).toEqual(CHUNKS);
  });

  it("sends the model, the system prompt, the conversation, stream:true and the key in the provider's header", async () => {
    fake.script({ chunks: ["ok"] });
    vi.stubEnv("OPENAI_ORG_ID", "org-de-outra-conta");
    vi.stubEnv("OPENAI_PROJECT_ID", "proj-de-outra-conta");
    let llm: ReturnType<typeof provider>;
    try {
      llm = provider({ model: "modelo-de-teste" });
    } finally {
      vi.unstubAllEnvs();
    }
    const { error } = await collect(llm.stream(request()));
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    const body = sent.body as Record<string, unknown>;
    expect(sent.method).toBe("POST");
    expect(body["model"]).toBe("modelo-de-teste");
    expect(body["stream"]).toBe(true);

    switch (kind) {
      case "openai":
      case "groq":
        expect(sent.path).toBe(kind === "groq" ? "/openai/v1/chat/completions" : "/v1/chat/completions");
        expect(body["messages"]).toEqual([{ role: "system", content: SYSTEM }, ...MESSAGES]);
        // The key travels as a bearer token; the fake checked it and kept no copy.
        expect(sent.auth).toBe("valid");
        expect(sent.headers["authorization"]).toBe("[redacted]");
        expect(sent.headers["x-api-key"]).toBeUndefined();
        // OpenAI's client would read OPENAI_ORG_ID / OPENAI_PROJECT_ID into every request (set above).
        expect(sent.headers["openai-organization"]).toBeUndefined();
        expect(sent.headers["openai-project"]).toBeUndefined();
        break;
      case "anthropic":
        expect(sent.path).toBe("/v1/messages");
        // Anthropic takes the system prompt apart from the messages.
        expect(body["system"]).toEqual([{ type: "text", text: SYSTEM }]);
        expect(body["messages"]).toEqual(MESSAGES.map((turn) => ({ role: turn.role, content: [{ type: "text", text: turn.content }] })));
        expect(body["max_tokens"]).toBe(ANTHROPIC_MAX_OUTPUT_TOKENS);
        expect(sent.auth).toBe("valid");
        expect(sent.headers["x-api-key"]).toBe("[redacted]");
        expect(sent.headers["authorization"]).toBeUndefined();
        expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
        break;
      case "ollama":
        expect(sent.path).toBe("/api/chat");
        expect(body["messages"]).toEqual([{ role: "system", content: SYSTEM }, ...MESSAGES]);
        expect(sent.auth).toBe("not-required");
        expect(sent.headers["authorization"]).toBeUndefined();
        break;
    }
  });

  it("reads a finished answer to the end of the response, so the next answer reuses the connection", async () => {
    // The last event comes late: a client that stopped at the provider's finish would close the connection first.
    fake.script({ chunks: CHUNKS, lastEventDelayMs: 60 });
    const llm = provider();
    for (let answer = 0; answer < 2; answer++) {
      expect(await collect(llm.stream(request()))).toEqual({ chunks: CHUNKS });
      // The socket goes back to the client's pool once the response's last bytes are read.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(fake.clientDisconnects).toBe(0);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.clientPort).toBe(fake.requests[0]!.clientPort);
  });

  // Chat Completions sends its finish reason before `[DONE]`; Anthropic's and Ollama's finish is their last event.
  it.runIf(kind === "openai" || kind === "groq")("silent between the finish reason and [DONE]: the answer stands whole, and the connection is closed", async () => {
    fake.script({ chunks: CHUNKS, lastEventDelayMs: 2_000 });
    const started = Date.now();
    const { chunks, error } = await collect(provider({ timeoutMs: 150 }).stream(request()));
    expect(error).toBeUndefined();
    expect(chunks).toEqual(CHUNKS);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await fake.waitForClientDisconnect()).toBe(true);
  });

  it("401 → llm_auth, with the Portuguese message and no key anywhere", async () => {
    let llm = provider();
    if (kind === "ollama") {
      // Ollama has no keys; a 401 comes from a proxy in front of it.
      fake.script({ fail: 401 });
    } else {
      // A real wrong key: the fake answers like the provider does.
      llm = provider({ apiKey: "sk-wrong-key-9876543210" });
    }
    const { chunks, error } = await collect(llm.stream(request()));
    expect(chunks).toEqual([]);
    const llmError = expectSafeError(error, "llm_auth", kind, kind === "ollama" ? "" : "sk-wrong-key-9876543210");
    expect(llmError.status).toBe(401);
    expect(llmError.message).toBe("O provedor de IA recusou a chave de acesso configurada.");
    if (kind !== "ollama") expect(fake.requests[0]!.auth).toBe("invalid");
  });

  it.each([
    [429, "llm_rate_limited", "O provedor de IA está recebendo pedidos demais. Tente de novo em instantes."],
    [500, "llm_unavailable", "O provedor de IA está indisponível no momento."],
  ] as const)("%i → %s, after a single request (no silent retries)", async (status, code, message) => {
    fake.script({ fail: status });
    const { chunks, error } = await collect(provider().stream(request()));
    expect(chunks).toEqual([]);
    const llmError = expectSafeError(error, code, kind, fake.apiKey);
    expect(llmError.status).toBe(status);
    expect(llmError.message).toBe(message);
    expect(fake.requests).toHaveLength(1);
  });

  it("a provider that never answers → llm_timeout, and the request is closed upstream", async () => {
    fake.script({ hang: true });
    const started = Date.now();
    const { chunks, error } = await collect(provider({ timeoutMs: 150 }).stream(request()));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(chunks).toEqual([]);
    expect(expectSafeError(error, "llm_timeout", kind, fake.apiKey).message).toBe("O provedor de IA demorou demais para responder.");
    expect(await fake.waitForClientDisconnect()).toBe(true);
  });

  it("a stream that goes silent mid-way → llm_timeout after the text already received", async () => {
    fake.script({ chunks: CHUNKS, stallAfter: 2 });
    const { chunks, error } = await collect(provider({ timeoutMs: 150 }).stream(request()));
    expect(chunks).toEqual(CHUNKS.slice(0, 2));
    expectSafeError(error, "llm_timeout", kind, fake.apiKey);
    expect(await fake.waitForClientDisconnect()).toBe(true);
  });

  it("a slow but steady stream is not cut by the inactivity timeout", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 60 });
    const { chunks, error } = await collect(provider({ timeoutMs: 200 }).stream(request()));
    expect(error).toBeUndefined();
    expect(chunks).toEqual(CHUNKS);
  });

  it("a socket cut mid-stream → llm_bad_response, 'interrompida'", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 5, cutAfter: 3 });
    const { chunks, error } = await collect(provider().stream(request()));
    expect(chunks).toEqual(CHUNKS.slice(0, 3));
    expect(expectSafeError(error, "llm_bad_response", kind, fake.apiKey).message).toBe(LLM_STREAM_INTERRUPTED_MESSAGE);
  });

  it("a stream that ends cleanly but without its final events → llm_bad_response, 'interrompida'", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 5, truncateAfter: 3 });
    const { chunks, error } = await collect(provider().stream(request()));
    expect(chunks).toEqual(CHUNKS.slice(0, 3));
    expect(expectSafeError(error, "llm_bad_response", kind, fake.apiKey).message).toBe(LLM_STREAM_INTERRUPTED_MESSAGE);
  });

  it("a malformed chunk → llm_bad_response, not a silently garbled answer", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 5, malformedAfter: 2 });
    const { chunks, error } = await collect(provider().stream(request()));
    expect(chunks).toEqual(CHUNKS.slice(0, 2));
    expect(expectSafeError(error, "llm_bad_response", kind, fake.apiKey).message).toBe(LLM_ERROR_MESSAGES.llm_bad_response);
  });

  it("an error event inside the stream → llm_unavailable", async () => {
    fake.script({ chunks: CHUNKS, delayMs: 5, errorEventAfter: 2 });
    const { chunks, error } = await collect(provider().stream(request()));
    expect(chunks).toEqual(CHUNKS.slice(0, 2));
    expectSafeError(error, "llm_unavailable", kind, fake.apiKey);
  });

  it("aborting the signal mid-stream closes the upstream connection and ends with llm_aborted", async () => {
    fake.script({ chunks: CHUNKS, stallAfter: 2 });
    const controller = new AbortController();
    const started = Date.now();
    const { chunks, error } = await collect(provider({ timeoutMs: 10_000 }).stream(request({ signal: controller.signal })), (_chunk, index) => {
      if (index === 1) setTimeout(() => controller.abort(), 20);
    });
    expect(chunks).toEqual(CHUNKS.slice(0, 2));
    expect(expectSafeError(error, "llm_aborted", kind, fake.apiKey).message).toBe(LLM_ERROR_MESSAGES.llm_aborted);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await fake.waitForClientDisconnect()).toBe(true);
  });

  it("an already aborted signal sends nothing upstream", async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(provider().stream(request({ signal: controller.signal })));
    expectSafeError(error, "llm_aborted", kind, fake.apiKey);
    expect(fake.requests).toHaveLength(0);
  });

  it("a consumer that stops reading closes the upstream connection too", async () => {
    fake.script({ chunks: CHUNKS, stallAfter: 2 });
    for await (const chunk of provider({ timeoutMs: 10_000 }).stream(request())) {
      expect(chunk).toBe(CHUNKS[0]);
      break;
    }
    expect(await fake.waitForClientDisconnect()).toBe(true);
  });
});

describe("a provider that is not running", () => {
  let closedPort: number;
  beforeAll(async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closedPort = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(KINDS)("%s: connection refused → llm_unavailable, telling to check the address", async (kind) => {
    const base = kind === "groq" ? "/openai/v1" : kind === "ollama" ? "" : "/v1";
    const llm = createProvider({ provider: kind, baseUrl: `http://127.0.0.1:${closedPort}${base}`, apiKey: "k-123" });
    const { error } = await collect(llm.stream(request()));
    expect(error?.code).toBe("llm_unavailable");
    expect(error?.status).toBeUndefined();
    expect(error?.message).toMatch(/conectar ao provedor de IA/u);
  });
});

describe("stub provider (offline default)", () => {
  const PASSAGES = [
    { reference: "Mateus 5:44", text: "Eu, porém, vos digo: Amai a vossos inimigos, bendizei os que vos maldizem." },
    { reference: "Romanos 12:20", text: "Portanto, se o teu inimigo tiver fome, dá-lhe de comer; se tiver sede, dá-lhe de beber." },
    { reference: "Provérbios 25:21", text: "Se o que te aborrece tiver fome, dá-lhe pão para comer;" },
    { reference: "Lucas 6:27-28", text: "Mas a vós, que ouvis, digo: Amai a vossos inimigos,\n fazei bem aos que vos odeiam." },
    { reference: "1 Pedro 3:9", text: "Não tornando mal por mal, ou injúria por injúria." },
  ];
  const QUESTION = "Como devo tratar meus inimigos?";
  const stubRequest = (overrides: Partial<GenerateRequest> = {}) =>
    request({ passages: PASSAGES.slice(0, 3), question: QUESTION, ...overrides });

  it("is the default when LLM_PROVIDER is empty or missing", () => {
    expect(createProvider(providerConfigFromEnv({})).id).toBe("stub");
    expect(createProvider({ provider: "" }).id).toBe("stub");
    expect(createProvider({ provider: "STUB" }).model).toBe("extrativo");
  });

  it("streams, in small chunks, the same answer every time", async () => {
    const stub = createStubProvider({ chunkDelayMs: 0 });
    const first = await collect(stub.stream(stubRequest()));
    const second = await collect(stub.stream(stubRequest()));
    expect(first.error).toBeUndefined();
    expect(first.chunks.length).toBeGreaterThan(20);
    expect(first.chunks.every((chunk) => chunk.trim().split(/\s+/u).length === 1)).toBe(true);
    expect(second.chunks).toEqual(first.chunks);
    expect(first.chunks.join("")).toBe(composeStubAnswer(stubRequest()));
  });

  it("reads as a short answer: an opening about the question, quoted passages with their references, a closing invitation", () => {
    const answer = composeStubAnswer(stubRequest());
    const paragraphs = answer.split("\n\n");
    expect(paragraphs).toHaveLength(3);
    const [opening, body, closing] = paragraphs as [string, string, string];

    expect(opening).toMatch(/^[A-ZÀ-Ú][^\n]*\.$/u);
    expect(opening).toContain(`“${QUESTION}”`);
    expect(opening).toContain("três passagens");

    for (const passage of PASSAGES.slice(0, 3)) expect(body).toContain(`(${passage.reference}).`);
    expect(body).toContain("“Eu, porém, vos digo: Amai a vossos inimigos, bendizei os que vos maldizem” (Mateus 5:44).");
    expect(body.match(/“[^”]+” \([^)]+\)\./gu)).toHaveLength(3);

    expect(closing).toMatch(/^Vale ler essas passagens por inteiro/u);
    expect(closing.endsWith(".")).toBe(true);

    expect(answer).not.toMatch(/[{}[\]]|"reference"|"text"|undefined|null|\[object/u);
  });

  it("meets someone telling what they live through with the passages for the moment, and points to people", () => {
    const told = composeStubAnswer(stubRequest({ question: "Eu me sinto muito sozinho e não tenho com quem conversar.", shape: { kind: "situation" } }));
    const paragraphs = told.split("\n\n");
    expect(paragraphs[0]).toBe("Obrigado por contar o que você está vivendo. A Bíblia traz três passagens para um momento assim.");
    expect(told).not.toContain("sua pergunta");
    expect(paragraphs).toContain(SITUATION_CLOSING);
    // Asked as a question, the same situation keeps the question's opening.
    const asked = composeStubAnswer(stubRequest({ shape: { kind: "situation" } }));
    expect(asked.split("\n\n")[0]).toContain(`“${QUESTION}”`);
    expect(asked.split("\n\n")).toContain(SITUATION_CLOSING);
  });

  it("quotes at most four passages, names the others, and keeps every reference exactly as given", () => {
    const answer = composeStubAnswer(stubRequest({ passages: PASSAGES }));
    for (const passage of PASSAGES.slice(0, 4)) expect(answer).toContain(`(${passage.reference}).`);
    expect(answer).toContain("Outra passagem relacionada é 1 Pedro 3:9.");
    expect(answer).toContain("quatro passagens");
    // Whitespace inside a verse is normalised.
    expect(answer).toContain("“Mas a vós, que ouvis, digo: Amai a vossos inimigos, fazei bem aos que vos odeiam” (Lucas 6:27-28).");
  });

  it("to a person at risk: opens with care, never echoes the message, quotes the passages and points to the numbers", () => {
    const message = "tenho vontade de me matar";
    const bible = composeStubAnswer(stubRequest({ question: message, care: "self_harm" }));
    const [opening, body, closing] = bible.split("\n\n") as [string, string, string];
    expect(opening).toBe("Sinto muito que você esteja passando por isso. A sua vida tem valor, e você não precisa carregar esse peso sem ajuda. A Bíblia tem palavras para momentos assim.");
    expect(body).toContain("(Mateus 5:44).");
    expect(closing).toMatch(/^Por favor, procure ajuda hoje: ligue para um dos números acima/u);
    expect(bible).not.toContain(message);
    const collection = composeStubAnswer(stubRequest({ question: message, care: "violence", corpusLabel: "a coleção “exemplo”" }));
    expect(collection.split("\n\n")[0]).toBe("Sinto muito pelo que você está passando. Você não tem culpa, e a sua segurança vem primeiro. Veja o que a coleção “exemplo” diz sobre isso.");
    expect(collection).not.toContain("Bíblia");
  });

  it("when the gate kept the question with a doubt: offers the passages as the nearest found, never as an answer", () => {
    const bible = composeStubAnswer(stubRequest({ doubtful: true }));
    const [opening, body] = bible.split("\n\n") as [string, string];
    expect(opening).toBe(`Para “${QUESTION}”, estas são as passagens mais próximas que encontrei.`);
    expect(body).toContain("(Mateus 5:44).");
    expect(bible).not.toContain("a responder");
    const collection = composeStubAnswer(stubRequest({ doubtful: true, corpusLabel: "a coleção “exemplo”" }));
    expect(collection.split("\n\n")[0]).toBe(`Para “${QUESTION}”, estas são as passagens mais próximas que encontrei.`);
    // Care comes first: a writer at risk gets the caring opening.
    expect(composeStubAnswer(stubRequest({ doubtful: true, care: "self_harm" }))).not.toContain("mais próximas");
  });

  it("with a single passage, speaks of one passage", () => {
    const answer = composeStubAnswer(stubRequest({ passages: PASSAGES.slice(0, 1) }));
    expect(answer).toContain("uma passagem que ajuda");
    expect(answer).toContain("(Mateus 5:44).");
    expect(answer).toMatch(/Vale ler a passagem por inteiro/u);
  });

  it("falls back on the last user message when no question is given", () => {
    const answer = composeStubAnswer({ passages: PASSAGES.slice(0, 2), messages: MESSAGES });
    expect(answer).toContain(`“${MESSAGES[2]!.content}”`);
  });

  it("with no passages, says briefly that it found nothing", async () => {
    const { chunks } = await collect(createStubProvider({ chunkDelayMs: 0 }).stream(request({ question: QUESTION, passages: [] })));
    expect(chunks.join("")).toBe(STUB_NOTHING_FOUND);
    expect(STUB_NOTHING_FOUND).toMatch(/^Não encontrei/u);
  });

  it("honours the abort signal promptly, even while waiting between chunks", async () => {
    const stub = createStubProvider({ chunkDelayMs: 1_000 });
    const controller = new AbortController();
    const started = Date.now();
    const { chunks, error } = await collect(stub.stream(stubRequest({ signal: controller.signal })), () => {
      setTimeout(() => controller.abort(), 10);
    });
    expect(chunks).toHaveLength(1);
    expect(error?.code).toBe("llm_aborted");
    expect(error?.provider).toBe("stub");
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("uses a small delay between chunks by default", async () => {
    const stub = createProvider({ provider: "stub" });
    const started = Date.now();
    const { chunks } = await collect(stub.stream(stubRequest({ passages: [{ reference: "João 3:16", text: "Deus amou o mundo." }] })));
    expect(Date.now() - started).toBeGreaterThanOrEqual((chunks.length - 1) * 10);
  });
});

describe("provider configuration", () => {
  it.each([
    ["openai", "OPENAI_API_KEY"],
    ["groq", "GROQ_API_KEY"],
    ["anthropic", "ANTHROPIC_API_KEY"],
  ])("%s without a key → llm_config naming %s", (provider, variable) => {
    for (const attempt of [() => providerConfigFromEnv({ LLM_PROVIDER: provider, [variable]: " " }), () => createProvider({ provider })]) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(LlmError);
      expect((caught as LlmError).code).toBe("llm_config");
      expect((caught as LlmError).message).toContain(variable);
      expect((caught as LlmError).message).toMatch(/variável de ambiente/u);
    }
  });

  it("an unknown provider → llm_config listing the valid ones", () => {
    for (const attempt of [() => providerConfigFromEnv({ LLM_PROVIDER: "gemini" }), () => createProvider({ provider: "gemini" })]) {
      expect(attempt).toThrow(LlmError);
      try {
        attempt();
      } catch (error) {
        expect((error as LlmError).code).toBe("llm_config");
        expect((error as LlmError).message).toContain("gemini");
        expect((error as LlmError).message).toContain("stub, ollama, openai, groq, anthropic");
      }
    }
  });

  it("reads the provider, model, key and base URL from the environment, with defaults", () => {
    expect(providerConfigFromEnv({ LLM_PROVIDER: "ollama" })).toEqual({ provider: "ollama", baseUrl: "http://127.0.0.1:11434" });
    expect(providerConfigFromEnv({ LLM_PROVIDER: "ollama", OLLAMA_BASE_URL: "http://gpu-box:11434", LLM_MODEL: "qwen2.5:7b" })).toEqual({
      provider: "ollama",
      model: "qwen2.5:7b",
      baseUrl: "http://gpu-box:11434",
    });
    expect(providerConfigFromEnv({ LLM_PROVIDER: "OpenAI", OPENAI_API_KEY: "sk-1" })).toEqual({
      provider: "openai",
      apiKey: "sk-1",
      baseUrl: "https://api.openai.com/v1",
    });
    expect(providerConfigFromEnv({ LLM_PROVIDER: "groq", GROQ_API_KEY: "gsk-1", GROQ_BASE_URL: "http://127.0.0.1:9/openai/v1", LLM_TIMEOUT_MS: "5000" })).toEqual({
      provider: "groq",
      apiKey: "gsk-1",
      baseUrl: "http://127.0.0.1:9/openai/v1",
      timeoutMs: 5_000,
    });
    expect(providerConfigFromEnv({ LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant-1" }).baseUrl).toBe("https://api.anthropic.com/v1");
    expect(() => providerConfigFromEnv({ LLM_PROVIDER: "ollama", LLM_TIMEOUT_MS: "depressa" })).toThrow(/LLM_TIMEOUT_MS/u);
  });

  it("each provider has its default model", () => {
    const env = { OPENAI_API_KEY: "sk-1", GROQ_API_KEY: "gsk-1", ANTHROPIC_API_KEY: "sk-ant-1" };
    const models = Object.fromEntries(
      KINDS.map((kind) => [kind, createProvider(providerConfigFromEnv({ ...env, LLM_PROVIDER: kind })).model]),
    );
    expect(models).toEqual({
      openai: "gpt-4o-mini",
      groq: "llama-3.3-70b-versatile",
      anthropic: "claude-haiku-4-5",
      ollama: "llama3.1",
    });
  });
});
