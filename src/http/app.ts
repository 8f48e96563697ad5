import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { routePath } from "hono/route";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { biblePlanner } from "../app/chat/bible-chat.js";
import { collectionPlanner } from "../app/chat/collection-chat.js";
import { answerWith, type AnswerPlanner, type ChatInput } from "../app/chat/grounded-answer.js";
import { CollectionNotFoundError, CollectionReloadError, type CollectionService } from "../app/collection-service.js";
import { ReindexConflictError, type SearchService } from "../app/search-service.js";
import type { Settings } from "../config/settings.js";
import type { LlmProvider } from "../core/chat/llm.js";
import { bookByCode } from "../core/bible/books.js";
import { MAX_REFERENCE_QUERY_CHARS, MAX_REFERENCE_SPANS, MAX_VERSES_PER_REQUEST } from "../core/bible/reference-limits.js";
import { type BibleReference, expandReferences, formatReference, parseReference, validateReference } from "../core/bible/references.js";
import { BIBLE_COLLECTION, isBibleCollection } from "../core/types.js";
import { adminGuard } from "./admin.js";
import { ConversationIds, ConversationSources } from "./conversations.js";
import { apiError } from "./errors.js";
import { BusyError, clientAddress, ConcurrencyGate, RateLimiter } from "./limits.js";
import { withFields, type Logger } from "./logger.js";
import { Metrics } from "./metrics.js";
import { withPromptBudget } from "./prompt-budget.js";
import { withStreamPieces } from "./stream-pieces.js";
import { securityHeaders } from "./security-headers.js";

export const MAX_MESSAGE_CHARS = 4000;
export const MAX_HISTORY_EXCHANGES = 10;

export interface AppDependencies {
  service: SearchService;
  provider: LlmProvider;
  settings: Settings;
  /** Document collections (lessons, PDFs, MySQL rows); none when absent. */
  collections?: CollectionService;
  logger: Logger;
  /** The process's counters (a fresh set when absent). */
  metrics?: Metrics;
  /**
   * The token the admin routes require: REINDEX_TOKEN, or the one `startServer` generated
   * because it listens beyond the loopback without one. Absent: REINDEX_TOKEN's, if any.
   */
  adminToken?: string;
}

function chatBodySchema(settings: Settings) {
  const maxEntries = settings.MAX_HISTORY_ENTRIES;
  const maxChars = settings.MAX_HISTORY_ENTRY_CHARS;
  return z.object({
    message: z.string({ error: "o campo \"message\" deve ser um texto" }),
    history: z
      .array(
        z.object({
          role: z.enum(["user", "assistant"], { error: "cada item de \"history\" deve ter role \"user\" ou \"assistant\"" }),
          content: z
            .string({ error: "cada item de \"history\" deve ter content em texto" })
            .max(maxChars, { error: `cada item de "history" deve ter no máximo ${maxChars} caracteres` }),
        }, { error: "cada item de \"history\" deve ser um objeto com role e content" }),
        { error: "o campo \"history\" deve ser uma lista" },
      )
      .max(maxEntries, { error: `o campo "history" deve ter no máximo ${maxEntries} itens` })
      .optional(),
    conversationId: z
      .string({ error: "conversationId deve ser um texto" })
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "conversationId deve ter de 1 a 64 letras, números, _ ou -" })
      .optional(),
    collection: z.string({ error: "o campo \"collection\" deve ser um texto" }).max(200, { error: "o campo \"collection\" é longo demais" }).optional(),
    explain: z.boolean({ error: "o campo \"explain\" deve ser verdadeiro ou falso" }).optional(),
  });
}

const reloadBody = z.object({ collection: z.string({ error: "o campo \"collection\" deve ser um texto" }).optional() });

export function createApp(deps: AppDependencies): Hono {
  const { service, settings, logger } = deps;
  const provider = withStreamPieces(withPromptBudget(deps.provider, settings.MAX_PROMPT_TOKENS), settings.STREAM_FLUSH_MS);
  const chatBody = chatBodySchema(settings);
  const conversations = new ConversationSources();
  const conversationIds = new ConversationIds();
  const metrics = deps.metrics ?? new Metrics();
  const llmGate = new ConcurrencyGate(settings.LLM_MAX_CONCURRENT, settings.LLM_QUEUE_MAX, settings.LLM_QUEUE_TIMEOUT_MS);
  metrics.gauge("pastor_llm_in_flight", "Answers holding one of the LLM_MAX_CONCURRENT slots.", () => llmGate.inFlight);
  metrics.gauge("pastor_llm_queued", "Answers waiting for a slot.", () => llmGate.queued);
  metrics.gauge("pastor_index_ready", "1 when a search index is loaded and the chat can answer.", () => (service.answers ? 1 : 0));
  metrics.gauge("pastor_index_verses", "Verses in the loaded index.", () => service.answers?.size ?? 0);
  metrics.gauge("pastor_search_workers", "Search worker threads (0: search runs on the event loop).", () => service.searchWorkers().size);
  metrics.gauge("pastor_search_workers_busy", "Search workers running a request.", () => service.searchWorkers().busy);
  metrics.gauge("pastor_search_queued", "Requests waiting for a search worker.", () => service.searchWorkers().queued);
  metrics.gauge("pastor_indexing", "1 while a reindex runs.", () => (service.indexing ? 1 : 0));
  metrics.gauge("pastor_store_unavailable", "1 while the shared store (Chroma) is unreachable.", () => (service.storeProblem ? 1 : 0));
  const app = new Hono();
  const log = (c: Context) => withFields(logger, { requestId: c.get("requestId") });

  app.use("*", requestId());
  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const matched = routePath(c);
    const route = c.res.status === 404 && (matched === "" || matched.endsWith("*")) ? "unmatched" : matched;
    metrics.requests.inc({ method: c.req.method, route, status: String(c.res.status) });
    metrics.latency.observe({ route }, seconds);
    // Never the question or any other body text at info level: method, path, status, time.
    log(c).info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(seconds * 1000) });
  });
  app.use("*", securityHeaders());

  const origins = settings.CORS_ORIGINS.split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  app.use(
    "/api/*",
    cors({
      origin: (origin) => (origins.includes(origin) ? origin : null),
      allowHeaders: ["Content-Type", "X-Reindex-Token", "X-Request-Id"],
      exposeHeaders: ["X-Request-Id", "Retry-After"],
    }),
  );
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: settings.MAX_BODY_BYTES,
      onError: (c) => {
        metrics.refusals.inc({ reason: "body_too_large" });
        return apiError(c, 413, "body_too_large", `O corpo da requisição passa do limite de ${settings.MAX_BODY_BYTES} bytes.`);
      },
    }),
  );

  const tooMany = (c: Context, wait: number, what: string) => {
    metrics.refusals.inc({ reason: "rate_limited" });
    log(c).warn("rate limited", { path: c.req.path, retryAfter: wait });
    return apiError(c, 429, "rate_limited", `${what} em pouco tempo. Tente de novo em ${wait} s.`, { "Retry-After": String(wait) });
  };
  const clientOf = (c: Context) => clientAddress(c, settings.TRUST_PROXY);
  if (settings.RATE_LIMIT) {
    const chatLimiter = new RateLimiter(settings.CHAT_RATE_PER_MINUTE);
    app.use("/api/chat", async (c, next) => {
      const wait = chatLimiter.take(clientOf(c));
      return wait === 0 ? next() : tooMany(c, wait, "Muitas perguntas");
    });
  }
  // The routes that rewrite the index: origin, content type, token, and a bucket of refusals apart from the admin's (admin.ts).
  const admin = adminGuard({
    token: deps.adminToken ?? (settings.REINDEX_TOKEN || undefined),
    trustedOrigins: origins,
    limits: settings.RATE_LIMIT
      ? {
          granted: new RateLimiter(settings.ADMIN_RATE_PER_MINUTE),
          refused: new RateLimiter(settings.ADMIN_RATE_PER_MINUTE),
          clientOf,
          tooMany: (c, wait, kind) =>
            tooMany(c, wait, kind === "granted" ? "Muitos pedidos de reindexação ou recarga" : "Muitos pedidos de reindexação ou recarga recusados"),
        }
      : undefined,
    onRefused: (c, code) => {
      metrics.refusals.inc({ reason: code });
      log(c).warn("admin request refused", { path: c.req.path, code });
    },
  });
  app.use("/api/reindex", admin);
  app.use("/api/reload", admin);

  app.onError((error, c) => {
    log(c).error("unhandled", { path: c.req.path, message: error.message });
    return apiError(c, 500, "internal_error", "Erro interno do servidor.");
  });

  app.notFound((c) => apiError(c, 404, "not_found", `Rota não encontrada: ${c.req.path}`));

  app.get("/api/health", (c) => c.json({ status: "ok" }));

  app.get("/api/metrics", (c) => c.text(metrics.render(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }));

  app.get("/api/status", async (c) => {
    const status = await service.status();
    return c.json({
      ...status,
      collections: deps.collections?.status() ?? [],
      embedding: status.dense.enabled
        ? { enabled: true, model: status.dense.model }
        : { enabled: false, model: null, reason: status.dense.reason, mode: "Busca apenas por palavras-chave" },
      llm: { provider: provider.id, model: provider.model },
    });
  });

  app.post("/api/reindex", async (c) => {
    if (service.indexing) return apiError(c, 409, "reindex_running", "Uma reindexação já está em andamento.");
    service.startIndexing().catch((error: unknown) => {
      if (!(error instanceof ReindexConflictError)) log(c).error("reindex failed", { message: String(error) });
    });
    return c.json({ status: "started" }, 202);
  });

  app.get("/api/collections", (c) => c.json({ default: BIBLE_COLLECTION, collections: deps.collections?.status() ?? [] }));

  app.post("/api/reload", async (c) => {
    const text = await c.req.text();
    let raw: unknown = {};
    if (text.trim() !== "") {
      try {
        raw = JSON.parse(text);
      } catch {
        return apiError(c, 400, "invalid_json", "O corpo da requisição não é um JSON válido.");
      }
    }
    const parsed = reloadBody.safeParse(raw);
    if (!parsed.success) return apiError(c, 400, "invalid_request", parsed.error.issues[0]!.message);
    const collections = deps.collections;
    const name = parsed.data.collection;
    if (name !== undefined && isBibleCollection(name)) {
      return apiError(c, 400, "bible_reload", "A Bíblia não se recarrega por aqui: use POST /api/reindex (com o token de reindexação).");
    }
    if (!collections) return apiError(c, 404, "collection_not_found", "Nenhuma coleção de documentos configurada.");
    if (name !== undefined && collections.isReloading(name)) {
      return apiError(c, 409, "reload_running", `A coleção "${name}" já está sendo recarregada.`);
    }
    try {
      const summaries = await collections.reload(name);
      return c.json({ collections: summaries });
    } catch (error) {
      if (error instanceof CollectionNotFoundError) return apiError(c, 404, error.code, error.message);
      if (error instanceof CollectionReloadError) return apiError(c, error.code === "index_locked" ? 409 : 502, error.code, `Não foi possível recarregar a coleção "${error.collection}": ${error.message}`);
      throw error;
    }
  });

  app.post("/api/chat", async (c) => {
    const arrived = performance.now();
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return apiError(c, 400, "invalid_json", "O corpo da requisição não é um JSON válido.");
    }
    const parsed = chatBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.code === "too_big" && issue.path[0] === "history") {
        metrics.refusals.inc({ reason: "history_too_long" });
        return apiError(c, 413, "history_too_long", issue.message);
      }
      const message = issue.code === "invalid_type" && issue.path.length === 0 ? "O corpo deve ser um objeto JSON com o campo \"message\"." : issue.message;
      return apiError(c, 400, "invalid_request", message);
    }
    const message = parsed.data.message.trim();
    if (message === "") return apiError(c, 400, "empty_message", "A mensagem está vazia.");
    if (message.length > MAX_MESSAGE_CHARS) {
      metrics.refusals.inc({ reason: "message_too_long" });
      return apiError(c, 413, "message_too_long", `A mensagem tem ${message.length} caracteres; o limite é ${MAX_MESSAGE_CHARS}.`);
    }
    const history = (parsed.data.history ?? []).slice(-MAX_HISTORY_EXCHANGES * 2);
    // Only an id this server issued names a conversation; any other (absent, made up, from before a restart) gets a new one.
    const given = parsed.data.conversationId;
    const conversationId = given !== undefined && conversationIds.issued(given) ? given : conversationIds.issue();
    const collection = parsed.data.collection?.trim() || BIBLE_COLLECTION;
    let planner: AnswerPlanner;
    const controller = new AbortController();
    const input: ChatInput = { message, history, conversationId, signal: controller.signal, ...(parsed.data.explain === true ? { explain: true } : {}) };
    if (isBibleCollection(collection)) {
      // The shared store (Chroma) is down: say so as the answer's one event, never answer from a possibly stale index.
      const storeProblem = service.storeProblem;
      if (storeProblem) {
        log(c).warn("chat refused: store unavailable", { code: storeProblem.code });
        return streamSSE(c, (stream) => stream.writeSSE({ event: "error", data: JSON.stringify({ code: storeProblem.code, message: storeProblem.message }) }));
      }
      const engine = service.answers;
      if (!engine) return apiError(c, 503, "index_not_ready", "O índice ainda está sendo preparado. Tente de novo em instantes.");
      planner = biblePlanner({ engine, topK: settings.TOP_K, contextWindow: settings.CONTEXT_WINDOW });
    } else {
      const collections = deps.collections;
      if (!collections?.has(collection)) {
        const missing = new CollectionNotFoundError(collection, [BIBLE_COLLECTION, ...(collections?.names() ?? [])]);
        return apiError(c, 404, missing.code, missing.message);
      }
      const loaded = collections.get(collection);
      if (!loaded || loaded.chunks === 0) {
        return apiError(c, 503, "collection_not_ready", `A coleção "${collection}" ainda não foi indexada. Tente de novo em instantes.`);
      }
      input.collection = collection;
      planner = collectionPlanner({
        collection,
        prepare: (question, history, signal) => collections.prepare(collection, question, history, signal),
        bibleVersification: () => service.answers?.versification,
      });
    }

    // One of LLM_MAX_CONCURRENT slots for the whole answer (search, prompt, model stream);
    // beyond the queue, or after waiting LLM_QUEUE_TIMEOUT_MS for one, a 503 `busy`.
    let release: () => void;
    try {
      release = await llmGate.acquire(c.req.raw.signal);
    } catch (error) {
      if (!(error instanceof BusyError)) throw error;
      metrics.refusals.inc({ reason: "busy" });
      log(c).warn("chat refused: busy", { reason: error.reason });
      return apiError(c, 503, "busy", "O servidor está atendendo muitas perguntas agora. Tente de novo em instantes.", { "Retry-After": "5" });
    }

    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort());
      let firstTokenMs: number | undefined;
      let tokens = 0;
      let ending: string | undefined;
      try {
        for await (const event of answerWith(planner, provider, input)) {
          if (controller.signal.aborted) break;
          if (event.event === "token") {
            tokens++;
            if (firstTokenMs === undefined) {
              firstTokenMs = performance.now() - arrived;
              metrics.firstToken.observe({}, firstTokenMs / 1000);
            }
          }
          if (event.event === "sources") conversations.set(conversationId, event.data.sources);
          if (event.event === "care") metrics.careNotices.inc({ kind: event.data.kind });
          if (event.event === "done") {
            ending = event.data.refusal ?? (event.data.smallTalk ? "small_talk" : "answered");
            conversations.markCited(conversationId, event.data.citations);
            // Answered without the model: out of scope (the gate) or no evidence.
            if (event.data.refusal) metrics.refusals.inc({ reason: event.data.refusal });
          }
          if (event.event === "error") {
            ending = event.data.code;
            metrics.llmErrors.inc({ code: event.data.code });
            log(c).warn("chat error", { code: event.data.code });
          }
          await stream.writeSSE({ event: event.event, data: JSON.stringify(event.data) });
        }
      } catch (error) {
        ending = "internal_error";
        metrics.llmErrors.inc({ code: "internal_error" });
        log(c).error("chat failed", { message: error instanceof Error ? error.message : String(error) });
        if (!controller.signal.aborted) {
          await stream.writeSSE({ event: "error", data: JSON.stringify({ code: "internal_error", message: "Ocorreu um erro inesperado ao preparar a resposta." }) });
        }
      } finally {
        const clientLeft = controller.signal.aborted;
        release();
        controller.abort();
        // The answer's timing, never its text: time to the first token and to the end.
        log(c).info("chat answered", {
          ending: clientLeft && ending === undefined ? "client_left" : (ending ?? "unfinished"),
          ttftMs: firstTokenMs === undefined ? null : Math.round(firstTokenMs * 10) / 10,
          ms: Math.round(performance.now() - arrived),
          tokens,
        });
      }
    });
  });

  app.get("/api/verses", async (c) => {
    const ref = c.req.query("ref")?.trim();
    if (!ref) return apiError(c, 400, "missing_ref", "Informe a referência em ?ref=, por exemplo ?ref=Jo 3:16-18.");
    if (ref.length > MAX_REFERENCE_QUERY_CHARS) {
      return apiError(c, 413, "reference_too_long", `A referência tem ${ref.length} caracteres; o limite é ${MAX_REFERENCE_QUERY_CHARS}. Peça um trecho de cada vez.`);
    }
    const parsed = parseReference(ref);
    if (!parsed.ok) return apiError(c, 400, "invalid_reference", parsed.message);
    // The same span named twice is one span ("Sl 23; 23").
    const spans = uniqueSpans(parsed.references);
    if (spans.length > MAX_REFERENCE_SPANS) {
      return apiError(c, 413, "too_many_references", `A consulta pede ${spans.length} trechos; o limite é ${MAX_REFERENCE_SPANS} por consulta.`);
    }
    const engine = service.answers;
    if (!engine) return apiError(c, 503, "index_not_ready", "O índice ainda está sendo preparado. Tente de novo em instantes.");
    const versification = engine.versification;
    for (const reference of spans) {
      const validity = validateReference(reference, versification);
      if (!validity.ok) return apiError(c, 404, "reference_not_found", validity.message);
    }
    // Counted first, listed only up to the cap: a span of thousands of verses costs a sum.
    const { verses: coordinates, total } = expandReferences(spans, versification, MAX_VERSES_PER_REQUEST);
    // Overlapping spans count their shared verses twice in `total`: only a full page says more are left.
    const truncated = coordinates.length === MAX_VERSES_PER_REQUEST && total > coordinates.length;
    // Looked up in one request (a worker holds the verses when SEARCH_WORKERS ≥ 1).
    const found = (await engine.versesAt(coordinates)).filter((verse) => verse !== undefined);
    const verses = found.map((verse) => ({
      ref: `${verse.book} ${verse.chapter}:${verse.verse}`,
      reference: formatReference({ book: verse.book, chapterStart: verse.chapter, verseStart: verse.verse, chapterEnd: verse.chapter, verseEnd: verse.verseEnd }),
      book: bookByCode(verse.book)?.name ?? verse.bookName,
      bookCode: verse.book,
      chapter: verse.chapter,
      verse: verse.verse,
      text: verse.text,
      crossReferences: verse.links.map((link) => ({
        reference: formatReference({
          book: link.book,
          chapterStart: link.chapter,
          verseStart: link.verse,
          chapterEnd: link.endChapter,
          verseEnd: link.endVerse,
        }),
        votes: link.votes,
      })),
    }));
    return c.json({
      reference: spans.map(formatReference).join("; "),
      verses,
      total,
      truncated,
      ...(truncated ? { notice: `Mostrando os primeiros ${coordinates.length} de ${total.toLocaleString("pt-BR")} versículos. Peça um trecho menor para ler o restante.` } : {}),
      attribution: "Referências cruzadas: OpenBible.info (CC BY)",
    });
  });

  app.get("/api/sources", (c) => {
    const conversationId = c.req.query("conversationId");
    if (!conversationId) return apiError(c, 400, "missing_conversation", "Informe ?conversationId= (enviado no evento sources do chat).");
    // An id the server never issued is not looked up: guessing ("alice") finds nothing.
    const entry = conversationIds.issued(conversationId) ? conversations.get(conversationId) : undefined;
    if (!entry) return apiError(c, 404, "conversation_not_found", "Nenhuma resposta registrada para esta conversa.");
    const cited = new Set(entry.citations);
    return c.json({ conversationId, at: entry.at, sources: entry.sources.map((s) => ({ ...s, cited: cited.has("kind" in s ? s.citation : s.reference) })) });
  });

  return app;
}

/** The spans in order, each named once. */
function uniqueSpans(references: readonly BibleReference[]): BibleReference[] {
  const seen = new Set<string>();
  return references.filter((reference) => {
    const key = `${reference.book} ${reference.chapterStart}:${reference.verseStart ?? ""}-${reference.chapterEnd}:${reference.verseEnd ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

