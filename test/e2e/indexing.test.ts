import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, DESKTOP, lastAnswerDone, launchChromium, openApp, PHONE, screenshot, startPastor, tempDataDir, type PastorServer } from "./support.js";

/**
 * A first start on an empty DATA_DIR. The server starts without indexing (so the "index not
 * ready" answer is certain), then the test starts indexing through POST /api/reindex and the
 * page follows it: a worker indexes the Bible while the chat already answers.
 */
let browser: Browser;
let server: PastorServer;
let dataDir: string;

beforeAll(async () => {
  browser = await launchChromium();
  dataDir = tempDataDir("pastor-e2e-fresh-");
  server = await startPastor({ dataDir, env: { AUTO_INDEX: "false" } });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const INDEXING_LABEL = /Lendo os arquivos|Indexando as palavras|Aprendendo o vocabulário|Preparando a busca/u;

describe("the first start", () => {
  it("says the index is not ready (503), shows the indexing as it runs, answers during it, and ends ready", async () => {
    const desktop = await openApp(browser, server.url, { viewport: DESKTOP });
    const phone = await openApp(browser, server.url, { viewport: PHONE });
    try {
      // Said above the conversation; the details behind the status indicator.
      await desktop.page.getByTestId("service-notice").getByText(/O índice da Bíblia ainda não foi criado/u).waitFor();
      await desktop.page.getByRole("button", { name: /^Situação/u }).click();
      const panel = desktop.page.getByRole("region", { name: "Situação do serviço" });
      await panel.getByText("O índice ainda não foi criado").waitFor();

      // No index yet: the server answers 503 and the page says so, keeping the question.
      await ask(desktop.page, "João 3:16");
      const alert = desktop.page.getByRole("alert");
      expect(await panel.isVisible()).toBe(true);
      await alert.waitFor();
      expect(await alert.textContent()).toContain("O índice ainda está sendo preparado");
      expect(await desktop.page.getByRole("textbox", { name: "Sua pergunta" }).inputValue()).toBe("João 3:16");
      await screenshot(desktop.page, "desktop-17-index-not-ready");

      const started = await fetch(`${server.url}/api/reindex`, { method: "POST" });
      expect(started.status).toBe(202);

      // The panel follows the indexing on its own (polling while it runs).
      await panel.getByTestId("index-status").getByText(INDEXING_LABEL).waitFor({ timeout: 30_000 });
      await screenshot(desktop.page, "desktop-18-indexing");
      await phone.page.getByRole("button", { name: /^Situação/u }).click();
      await phone.page.getByTestId("index-status").getByText(INDEXING_LABEL).waitFor({ timeout: 30_000 });
      await screenshot(phone.page, "phone-18-indexing");

      // The chat works as soon as the lexical index is loaded, while indexing goes on.
      await panel.getByText(/Você já pode perguntar/u).waitFor({ timeout: 90_000 });
      await alert.getByRole("button", { name: "Tentar de novo" }).click();
      const answer = await lastAnswerDone(desktop.page);
      expect(await answer.textContent()).toContain("Porque Deus amou o mundo");
      expect(await desktop.page.getByRole("alert").count()).toBe(0);
      await screenshot(desktop.page, "desktop-19-answer-during-indexing");
      // The click on "Tentar de novo" closed the status panel: open it again.
      const indicator = desktop.page.getByRole("button", { name: /^Situação/u });
      if ((await indicator.getAttribute("aria-expanded")) !== "true") await indicator.click();

      await panel.getByText(/Pronto: 31\.102 versículos indexados/u).waitFor({ timeout: 120_000 });
      await phone.page.getByText(/Pronto: 31\.102 versículos indexados/u).waitFor({ timeout: 30_000 });
      expect(await panel.getByText("Por palavras-chave e por significado").isVisible()).toBe(true);
    } finally {
      await desktop.context.close();
      await phone.context.close();
    }
  });
});
