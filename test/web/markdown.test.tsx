import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AnswerText } from "../../web/src/components/AnswerText";
import { ReferenceProvider } from "../../web/src/components/references";
import { SourcesPanel } from "../../web/src/components/SourcesPanel";
import { parseMarkdown } from "../../web/src/lib/markdown";
import { JOHN_3_16 } from "./helpers";

function renderAnswer(text: string) {
  return render(
    <ReferenceProvider>
      <div data-testid="answer">
        <AnswerText text={text} />
      </div>
    </ReferenceProvider>,
  );
}

describe("answer rendering is safe", () => {
  it("shows an <img onerror> from the model as text, never as an element", () => {
    const attack = '<img src=x onerror=alert(1)>';
    renderAnswer(`Veja: ${attack} e <script>alert(2)</script> **<b>negrito</b>**`);
    const answer = screen.getByTestId("answer");
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.querySelector("script")).toBeNull();
    expect(answer.querySelector("b")).toBeNull();
    expect(answer.textContent).toContain(attack);
    expect(answer.textContent).toContain("<script>alert(2)</script>");
    expect(answer.querySelector("strong")?.textContent).toBe("<b>negrito</b>");
  });

  it("keeps markup in a source's verse text as text too", () => {
    const { container } = render(
      <ReferenceProvider>
        <SourcesPanel sources={[{ ...JOHN_3_16, text: '<img src=x onerror=alert(1)> Porque Deus amou' }]} citations={null} />
      </ReferenceProvider>,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toContain("<img src=x onerror=alert(1)> Porque Deus amou");
  });

  it("does not turn Markdown links or javascript: URLs into links", () => {
    renderAnswer("[clique aqui](javascript:alert(1)) <a href='javascript:alert(1)'>x</a>");
    const answer = screen.getByTestId("answer");
    expect(answer.querySelector("a")).toBeNull();
    expect(answer.textContent).toContain("[clique aqui](javascript:alert(1))");
  });
});

describe("the Markdown subset", () => {
  it("renders paragraphs, bold, italic and both kinds of list", () => {
    renderAnswer("Primeiro **forte** e *leve* e _também_.\n\n- um\n- dois\n\n1. três\n2. quatro\n\n# Título\n\n> Citação");
    const answer = screen.getByTestId("answer");
    expect(answer.querySelectorAll("p")).toHaveLength(2);
    expect(answer.querySelector("strong")?.textContent).toBe("forte");
    expect([...answer.querySelectorAll("em")].map((e) => e.textContent)).toEqual(["leve", "também"]);
    expect([...answer.querySelectorAll("ul > li")].map((li) => li.textContent)).toEqual(["um", "dois"]);
    expect([...answer.querySelectorAll("ol > li")].map((li) => li.textContent)).toEqual(["três", "quatro"]);
    expect(answer.querySelector("blockquote")?.textContent).toBe("Citação");
    expect(answer.querySelector(".answer-heading strong")?.textContent).toBe("Título");
  });

  it("leaves unmatched or inner-word delimiters alone", () => {
    expect(parseMarkdown("2 * 3 = 6 e snake_case_name e **aberto")).toEqual([
      { type: "paragraph", children: [{ type: "text", text: "2 * 3 = 6 e snake_case_name e **aberto" }] },
    ]);
  });

  it("keeps the punctuation around a reference on the chip's line", () => {
    renderAnswer("a vida eterna” (João 3:16). Fim.");
    const group = screen.getByTestId("answer").querySelector(".nowrap");
    expect(group?.textContent).toBe("(João 3:16).");
    expect(screen.getByTestId("answer").textContent).toBe("a vida eterna” (João 3:16). Fim.");
  });

  it("keeps single line breaks inside a paragraph", () => {
    renderAnswer("linha um\nlinha dois");
    expect(screen.getByTestId("answer").querySelectorAll("br")).toHaveLength(1);
  });
});
