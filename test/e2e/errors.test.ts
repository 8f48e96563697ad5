import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, DESKTOP, lastAnswerDone, launchChromium, openApp, screenshot, startPastor, type PastorServer, e2eDataDir } from "./support.js";

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("errors the person can recover from", () => {
  it("says the server is down, keeps the question, and answers once it is back", async () => {
    const dataDir = e2eDataDir();
    let server: PastorServer = await startPastor({ dataDir });
    const port = server.port;
    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    try {
      await page.getByRole("button", { name: "Situação: pronto" }).waitFor();
      await server.stop();

      await ask(page, "Salmos 23:1");
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Não foi possível falar com o servidor");
      expect(await page.getByRole("textbox", { name: "Sua pergunta" }).inputValue()).toBe("Salmos 23:1");
      await page.getByTestId("service-notice").getByText(/O servidor não está respondendo/u).waitFor({ timeout: 15_000 });
      await page.getByRole("button", { name: "Situação: servidor fora do ar" }).waitFor();
      await screenshot(page, "desktop-15-server-down");

      server = await startPastor({ dataDir, port });
      await alert.getByRole("button", { name: "Tentar de novo" }).click();
      const answer = await lastAnswerDone(page);
      expect(await answer.textContent()).toContain("O SENHOR é meu pastor");
      expect(await page.getByRole("alert").count()).toBe(0);
      await page.getByRole("button", { name: "Situação: pronto" }).waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("service-notice").count()).toBe(0);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  it("explains a question that is too long (413) and keeps it in the box to be shortened", async () => {
    const server = await startPastor({ dataDir: e2eDataDir() });
    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    try {
      const long = `${"Por que sofremos? ".repeat(230)}`.trim();
      expect(long.length).toBeGreaterThan(4000);
      await ask(page, long);
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/longa demais.*limite é 4000/u);
      const box = page.getByRole("textbox", { name: "Sua pergunta" });
      expect(await box.inputValue()).toBe(long);
      await screenshot(page, "desktop-16-too-long");

      await box.fill("Por que sofremos?");
      await alert.getByRole("button", { name: "Tentar de novo" }).click();
      await lastAnswerDone(page);
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await page.getByRole("article", { name: "Sua pergunta" }).textContent()).toBe("Por que sofremos?");
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
