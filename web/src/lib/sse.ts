/**
 * A small Server-Sent Events parser (the `text/event-stream` format of the HTML standard):
 * lines end with CRLF, LF or CR, a blank line dispatches the event, `data:` lines are joined
 * with "\n", `event:` names it (default "message"), lines starting with ":" are comments, and
 * one space after the colon is dropped. Input may be cut anywhere, even between the CR and
 * the LF of one line ending or inside a multi-byte character (see `readSse`).
 */

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = "";
  /** The previous chunk ended with CR: an LF at the start of the next one belongs to it. */
  private pendingCr = false;
  private eventName = "";
  private dataLines: string[] = [];
  private hasData = false;
  private lastId: string | undefined;

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  /** Feeds decoded text; calls `onMessage` for every event completed by it. */
  push(text: string): void {
    if (text === "") return;
    let chunk = text;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk.startsWith("\n")) chunk = chunk.slice(1);
    }
    this.buffer += chunk;
    let start = 0;
    for (;;) {
      const lineEnd = nextLineEnd(this.buffer, start);
      if (lineEnd === -1) break;
      const line = this.buffer.slice(start, lineEnd);
      if (this.buffer[lineEnd] === "\r") {
        if (lineEnd + 1 === this.buffer.length) {
          // A CR at the very end: the LF (if any) comes with the next chunk.
          this.pendingCr = true;
          start = lineEnd + 1;
        } else {
          start = this.buffer[lineEnd + 1] === "\n" ? lineEnd + 2 : lineEnd + 1;
        }
      } else {
        start = lineEnd + 1;
      }
      this.processLine(line);
    }
    this.buffer = this.buffer.slice(start);
  }

  /**
   * The stream ended. Per the standard, an event that was not terminated by a blank line is
   * discarded; a final line without its line ending is still taken as a line first.
   */
  end(): void {
    if (this.buffer !== "") {
      this.processLine(this.buffer);
      this.buffer = "";
    }
    this.pendingCr = false;
    this.reset();
  }

  private processLine(line: string): void {
    if (line === "") {
      this.dispatch();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventName = value;
        break;
      case "data":
        this.dataLines.push(value);
        this.hasData = true;
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
      default:
        // "retry" and unknown fields are ignored.
        break;
    }
  }

  private dispatch(): void {
    if (this.hasData) {
      const message: SseMessage = { event: this.eventName === "" ? "message" : this.eventName, data: this.dataLines.join("\n") };
      if (this.lastId !== undefined) message.id = this.lastId;
      this.onMessage(message);
    }
    this.reset();
  }

  private reset(): void {
    this.eventName = "";
    this.dataLines = [];
    this.hasData = false;
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}

/** Parses a whole SSE text at once (handy for tests and small bodies). */
export function parseSseText(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = new SseParser((message) => out.push(message));
  parser.push(text);
  parser.end();
  return out;
}

/**
 * Reads an SSE body as it arrives and yields each event once complete. Bytes are decoded as
 * UTF-8 in streaming mode, so a character cut between two network chunks is kept whole.
 * Breaking out of the loop (or an abort of the fetch) cancels the reader.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const ready: SseMessage[] = [];
  const parser = new SseParser((message) => ready.push(message));
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        parser.push(decoder.decode());
        parser.end();
        finished = true;
      } else {
        parser.push(decoder.decode(value, { stream: true }));
      }
      while (ready.length > 0) yield ready.shift()!;
      if (finished) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
