import type { Context, MiddlewareHandler } from "hono";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { apiError } from "./errors.js";
import type { RateLimiter } from "./limits.js";

/**
 * The guard of the routes that rewrite the index (`POST /api/reindex`, `POST /api/reload`),
 * in the order a request meets it:
 *
 * 1. **Origin.** A browser says where a request comes from (`Origin`, `Sec-Fetch-Site`): one
 *    from another origin than the server's own (or one of `CORS_ORIGINS`, which the operator
 *    trusts) is refused with 403 `cross_origin`, so that a page elsewhere cannot make a
 *    visitor's browser reindex a server it can reach. A request without either header is not
 *    from a page (curl, a script) and goes on.
 * 2. **Content type.** A body, or a `Content-Type`, must be JSON (415 otherwise): the forms a
 *    page can send without asking first (`text/plain`, form encodings) never pass.
 * 3. **Token.** With a token (REINDEX_TOKEN, or the one `startServer` generates when it listens
 *    beyond the loopback without one) `X-Reindex-Token` must hold it (401 missing, 403 wrong,
 *    compared in constant time). Without one the server listens only on the loopback, and the
 *    request must name a loopback host (403 `admin_host_refused`): a page whose name resolves
 *    to 127.0.0.1 (DNS rebinding) still names its own host.
 * 4. **Rate.** A refused request takes from the client's bucket of refusals, a granted one from
 *    the client's admin bucket: failed attempts (a guessed token, a page's form) can use up
 *    only their own bucket, never the real admin's; both refill at ADMIN_RATE_PER_MINUTE.
 */
export interface AdminGuardOptions {
  /** The token to require; absent: none (the server listens only on the loopback). */
  token: string | undefined;
  /** Origins besides the server's own allowed to call (CORS_ORIGINS). */
  trustedOrigins: readonly string[];
  /** Per-client buckets (absent with RATE_LIMIT=false). */
  limits?: {
    granted: RateLimiter;
    refused: RateLimiter;
    clientOf: (c: Context) => string;
    /** Answers a request past its bucket (429 with Retry-After). */
    tooMany: (c: Context, waitSeconds: number, kind: "granted" | "refused") => Response;
  };
  /** Told of each refusal answered as such, not held back by the rate (for the metrics and the log). */
  onRefused?: (c: Context, code: string) => void;
}

export function adminGuard(options: AdminGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const refusal = refusalOf(c, options);
    const limits = options.limits;
    if (refusal) {
      const wait = limits ? limits.refused.take(limits.clientOf(c)) : 0;
      if (wait > 0) return limits!.tooMany(c, wait, "refused");
      options.onRefused?.(c, refusal.code);
      return apiError(c, refusal.status, refusal.code, refusal.message);
    }
    const wait = limits ? limits.granted.take(limits.clientOf(c)) : 0;
    if (wait > 0) return limits!.tooMany(c, wait, "granted");
    return next();
  };
}

interface Refusal {
  status: 401 | 403 | 415;
  code: string;
  message: string;
}

function refusalOf(c: Context, options: AdminGuardOptions): Refusal | undefined {
  if (!fromAllowedOrigin(c, options.trustedOrigins)) {
    return { status: 403, code: "cross_origin", message: "Pedidos de reindexação ou recarga só são aceitos da origem do próprio servidor." };
  }
  if (!jsonOrNoBody(c)) {
    return { status: 415, code: "unsupported_media_type", message: "O corpo de um pedido de reindexação ou recarga deve ser JSON (Content-Type: application/json)." };
  }
  const expected = options.token;
  if (expected === undefined) {
    if (!isLoopbackHost(hostnameOf(c.req.header("Host") ?? ""))) {
      return {
        status: 403,
        code: "admin_host_refused",
        message: "Sem REINDEX_TOKEN, pedidos de reindexação ou recarga só são aceitos pelo endereço local (localhost ou 127.0.0.1).",
      };
    }
    return undefined;
  }
  const given = c.req.header("X-Reindex-Token");
  if (given === undefined) return { status: 401, code: "reindex_token_missing", message: "Informe o cabeçalho X-Reindex-Token." };
  if (!sameSecret(given, expected)) return { status: 403, code: "reindex_token_invalid", message: "X-Reindex-Token inválido." };
  return undefined;
}

/**
 * Whether the page that sent the request (if a page did) is this server's own origin or a
 * trusted one. Browsers send `Origin` on every POST and `Sec-Fetch-Site` on every request;
 * neither can be set by the page. The server's own origin is the one whose host is the
 * request's `Host` (the scheme is left out: a TLS proxy in front speaks http to us).
 */
function fromAllowedOrigin(c: Context, trusted: readonly string[]): boolean {
  const origin = c.req.header("Origin");
  if (origin !== undefined) {
    if (trusted.includes(origin)) return true;
    const host = c.req.header("Host");
    if (origin === "null" || host === undefined) return false;
    try {
      const from = new URL(origin);
      return from.host === new URL(`${from.protocol}//${host}`).host;
    } catch {
      return false;
    }
  }
  const site = c.req.header("Sec-Fetch-Site");
  return site === undefined || site === "same-origin" || site === "none";
}

/** No body and no content type, or JSON. */
function jsonOrNoBody(c: Context): boolean {
  const type = c.req.header("Content-Type");
  if (type !== undefined) return /^application\/json\s*(;|$)/i.test(type.trim());
  const length = c.req.header("Content-Length");
  const chunked = c.req.header("Transfer-Encoding") !== undefined;
  return !chunked && (length === undefined || Number(length) === 0);
}

/** The host name of a `Host` header or a listening address ("[::1]:3000" → "::1"). */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  if (bracketed) return bracketed[1]!;
  // One colon: name or IPv4 with a port; more: a bare IPv6 address.
  return host.split(":").length === 2 ? host.split(":")[0]! : host;
}

/** localhost, 127.0.0.0/8 or ::1 (also as an IPv4-mapped address). */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (name === "localhost" || name === "::1") return true;
  return /^(::ffff:)?127(\.\d{1,3}){3}$/.test(name);
}

/** A fresh admin token: 192 random bits, URL-safe. */
export function generateAdminToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Constant-time comparison of two secrets (hashing first evens out their lengths). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (secret: string) => createHash("sha256").update(secret).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
