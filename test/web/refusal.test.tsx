import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { App } from "../../web/src/App";
import { STORAGE_KEY } from "../../web/src/lib/storage";
import { chatServer } from "./helpers";

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
    expect(within(refusal).getByRole("note").textContent).toContain("Fora do que a Bíblia trata");
    expect(refusal.textContent).toContain(REPLY);
    expect(screen.queryAllByRole("article", { name: "Resposta" })).toHaveLength(0);
    expect(refusal.querySelector(".sources")).toBeNull();
    // The reply's example reference is a suggestion, not a citation: no chip.
    expect(within(refusal).queryAllByRole("button")).toHaveLength(0);
    // The conversation is saved by an effect after the render: wait for it, not for the render.
    await waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).messages[1]).toMatchObject({ refusal: "out_of_scope", status: "done" }));

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
