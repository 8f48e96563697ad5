import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ReferenceProvider } from "../../web/src/components/references";
import { SourcesPanel } from "../../web/src/components/SourcesPanel";
import type { Source } from "../../web/src/lib/api";
import { isCited } from "../../web/src/lib/citations";
import { JOHN_3_16, ROMANS_8_28 } from "./helpers";

const PSALM_23: Source = {
  id: "PSA.23.1-4",
  ref: "PSA 23:1-4",
  reference: "Salmos 23:1-4",
  book: "Salmos",
  bookCode: "PSA",
  chapter: 23,
  verse: 1,
  verseEnd: 4,
  text: "O SENHOR é o meu pastor; nada me faltará.",
};

function renderPanel(sources: Source[], citations: string[] | null, answer = "") {
  return render(
    <ReferenceProvider>
      <SourcesPanel sources={sources} citations={citations} answer={answer} />
    </ReferenceProvider>,
  );
}

describe("sources panel", () => {
  it("lists every consulted verse with its reference and text, and marks the cited ones", () => {
    renderPanel([JOHN_3_16, ROMANS_8_28, PSALM_23], ["João 3:16", "Salmos 23:2"]);
    expect(screen.getByText("Versículos consultados (3)")).toBeTruthy();
    expect(screen.getByText("2 citados na resposta")).toBeTruthy();
    const items = screen.getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("data-cited"))).toEqual(["true", "false", "true"]);
    expect(within(items[0]!).getByRole("button", { name: "João 3:16" })).toBeTruthy();
    expect(within(items[0]!).getByText(JOHN_3_16.text)).toBeTruthy();
    expect(within(items[0]!).getByText(/citado na resposta/u)).toBeTruthy();
    expect(within(items[1]!).queryByText(/citado na resposta/u)).toBeNull();
    // Numbered as the answer's chips number them; closed until opened.
    expect(items.map((item) => item.querySelector(".source-n")!.textContent)).toEqual(["1", "2", "3"]);
    expect((document.querySelector("details.sources") as HTMLDetailsElement).open).toBe(false);
  });

  it("shows only the reference of a verse the answer already quotes, so no verse is read twice", () => {
    const answer = "Está escrito: “Porque Deus amou o mundo de tal maneira, que deu o seu Filho” (João 3:16).";
    renderPanel([JOHN_3_16, ROMANS_8_28], ["João 3:16"], answer);
    const [john, romans] = screen.getAllByRole("listitem");
    expect(john!.getAttribute("data-quoted")).toBe("true");
    expect(within(john!).queryByText(JOHN_3_16.text)).toBeNull();
    expect(within(john!).getByText(/citado no texto acima/u)).toBeTruthy();
    expect(within(john!).getByRole("button", { name: "João 3:16" })).toBeTruthy();
    expect(romans!.getAttribute("data-quoted")).toBe("false");
    expect(within(romans!).getByText(ROMANS_8_28.text)).toBeTruthy();
  });

  it("marks nothing before the answer is done, and says so when nothing was cited", () => {
    const { unmount } = renderPanel([JOHN_3_16], null);
    expect(screen.getAllByRole("listitem")[0]!.getAttribute("data-cited")).toBe("false");
    expect(screen.queryByText(/citado/u)).toBeNull();
    unmount();
    renderPanel([JOHN_3_16], []);
    expect(screen.getByText("nenhum citado")).toBeTruthy();
  });

  it("shows nothing when no verse was consulted", () => {
    const { container } = renderPanel([], []);
    expect(container.textContent).toBe("");
  });

  it("counts a citation that covers part of a range, but not another book or chapter", () => {
    expect(isCited(PSALM_23, ["Salmos 23"])).toBe(true);
    expect(isCited(PSALM_23, ["Salmos 23:4-6"])).toBe(true);
    expect(isCited(PSALM_23, ["Salmos 24:1"])).toBe(false);
    expect(isCited(JOHN_3_16, ["1 João 3:16"])).toBe(false);
    expect(isCited(JOHN_3_16, ["Jo 3:16"])).toBe(true);
  });
});
