/**
 * Text that came from data (a file name, a document title, an error message quoting a file's
 * content) made safe to show on a terminal, in a log line or in a JSON error: every character
 * that could act instead of being read is written out as an escape — C0 controls (ESC clears
 * the screen, CR and LF forge lines), DEL, C1 controls (a single-byte CSI on some terminals)
 * and the bidirectional marks and overrides that make text display in another order than it
 * is stored ("Ap 22:12" shown for "Ap 21:22"). NUL is dropped. Every other character, accents
 * and emoji included, stays as it is; the result holds no such character, so applying it twice
 * changes nothing.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOf(char: string): string {
  if (char === "\u0000") return "";
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with its control, DEL, C1 and bidirectional characters escaped (`\x1b`, `\n`, `\u202e`) and NUL removed. */
export function printable(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, indent)` with the characters it leaves raw (DEL, C1, the
 * bidirectional ones) written as `\uXXXX` too: the same JSON value (they only occur inside
 * strings), nothing a terminal acts on. The C0 controls JSON escapes already.
 */
export function printableJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
