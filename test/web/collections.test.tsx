import { render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { App } from "../../web/src/App";
import { AnswerText } from "../../web/src/components/AnswerText";
import { ReferenceProvider } from "../../web/src/components/references";
import { SourcesPanel } from "../../web/src/components/SourcesPanel";
import { StatusPanel } from "../../web/src/components/StatusPanel";
import type { CollectionStatus, Source } from "../../web/src/lib/api";
import { documentCitations, isCited } from "../../web/src/lib/citations";
import { documentLabel, documentTitle, excerptText, pageText } from "../../web/src/lib/document-text";
import { COLLECTION_KEY, STORAGE_KEY } from "../../web/src/lib/storage";
import { APOSTILA, EMPTY_COLLECTION, EXEMPLO, JOHN_3_16, json, manualStream, mockApi, READY_STATUS, TRINDADE, type ManualStream } from "./helpers";

const TRINDADE_CITATION = "A Trindade (teologia/a-trindade.md, trecho 1)";

/** A mocked server with collections; its chat answers are driven by the test. */
function collectionsServer(collections: unknown = { default: "biblia", collections: [EXEMPLO, EMPTY_COLLECTION] }) {
  const streams: ManualStream[] = [];
  const bodies: Record<string, unknown>[] = [];
  const fetchMock = mockApi({
    "/api/status": () => json(READY_STATUS),
    "/api/collections": () => (collections instanceof Response ? collections : json(collections)),
    "/api/chat": (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      const stream = manualStream(init?.signal);
      streams.push(stream);
      return stream.response;
    },
  });
  return { fetchMock, streams, bodies };
}

const box = () => screen.getByRole("textbox", { name: "Sua pergunta" }) as HTMLTextAreaElement;
const picker = () => screen.getByRole("combobox", { name: "Consultar" }) as HTMLSelectElement;
const answers = () => screen.queryAllByRole("article", { name: "Resposta" });
const idle = () => screen.queryByRole("button", { name: /Parar/u }) === null;

function renderWithReferences(node: ReactNode) {
  return render(<ReferenceProvider>{node}</ReferenceProvider>);
}

describe("the collection selector", () => {
  it("lists the Bible first, then each collection with its documents; an empty one cannot be chosen", async () => {
    collectionsServer();
    render(<App />);
    const select = await screen.findByRole("combobox", { name: "Consultar" });
    const options = within(select).getAllByRole("option") as HTMLOptionElement[];
    expect(options.map((option) => [option.value, option.textContent, option.disabled])).toEqual([
      ["biblia", "Bíblia", false],
      ["exemplo", "exemplo — 4 documentos", false],
      ["apostilas", "apostilas (vazia)", true],
    ]);
    expect((select as HTMLSelectElement).value).toBe("biblia");
    // A short note says what changing it does.
    expect(select.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(select.getAttribute("aria-describedby")!)!.textContent).toBe("Trocar começa uma nova conversa; a atual fica na lista de conversas.");
  });

  it("is hidden when /api/collections fails or lists none, and the chat is the Bible's as before", async () => {
    const failing = collectionsServer(json({ error: { code: "not_found", message: "Rota não encontrada" } }, 404));
    const { unmount } = render(<App />);
    await waitFor(() => expect(failing.fetchMock.mock.calls.some(([input]) => String(input).includes("/api/collections"))).toBe(true));
    await screen.findByRole("button", { name: "Situação: pronto" });
    expect(screen.queryByRole("combobox", { name: "Consultar" })).toBeNull();
    const user = userEvent.setup();
    await user.type(box(), "João 3:16{Enter}");
    await waitFor(() => expect(failing.streams).toHaveLength(1));
    expect(failing.bodies[0]).toEqual({ message: "João 3:16", history: [] });
    unmount();

    const none = collectionsServer({ default: "biblia", collections: [] });
    render(<App />);
    await waitFor(() => expect(none.fetchMock.mock.calls.some(([input]) => String(input).includes("/api/collections"))).toBe(true));
    await screen.findByRole("button", { name: "Situação: pronto" });
    expect(screen.queryByRole("combobox", { name: "Consultar" })).toBeNull();
  });

  it("sends `collection` with the question, keeps the choice, and a switch starts a new conversation", async () => {
    const { streams, bodies } = collectionsServer();
    const user = userEvent.setup();
    const first = render(<App />);

    // A Bible exchange first.
    await user.type(box(), "João 3:16{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "conv-biblia", sources: [JOHN_3_16] });
    streams[0]!.send("token", { text: "Porque Deus amou o mundo (João 3:16)." });
    streams[0]!.send("done", { citations: ["João 3:16"] });
    streams[0]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    expect(answers()).toHaveLength(1);

    // Switching starts a new conversation (the Bible's stays in the list, with undo); what is typed stays.
    await user.type(box(), "o que é a Trindade?");
    await user.selectOptions(await screen.findByRole("combobox", { name: "Consultar" }), "exemplo");
    expect(picker().value).toBe("exemplo");
    expect(answers()).toHaveLength(0);
    expect(window.localStorage.getItem(COLLECTION_KEY)).toBe("exemplo");
    expect(screen.getByRole("heading", { name: "Consulte a coleção “exemplo”" })).toBeTruthy();
    expect(box().value).toBe("o que é a Trindade?");
    await waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).saved[0]).toMatchObject({ conversationId: "conv-biblia" }));
    expect(screen.getByText(/Nova conversa com a coleção “exemplo”/u)).toBeTruthy();

    await user.type(box(), "{Enter}");
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(bodies[1]).toEqual({ message: "o que é a Trindade?", history: [], collection: "exemplo" });
    streams[1]!.send("sources", { conversationId: "conv-doc", collection: "exemplo", sources: [TRINDADE] });
    streams[1]!.send("token", { text: "Um só Deus em três pessoas " });
    streams[1]!.send("token", { text: `[${TRINDADE_CITATION}].` });
    streams[1]!.send("done", { citations: [TRINDADE_CITATION] });
    streams[1]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    const answer = answers()[0]!;
    // The chip reads as the lesson's title, with the number of its excerpt among the sources.
    const chip = within(answer).getByRole("button", { name: "Ver o trecho citado: A Trindade, fonte 1" });
    expect(chip.textContent).toBe("A Trindade");
    expect(chip.getAttribute("data-n")).toBe("1");
    expect(within(answer).getByText("Trechos consultados (1)")).toBeTruthy();
    expect(within(answer).getAllByRole("listitem")[0]!.getAttribute("data-cited")).toBe("true");

    // The choice survives a reload; the next question goes on in the same collection and conversation.
    first.unmount();
    render(<App />);
    await waitFor(() => expect(picker().value).toBe("exemplo"));
    await user.type(box(), "e o Espírito Santo?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(3));
    expect(bodies[2]).toMatchObject({ message: "e o Espírito Santo?", conversationId: "conv-doc", collection: "exemplo" });

    // Back to the Bible: no `collection` in the request.
    streams[2]!.send("done", { citations: [] });
    streams[2]!.end();
    await waitFor(() => expect(idle()).toBe(true));
    await user.selectOptions(picker(), "biblia");
    expect(window.localStorage.getItem(COLLECTION_KEY)).toBeNull();
    await user.type(box(), "Salmos 23{Enter}");
    await waitFor(() => expect(streams).toHaveLength(4));
    expect(bodies[3]).toEqual({ message: "Salmos 23", history: [] });
  });

  it("falls back to the Bible when the saved collection is gone or empty", async () => {
    window.localStorage.setItem(COLLECTION_KEY, "apostilas");
    const { streams, bodies } = collectionsServer();
    const user = userEvent.setup();
    render(<App />);
    await screen.findByRole("combobox", { name: "Consultar" });
    expect(picker().value).toBe("biblia");
    await user.type(box(), "Salmos 23{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(bodies[0]).toEqual({ message: "Salmos 23", history: [] });
  });
});

describe("document sources", () => {
  it("show the title, pages, discipline and a clamped excerpt with 'ver mais', numbered, marked when cited, never a file path", async () => {
    const user = userEvent.setup();
    renderWithReferences(<SourcesPanel sources={[TRINDADE, APOSTILA]} citations={[TRINDADE_CITATION]} />);
    // Closed by default: the answer comes first.
    expect((document.querySelector("details.sources") as HTMLDetailsElement).open).toBe(false);
    expect(screen.getByText("Trechos consultados (2)")).toBeTruthy();
    expect(screen.getByText("1 citado na resposta")).toBeTruthy();
    const [trindade, apostila] = screen.getAllByRole("listitem");
    expect(trindade!.getAttribute("data-cited")).toBe("true");
    expect(apostila!.getAttribute("data-cited")).toBe("false");
    expect(within(trindade!).getByText("A Trindade")).toBeTruthy();
    expect(trindade!.textContent).not.toContain("a-trindade.md");
    expect(trindade!.querySelector(".source-n")!.textContent).toBe("1");
    expect(within(trindade!).getByText("Teologia Sistemática")).toBeTruthy();
    expect(within(trindade!).getByText(/citado na resposta/u)).toBeTruthy();
    expect(within(apostila!).queryByText(/citado na resposta/u)).toBeNull();
    // No verse button for an excerpt.
    expect(within(trindade!).queryByRole("button", { name: /Abrir/u })).toBeNull();

    // The excerpt reads as text (no Markdown marks) and starts clamped.
    const excerpt = trindade!.querySelector(".source-excerpt")!;
    expect(excerpt.textContent).toMatch(/^A Trindade Introdução A palavra "Trindade"/u);
    expect(excerpt.textContent).not.toMatch(/#|\*\*/u);
    expect(excerpt.classList.contains("clamped")).toBe(true);
    const more = within(trindade!).getByRole("button", { name: "ver mais" });
    expect(more.getAttribute("aria-expanded")).toBe("false");
    await user.click(more);
    expect(excerpt.classList.contains("clamped")).toBe(false);
    expect(within(trindade!).getByRole("button", { name: "ver menos" }).getAttribute("aria-expanded")).toBe("true");

    // A short excerpt has no toggle; the pages are beside the title.
    expect(within(apostila!).queryByRole("button", { name: "ver mais" })).toBeNull();
    expect(within(apostila!).getByText("Apostila de Hermenêutica")).toBeTruthy();
    expect(within(apostila!).getByText("pp. 12–13")).toBeTruthy();
    expect(apostila!.textContent).not.toContain("apostila.pdf");
  });

  it("shows the page when the citation does not carry it, and counts citations by their human text", () => {
    const paged: Source = { ...APOSTILA, id: "x", citation: "Apostila de Hermenêutica (hermeneutica/apostila.pdf)", pageEnd: undefined };
    renderWithReferences(<SourcesPanel sources={[paged, JOHN_3_16]} citations={null} />);
    expect(screen.getByText("Fontes consultadas (2)")).toBeTruthy();
    expect(screen.getByText("p. 12")).toBeTruthy();
    expect(pageText({ page: 3, pageEnd: 5 })).toBe("pp. 3–5");
    expect(pageText({})).toBe("");
    expect(excerptText("## Título\n\n**negrito** e texto")).toBe("Título negrito e texto");
    // Index markup an older server left in the text is not shown; a file name reads as words.
    expect(excerptText("[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA] Disciplina: X Keywords: a, b # Aula Corpo")).toBe("Aula Corpo");
    expect(excerptText("[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA] Título: X ====== FIM DOS METADADOS ====== Corpo")).toBe("Corpo");
    expect(documentTitle({ title: "como-ler-a-biblia", sourceId: "como-ler-a-biblia.md" })).toBe("Como ler a biblia");
    expect(documentLabel(APOSTILA)).toBe("Apostila de Hermenêutica, pp. 12–13");
    expect(isCited(TRINDADE, [TRINDADE_CITATION])).toBe(true);
    expect(isCited(TRINDADE, ["A Trindade"])).toBe(false);
    expect(isCited(JOHN_3_16, [TRINDADE_CITATION, "João 3:16"])).toBe(true);
    expect(documentCitations([TRINDADE, JOHN_3_16, TRINDADE])).toEqual([TRINDADE_CITATION]);
  });
});

describe("document citation chips", () => {
  it("turn a known bracketed citation into a chip, and keep Bible references as verse chips", () => {
    renderWithReferences(
      <div data-testid="answer">
        <AnswerText
          text={`Deus é um só em três pessoas [${TRINDADE_CITATION}]. O batismo de Jesus (Mateus 3:16-17) mostra isso **[${APOSTILA.citation}; ${TRINDADE_CITATION}]**.`}
          sources={[TRINDADE, APOSTILA]}
        />
      </div>,
    );
    const answer = screen.getByTestId("answer");
    const chips = answer.querySelectorAll(".doc-chip");
    // By title and page, with the excerpt's number; never the file path.
    expect([...chips].map((chip) => [chip.textContent, chip.getAttribute("data-n")])).toEqual([
      ["A Trindade", "1"],
      ["Apostila de Hermenêutica, pp. 12–13", "2"],
      ["A Trindade", "1"],
    ]);
    expect(answer.textContent).not.toContain(".md");
    expect(screen.getAllByRole("button", { name: "Ver o trecho citado: A Trindade, fonte 1" })).toHaveLength(2);
    // The brackets go, the punctuation after the chip stays with it.
    expect(answer.textContent).not.toContain("[");
    expect(chips[0]!.parentElement!.className).toBe("nowrap");
    // The Bible reference is still a verse chip; none inside the document citations.
    expect(screen.getByRole("button", { name: "Abrir Mateus 3:16-17" })).toBeTruthy();
    expect(answer.querySelectorAll(".ref-chip")).toHaveLength(1);
    expect(chips[1]!.closest("strong")).toBeTruthy();
  });

  it("leaves unknown brackets and a Bible answer's text alone", () => {
    renderWithReferences(
      <div data-testid="answer">
        <AnswerText text={"Veja [Outro Livro (x.md, trecho 9)] e [nota]; João 3:16 [João 3:16]."} sources={[TRINDADE, APOSTILA]} />
      </div>,
    );
    const answer = screen.getByTestId("answer");
    expect(answer.querySelector(".doc-chip")).toBeNull();
    expect(answer.textContent).toContain("[Outro Livro (x.md, trecho 9)]");
    expect(screen.getAllByRole("button", { name: "Abrir João 3:16" })).toHaveLength(2);
  });

  it("brings the cited excerpt into view when the chip is clicked", async () => {
    const { streams } = collectionsServer();
    window.localStorage.setItem(COLLECTION_KEY, "exemplo");
    const user = userEvent.setup();
    render(<App />);
    await waitFor(() => expect(picker().value).toBe("exemplo"));
    await user.type(box(), "o que é a Trindade?{Enter}");
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.send("sources", { conversationId: "c", collection: "exemplo", sources: [APOSTILA, TRINDADE] });
    streams[0]!.send("token", { text: `Três pessoas [${TRINDADE_CITATION}].` });
    streams[0]!.send("done", { citations: [TRINDADE_CITATION] });
    streams[0]!.end();
    const chip = await screen.findByRole("button", { name: "Ver o trecho citado: A Trindade, fonte 2" });
    await user.click(chip);
    const item = document.activeElement as HTMLElement;
    expect(item.getAttribute("data-citation")).toBe(TRINDADE_CITATION);
    expect(item.getAttribute("data-cited")).toBe("true");
  });
});

describe("collections in the status panel", () => {
  it("lists each collection with its counts, semantic search, last reload and error", () => {
    const broken = {
      ...EMPTY_COLLECTION,
      name: "aulas",
      kind: "mysql",
      reloading: true,
      error: { code: "mysql_unreachable", message: "não foi possível conectar ao MySQL" },
    };
    render(<StatusPanel status={{ ...READY_STATUS, collections: [EXEMPLO, broken] }} unreachable={false} />);
    const list = screen.getByRole("list", { name: "Coleções de documentos" });
    const [exemplo, aulas] = within(list).getAllByRole("listitem");
    expect(within(exemplo!).getByText("exemplo")).toBeTruthy();
    expect(within(exemplo!).getByText("4 documentos · 4 trechos")).toBeTruthy();
    expect(within(exemplo!).getByText("Busca semântica: ativa")).toBeTruthy();
    expect(within(exemplo!).getByText(/^Última recarga: \d\d\/\d\d\/\d{4},? \d\d:\d\d \(24 ms\)$/u)).toBeTruthy();
    expect(within(aulas!).getByText("Vazia: nenhum documento indexado")).toBeTruthy();
    expect(within(aulas!).getByText("Busca semântica: desligada (a coleção ainda não foi carregada)")).toBeTruthy();
    expect(within(aulas!).getByText("Não recarregada desde que o servidor iniciou")).toBeTruthy();
    expect(within(aulas!).getByText(/recarregando/u)).toBeTruthy();
    expect(within(aulas!).getByText("Erro na última recarga: não foi possível conectar ao MySQL")).toBeTruthy();
  });

  it("shows how far a running reload is, in documents and then chunks", () => {
    const reloading = (progress: CollectionStatus["progress"]) => ({ ...EXEMPLO, reloading: true, progress });
    const { rerender } = render(
      <StatusPanel status={{ ...READY_STATUS, collections: [reloading({ phase: "lexical", done: 120, total: 1000, counts: "documents" })] }} unreachable={false} />,
    );
    expect(screen.getByText("recarregando… indexando os documentos: 120 de 1.000 documentos")).toBeTruthy();
    rerender(<StatusPanel status={{ ...READY_STATUS, collections: [reloading({ phase: "dense", done: 2048, total: 4000, counts: "chunks" })] }} unreachable={false} />);
    expect(screen.getByText("recarregando… preparando a busca por significado: 2.048 de 4.000 trechos")).toBeTruthy();
    rerender(<StatusPanel status={{ ...READY_STATUS, collections: [reloading({ phase: "training", done: 0, total: 1, counts: "chunks" })] }} unreachable={false} />);
    expect(screen.getByText("recarregando… aprendendo o vocabulário da coleção")).toBeTruthy();
    // A server from before progress was reported: the reload is still shown.
    rerender(<StatusPanel status={{ ...READY_STATUS, collections: [{ ...EXEMPLO, reloading: true }] }} unreachable={false} />);
    expect(screen.getByText("recarregando…")).toBeTruthy();
  });

  it("shows no collections section for a server without them", () => {
    render(<StatusPanel status={READY_STATUS} unreachable={false} />);
    expect(screen.queryByText("Coleções")).toBeNull();
  });
});
