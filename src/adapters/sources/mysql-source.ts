/**
 * Lessons from a MySQL/MariaDB table: one row per lesson (discipline, slug, title, content),
 * turned into {@link RawDocument}s with source id `db:{discipline}/{slug}`.
 *
 * Safety. Table and column names come from configuration, so each one must match
 * {@link IDENTIFIER} (and be at most 64 characters) and is then quoted with backticks; a name that
 * does not match is refused with `mysql_invalid_config` before any connection is opened. Values
 * travel as placeholders. Error messages name the server (`host:port`), database, table and user,
 * never the password (a server message quoted in an error is scrubbed of it too).
 *
 * Reading. One connection (closed in `finally`), utf8mb4 end to end (handshake collation
 * `utf8mb4_unicode_ci` plus `SET NAMES`), one query that reads only the four needed columns,
 * ordered by discipline then slug (the table's collation). A content longer than
 * `maxContentChars` (counted by the server with `CHAR_LENGTH`) is not even transferred: the row
 * is skipped with a `document_too_large` warning. NULL content reads as "". Discipline and slug
 * are trimmed; a row where either is NULL or empty is skipped (`row_invalid`); a second row with
 * the same source id is skipped (`duplicate_document`, the first one returned is kept). Fetching
 * everything at once is fine up to tens of thousands of lessons (1,000 rows of ~1 KB take a few
 * milliseconds on loopback).
 *
 * Change detection. `sha256` hashes the title and the content (length-prefixed title, so
 * ("ab", "c") and ("a", "bc") differ): editing either changes the hash of that row only.
 */
import { createHash } from "node:crypto";
import { createConnection, type Connection, type RowDataPacket } from "mysql2/promise";
import { MAX_CONTENT_CHARS } from "../../core/sources/chunker.js";
import type { RawDocument } from "../../core/documents/types.js";

/** Table and column names accepted in configuration. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** MySQL's limit for table and column names. */
const IDENTIFIER_MAX_LENGTH = 64;

/** Default limit for one lesson's content, in characters: the core's MAX_CONTENT_CHARS. */
export const DEFAULT_MAX_CONTENT_CHARS = MAX_CONTENT_CHARS;
/** Default time allowed to open the connection. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Column names of the lessons table (defaults: discipline, slug, title, content, updated_at). */
export interface MysqlLessonColumns {
  discipline?: string;
  slug?: string;
  title?: string;
  content?: string;
  /** Only used by {@link createLessonsTable}: the reader hashes content instead of trusting timestamps. */
  updatedAt?: string;
}

export interface MysqlSourceOptions {
  /** `mysql://user:password@host:port/database` (user and password URL-encoded; `mariadb://` also accepted). */
  url: string;
  /** Table name (default "lessons"). */
  table?: string;
  /** Collection name given to every document. */
  collection: string;
  columns?: MysqlLessonColumns;
  /** Time allowed to open the connection (default 10 s). */
  connectTimeoutMs?: number;
}

export type MysqlSourceWarningCode =
  /** Content longer than `maxContentChars`: the row is skipped. */
  | "document_too_large"
  /** A second row with the same `db:{discipline}/{slug}`: skipped, the first is kept. */
  | "duplicate_document"
  /** Discipline or slug NULL or empty: the row is skipped. */
  | "row_invalid";

/** A problem with one row that did not stop the read. */
export interface MysqlSourceWarning {
  code: MysqlSourceWarningCode;
  /** `db:{discipline}/{slug}` of the row concerned. */
  sourceId: string;
  /** Portuguese, for logs and the user. */
  message: string;
}

export interface ReadMysqlLessonsOptions {
  /** Longest content accepted, in characters (default 4,000,000). */
  maxContentChars?: number;
  onWarning?: (warning: MysqlSourceWarning) => void;
}

/** Why the lessons could not be read. */
export type MysqlSourceErrorCode =
  /** Server not reachable (refused, timeout, unknown host, connection lost). */
  | "mysql_unreachable"
  /** Wrong user or password, or no privilege on the database/table. */
  | "mysql_auth"
  /** The table (or the database) does not exist. */
  | "mysql_table_missing"
  /** Any other failure of the query (e.g. an unknown column). */
  | "mysql_query_failed"
  /** Invalid options (URL, table or column name, limits), refused before connecting. */
  | "mysql_invalid_config";

/** Error raised by the MySQL source; its message is user-facing (Portuguese) and never holds the password. */
export class MysqlSourceError extends Error {
  readonly code: MysqlSourceErrorCode;
  /** `host:port/database.table` (or `host:port/database`), without credentials; "" for an unparsable URL. */
  readonly target: string;
  /** The driver's error code (`ECONNREFUSED`, `ER_NO_SUCH_TABLE`…), when there was one. */
  readonly driverCode?: string;

  constructor(code: MysqlSourceErrorCode, target: string, message: string, options?: { cause?: unknown; driverCode?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MysqlSourceError";
    this.code = code;
    this.target = target;
    if (options?.driverCode) this.driverCode = options.driverCode;
  }
}

interface ConnectionTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

type ResolvedColumns = Required<MysqlLessonColumns>;

const DEFAULT_COLUMNS: ResolvedColumns = {
  discipline: "discipline",
  slug: "slug",
  title: "title",
  content: "content",
  updatedAt: "updated_at",
};

function checkIdentifier(name: string, what: string): string {
  if (typeof name !== "string" || !IDENTIFIER.test(name) || name.length > IDENTIFIER_MAX_LENGTH) {
    throw new MysqlSourceError(
      "mysql_invalid_config",
      "",
      `Nome de ${what} inválido: ${JSON.stringify(name)} (use só letras sem acento, números e _, começando por letra ou _, até ${IDENTIFIER_MAX_LENGTH} caracteres).`,
    );
  }
  return name;
}

/** Backtick-quoted identifier; only ever called on names that passed {@link checkIdentifier}. */
const quote = (name: string) => `\`${name}\``;

function resolveTable(table: string | undefined): string {
  return checkIdentifier(table ?? "lessons", "tabela");
}

function resolveColumns(columns: MysqlLessonColumns | undefined): ResolvedColumns {
  const resolved = { ...DEFAULT_COLUMNS };
  for (const key of Object.keys(DEFAULT_COLUMNS) as (keyof ResolvedColumns)[]) {
    const name = columns?.[key];
    if (name !== undefined) resolved[key] = checkIdentifier(name, `coluna (${key})`);
  }
  return resolved;
}

/** Parses `mysql://user:password@host:port/database`; the error never repeats the URL (it holds the password). */
function parseUrl(url: string): ConnectionTarget {
  const usage = "use mysql://usuário:senha@host:porta/banco";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MysqlSourceError("mysql_invalid_config", "", `URL do MySQL inválida: ${usage}.`);
  }
  if (parsed.protocol !== "mysql:" && parsed.protocol !== "mariadb:") {
    throw new MysqlSourceError("mysql_invalid_config", "", `URL do MySQL inválida (esquema "${parsed.protocol}"): ${usage}.`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = parsed.port === "" ? 3306 : Number(parsed.port);
  let user: string;
  let password: string;
  let database: string;
  try {
    user = decodeURIComponent(parsed.username);
    password = decodeURIComponent(parsed.password);
    database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  } catch {
    throw new MysqlSourceError("mysql_invalid_config", "", `URL do MySQL inválida (codificação %): ${usage}.`);
  }
  if (host === "") {
    throw new MysqlSourceError("mysql_invalid_config", "", `URL do MySQL sem host: ${usage}.`);
  }
  if (database === "" || database.includes("/")) {
    throw new MysqlSourceError("mysql_invalid_config", `${host}:${port}`, `URL do MySQL sem o nome do banco (${host}:${port}): ${usage}.`);
  }
  if (user === "") {
    throw new MysqlSourceError("mysql_invalid_config", `${host}:${port}/${database}`, `URL do MySQL sem usuário (${host}:${port}/${database}): ${usage}.`);
  }
  return { host, port, user, password, database };
}

function driverCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code !== "") return code;
  // Node's happy-eyeballs connect reports an AggregateError of the per-address failures.
  if (error instanceof AggregateError && error.errors.length > 0) return driverCodeOf(error.errors[0]);
  return undefined;
}

const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
  "PROTOCOL_CONNECTION_LOST",
  "ER_CON_COUNT_ERROR",
]);
const AUTH_CODES = new Set([
  "ER_ACCESS_DENIED_ERROR",
  "ER_ACCESS_DENIED_NO_PASSWORD_ERROR",
  "ER_DBACCESS_DENIED_ERROR",
  "ER_TABLEACCESS_DENIED_ERROR",
  "ER_COLUMNACCESS_DENIED_ERROR",
  "ER_HOST_NOT_PRIVILEGED",
  "ER_NOT_SUPPORTED_AUTH_MODE",
]);

/** Turns a driver error into a {@link MysqlSourceError}; `phase` decides the code of unknown errors. */
function classify(error: unknown, phase: "connect" | "query", target: ConnectionTarget, table: string | undefined): MysqlSourceError {
  const server = `${target.host}:${target.port}`;
  const where = table === undefined ? `${server}/${target.database}` : `${server}/${target.database}.${table}`;
  const driverCode = driverCodeOf(error);
  let detail = error instanceof Error ? error.message : String(error);
  if (detail === "" && error instanceof AggregateError) detail = error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join("; ");
  // A server message could echo anything sent; never let the password through.
  if (target.password.length >= 4) detail = detail.split(target.password).join("***");
  const suffix = driverCode ? ` [${driverCode}]` : "";
  const fail = (code: MysqlSourceErrorCode, message: string) =>
    new MysqlSourceError(code, where, `${message}${suffix}`, { cause: error, driverCode });

  if (driverCode !== undefined && AUTH_CODES.has(driverCode)) {
    return fail(
      "mysql_auth",
      `Acesso negado ao MySQL em ${server} (banco "${target.database}", usuário "${target.user}"): confira o usuário, a senha e as permissões.`,
    );
  }
  if (driverCode === "ER_NO_SUCH_TABLE") {
    return fail(
      "mysql_table_missing",
      `A tabela "${table ?? "?"}" não existe no banco "${target.database}" do MySQL em ${server}.`,
    );
  }
  if (driverCode === "ER_BAD_DB_ERROR") {
    return fail(
      "mysql_table_missing",
      `O banco "${target.database}" não existe no MySQL em ${server}${table === undefined ? "" : ` (tabela "${table}")`}.`,
    );
  }
  if ((driverCode !== undefined && UNREACHABLE_CODES.has(driverCode)) || phase === "connect") {
    return fail(
      "mysql_unreachable",
      `Não foi possível conectar ao MySQL em ${server}: ${detail || "erro desconhecido"}. Confira o host, a porta e se o servidor está no ar.`,
    );
  }
  return fail(
    "mysql_query_failed",
    `Falha ao consultar ${table === undefined ? "o MySQL" : `a tabela "${table}"`} (banco "${target.database}") em ${server}: ${detail}`,
  );
}

async function open(target: ConnectionTarget, connectTimeoutMs: number, table: string | undefined): Promise<Connection> {
  const connection = await createConnection({
    host: target.host,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    charset: "UTF8MB4_UNICODE_CI",
    connectTimeout: connectTimeoutMs,
    multipleStatements: false,
    supportBigNumbers: true,
  }).catch((error: unknown) => {
    throw classify(error, "connect", target, table);
  });
  // A late fatal error is reported by the pending query's rejection; don't let it crash the process.
  connection.on("error", () => {});
  try {
    await connection.query("SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci");
  } catch (error) {
    connection.destroy();
    throw classify(error, "query", target, table);
  }
  return connection;
}

async function close(connection: Connection): Promise<void> {
  try {
    await connection.end();
  } catch {
    connection.destroy();
  }
}

function textOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  return String(value);
}

function sha256(title: string, content: string): string {
  return createHash("sha256").update(`${Buffer.byteLength(title)}:`).update(title).update(content).digest("hex");
}

/** Reads every lesson of the table, ordered by discipline then slug. */
export async function readMysqlLessons(options: MysqlSourceOptions, readOptions: ReadMysqlLessonsOptions = {}): Promise<RawDocument[]> {
  const table = resolveTable(options.table);
  const columns = resolveColumns(options.columns);
  const maxContentChars = readOptions.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  if (!Number.isSafeInteger(maxContentChars) || maxContentChars < 0) {
    throw new MysqlSourceError("mysql_invalid_config", "", `Limite de tamanho inválido: ${String(maxContentChars)} (use um inteiro ≥ 0).`);
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (!Number.isFinite(connectTimeoutMs) || connectTimeoutMs <= 0) {
    throw new MysqlSourceError("mysql_invalid_config", "", `Tempo de conexão inválido: ${String(connectTimeoutMs)} ms.`);
  }
  const target = parseUrl(options.url);

  const content = quote(columns.content);
  const sql =
    `SELECT ${quote(columns.discipline)} AS d, ${quote(columns.slug)} AS s, ${quote(columns.title)} AS t, ` +
    `CHAR_LENGTH(${content}) AS n, IF(CHAR_LENGTH(${content}) > ?, NULL, ${content}) AS c ` +
    `FROM ${quote(table)} ORDER BY 1, 2`;

  const connection = await open(target, Math.round(connectTimeoutMs), table);
  let rows: RowDataPacket[];
  try {
    [rows] = await connection.query<RowDataPacket[]>(sql, [maxContentChars]);
  } catch (error) {
    throw classify(error, "query", target, table);
  } finally {
    await close(connection);
  }

  const warn = readOptions.onWarning ?? (() => {});
  const seen = new Set<string>();
  const documents: RawDocument[] = [];
  for (const row of rows) {
    const discipline = textOf(row.d)?.trim() ?? "";
    const slug = textOf(row.s)?.trim() ?? "";
    const sourceId = `db:${discipline}/${slug}`;
    const skip = (code: MysqlSourceWarningCode, message: string) => warn({ code, sourceId, message: `${sourceId}: ${message}` });
    if (discipline === "" || slug === "") {
      skip("row_invalid", `linha ignorada, ${discipline === "" ? "disciplina" : "slug"} vazio ou nulo (tabela "${table}").`);
      continue;
    }
    if (seen.has(sourceId)) {
      skip("duplicate_document", `linha duplicada ignorada (tabela "${table}"); vale a primeira.`);
      continue;
    }
    seen.add(sourceId);
    const chars = Number(row.n ?? 0);
    if (chars > maxContentChars) {
      skip(
        "document_too_large",
        `conteúdo grande demais (${chars.toLocaleString("pt-BR")} caracteres; limite ${maxContentChars.toLocaleString("pt-BR")}), documento ignorado.`,
      );
      continue;
    }
    const title = textOf(row.t)?.trim() || undefined;
    const text = textOf(row.c) ?? "";
    const document: RawDocument = {
      collection: options.collection,
      discipline,
      slug,
      sourceId,
      content: text,
      sha256: sha256(title ?? "", text),
    };
    if (title !== undefined) document.title = title;
    documents.push(document);
  }
  return documents;
}

/** The `CREATE TABLE IF NOT EXISTS` statement of a lessons table (docs/mysql-lessons.sql holds the default one). */
export function lessonsTableSql(table = "lessons", columns?: MysqlLessonColumns): string {
  const name = resolveTable(table);
  const c = resolveColumns(columns);
  return [
    `CREATE TABLE IF NOT EXISTS ${quote(name)} (`,
    "  `id` INT AUTO_INCREMENT PRIMARY KEY,",
    `  ${quote(c.discipline)} VARCHAR(120) NOT NULL,`,
    `  ${quote(c.slug)} VARCHAR(190) NOT NULL,`,
    `  ${quote(c.title)} VARCHAR(300) NOT NULL,`,
    `  ${quote(c.content)} LONGTEXT,`,
    `  ${quote(c.updatedAt)} TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,`,
    `  UNIQUE KEY \`uq_discipline_slug\` (${quote(c.discipline)}, ${quote(c.slug)})`,
    ") ENGINE=InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
  ].join("\n");
}

/**
 * Creates the lessons table if it does not exist, on an open connection or on a
 * `mysql://…` URL (a connection is then opened and closed here).
 */
export async function createLessonsTable(target: Connection | string, table = "lessons", columns?: MysqlLessonColumns): Promise<void> {
  const sql = lessonsTableSql(table, columns);
  if (typeof target !== "string") {
    await target.query(sql);
    return;
  }
  const parsed = parseUrl(target);
  const connection = await open(parsed, DEFAULT_CONNECT_TIMEOUT_MS, table);
  try {
    await connection.query(sql);
  } catch (error) {
    throw classify(error, "query", parsed, table);
  } finally {
    await close(connection);
  }
}
