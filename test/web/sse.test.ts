import { describe, expect, it } from "vitest";
import { ApiError, streamChat, type ChatEvent } from "../../web/src/lib/api";
import { parseSseText, readSse, SseParser, type SseMessage } from "../../web/src/lib/sse";
import { json, manualStream, mockApi, sseText } from "./helpers";

function parseInPieces(pieces: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = new SseParser((message) => out.push(message));
  for (const piece of pieces) parser.push(piece);
  parser.end();
  return out;
}

function bytesStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const message of readSse(stream)) out.push(message);
  return out;
}

const SAMPLE =
  'event: sources\ndata: {"conversationId":"c1","sources":[]}\n\n' +
  'event: token\ndata: {"text":"Porque Deus amou o mundo "}\n\n' +
  'event: token\ndata: {"text":"(João 3:16)."}\n\n' +
  'event: done\ndata: {"citations":["João 3:16"]}\n\n';

describe("SseParser", () => {
  it("reads named events with their data", () => {
    expect(parseSseText(SAMPLE)).toEqual([
      { event: "sources", data: '{"conversationId":"c1","sources":[]}' },
      { event: "token", data: '{"text":"Porque Deus amou o mundo "}' },
      { event: "token", data: '{"text":"(João 3:16)."}' },
      { event: "done", data: '{"citations":["João 3:16"]}' },
    ]);
  });

  it("gives the same events however the text is cut, at every position and character by character", () => {
    const whole = parseSseText(SAMPLE);
    for (let cut = 0; cut <= SAMPLE.length; cut += 1) {
      expect(parseInPieces([SAMPLE.slice(0, cut), SAMPLE.slice(cut)])).toEqual(whole);
    }
    expect(parseInPieces([...SAMPLE])).toEqual(whole);
  });

  it("accepts CRLF and lone CR line endings, also with the CR and LF in different chunks", () => {
    const crlf = SAMPLE.replaceAll("\n", "\r\n");
    const cr = SAMPLE.replaceAll("\n", "\r");
    const whole = parseSseText(SAMPLE);
    expect(parseSseText(crlf)).toEqual(whole);
    expect(parseSseText(cr)).toEqual(whole);
    for (let cut = 0; cut <= crlf.length; cut += 1) {
      expect(parseInPieces([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(whole);
    }
    // "data: a\r" + "\ndata: b\r\n\r\n": the LF after a chunk-final CR is not a blank line
    expect(parseInPieces(["data: a\r", "\ndata: b\r\n\r\n"])).toEqual([{ event: "message", data: "a\nb" }]);
  });

  it("joins multi-line data with newlines, keeps a space only when there are two, and ignores comments and unknown fields", () => {
    const text = ": keep-alive\nevent: token\ndata: linha um\ndata:linha dois\ndata:  recuada\nretry: 1000\nfoo: bar\nid: 7\n\n";
    expect(parseSseText(text)).toEqual([{ event: "token", data: "linha um\nlinha dois\n recuada", id: "7" }]);
  });

  it("defaults the event name to 'message', dispatches empty data, and skips events without data", () => {
    expect(parseSseText("data\n\nevent: vazio\n\ndata: x\n\n")).toEqual([
      { event: "message", data: "" },
      { event: "message", data: "x" },
    ]);
  });

  it("drops an event that the stream ended before its blank line", () => {
    expect(parseSseText('event: token\ndata: {"text":"a"}\n\nevent: token\ndata: {"text":"b"}')).toEqual([
      { event: "token", data: '{"text":"a"}' },
    ]);
  });
});

describe("readSse", () => {
  it("keeps a multi-byte character whole when the network cuts it in two", async () => {
    const bytes = new TextEncoder().encode('event: token\r\ndata: {"text":"Ó Senhor, ação de graças 🙏"}\r\n\r\n');
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.slice(i, i + 3));
    expect(await collect(bytesStream(chunks))).toEqual([{ event: "token", data: '{"text":"Ó Senhor, ação de graças 🙏"}' }]);
  });

  it("yields each event as soon as it is complete", async () => {
    const stream = manualStream();
    const iterator = readSse(stream.response.body!);
    stream.raw("event: token\ndata: 1\n");
    stream.raw("\nevent: tok");
    expect((await iterator.next()).value).toEqual({ event: "token", data: "1" });
    stream.raw("en\ndata: 2\n\n");
    expect((await iterator.next()).value).toEqual({ event: "token", data: "2" });
    stream.end();
    expect((await iterator.next()).done).toBe(true);
  });
});

describe("streamChat", () => {
  async function events(request = { message: "João 3:16" }): Promise<ChatEvent[]> {
    const out: ChatEvent[] = [];
    for await (const event of streamChat(request, new AbortController().signal)) out.push(event);
    return out;
  }

  it("turns the server's events into sources, tokens and done", async () => {
    const fetchMock = mockApi({
      "/api/chat": () =>
        new Response(
          sseText([
            { event: "sources", data: { conversationId: "c9", sources: [] } },
            { event: "token", data: { text: "Olá" } },
            { event: "done", data: { citations: ["João 3:16"] } },
          ]),
          { headers: { "Content-Type": "text/event-stream" } },
        ),
    });
    expect(await events({ message: "João 3:16" })).toEqual([
      { type: "sources", conversationId: "c9", sources: [] },
      { type: "token", text: "Olá" },
      { type: "done", citations: ["João 3:16"] },
    ]);
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({ message: "João 3:16" });
  });

  it("ignores the kind the server may add to 'done' (what sort of question it was), whatever its value", async () => {
    const kinds = ["about_assistant", "quotation_check", "explain_passage", "quote_passage", "study_prep", "person", "definition", "practice", "place", "event", "a kind not known yet", 42, null];
    for (const kind of kinds) {
      mockApi({
        "/api/chat": () =>
          new Response(
            sseText([
              { event: "sources", data: { conversationId: "c9", sources: [] } },
              { event: "token", data: { text: "Olá" } },
              { event: "done", data: { citations: ["João 3:16"], kind } },
            ]),
            { headers: { "Content-Type": "text/event-stream" } },
          ),
      });
      expect((await events()).at(-1)).toEqual({ type: "done", citations: ["João 3:16"] });
    }
    // Beside a refusal or a greeting, it changes nothing either.
    mockApi({
      "/api/chat": () => new Response(sseText([{ event: "done", data: { citations: [], refusal: "no_evidence", smallTalk: "greeting", kind: "definition" } }])),
    });
    expect(await events()).toEqual([{ type: "done", citations: [], refusal: "no_evidence", smallTalk: true }]);
  });

  it("throws the server's Portuguese message for an error event", async () => {
    mockApi({
      "/api/chat": () =>
        new Response(
          sseText([
            { event: "sources", data: { conversationId: "c9", sources: [] } },
            { event: "error", data: { code: "llm_unavailable", message: "O serviço de respostas está fora do ar." } },
          ]),
        ),
    });
    await expect(events()).rejects.toMatchObject({ kind: "stream", code: "llm_unavailable", message: "O serviço de respostas está fora do ar." });
  });

  it("explains a 413 and a 503 in Portuguese", async () => {
    mockApi({ "/api/chat": () => json({ error: { code: "message_too_long", message: "A mensagem tem 4100 caracteres; o limite é 4000." } }, 413) });
    await expect(events()).rejects.toMatchObject({ code: "message_too_long", status: 413, message: expect.stringMatching(/longa demais.*4000/u) });
    mockApi({ "/api/chat": () => json({ error: { code: "index_not_ready", message: "O índice ainda está sendo preparado." } }, 503) });
    await expect(events()).rejects.toMatchObject({ code: "index_not_ready", status: 503, message: "O índice ainda está sendo preparado." });
    mockApi({ "/api/chat": () => new Response("<html>Bad Gateway</html>", { status: 502 }) });
    await expect(events()).rejects.toMatchObject({ status: 502, message: expect.stringContaining("não está respondendo") });
  });

  it("reports a failed connection and a stream cut before 'done' as network problems", async () => {
    mockApi({
      "/api/chat": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await expect(events()).rejects.toMatchObject({ kind: "network", message: expect.stringContaining("Não foi possível falar com o servidor") });

    mockApi({ "/api/chat": () => new Response(sseText([{ event: "token", data: { text: "Porque" } }])) });
    await expect(events()).rejects.toBeInstanceOf(ApiError);

    mockApi({
      "/api/chat": () => {
        const stream = manualStream();
        stream.send("token", { text: "Porque" });
        setTimeout(() => stream.fail(), 5);
        return stream.response;
      },
    });
    await expect(events()).rejects.toMatchObject({ kind: "network", code: "interrupted" });
  });

  it("ends quietly when the request is aborted", async () => {
    let stream: ReturnType<typeof manualStream> | undefined;
    mockApi({
      "/api/chat": (_url, init) => {
        stream = manualStream(init?.signal);
        stream.send("token", { text: "Porque" });
        return stream.response;
      },
    });
    const controller = new AbortController();
    const seen: ChatEvent[] = [];
    for await (const event of streamChat({ message: "x" }, controller.signal)) {
      seen.push(event);
      controller.abort();
    }
    expect(seen).toEqual([{ type: "token", text: "Porque" }]);
    expect(stream?.aborted).toBe(true);
  });
});
