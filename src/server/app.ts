import { Hono } from "hono";
import { cors } from "hono/cors";
import { streamSSE } from "hono/streaming";
import { timingSafeEqual, randomUUID, createHash } from "node:crypto";
import { z } from "zod";
import { answerQuestion } from "../app/chat.js";
import { ReindexConflictError, type SearchService } from "../app/search-service.js";
import type { Settings } from "../config/settings.js";
import type { LlmProvider } from "../core/chat/llm.js";
import { bookByCode } from "../core/bible/books.js";
import { expandReference, formatReference, parseReference, validateReference } from "../core/bible/references.js";
import type { CrossReferenceIndex } from "../core/bible/cross-references.js";
import { ConversationSources } from "./conversations.js";
import { apiError } from "./errors.js";
import type { Logger } from "./logger.js";

export const MAX_MESSAGE_CHARS = 4000;
export const MAX_HISTORY_EXCHANGES = 10;
const MAX_VERSES_PER_REQUEST = 200;

export interface AppDependencies {
  service: SearchService;
  provider: LlmProvider;
  settings: Settings;
  crossReferences?: CrossReferenceIndex;
  logger: Logger;
}

const chatBody = z.object({
  message: z.string({ error: "o campo \"message\" deve ser um texto" }),
  history: z
    .array(
      z.object({
        role: z.enum(["user", "assistant"], { error: "cada item de \"history\" deve ter role \"user\" ou \"assistant\"" }),
        content: z.string({ error: "cada item de \"history\" deve ter content em texto" }),
      }),
      { error: "o campo \"history\" deve ser uma lista" },
    )
    .optional(),
  conversationId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "conversationId deve ter de 1 a 64 letras, números, _ ou -" })
    .optional(),
});

export function createApp(deps: AppDependencies): Hono {
  const { service, provider, settings, logger } = deps;
  const conversations = new ConversationSources();
  const app = new Hono();

  const origins = settings.CORS_ORIGINS.split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  app.use("/api/*", cors({ origin: (origin) => (origins.includes(origin) ? origin : null), allowHeaders: ["Content-Type", "X-Reindex-Token"] }));

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    logger.info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  });

  app.onError((error, c) => {
    logger.error("unhandled", { path: c.req.path, message: error.message });
    return apiError(c, 500, "internal_error", "Erro interno do servidor.");
  });

  app.notFound((c) => apiError(c, 404, "not_found", `Rota não encontrada: ${c.req.path}`));

  app.get("/api/health", (c) => c.json({ status: "ok" }));

  app.get("/api/status", async (c) => {
    const status = await service.status();
    return c.json({
      ...status,
      embedding: status.dense.enabled
        ? { enabled: true, model: status.dense.model }
        : { enabled: false, model: null, reason: status.dense.reason, mode: "Busca apenas por palavras-chave" },
      llm: { provider: provider.id, model: provider.model },
    });
  });

  app.post("/api/reindex", async (c) => {
    const expected = settings.REINDEX_TOKEN;
    if (expected) {
      const given = c.req.header("X-Reindex-Token");
      if (given === undefined) return apiError(c, 401, "reindex_token_missing", "Informe o cabeçalho X-Reindex-Token.");
      if (!sameSecret(given, expected)) return apiError(c, 403, "reindex_token_invalid", "X-Reindex-Token inválido.");
    }
    if (service.indexing) return apiError(c, 409, "reindex_running", "Uma reindexação já está em andamento.");
    service.startIndexing().catch((error: unknown) => {
      if (!(error instanceof ReindexConflictError)) logger.error("reindex failed", { message: String(error) });
    });
    return c.json({ status: "started" }, 202);
  });

  app.post("/api/chat", async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return apiError(c, 400, "invalid_json", "O corpo da requisição não é um JSON válido.");
    }
    const parsed = chatBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const message = issue.code === "invalid_type" && issue.path.length === 0 ? "O corpo deve ser um objeto JSON com o campo \"message\"." : issue.message;
      return apiError(c, 400, "invalid_request", message);
    }
    const message = parsed.data.message.trim();
    if (message === "") return apiError(c, 400, "empty_message", "A mensagem está vazia.");
    if (message.length > MAX_MESSAGE_CHARS) {
      return apiError(c, 413, "message_too_long", `A mensagem tem ${message.length} caracteres; o limite é ${MAX_MESSAGE_CHARS}.`);
    }
    // The shared store (Chroma) is down: say so as the answer's one event, never answer from a possibly stale index.
    const storeProblem = service.storeProblem;
    if (storeProblem) {
      logger.warn("chat refused: store unavailable", { code: storeProblem.code });
      return streamSSE(c, (stream) => stream.writeSSE({ event: "error", data: JSON.stringify({ code: storeProblem.code, message: storeProblem.message }) }));
    }
    const engine = service.engine;
    if (!engine) return apiError(c, 503, "index_not_ready", "O índice ainda está sendo preparado. Tente de novo em instantes.");
    const history = (parsed.data.history ?? []).slice(-MAX_HISTORY_EXCHANGES * 2);
    const conversationId = parsed.data.conversationId ?? randomUUID();

    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort());
      const events = answerQuestion(
        { engine, provider, topK: settings.TOP_K, contextWindow: settings.CONTEXT_WINDOW },
        { message, history, conversationId, signal: controller.signal },
      );
      try {
        for await (const event of events) {
          if (controller.signal.aborted) break;
          if (event.event === "sources") conversations.set(conversationId, event.data.sources);
          if (event.event === "done") conversations.markCited(conversationId, event.data.citations);
          if (event.event === "error") logger.warn("chat error", { code: event.data.code });
          await stream.writeSSE({ event: event.event, data: JSON.stringify(event.data) });
        }
      } catch (error) {
        logger.error("chat failed", { message: error instanceof Error ? error.message : String(error) });
        if (!controller.signal.aborted) {
          await stream.writeSSE({ event: "error", data: JSON.stringify({ code: "internal_error", message: "Ocorreu um erro inesperado ao preparar a resposta." }) });
        }
      } finally {
        controller.abort();
      }
    });
  });

  app.get("/api/verses", (c) => {
    const ref = c.req.query("ref")?.trim();
    if (!ref) return apiError(c, 400, "missing_ref", "Informe a referência em ?ref=, por exemplo ?ref=Jo 3:16-18.");
    const parsed = parseReference(ref);
    if (!parsed.ok) return apiError(c, 400, "invalid_reference", parsed.message);
    const engine = service.engine;
    if (!engine) return apiError(c, 503, "index_not_ready", "O índice ainda está sendo preparado. Tente de novo em instantes.");
    const versification = engine.versificationOf();
    const verses = [];
    for (const reference of parsed.references) {
      const validity = validateReference(reference, versification);
      if (!validity.ok) return apiError(c, 404, "reference_not_found", validity.message);
      for (const coordinate of expandReference(reference, versification)) {
        if (verses.length >= MAX_VERSES_PER_REQUEST) break;
        const verse = engine.verseAt(coordinate.book, coordinate.chapter, coordinate.verse);
        if (!verse) continue;
        verses.push({
          ref: `${verse.book} ${verse.chapter}:${verse.verse}`,
          reference: formatReference({ book: verse.book, chapterStart: verse.chapter, verseStart: verse.verse, chapterEnd: verse.chapter, verseEnd: verse.verseEnd }),
          book: bookByCode(verse.book)?.name ?? verse.bookName,
          bookCode: verse.book,
          chapter: verse.chapter,
          verse: verse.verse,
          text: verse.text,
          crossReferences: (deps.crossReferences?.strongest(verse.book, verse.chapter, verse.verse, 5) ?? []).map((link) => ({
            reference: formatReference({
              book: link.book,
              chapterStart: link.chapter,
              verseStart: link.verse,
              chapterEnd: link.endChapter,
              verseEnd: link.endVerse,
            }),
            votes: link.votes,
          })),
        });
      }
    }
    return c.json({
      reference: parsed.references.map(formatReference).join("; "),
      verses,
      attribution: "Referências cruzadas: OpenBible.info (CC BY)",
    });
  });

  app.get("/api/sources", (c) => {
    const conversationId = c.req.query("conversationId");
    if (!conversationId) return apiError(c, 400, "missing_conversation", "Informe ?conversationId= (enviado no evento sources do chat).");
    const entry = conversations.get(conversationId);
    if (!entry) return apiError(c, 404, "conversation_not_found", "Nenhuma resposta registrada para esta conversa.");
    const cited = new Set(entry.citations);
    return c.json({ conversationId, at: entry.at, sources: entry.sources.map((s) => ({ ...s, cited: cited.has(s.reference) })) });
  });

  return app;
}

/** Constant-time comparison of two secrets (hashing first evens out their lengths). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
