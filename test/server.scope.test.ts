/**
 * The out-of-scope gate through /api/chat: off-topic questions get the fixed reply with no
 * model call and a `done` event that says so, with the offline stub, a scripted provider and
 * the OpenAI adapter against a local fake of its wire protocol; worldly-pastoral questions are
 * answered; the same gate runs on a document collection. Small talk (a greeting, thanks, a
 * goodbye) gets its friendly reply, never the refusal, and no search or model call.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OFF_TOPIC_EXAMPLES, WORLDLY_PASTORAL_EXAMPLES } from "./support/scope-questions.js";
import { createStubProvider } from "../src/adapters/chat/stub.js";
import { createProvider, providerConfigFromEnv } from "../src/adapters/chat/providers.js";
import { documentOutOfScopeMessage } from "../src/core/grounding/document-prompt.js";
import { OUT_OF_SCOPE_MESSAGE } from "../src/core/grounding/prompt.js";
import { smallTalkReply } from "../src/core/chat/small-talk.js";
import { tempDir } from "./support/usfx.js";
import { realBibleIndex, ROOT } from "./support/bible-index.js";
import { startFakeLlmServer, type FakeLlmServer } from "./support/fake-llm-servers.js";
import { conversationIdOf, ISSUED_CONVERSATION_ID, parseSse, postChat, ScriptedProvider, startTestServer, type TestServer } from "./support/server.js";

const OFF_TOPIC = OFF_TOPIC_EXAMPLES;
const WORLDLY_PASTORAL = WORLDLY_PASTORAL_EXAMPLES;

let dataDir: string;
beforeAll(async () => {
  ({ dataDir } = await realBibleIndex());
}, 180_000);

async function withServer<T>(
  provider: Parameters<typeof startTestServer>[1],
  work: (server: TestServer) => Promise<T>,
  env: Record<string, string> = {},
  dir = dataDir,
): Promise<T> {
  const server = await startTestServer(dir, provider, env);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/** A server over the sample lessons' collection "exemplo", read first, in a data directory of its own. */
function withExampleCollection<T>(provider: Parameters<typeof startTestServer>[1], dataPrefix: string, work: (server: TestServer) => Promise<T>): Promise<T> {
  return withServer(
    provider,
    async (server) => {
      await server.collections.reload("exemplo");
      return work(server);
    },
    { COLLECTIONS_DIR: path.join(ROOT, "collections") },
    tempDir(dataPrefix),
  );
}

describe("off-topic questions through /api/chat", () => {
  it("writes the exact bytes of the refusal with the offline stub: no sources, the fixed reply, done with the refusal", async () => {
    await withServer(createStubProvider({ chunkDelayMs: 0 }), async (server) => {
      for (const message of OFF_TOPIC) {
        const body = await (await postChat(server.url, { message })).text();
        const events = parseSse(body);
        expect(events.map((event) => event.event), message).toEqual(["sources", "token", "done"]);
        const sources = events[0]!.data as { conversationId: string; sources: unknown[]; scope: { inScope: boolean; doubtful: boolean; reasons: { rule: string } } };
        expect(sources).toMatchObject({ conversationId: expect.stringMatching(ISSUED_CONVERSATION_ID), sources: [], scope: { inScope: false, doubtful: false, reasons: { rule: "model" } } });
        expect(body).toContain(`event: token\ndata: ${JSON.stringify({ text: OUT_OF_SCOPE_MESSAGE })}\n\n`);
        expect(body.endsWith('event: done\ndata: {"citations":[],"kind":"out_of_scope","refusal":"out_of_scope"}\n\n')).toBe(true);
      }
    });
  });

  it("never calls the model (scripted provider)", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withServer(provider, async (server) => {
      for (const message of OFF_TOPIC) await (await postChat(server.url, { message })).text();
      expect(provider.requests).toHaveLength(0);
    });
  });

  it("never reaches a real provider: the OpenAI adapter's fake server receives no request", async () => {
    const fake: FakeLlmServer = await startFakeLlmServer("openai");
    try {
      fake.script({ chunks: ["Uma resposta qualquer."] });
      const provider = createProvider(
        providerConfigFromEnv({ LLM_PROVIDER: "openai", LLM_MODEL: "gpt-4o-mini", OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: fake.apiKey }),
      );
      await withServer(provider, async (server) => {
        for (const message of OFF_TOPIC) {
          const events = parseSse(await (await postChat(server.url, { message })).text());
          expect(events.at(-1)).toEqual({ event: "done", data: { citations: [], kind: "out_of_scope", refusal: "out_of_scope" } });
        }
        expect(fake.requests).toHaveLength(0);
        // The same server still calls the provider for a real question (the gate runs first, the prompt's refusal stays second).
        const events = parseSse(await (await postChat(server.url, { message: "o que Jesus disse sobre amar os inimigos?" })).text());
        expect(events.at(-1)!.event).toBe("done");
        expect(fake.requests).toHaveLength(1);
      });
    } finally {
      await fake.close();
    }
  });
});

describe("worldly but pastoral questions are answered", () => {
  it.each(WORLDLY_PASTORAL)("%s", async (message) => {
    const provider = new ScriptedProvider(["Uma palavra de conforto."]);
    await withServer(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message })).text());
      const sources = (events[0]!.data as { sources: unknown[]; scope?: unknown }).sources;
      expect(sources.length).toBeGreaterThan(0);
      expect((events[0]!.data as { scope?: unknown }).scope).toBeUndefined();
      expect(events.at(-1)).toEqual({ event: "done", data: { citations: [], kind: expect.any(String) as unknown } });
      expect(provider.requests).toHaveLength(1);
    });
  });

  it("the no-evidence answer keeps its own refusal", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withServer(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "o que é que nós somos" })).text());
      expect(events.at(-1)).toEqual({ event: "done", data: { citations: [], kind: "no_evidence", refusal: "no_evidence" } });
      expect(provider.requests).toHaveLength(0);
    });
  });
});

describe("a question the gate keeps with a doubt", () => {
  // The shipped classifier puts it between the doubt threshold and the refusal threshold.
  const DOUBTED = "meu gato n come faz 2 dias, tenho q levar no vet?";

  it("is answered, with the doubt in the sources event, the offline stub offering the nearest passages", async () => {
    await withServer(createStubProvider({ chunkDelayMs: 0 }), async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: DOUBTED, conversationId: "c-gato" })).text());
      expect(events[0]!.event).toBe("sources");
      const data = events[0]!.data as { sources: unknown[]; scope: { inScope: boolean; doubtful: boolean; confidence: number } };
      expect(data.sources.length).toBeGreaterThan(0);
      expect(data.scope).toMatchObject({ inScope: true, doubtful: true });
      const text = events.filter((event) => event.event === "token").map((event) => (event.data as { text: string }).text).join("");
      expect(text.startsWith(`Para “${DOUBTED}”, estas são as passagens mais próximas que encontrei.`)).toBe(true);
      expect(events.at(-1)!.event).toBe("done");
    });
  });

  it("tells a real model in the prompt, and a question kept without a doubt says nothing of it", async () => {
    const provider = new ScriptedProvider(["Uma resposta.", "Outra resposta."]);
    await withServer(provider, async (server) => {
      await (await postChat(server.url, { message: DOUBTED })).text();
      expect(provider.requests[0]!.messages.at(-1)!.content).toContain("<aviso>A busca não tem certeza de que a Bíblia trata desta pergunta.");
      const kept = parseSse(await (await postChat(server.url, { message: "perdi meu emprego e estou com medo" })).text());
      expect((kept[0]!.data as { scope?: unknown }).scope).toBeUndefined();
      expect(provider.requests[1]!.messages.at(-1)!.content).not.toContain("<aviso>");
    });
  });
});

describe("the gate on a document collection", () => {
  it("refuses a cake recipe over the sample lessons with the collection's reply, and answers what they treat", async () => {
    const provider = new ScriptedProvider(["Segundo o material [1]."]);
    await withExampleCollection(provider, "pastor-scope-data-", async (server) => {
      const refused = parseSse(await (await postChat(server.url, { message: "como fazer um bolo de chocolate?", collection: "exemplo" })).text());
      expect(refused.map((event) => event.event)).toEqual(["sources", "token", "done"]);
      expect(refused[0]!.data).toMatchObject({ collection: "exemplo", sources: [], scope: { inScope: false } });
      expect(refused[1]!.data).toEqual({ text: documentOutOfScopeMessage("exemplo") });
      expect(refused[2]!.data).toEqual({ citations: [], kind: "out_of_scope", refusal: "out_of_scope" });
      expect(provider.requests).toHaveLength(0);
      const answered = parseSse(await (await postChat(server.url, { message: "o que é a Trindade?", collection: "exemplo" })).text());
      expect((answered[0]!.data as { sources: unknown[] }).sources.length).toBeGreaterThan(0);
      expect(provider.requests).toHaveLength(1);
    });
  });
});

describe("small talk through /api/chat", () => {
  it("writes the exact bytes of the greeting's reply: no sources, no scope, done naming the kind, no model call", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withServer(provider, async (server) => {
      const body = await (await postChat(server.url, { message: "Olá, pastor! Tudo bem?" })).text();
      expect(conversationIdOf(body)).toMatch(ISSUED_CONVERSATION_ID);
      expect(body).toBe(
        `event: sources\ndata: {"conversationId":"${conversationIdOf(body)}","sources":[]}\n\n` +
          `event: token\ndata: ${JSON.stringify({ text: smallTalkReply("greeting") })}\n\n` +
          'event: done\ndata: {"citations":[],"kind":"small_talk","smallTalk":"greeting"}\n\n',
      );
      for (const [message, kind] of [
        ["muito obrigada pela ajuda!", "thanks"],
        ["Amém", "blessing"],
        ["tchau, fique com Deus", "farewell"],
      ] as const) {
        const events = parseSse(await (await postChat(server.url, { message })).text());
        expect(events[1]!.data, message).toEqual({ text: smallTalkReply(kind) });
        expect(events[2]!.data, message).toEqual({ citations: [], kind: "small_talk", smallTalk: kind });
      }
      expect(provider.requests).toHaveLength(0);
      // A greeting followed by a question is a question: searched and answered by the model.
      const events = parseSse(await (await postChat(server.url, { message: "bom dia, o que Jesus disse sobre amar os inimigos?" })).text());
      expect((events[0]!.data as { sources: unknown[] }).sources.length).toBeGreaterThan(0);
      expect(events.at(-1)).toEqual({ event: "done", data: { citations: [], kind: "question" } });
      expect(provider.requests).toHaveLength(1);
    });
  });

  it("searches the question inside a greeting or a thanks as the question alone", async () => {
    const provider = new ScriptedProvider(["Não temas."]);
    await withServer(provider, async (server) => {
      const sourcesOf = async (message: string) => (parseSse(await (await postChat(server.url, { message })).text())[0]!.data as { sources: { ref: string }[] }).sources.map((source) => source.ref);
      const alone = await sourcesOf("estou com medo do futuro");
      expect(alone.length).toBeGreaterThan(0);
      expect(await sourcesOf("Bom dia, pastor! Estou com medo do futuro")).toEqual(alone);
      expect(await sourcesOf("estou com medo do futuro. Obrigada, irmão!")).toEqual(alone);
      // Before, "bom" and "pastor" led to the good shepherd.
      expect(alone).not.toContain("JHN 10:11");
      expect(provider.requests.at(-1)!.question).toBe("estou com medo do futuro. Obrigada, irmão!");
    });
  });

  it("on a document collection, speaks of the collection", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withExampleCollection(provider, "pastor-small-talk-data-", async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "oi", collection: "exemplo" })).text());
      expect(events.map((event) => event.event)).toEqual(["sources", "token", "done"]);
      expect(events[0]!.data).toMatchObject({ collection: "exemplo", sources: [] });
      expect(events[1]!.data).toEqual({ text: smallTalkReply("greeting", "exemplo") });
      expect(events[2]!.data).toEqual({ citations: [], kind: "small_talk", smallTalk: "greeting" });
      expect(provider.requests).toHaveLength(0);
    });
  });
});

describe("a follow-up through /api/chat", () => {
  it("on a document collection, is searched with the question before it too", async () => {
    const provider = new ScriptedProvider(["Segundo o material [1]."]);
    await withExampleCollection(provider, "pastor-follow-up-data-", async (server) => {
      const history = [
        { role: "user", content: "o que é a Trindade?" },
        { role: "assistant", content: "Segundo o material [1]." },
      ];
      const sourcesOf = (events: ReturnType<typeof parseSse>) => (events[0]!.data as { sources: { sourceId: string }[] }).sources.map((source) => source.sourceId);
      const followed = parseSse(await (await postChat(server.url, { message: "me dá outro exemplo", history, collection: "exemplo" })).text());
      expect(sourcesOf(followed)).toContain("teologia/a-trindade.md");
      const alone = parseSse(await (await postChat(server.url, { message: "me dá outro exemplo", collection: "exemplo" })).text());
      expect(sourcesOf(alone)).not.toContain("teologia/a-trindade.md");
    });
  });

  it("is searched with the question before it (the model still reads it as written); alone, it is not", async () => {
    const provider = new ScriptedProvider(["Jesus ensinou a amar os inimigos."]);
    await withServer(provider, async (server) => {
      const history = [
        { role: "user", content: "o que Jesus disse sobre amar os inimigos?" },
        { role: "assistant", content: "Amai os vossos inimigos (Mateus 5:44)." },
      ];
      const refs = (events: ReturnType<typeof parseSse>) => (events[0]!.data as { sources: { ref: string }[] }).sources.map((source) => source.ref);
      const followed = parseSse(await (await postChat(server.url, { message: "pode explicar melhor?", history })).text());
      expect(refs(followed)).toContain("MAT 5:44");
      expect(provider.requests[0]!.question).toBe("pode explicar melhor?");
      expect(provider.requests[0]!.messages.at(-1)!.content).toContain("pode explicar melhor?");
      const alone = parseSse(await (await postChat(server.url, { message: "pode explicar melhor?" })).text());
      expect(refs(alone)).not.toContain("MAT 5:44");
    });
  });
});
