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

function renderPanel(sources: Source[], citations: string[] | null) {
  return render(
    <ReferenceProvider>
      <SourcesPanel sources={sources} citations={citations} />
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
    expect(items[1]!.textContent).toContain("Romanos, capítulo 8, versículo 28");
    expect(items[2]!.textContent).toContain("Salmos, capítulo 23, versículo 1 a 4");
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
