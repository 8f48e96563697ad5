import { availableParallelism } from "node:os";
import { z } from "zod";
import { LLM_PROVIDER_IDS } from "../core/chat/llm.js";
import { DEFAULT_CHUNK_CHARS, MAX_CHUNK_CHARS, MAX_CONTENT_CHARS } from "../core/sources/chunker.js";
import { BIBLE_COLLECTION, isBibleCollection } from "../core/types.js";

/**
 * Every setting the app reads from the environment, validated once at start. A bad value
 * (TOP_K=abc) stops the start with a Portuguese message naming the variable.
 */
const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const booleanFlag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "sim", "nao", "não"])
    .default(fallback ? "true" : "false")
    .transform((value) => ["true", "1", "yes", "sim"].includes(value));

/**
 * SEARCH_WORKERS when unset: one core is left to the event loop (HTTP, SSE, the per-token
 * citation check), the others search; at most 4, since each worker holds a whole engine.
 */
export function defaultSearchWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export const settingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  DATA_DIR: z.string().min(1).default("./data"),
  CORPUS_DIR: z.string().min(1).default("./corpus"),
  EMBEDDING_MODEL: z.string().default("lsa"),
  TOP_K: positiveInt(6),
  CANDIDATE_MULTIPLIER: positiveInt(4),
  MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.05),
  MAX_KEYWORD_ONLY: nonNegativeInt(2),
  CONTEXT_WINDOW: nonNegativeInt(2),
  INDEX_BATCH_SIZE: positiveInt(512),
  AUTO_INDEX: booleanFlag(true),
  REINDEX_TOKEN: z.string().optional(),
  CORS_ORIGINS: z.string().default(""),
  LLM_PROVIDER: z.enum(LLM_PROVIDER_IDS).default("stub"),
  VECTOR_STORE: z.enum(["sqlite", "chroma"]).default("sqlite"),
  CHROMA_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:8000"),
  CHROMA_COLLECTION_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,40}$/, { message: "deve ter de 2 a 41 letras, números, _ ou -, começando por letra ou número" })
    .default("pastor"),
  CHROMA_POLL_MS: z.coerce.number().int().min(100).default(5000),
  INDEX_LOCK_TTL_MS: z.coerce.number().int().min(1000).default(30_000),
  // The index's snapshots (issue 45): read at start, saved by indexing; false builds the engine from the index at every start.
  SNAPSHOTS: booleanFlag(true),
  // Document collections (issue 6).
  COLLECTIONS_DIR: z.string().min(1).default("./collections"),
  DB_CHUNK_WORDS: positiveInt(500),
  DB_CHUNK_OVERLAP: nonNegativeInt(50),
  // Most characters of a chunk's body: a window of words ends early, a longer word is cut (issue 43).
  DB_CHUNK_CHARS: z.coerce.number().int().min(1).max(MAX_CHUNK_CHARS).default(DEFAULT_CHUNK_CHARS),
  MAX_CONTENT_CHARS: positiveInt(MAX_CONTENT_CHARS),
  // A PDF whose text extraction (in a worker thread) takes longer is stopped and reported as failed.
  PDF_TIMEOUT_MS: positiveInt(60_000),
  MYSQL_URL: z.string().optional(),
  MYSQL_TABLE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
      message: "deve ser um nome de tabela: letras sem acento, números e _, começando por letra ou _ (até 64 caracteres)",
    })
    .default("lessons"),
  MYSQL_COLLECTION: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, {
      message: "deve ser um nome de coleção: letras sem acento, números, _ e -, começando por letra ou número (até 64 caracteres)",
    })
    .refine((name) => !isBibleCollection(name), { message: `"${BIBLE_COLLECTION}" é o nome da Bíblia; escolha outro nome para a coleção MySQL` })
    .default("mysql"),
  // Public serving (issue 15): bounded requests, fair use, slow clients.
  MAX_BODY_BYTES: positiveInt(64 * 1024),
  MAX_HISTORY_ENTRIES: positiveInt(100),
  MAX_HISTORY_ENTRY_CHARS: positiveInt(8000),
  MAX_PROMPT_TOKENS: positiveInt(8000),
  RATE_LIMIT: booleanFlag(true),
  CHAT_RATE_PER_MINUTE: positiveInt(30),
  ADMIN_RATE_PER_MINUTE: positiveInt(6),
  TRUST_PROXY: booleanFlag(false),
  LLM_MAX_CONCURRENT: nonNegativeInt(64),
  LLM_QUEUE_MAX: nonNegativeInt(256),
  LLM_QUEUE_TIMEOUT_MS: positiveInt(30_000),
  // At most one piece of an answer's text per this many ms after the first (0: every delta as it comes).
  STREAM_FLUSH_MS: nonNegativeInt(50),
  HEADERS_TIMEOUT_MS: positiveInt(10_000),
  REQUEST_TIMEOUT_MS: positiveInt(30_000),
  IDLE_TIMEOUT_MS: positiveInt(180_000),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(5000),
  // Search and prompt building off the event loop: worker threads, 0 = in this thread.
  SEARCH_WORKERS: z.coerce.number().int().min(0).max(64).default(defaultSearchWorkers()),
  // Rounds of answers run through the chat route with the offline stub before listening (0: none).
  WARM_UP_ROUNDS: nonNegativeInt(6),
}).superRefine((settings, context) => {
  if (settings.DB_CHUNK_OVERLAP >= settings.DB_CHUNK_WORDS) {
    context.addIssue({
      code: "custom",
      path: ["DB_CHUNK_OVERLAP"],
      message: `deve ser menor que DB_CHUNK_WORDS (${settings.DB_CHUNK_WORDS}): a sobreposição de trechos não pode cobrir o trecho inteiro`,
    });
  }
});

export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {
  readonly code = "invalid_setting";
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Configuração inválida: ${variable} ${detail}`);
    this.name = "SettingsError";
  }
}

export function readSettings(env: Record<string, string | undefined> = process.env): Settings {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = settingsSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const variable = String(issue.path[0] ?? "?");
  const value = present[variable] === undefined ? "(não definida; vale o padrão)" : `= ${JSON.stringify(env[variable])}`;
  throw new SettingsError(variable, `${value}: ${describeIssue(issue)}`);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "int" ? "deve ser um número inteiro" : "deve ser um número";
    case "too_small":
      return `deve ser no mínimo ${String(issue.minimum)}`;
    case "too_big":
      return `deve ser no máximo ${String(issue.maximum)}`;
    case "invalid_value":
      return `deve ser um destes valores: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return issue.format === "url" ? "deve ser uma URL http(s)://host:porta" : issue.message;
    case "custom":
      return issue.message;
    default:
      return "valor não aceito";
  }
}
