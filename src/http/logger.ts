import { printable } from "../core/printable.js";

/** Structured logs: one JSON object a line on stderr (time, level, message, fields). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createJsonLogger(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Logger {
  const log = (level: string) => (message: string, fields: Record<string, unknown> = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, message, ...printableFields(fields) }));
  return { info: log("info"), warn: log("warn"), error: log("error") };
}

/**
 * The fields' texts without NUL and with their controls escaped (`printable`): an error
 * message may quote a file's name or content, and a log line read with `jq -r` or `less`
 * must not act on the terminal.
 */
function printableFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = typeof value === "string" ? printable(value) : value;
  return out;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The same logger with `fields` (a request id, say) on every line it writes. */
export function withFields(logger: Logger, fields: Record<string, unknown>): Logger {
  return {
    info: (message, more) => logger.info(message, { ...fields, ...more }),
    warn: (message, more) => logger.warn(message, { ...fields, ...more }),
    error: (message, more) => logger.error(message, { ...fields, ...more }),
  };
}
