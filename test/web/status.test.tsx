import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../web/src/App";
import { StatusPanel } from "../../web/src/components/StatusPanel";
import type { ServerStatus } from "../../web/src/lib/api";
import { json, mockApi, READY_STATUS } from "./helpers";

const INDEXING: ServerStatus = {
  ...READY_STATUS,
  versesIndexed: 12_288,
  indexing: true,
  progress: { phase: "lexical", done: 12_288, total: 31_102 },
  lexicalReady: true,
};

describe("status panel", () => {
  it("shows indexing progress in plain Portuguese", () => {
    render(<StatusPanel status={INDEXING} unreachable={false} />);
    expect(screen.getByTestId("index-status").textContent).toBe("Indexando as palavras dos versículos");
    expect(screen.getByText("12.288 de 31.102 versículos")).toBeTruthy();
    const bar = screen.getByRole("progressbar", { name: "Progresso da indexação" });
    expect(bar.getAttribute("value")).toBe("40");
    expect(screen.getByText(/Você já pode perguntar/u)).toBeTruthy();
  });

  it("names each phase", () => {
    const phases: [string, string][] = [
      ["scanning", "Lendo os arquivos da Bíblia"],
      ["training", "Aprendendo o vocabulário da Bíblia"],
      ["dense", "Preparando a busca por significado"],
    ];
    for (const [phase, label] of phases) {
      const { unmount } = render(<StatusPanel status={{ ...INDEXING, progress: { phase, done: 0, total: 1 } }} unreachable={false} />);
      expect(screen.getByTestId("index-status").textContent).toBe(label);
      unmount();
    }
  });

  it("shows a ready index, the search model, the provider and the errors", () => {
    render(
      <StatusPanel
        status={{ ...READY_STATUS, llm: { provider: "openai", model: "gpt-4o-mini" }, errors: [{ file: "extra.usfx.xml", message: "arquivo corrompido" }] }}
        unreachable={false}
      />,
    );
    expect(screen.getByTestId("index-status").textContent).toBe("Pronto: 31.102 versículos indexados");
    expect(screen.getByText("Por palavras-chave e por significado")).toBeTruthy();
    expect(screen.getByText("Modelo de significado aprendido da própria Bíblia (LSA).").getAttribute("title")).toBe("lsa:256:abc");
    expect(screen.getByText("OpenAI")).toBeTruthy();
    expect(screen.getByText("Modelo: gpt-4o-mini")).toBeTruthy();
    expect(screen.getByText("extra.usfx.xml: arquivo corrompido")).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("says when the search is by keywords only, with the reason", () => {
    render(
      <StatusPanel
        status={{ ...READY_STATUS, embedding: { enabled: false, model: null, reason: "o modelo de embeddings não foi encontrado", mode: "Busca apenas por palavras-chave" } }}
        unreachable={false}
      />,
    );
    expect(screen.getByText("Busca só por palavras-chave")).toBeTruthy();
    expect(screen.getByText("O modelo de embeddings não foi encontrado.")).toBeTruthy();
  });

  it("says when the server does not answer", () => {
    render(<StatusPanel status={undefined} unreachable />);
    expect(screen.getByText(/O servidor não está respondendo/u)).toBeTruthy();
  });

  it("polls /api/status every 1.5 s while indexing and shows the progress as it moves", async () => {
    vi.useFakeTimers();
    let done = 4096;
    const fetchMock = mockApi({
      "/api/status": () => {
        const status = { ...INDEXING, progress: { phase: "lexical", done, total: 31_102 } };
        done += 8192;
        return json(status);
      },
    });
    render(<App />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    // In a word on the status indicator; the details behind it.
    const indicator = screen.getByRole("button", { name: "Situação: indexando 13%" });
    expect(indicator.textContent).toBe("Indexando 13%");
    expect(screen.queryByText("4.096 de 31.102 versículos")).toBeNull();
    fireEvent.click(indicator);
    expect(screen.getByRole("region", { name: "Situação do serviço" })).toBeTruthy();
    expect(screen.getByText("4.096 de 31.102 versículos")).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(screen.getByText("12.288 de 31.102 versículos")).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(screen.getByText("20.480 de 31.102 versículos")).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/status")).toHaveLength(3);
    expect(screen.getByRole("button", { name: "Situação: indexando 66%" }).getAttribute("aria-expanded")).toBe("true");
  });
});
