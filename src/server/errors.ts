import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every API error: a stable code and a Portuguese message, under `error`. */
export interface ApiErrorBody {
  error: { code: string; message: string };
}

export function apiError(c: Context, status: ContentfulStatusCode, code: string, message: string) {
  return c.json({ error: { code, message } } satisfies ApiErrorBody, status);
}
