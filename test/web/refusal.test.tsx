import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { App } from "../../web/src/App";
import { STORAGE_KEY } from "../../web/src/lib/storage";
import { chatServer, JOHN_3_16 } from "./helpers";

const REPLY = "Essa pergunta foge do que eu sei responder: eu respondo só a partir da Bíblia. Posso ajudar com uma passagem, como “João 3:16”.";


describe("an out-of-scope refusal", () => {
  it("shows as its own state, not as an answer with zero sources, and survives a reload", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    const { unmount } = render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "como fazer um bolo de chocolate?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c-bolo", sources: [], scope: { inScope: false, confidence: 0.97, reasons: {} } });
    streams[0]!.send("token", { text: REPLY });
    streams[0]!.send("done", { citations: [], refusal: "out_of_scope" });
    streams[0]!.end();

    const refusal = await screen.findByRole("article", { name: "Pergunta fora do tema" });
    expect(refusal.getAttribute("data-refusal")).toBe("out_of_scope");
    expect(within(refusal).getByRole("note").textContent).toContain("Isso fica fora do que a Bíblia trata");
    expect(refusal.textContent).toContain(REPLY);
    expect(screen.queryAllByRole("article", { name: "Resposta" })).toHaveLength(0);
    expect(refusal.querySelector(".sources")).toBeNull();
    // The reply's example reference is a suggestion, not a citation: no chip in the reply.
    expect(within(within(refusal).getByRole("note")).queryAllByRole("button")).toHaveLength(0);
    expect(refusal.querySelector(".ref-chip")).toBeNull();
    // Questions it can answer, a tap away.
    const suggestions = within(refusal).getAllByRole("button");
    expect(suggestions.map((button) => button.textContent)).toEqual(["O que a Bíblia diz sobre o medo?", "Como perdoar quem me magoou?", "Palavras de conforto no luto", "João 3:16"]);
    // The conversation is saved by an effect after the render: wait for it, not for the render.
    await waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).current.messages[1]).toMatchObject({ refusal: "out_of_scope", status: "done" }));

    await user.click(suggestions[0]!);
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Sua pergunta" }));
    streams[1]!.send("done", { citations: [] });
    streams[1]!.end();

    unmount();
    render(<App />);
    expect(await screen.findByRole("article", { name: "Pergunta fora do tema" })).toBeTruthy();
  });

  it("a no-evidence reply stays an ordinary answer", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "o que é que nós somos{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c1", sources: [] });
    streams[0]!.send("token", { text: "Não encontrei passagens." });
    streams[0]!.send("done", { citations: [], refusal: "no_evidence" });
    streams[0]!.end();
    await waitFor(() => expect(screen.getAllByRole("article", { name: "Resposta" })[0]!.textContent).toContain("Não encontrei passagens."));
    expect(screen.queryByRole("article", { name: "Pergunta fora do tema" })).toBeNull();
  });
});

describe("an answer the gate kept with a doubt", () => {
  it("says the doubt before the answer, with the sources, and keeps it across a reload", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    const { unmount } = render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "meu notebook esquenta e desliga sozinho{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c-notebook", sources: [JOHN_3_16], scope: { inScope: true, doubtful: true, confidence: 0.52, reasons: {} } });
    streams[0]!.send("token", { text: "Não tenho certeza de que a Bíblia trate disso. (João 3:16)" });
    streams[0]!.send("done", { citations: ["JHN 3:16"] });
    streams[0]!.end();

    const answer = await screen.findByRole("article", { name: "Resposta" });
    await waitFor(() => expect(answer.getAttribute("aria-busy")).toBe("false"));
    const doubt = answer.querySelector("[data-doubt]");
    expect(doubt?.textContent).toContain("Não tenho certeza de ter entendido a sua pergunta. Os versículos abaixo são os mais próximos");
    // Said before the answer's text, and the answer keeps its sources.
    expect(answer.textContent!.indexOf("Os versículos abaixo")).toBeLessThan(answer.textContent!.indexOf("trate disso"));
    expect(answer.querySelector(".sources")).not.toBeNull();
    expect(screen.queryByRole("article", { name: "Pergunta fora do tema" })).toBeNull();
    await waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).current.messages[1]).toMatchObject({ doubtful: true, status: "done" }));

    unmount();
    render(<App />);
    expect((await screen.findByRole("article", { name: "Resposta" })).querySelector("[data-doubt]")).not.toBeNull();
  });

  it("shows no doubt for an answer the gate kept without one", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "o que é o amor?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c-amor", sources: [JOHN_3_16] });
    streams[0]!.send("token", { text: "Deus amou o mundo (João 3:16)." });
    streams[0]!.send("done", { citations: ["JHN 3:16"] });
    streams[0]!.end();
    const answer = await screen.findByRole("article", { name: "Resposta" });
    await waitFor(() => expect(answer.textContent).toContain("Deus amou o mundo"));
    expect(answer.querySelector("[data-doubt]")).toBeNull();
  });
});
