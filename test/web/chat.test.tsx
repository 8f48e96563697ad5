import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { App, ATTRIBUTION } from "../../web/src/App";
import { LEGACY_STORAGE_KEY, STORAGE_KEY } from "../../web/src/lib/storage";
import { chatServer, JOHN_3_16, json, mockApi, READY_STATUS, ROMANS_8_28 } from "./helpers";

/** A mocked server whose chat answers are driven by the test, one stream per request. */

const box = () => screen.getByRole("textbox", { name: "Sua pergunta" }) as HTMLTextAreaElement;
const answers = () => screen.queryAllByRole("article", { name: "Resposta" });
/** No answer streams: "Enviar" is back in place of "Parar". */
const idle = () => screen.queryByRole("button", { name: /Parar/u }) === null;
const stored = () => JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{"current":{"messages":[]},"saved":[]}') as { current: { conversationId?: string; messages: unknown[] }; saved: { messages: unknown[] }[] };

describe("the chat", () => {
  it("sends with Enter, streams the answer token by token with chips, marks cited sources, and keeps Shift+Enter for new lines", async () => {
    const { streams, bodies } = chatServer();
    const user = userEvent.setup();
    render(<App />);

    await user.type(box(), "estou com medo{Shift>}{Enter}{/Shift}do futuro");
    expect(box().value).toBe("estou com medo\ndo futuro");
    expect(streams).toHaveLength(0);
    await user.keyboard("{Enter}");

    await waitFor(() => expect(streams).toHaveLength(1));
    expect(bodies[0]).toEqual({ message: "estou com medo\ndo futuro", history: [] });
    expect(box().value).toBe("");
    // The box stays usable while the answer streams: the next question can be written, not sent.
    expect(box().disabled).toBe(false);
    expect(document.activeElement).toBe(box());
    expect(screen.getByRole("button", { name: /Parar/u })).toBeTruthy();
    await user.type(box(), "e depois?{Enter}");
    expect(streams).toHaveLength(1);
    expect(box().value).toBe("e depois?");
    await user.clear(box());
    const region = screen.getByTestId("answer-region");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.getAttribute("aria-busy")).toBe("true");

    const stream = streams[0]!;
    stream.send("sources", { conversationId: "conv-42", sources: [JOHN_3_16, ROMANS_8_28] });
    stream.send("token", { text: "Não tenha medo: " });
    await waitFor(() => expect(answers()[0]!.textContent).toContain("Não tenha medo:"));
    stream.send("token", { text: "Deus amou o mundo (João 3:16)." });
    await waitFor(() => expect(within(answers()[0]!).getByRole("button", { name: "Abrir João 3:16" })).toBeTruthy());
    stream.send("done", { citations: ["João 3:16"] });
    stream.end();

    await waitFor(() => expect(idle()).toBe(true));
    expect(region.getAttribute("aria-busy")).toBe("false");
    const sources = within(answers()[0]!).getAllByRole("listitem");
    expect(sources.map((item) => item.getAttribute("data-cited"))).toEqual(["true", "false"]);

    // The next question carries the history and the conversation id.
    await user.type(box(), "e a esperança?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(bodies[1]).toEqual({
      message: "e a esperança?",
      conversationId: "conv-42",
      history: [
        { role: "user", content: "estou com medo\ndo futuro" },
        { role: "assistant", content: "Não tenha medo: Deus amou o mundo (João 3:16)." },
      ],
    });
  });

  it("shows the reply to a greeting as an answer and leaves it out of the history the next question sends", async () => {
    const { streams, bodies } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(box(), "oi, pastor{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "conv-oi", sources: [] });
    streams[0]!.send("token", { text: "Olá! Eu respondo a partir da Bíblia." });
    streams[0]!.send("done", { citations: [], smallTalk: "greeting" });
    streams[0]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    expect(answers()[0]!.textContent).toContain("Olá! Eu respondo a partir da Bíblia.");
    expect(screen.queryByRole("article", { name: "Pergunta fora do tema" })).toBeNull();
    await waitFor(() => expect(stored().current.messages[1]).toMatchObject({ smallTalk: true, status: "done" }));

    await user.type(box(), "estou com medo do futuro{Enter}");
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(bodies[1]).toEqual({ message: "estou com medo do futuro", conversationId: "conv-oi", history: [] });
  });

  it("stops mid-answer: the request is aborted and the partial answer stays", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(box(), "João 3:16{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("token", { text: "Porque Deus amou" });
    await waitFor(() => expect(answers()[0]!.textContent).toContain("Porque Deus amou"));
    await user.click(screen.getByRole("button", { name: /Parar/u }));
    expect(streams[0]!.aborted).toBe(true);
    await waitFor(() => expect(screen.getByText("Resposta interrompida.")).toBeTruthy());
    expect(answers()[0]!.textContent).toContain("Porque Deus amou");
    expect(idle()).toBe(true);
  });

  it("shows a provider failure in Portuguese, keeps the question, and tries again", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(box(), "o que Jesus disse sobre amar os inimigos?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c1", sources: [] });
    streams[0]!.send("error", { code: "llm_unavailable", message: "O serviço de respostas está indisponível no momento." });
    streams[0]!.end();

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("O serviço de respostas está indisponível no momento.");
    expect(box().value).toBe("o que Jesus disse sobre amar os inimigos?");

    await user.click(within(alert).getByRole("button", { name: "Tentar de novo" }));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(box().value).toBe("");
    streams[1]!.send("token", { text: "Amai os vossos inimigos." });
    streams[1]!.send("done", { citations: [] });
    streams[1]!.end();
    await waitFor(() => expect(answers()[0]!.textContent).toContain("Amai os vossos inimigos."));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getAllByRole("article", { name: "Sua pergunta" })).toHaveLength(1);
  });

  it("explains a network loss and a question too long (413), and nothing typed is lost", async () => {
    let mode: "offline" | "too-long" = "offline";
    mockApi({
      "/api/status": () => json(READY_STATUS),
      "/api/chat": () => {
        if (mode === "offline") throw new TypeError("Failed to fetch");
        return json({ error: { code: "message_too_long", message: "A mensagem tem 4100 caracteres; o limite é 4000." } }, 413);
      },
    });
    const user = userEvent.setup();
    render(<App />);
    await user.type(box(), "Salmo 23{Enter}");
    expect((await screen.findByRole("alert")).textContent).toContain("Não foi possível falar com o servidor");
    expect(box().value).toBe("Salmo 23");

    mode = "too-long";
    await user.clear(box());
    const long = "a".repeat(4100);
    await user.click(box());
    await user.paste(long);
    expect(screen.getByText(/4\.100 de 4\.000 caracteres/u)).toBeTruthy();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getAllByRole("alert").some((a) => a.textContent?.includes("longa demais"))).toBe(true));
    expect(box().value).toBe(long);
  });

  it("keeps the conversation across a reload; 'Nova conversa' keeps it in the list, with undo", async () => {
    const { streams, bodies } = chatServer();
    const user = userEvent.setup();
    const first = render(<App />);
    await user.type(box(), "João 3:16{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "conv-7", sources: [JOHN_3_16] });
    streams[0]!.send("token", { text: "Porque Deus amou o mundo (João 3:16)." });
    streams[0]!.send("done", { citations: ["João 3:16"] });
    streams[0]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    first.unmount();

    expect(stored().current).toMatchObject({ conversationId: "conv-7" });
    render(<App />);
    expect(screen.getByRole("article", { name: "Sua pergunta" }).textContent).toBe("João 3:16");
    expect(answers()[0]!.textContent).toContain("Porque Deus amou o mundo");
    expect(within(answers()[0]!).getByRole("button", { name: "Abrir João 3:16" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Nova conversa" }));
    expect(answers()).toHaveLength(0);
    expect(screen.getByRole("heading", { name: "Converse com as Escrituras" })).toBeTruthy();
    await waitFor(() => expect(stored().current.messages).toHaveLength(0));
    expect(stored().saved).toHaveLength(1);
    expect(document.activeElement).toBe(box());

    // "Desfazer" brings it back, with the id the server issued.
    await user.click(screen.getByRole("button", { name: "Desfazer" }));
    expect(answers()).toHaveLength(1);
    await waitFor(() => expect(stored().current).toMatchObject({ conversationId: "conv-7" }));
    expect(stored().saved).toHaveLength(0);

    // From the list: a new conversation, then the earlier one opened again, and the next question goes on with its id.
    await user.click(screen.getByRole("button", { name: "Nova conversa" }));
    await user.click(screen.getByRole("button", { name: "Conversas" }));
    const list = screen.getByRole("dialog", { name: "Conversas" });
    await user.click(within(list).getByRole("button", { name: /^João 3:16/u }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(answers()).toHaveLength(1);
    await user.type(box(), "e o versículo seguinte?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ message: "e o versículo seguinte?", conversationId: "conv-7" });
  });

  it("deletes a conversation of the list, with undo", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(box(), "Salmos 23{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "conv-s", sources: [] });
    streams[0]!.send("token", { text: "O SENHOR é meu pastor." });
    streams[0]!.send("done", { citations: [] });
    streams[0]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    await user.click(screen.getByRole("button", { name: "Nova conversa" }));
    await user.click(screen.getByRole("button", { name: "Conversas" }));
    await user.click(within(screen.getByRole("dialog", { name: "Conversas" })).getByRole("button", { name: "Apagar a conversa “Salmos 23”" }));
    await waitFor(() => expect(stored().saved).toHaveLength(0));
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Conversas" }));
    await user.click(screen.getByRole("button", { name: "Desfazer" }));
    await waitFor(() => expect(stored().saved).toHaveLength(1));
  });

  it("opens the conversation an earlier version saved, and sends back only the id the server issued", async () => {
    localStorage.setItem(
      LEGACY_STORAGE_KEY,
      JSON.stringify({
        conversationId: "conv-antiga",
        messages: [
          { id: "p-1", role: "user", content: "Salmos 23" },
          { id: "r-1", role: "assistant", question: "Salmos 23", content: "O SENHOR é meu pastor.", sources: [], citations: [], status: "streaming" },
        ],
      }),
    );
    const { streams, bodies } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    expect(answers()[0]!.textContent).toContain("O SENHOR é meu pastor.");
    // It was streaming when the page closed: it shows as stopped.
    expect(screen.getByText("Resposta interrompida.")).toBeTruthy();
    await user.type(box(), "e o versículo 4?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ conversationId: "conv-antiga" });
    await waitFor(() => expect(localStorage.getItem(LEGACY_STORAGE_KEY)).toBeNull());
    // A sources event without an id keeps the one the conversation has; nothing is made up.
    streams[0]!.send("sources", { sources: [] });
    streams[0]!.send("done", { citations: [], kind: "explain_passage", anything: { else: 1 } });
    streams[0]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    expect(stored().current.conversationId).toBe("conv-antiga");
  });

  it("shows the Bíblia Livre attribution", async () => {
    mockApi({ "/api/status": () => json(READY_STATUS) });
    render(<App />);
    await screen.findByRole("button", { name: "Situação: pronto" });
    expect(screen.getByRole("contentinfo").textContent).toBe(ATTRIBUTION);
    expect(ATTRIBUTION).toBe(
      "Textos bíblicos: Bíblia Livre (BLIVRE), © Diego Santos, Mario Sérgio e Marco Teles, CC BY 3.0 BR, versão 2025.1.0 · Referências cruzadas: OpenBible.info (CC BY)",
    );
  });
});
