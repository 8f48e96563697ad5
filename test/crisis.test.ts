/**
 * A person at risk (src/core/reading/crisis.ts): the reading of a message, and what /api/chat
 * does with it on the real Bible index, with the offline stub, a scripted provider and a
 * document collection: the care notice with the numbers to call, right after the sources and
 * before any text; the chosen passages of consolation instead of the verses the message's words
 * would find; never the out-of-scope refusal without the notice.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createStubProvider } from "../src/adapters/chat/stub.js";
import { collectionPlanner } from "../src/app/chat/collection-chat.js";
import { CARE_PASSAGES } from "../src/core/grounding/care-passages.js";
import { careNotice, crisisFeatures, crisisOf, crisisText } from "../src/core/reading/crisis.js";
import { realBibleIndex, ROOT } from "./support/bible-index.js";
import { tempDir } from "./support/usfx.js";
import { parseSse, postChat, ScriptedProvider, startTestServer, type TestServer } from "./support/server.js";

/** The writer thinks of ending their life or hurting themselves. */
const SELF_HARM = [
  "tenho vontade de me matar",
  "quero me matar",
  "penso em me suicidar todos os dias",
  "nao aguento mais viver",
  "não quero mais viver, cansei",
  "só queria morrer",
  "to pensando em suicidio",
  "tenho pensamentos suicidas",
  "vou acabar com a minha vida",
  "queria dormir e não acordar mais",
  "Deus, me leva logo",
  "peço a Deus que me leve",
  "eu me corto quando fico ansiosa",
  "voltei a me cortar",
  "todo mundo ficaria melhor sem mim",
  "ninguém vai sentir minha falta",
  "tomei uma caixa de remédios",
  "queria nunca ter nascido",
  "Bom dia pastor. Perdi tudo, minha esposa foi embora e eu só penso em morrer",
];

/** Someone hurts or threatens the writer. */
const VIOLENCE = [
  "meu marido me bate",
  "ele ameaçou me matar",
  "fui estuprada pelo meu padrasto",
  "sofro violência doméstica há anos",
  "meu ex disse que vai me matar se eu sair de casa",
  "apanho do meu pai quase todo dia",
  "estou com medo que ele me mate",
];

/** The subject, asked about: the notice, and the question's own search. */
const SUBJECT = ["o que a Bíblia diz sobre suicídio?", "quem se suicida vai pro inferno?", "meu tio se suicidou, ele foi salvo?"];

/** Stories of the Bible and figures of speech: not a crisis. */
const NOT_A_CRISIS = [
  "por que Caim matou Abel?",
  "Saul se matou?",
  "Judas se enforcou?",
  "Davi matou Golias",
  "minha chefe vai me matar se eu atrasar",
  "morri de vergonha",
  "to morrendo de rir",
  "esse calor ta me matando",
  "quero morrer de tanto rir",
  "o que significa morrer para o pecado?",
  "quero morrer para o meu eu e viver para Cristo",
  "para mim o viver é Cristo e o morrer é lucro",
  "tenho medo de morrer na cirurgia",
  "minha mãe morreu e estou triste",
  "estou cansado de tudo",
  "Jesus morreu por nós?",
  "como posso perdoar quem me feriu?",
  "o que Jesus disse sobre amar os inimigos?",
];

describe("crisisOf", () => {
  it.each(SELF_HARM)("self-harm, about the writer: %s", (message) => {
    expect(crisisOf(message)).toEqual({ kind: "self_harm", personal: true });
  });
  it.each(VIOLENCE)("violence against the writer: %s", (message) => {
    expect(crisisOf(message)).toEqual({ kind: "violence", personal: true });
  });
  it.each(SUBJECT)("the subject, not the writer: %s", (message) => {
    expect(crisisOf(message)).toEqual({ kind: "self_harm", personal: false });
  });
  it("domestic violence as a subject", () => {
    expect(crisisOf("a mulher pode se separar por violência doméstica?")).toEqual({ kind: "violence", personal: false });
  });
  it.each(NOT_A_CRISIS)("not a crisis: %s", (message) => {
    expect(crisisOf(message)).toBeUndefined();
  });
  it("reads chat shorthand and unaccented text as the words they stand for", () => {
    expect(crisisText("Tô c/ vontade de me matar, vc entende?")).toBe(" estou com vontade de me matar voce entende ");
    expect(crisisOf("n aguento mais viver")).toEqual({ kind: "self_harm", personal: true });
    expect(crisisOf("q vontade de sumir pra sempre, queria sumir pra sempre")).toEqual({ kind: "self_harm", personal: true });
  });
  it("each notice names what to call, with numbers only", () => {
    for (const kind of ["self_harm", "violence"] as const) {
      const notice = careNotice(kind);
      expect(notice.kind).toBe(kind);
      expect(notice.contacts.length).toBeGreaterThan(0);
      for (const contact of notice.contacts) expect(contact.phone).toMatch(/^[0-9]{3}$/);
    }
    expect(careNotice("self_harm").contacts.map((contact) => contact.phone)).toEqual(["188", "192"]);
    expect(careNotice("violence").contacts.map((contact) => contact.phone)).toEqual(["190", "180", "100"]);
  });
});

describe("the classifiers (scripts/care/train.ts)", () => {
  // Written for this test, apart from every training and evaluation set: what only the
  // classifiers recognise (the patterns read none of them).
  it.each([
    ["deixei a ração do cachorro e a senha do banco com minha irmã, não vou precisar mais", "self_harm"],
    ["to cansado de ser um fardo pra todo mundo, hoje vai ser diferente, vou resolver isso de vez", "self_harm"],
    ["meu padrasto entra no meu quarto de noite e eu tenho medo de contar pra minha mãe", "violence"],
    ["ele chegou bebado de novo, quebrou a tv e meu olho ta roxo", "violence"],
  ] as const)("recognise a writer at risk the patterns leave unread: %s", (message, kind) => {
    expect(crisisOf(message, null)).toBeUndefined();
    expect(crisisOf(message)).toEqual({ kind, personal: true });
  });

  it.each(["Saul caiu sobre a própria espada, por quê?", "minha mae vai me matar quando ver minha nota kkk", "o que significa morrer para o pecado?"])(
    "leave a Bible question or a joke alone: %s",
    (message) => {
      expect(crisisOf(message)).toBeUndefined();
    },
  );

  it("read stems, pairs of stems and what the patterns found", () => {
    const features = crisisFeatures("Tô pensando em me matar");
    expect(features).toMatchObject({ "w:estou": 1, "w:pens": 1, "b:pens_em": 1, "b:me_mat": 1, "p:selfHarm": 1 });
    expect(crisisFeatures("tomei 20 comprimidos")).toMatchObject({ "w:<n>": 1, "b:tom_<n>": 1 });
  });

  it("are what the training script fits from the committed data (regenerated byte for byte)", () => {
    const out = path.join(tempDir("pastor-care-model-"), "crisis-model.ts");
    execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/care/train.ts")], { cwd: ROOT, env: { ...process.env, MODEL_OUT: out }, stdio: "pipe" });
    expect(readFileSync(out, "utf8")).toBe(readFileSync(path.join(ROOT, "src/core/reading/crisis-model.ts"), "utf8"));
  }, 120_000);
});

describe("a collection's planner", () => {
  it("tells the provider the writer is at risk (the stub answers with care over the excerpts), and nothing otherwise", async () => {
    const passage = { number: 1, citation: "A Trindade (teologia/a-trindade.md, trecho 1)", text: "Um só Deus em três pessoas.", sourceId: "teologia/a-trindade.md", chunk: 0, title: "A Trindade" };
    const planner = collectionPlanner({
      collection: "exemplo",
      prepare: async () => ({ kind: "passages", passages: [passage], disciplines: ["teologia"], prompt: { system: "s", messages: [{ role: "user", content: "q" }] } }),
    });
    const input = { message: "quero me matar", history: [], conversationId: "c", signal: new AbortController().signal, collection: "exemplo" };
    const atRisk = await planner({ ...input, care: "self_harm" });
    const plain = await planner(input);
    expect(atRisk.kind === "grounded" && atRisk.request.care).toBe("self_harm");
    // A subject question reaches the planner without `care` (answerWith; the server test "asked as a subject").
    expect(plain.kind === "grounded" && "care" in plain.request).toBe(false);
  });
});

let dataDir: string;
beforeAll(async () => {
  ({ dataDir } = await realBibleIndex());
}, 180_000);

async function withServer<T>(provider: Parameters<typeof startTestServer>[1], work: (server: TestServer) => Promise<T>, env: Record<string, string> = {}, dir = dataDir): Promise<T> {
  const server = await startTestServer(dir, provider, env);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

type Sources = { sources: { reference: string; text: string }[] };

describe("a person at risk through /api/chat", () => {
  it("gets the notice after the sources and before any text, over the chosen passages, with the offline stub", async () => {
    await withServer(createStubProvider({ chunkDelayMs: 0 }), async (server) => {
      const body = await (await postChat(server.url, { message: "tenho vontade de me matar", conversationId: "c-cuidado" })).text();
      const events = parseSse(body);
      expect(events[0]!.event).toBe("sources");
      expect(events[1]).toEqual({ event: "care", data: careNotice("self_harm") });
      expect(body).toContain(`event: care\ndata: ${JSON.stringify(careNotice("self_harm"))}\n\n`);
      expect(events.slice(2, -1).every((event) => event.event === "token")).toBe(true);
      // The chosen passages, in order, resolved by metadata: not "por que procurais me matar?" (João 7:19).
      const sources = (events[0]!.data as Sources).sources;
      expect(sources.map((source) => source.reference)).toEqual(CARE_PASSAGES.self_harm);
      expect(sources.every((source) => source.text !== "")).toBe(true);
      const text = events
        .filter((event) => event.event === "token")
        .map((event) => (event.data as { text: string }).text)
        .join("");
      expect(text).not.toContain("tenho vontade de me matar");
      expect(text).toContain("(Salmos 34:18)");
      expect(events.at(-1)).toEqual({ event: "done", data: { citations: expect.arrayContaining(["Salmos 34:18"]) as unknown, kind: "question", care: "self_harm" } });
      const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
      expect(metrics).toContain('pastor_care_notices_total{kind="self_harm"} 1');
    });
  });

  it("gives the model the chosen passages and the message as asked (scripted provider)", async () => {
    const provider = new ScriptedProvider(["Você não está sozinho (Salmos 9:9)."]);
    await withServer(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "meu marido me bate e ameaçou me matar" })).text());
      expect(events.map((event) => event.event)).toEqual(["sources", "care", "token", "done"]);
      expect((events[1]!.data as { kind: string }).kind).toBe("violence");
      expect((events[0]!.data as Sources).sources.map((source) => source.reference)).toEqual(CARE_PASSAGES.violence);
      expect(provider.requests).toHaveLength(1);
      const request = provider.requests[0]!;
      expect(request.care).toBe("violence");
      expect(request.question).toBe("meu marido me bate e ameaçou me matar");
      expect(request.passages!.map((passage) => passage.reference)).toEqual(CARE_PASSAGES.violence);
      expect(events.at(-1)).toEqual({ event: "done", data: { citations: ["Salmos 9:9"], kind: "question", care: "violence" } });
    });
  });

  it("a follow-up leaning on it keeps the notice and the chosen passages", async () => {
    const provider = new ScriptedProvider(["Você não precisa enfrentar isso só (Salmos 34:18)."]);
    await withServer(provider, async (server) => {
      const history = [
        { role: "user", content: "só queria morrer" },
        { role: "assistant", content: "Sinto muito que você esteja passando por isso." },
      ];
      const events = parseSse(await (await postChat(server.url, { message: "e agora, o que eu faço?", history })).text());
      expect(events.map((event) => event.event)).toEqual(["sources", "care", "token", "done"]);
      expect((events[0]!.data as Sources).sources.map((source) => source.reference)).toEqual(CARE_PASSAGES.self_harm);
      expect(provider.requests[0]!.care).toBe("self_harm");
      // A question of its own after it is searched as asked.
      const next = parseSse(await (await postChat(server.url, { message: "o que Jesus disse sobre amar os inimigos?", history })).text());
      expect(next.some((event) => event.event === "care")).toBe(false);
    });
  });

  it("asked as a subject: the notice, and the question's own search", async () => {
    const provider = new ScriptedProvider(["Uma resposta."]);
    await withServer(provider, async (server) => {
      const events = parseSse(await (await postChat(server.url, { message: "quem se suicida vai pro inferno? Judas se enforcou" })).text());
      expect(events[1]).toEqual({ event: "care", data: careNotice("self_harm") });
      const references = (events[0]!.data as Sources).sources.map((source) => source.reference);
      expect(references).not.toEqual(CARE_PASSAGES.self_harm.slice(0, references.length));
      expect(provider.requests[0]?.care).toBeUndefined();
    });
  });

  it("a story of the Bible and a figure of speech get no notice", async () => {
    const provider = new ScriptedProvider(["Uma resposta."]);
    await withServer(provider, async (server) => {
      for (const message of ["por que Caim matou Abel?", "minha chefe vai me matar se eu atrasar"]) {
        const events = parseSse(await (await postChat(server.url, { message })).text());
        expect(events.some((event) => event.event === "care"), message).toBe(false);
        expect(events.at(-1)!.data, message).not.toHaveProperty("care");
      }
    });
  });

  it("on a document collection: the notice comes first even when the gate refuses the question", async () => {
    const provider = new ScriptedProvider(["não deveria ser chamado"]);
    await withServer(
      provider,
      async (server) => {
        await server.collections.reload("exemplo");
        const events = parseSse(await (await postChat(server.url, { message: "quero me matar", collection: "exemplo" })).text());
        expect(events[0]!.event).toBe("sources");
        expect(events[1]).toEqual({ event: "care", data: careNotice("self_harm") });
        expect(events.at(-1)!.data).toMatchObject({ care: "self_harm" });
      },
      { COLLECTIONS_DIR: path.join(ROOT, "collections") },
      tempDir("pastor-crisis-data-"),
    );
  });
});
