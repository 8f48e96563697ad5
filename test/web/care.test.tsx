import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { App } from "../../web/src/App";
import { STORAGE_KEY } from "../../web/src/lib/storage";
import { chatServer } from "./helpers";

/** The notice as the server sends it for a person at risk (src/core/reading/crisis.ts). */
const NOTICE = {
  kind: "self_harm",
  title: "Você não precisa enfrentar isso só",
  text: "Sinto muito que você esteja sofrendo assim.",
  contacts: [
    { name: "CVV — Centro de Valorização da Vida", phone: "188", detail: "24 horas, todos os dias, gratuito", url: "https://cvv.org.br" },
    { name: "SAMU", phone: "192", detail: "se você está em perigo agora" },
  ],
};


describe("the care notice", () => {
  it("shows who to call above the answer, each number a tel: link, and survives a reload", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    const { unmount } = render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "quero morrer{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c-cuidado", sources: [] });
    streams[0]!.send("care", NOTICE);
    // Shown before any text arrives.
    const alert = await screen.findByRole("alert", { name: "Você não precisa enfrentar isso só" });
    expect(alert.textContent).toContain("Sinto muito que você esteja sofrendo assim.");
    const call = within(alert).getByRole("link", { name: "Ligar para 188, CVV — Centro de Valorização da Vida" });
    expect(call.getAttribute("href")).toBe("tel:188");
    expect(within(alert).getByRole("link", { name: "Ligar para 192, SAMU" }).getAttribute("href")).toBe("tel:192");
    const site = within(alert).getByRole("link", { name: "cvv.org.br" });
    expect(site.getAttribute("href")).toBe("https://cvv.org.br");
    expect(site.getAttribute("rel")).toContain("noopener");

    streams[0]!.send("token", { text: "Você não está sozinho." });
    streams[0]!.send("done", { citations: [], care: "self_harm" });
    streams[0]!.end();
    const answer = await screen.findByRole("article", { name: "Resposta" });
    await waitFor(() => expect(answer.textContent).toContain("Você não está sozinho."));
    // The notice comes before the answer's text in the page.
    const order = answer.textContent!;
    expect(order.indexOf("188")).toBeLessThan(order.indexOf("Você não está sozinho."));
    await waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).current.messages[1]).toMatchObject({ care: { kind: "self_harm" }, status: "done" }));

    unmount();
    render(<App />);
    const again = await screen.findByRole("alert", { name: "Você não precisa enfrentar isso só" });
    expect(within(again).getByRole("link", { name: "Ligar para 188, CVV — Centro de Valorização da Vida" })).toBeTruthy();
  });

  it("does not say the same sympathy twice: the notice leaves out its own when the answer opens with it", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "tenho vontade de me matar{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c-2", sources: [] });
    const notice = { ...NOTICE, text: "Sinto muito que você esteja sofrendo assim. Converse agora com quem pode ajudar." };
    streams[0]!.send("care", notice);
    streams[0]!.send("care", notice);
    streams[0]!.send("token", { text: "Sinto muito que você esteja passando por isso. A sua vida tem valor." });
    streams[0]!.send("done", { citations: [], care: "self_harm" });
    streams[0]!.end();
    const answer = await screen.findByRole("article", { name: "Resposta" });
    await waitFor(() => expect(answer.getAttribute("aria-busy")).toBe("false"));
    // One notice, even when the event came twice; "Sinto muito" once.
    expect(within(answer).getAllByRole("alert")).toHaveLength(1);
    expect(answer.textContent!.match(/Sinto muito/gu)).toHaveLength(1);
    expect(within(answer).getByRole("alert").textContent).toContain("Converse agora com quem pode ajudar");
  });

  it("leaves out a contact whose number is not digits and a link that is not https", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "meu marido me bate{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c2", sources: [] });
    streams[0]!.send("care", {
      ...NOTICE,
      kind: "violence",
      title: "Você merece estar em segurança",
      contacts: [
        { name: "Polícia Militar", phone: "190", detail: "em perigo agora", url: "javascript:alert(1)" },
        { name: "Falso", phone: "javascript:alert(1)", detail: "" },
      ],
    });
    const alert = await screen.findByRole("alert", { name: "Você merece estar em segurança" });
    expect(within(alert).getAllByRole("link").map((link) => link.getAttribute("href"))).toEqual(["tel:190"]);
    streams[0]!.end();
  });

  it("is not shown for an ordinary answer", async () => {
    const { streams } = chatServer();
    const user = userEvent.setup();
    render(<App />);
    await user.type(screen.getByRole("textbox", { name: "Sua pergunta" }), "João 3:16{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c3", sources: [] });
    streams[0]!.send("token", { text: "Porque Deus amou o mundo." });
    streams[0]!.send("done", { citations: [] });
    streams[0]!.end();
    await waitFor(() => expect(screen.getByRole("article", { name: "Resposta" }).textContent).toContain("Porque Deus amou o mundo."));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
