import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AnswerText } from "../../web/src/components/AnswerText";
import { ReferenceProvider } from "../../web/src/components/references";
import { parseInline } from "../../web/src/lib/markdown";
import { json, mockApi } from "./helpers";

const VERSES: Record<string, unknown> = {
  "João 3": {
    reference: "João 3",
    verses: [
      {
        ref: "JHN 3:15",
        reference: "João 3:15",
        book: "João",
        bookCode: "JHN",
        chapter: 3,
        verse: 15,
        text: "Para que todo aquele que nele crê não pereça, mas tenha a vida eterna.",
        crossReferences: [{ reference: "João 6:40", votes: 30 }],
      },
      {
        ref: "JHN 3:16",
        reference: "João 3:16",
        book: "João",
        bookCode: "JHN",
        chapter: 3,
        verse: 16,
        text: "Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito.",
        crossReferences: [
          { reference: "Romanos 5:8", votes: 120 },
          { reference: "1 João 4:9", votes: 95 },
        ],
      },
    ],
    attribution: "Referências cruzadas: OpenBible.info (CC BY)",
  },
  "Romanos 5": {
    reference: "Romanos 5",
    verses: [
      {
        ref: "ROM 5:8",
        reference: "Romanos 5:8",
        book: "Romanos",
        bookCode: "ROM",
        chapter: 5,
        verse: 8,
        text: "Mas Deus prova o seu amor para conosco em que Cristo morreu por nós, sendo nós ainda pecadores.",
        crossReferences: [{ reference: "João 3:16", votes: 120 }],
      },
    ],
    attribution: "Referências cruzadas: OpenBible.info (CC BY)",
  },
};

function versesApi() {
  return mockApi({
    "/api/verses": (url) => {
      const ref = url.searchParams.get("ref") ?? "";
      const body = VERSES[ref];
      return body ? json(body) : json({ error: { code: "reference_not_found", message: "Atos não tem capítulo 99." } }, 404);
    },
  });
}

function renderAnswer(text: string) {
  return render(
    <ReferenceProvider>
      <AnswerText text={text} />
    </ReferenceProvider>,
  );
}

describe("references in the answer", () => {
  it("finds references with the project's grammar, including abbreviations and lists", () => {
    expect(parseInline("Leia Jo 3:16 e Rm 3:23; 6:23, não os 3 homens.")).toEqual([
      { type: "text", text: "Leia " },
      { type: "ref", text: "Jo 3:16", query: "João 3:16" },
      { type: "text", text: " e " },
      { type: "ref", text: "Rm 3:23; 6:23", query: "Romanos 3:23; 6:23" },
      { type: "text", text: ", não os 3 homens." },
    ]);
    expect(parseInline("**João 3:16**")).toEqual([{ type: "strong", children: [{ type: "ref", text: "João 3:16", query: "João 3:16" }] }]);
  });

  it("turns each reference into a chip", () => {
    renderAnswer("Deus ama o mundo (João 3:16) e prova seu amor (Rm 5:8).");
    const chips = screen.getAllByRole("button", { name: /^Abrir / });
    expect(chips.map((chip) => chip.textContent)).toEqual(["João 3:16", "Rm 5:8"]);
    expect(chips[1]!.getAttribute("aria-label")).toBe("Abrir Romanos 5:8");
  });

  it("opens the verse with its cross references on click; those open in turn, with a way back", async () => {
    const fetchMock = versesApi();
    const user = userEvent.setup();
    renderAnswer("Como diz João 3:16, Deus amou o mundo.");
    const chip = screen.getByRole("button", { name: "Abrir João 3:16" });
    await user.click(chip);

    const dialog = await screen.findByRole("dialog", { name: "João 3:16" });
    expect(await within(dialog).findByText(/Porque Deus amou o mundo de tal maneira/u)).toBeTruthy();
    // The whole chapter is asked for, the verse highlighted in it; the cross references are the highlighted verse's.
    expect(String(fetchMock.mock.calls[0]![0])).toBe("/api/verses?ref=Jo%C3%A3o%203");
    expect(within(dialog).getByText(/Para que todo aquele que nele crê/u)).toBeTruthy();
    const marked = dialog.querySelectorAll("mark");
    expect(marked).toHaveLength(1);
    expect(marked[0]!.textContent).toMatch(/^16Porque Deus amou/u);
    expect(within(dialog).getByText("João 3 · Bíblia Livre")).toBeTruthy();
    const seeAlso = within(dialog).getByRole("region", { name: "Veja também" });
    expect(within(seeAlso).getAllByRole("button").map((b) => b.textContent)).toEqual(["Romanos 5:8", "1 João 4:9"]);

    await user.click(within(seeAlso).getByRole("button", { name: "Abrir Romanos 5:8" }));
    const next = await screen.findByRole("dialog", { name: "Romanos 5:8" });
    expect(await within(next).findByText(/Cristo morreu por nós/u)).toBeTruthy();

    await user.click(within(next).getByRole("button", { name: /Voltar/u }));
    expect(await screen.findByRole("dialog", { name: "João 3:16" })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2); // João 3:16 came from the cache

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(chip);
  });

  it("goes to the chapter before and after, across books, and copies and shares the passage", async () => {
    const chapters: string[] = [];
    mockApi({
      "/api/verses": (url) => {
        const ref = url.searchParams.get("ref") ?? "";
        chapters.push(ref);
        const [, book, chapter] = /^(.*) (\d+)$/u.exec(ref) ?? [];
        return json({
          reference: ref,
          verses: [1, 2].map((verse) => ({ ref: `X ${chapter}:${verse}`, reference: `${book} ${chapter}:${verse}`, book, bookCode: "X", chapter: Number(chapter), verse, text: `Texto ${ref}:${verse}.`, crossReferences: [] })),
          attribution: "",
        });
      },
    });
    const user = userEvent.setup();
    // After user-event's own clipboard stub: what the page writes is read here.
    const written: string[] = [];
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (text: string) => void written.push(text) } });
    renderAnswer("Leia Malaquias 4:2.");
    await user.click(screen.getByRole("button", { name: "Abrir Malaquias 4:2" }));
    const dialog = await screen.findByRole("dialog", { name: "Malaquias 4:2" });
    await within(dialog).findByText("Texto Malaquias 4:2.");

    await user.click(within(dialog).getByRole("button", { name: "Copiar" }));
    await waitFor(() => expect(written).toHaveLength(1));
    expect(written[0]).toBe("“Texto Malaquias 4:2.”\n— Malaquias 4:2 (Bíblia Livre)");
    await user.click(within(dialog).getByRole("button", { name: "Compartilhar" }));
    await waitFor(() => expect(written).toHaveLength(2));
    expect(new URL(written[1]!).searchParams.get("passagem")).toBe("Malaquias 4:2");
    expect(within(dialog).getByRole("status").textContent).toContain("Link copiado");

    // The next chapter is the next book's first.
    await user.click(within(dialog).getByRole("button", { name: "Próximo capítulo: Mateus 1" }));
    const next = await screen.findByRole("dialog", { name: "Mateus 1" });
    await within(next).findByText("Texto Mateus 1:2.");
    expect(next.querySelectorAll("mark")).toHaveLength(0);
    await user.click(within(next).getByRole("button", { name: "Capítulo anterior: Malaquias 4" }));
    await screen.findByRole("dialog", { name: "Malaquias 4" });
    expect(chapters).toEqual(["Malaquias 4", "Mateus 1"]);
    // Genesis 1 has no chapter before it.
    expect(within(screen.getByRole("dialog")).queryByRole("button", { name: /^Capítulo anterior: Gênesis/u })).toBeNull();
  });

  it("explains a reference that cannot be loaded and offers to try again", async () => {
    const fetchMock = mockApi({
      "/api/verses": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const user = userEvent.setup();
    renderAnswer("Veja Salmos 23:1.");
    await user.click(screen.getByRole("button", { name: "Abrir Salmos 23:1" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Não foi possível falar com o servidor");
    fetchMock.mockImplementation(async () =>
      json({
        reference: "Salmos 23:1",
        verses: [{ ref: "PSA 23:1", reference: "Salmos 23:1", book: "Salmos", bookCode: "PSA", chapter: 23, verse: 1, text: "O SENHOR é o meu pastor; nada me faltará.", crossReferences: [] }],
        attribution: "",
      }),
    );
    await user.click(within(alert).getByRole("button", { name: "Tentar de novo" }));
    await waitFor(() => expect(screen.getByRole("dialog").textContent).toContain("O SENHOR é o meu pastor"));
  });
  it("says when the server listed only the first verses of a long reference", async () => {
    mockApi({
      "/api/verses": () =>
        json({
          reference: "Salmos 119",
          verses: [{ ref: "PSA 119:1", reference: "Salmos 119:1", book: "Salmos", bookCode: "PSA", chapter: 119, verse: 1, text: "Bem-aventurados os retos em seus caminhos.", crossReferences: [] }],
          total: 176,
          truncated: true,
          notice: "Mostrando os primeiros 1 de 176 versículos. Peça um trecho menor para ler o restante.",
          attribution: "",
        }),
    });
    const user = userEvent.setup();
    renderAnswer("Leia Salmos 119.");
    await user.click(screen.getByRole("button", { name: "Abrir Salmos 119" }));
    const note = await within(await screen.findByRole("dialog")).findByRole("note");
    expect(note.textContent).toContain("de 176 versículos");
  });
  it("keeps a Bible reference as plain text in a document collection's answer, which consults no verse", () => {
    render(
      <ReferenceProvider>
        <AnswerText text="Como diz João 3:16, Deus amou o mundo." verseChips={false} />
      </ReferenceProvider>,
    );
    expect(screen.queryByRole("button", { name: "Abrir João 3:16" })).toBeNull();
    expect(document.body.textContent).toContain("Como diz João 3:16, Deus amou o mundo.");
  });
});
