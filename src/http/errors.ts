import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { printable } from "../core/printable.js";

/** Every API error: a stable code and a Portuguese message, under `error`, with the request's id. */
export interface ApiErrorBody {
  error: { code: string; message: string; requestId?: string };
}

export function apiError(c: Context, status: ContentfulStatusCode, code: string, raw: string, headers?: Record<string, string>) {
  const requestId = c.get("requestId") as string | undefined;
  // The message may quote what the client sent (a collection name, a path): NUL out, controls escaped.
  const message = printable(raw);
  const body: ApiErrorBody = { error: requestId ? { code, message, requestId } : { code, message } };
  return c.json(body, status, headers);
}
