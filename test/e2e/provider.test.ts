import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlmServer } from "../support/fake-llm-servers.js";
import { ask, DESKTOP, lastAnswerDone, launchChromium, openApp, PHONE, screenshot, startPastor, type PastorServer, e2eDataDir } from "./support.js";

/** The server configured for OpenAI, pointed at a scripted fake speaking the real wire format. */
let fake: FakeLlmServer;
let server: PastorServer;
let browser: Browser;

beforeAll(async () => {
  fake = await startFakeLlmServer("openai");
  server = await startPastor({
    dataDir: e2eDataDir(),
    env: { LLM_PROVIDER: "openai", LLM_MODEL: "gpt-4o-mini", OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: fake.apiKey, LLM_TIMEOUT_MS: "20000" },
  });
  browser = await launchChromium();
});

beforeEach(() => fake.reset());

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
});

describe("a real provider behind the server (fake OpenAI)", () => {
  it("never shows a reference the provider invented", async () => {
    fake.script({
      chunks: ["Deus amou o mundo, como diz ", "João 3:", "16. Também está escrito em ", "Atos 99:1", " e em Romanos 8:28 que você é amado."],
    });
    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    try {
      await ask(page, "João 3:16");
      const answer = await lastAnswerDone(page);
      const text = (await answer.textContent()) ?? "";
      expect(text).toContain("Deus amou o mundo");
      expect(await answer.getByRole("button", { name: "Abrir João 3:16" }).count()).toBeGreaterThan(0);
      // Invented (Atos has 28 chapters) and not consulted (Romanos 8:28 was not among the sources).
      expect(await page.getByText("Atos 99").count()).toBe(0);
      expect(await page.getByRole("button", { name: /Atos 99/u }).count()).toBe(0);
      expect(await answer.locator(".answer").getByText(/Romanos 8:28/u).count()).toBe(0);
      const body = (await page.locator("body").textContent()) ?? "";
      expect(body).not.toContain("Atos 99:1");
      await screenshot(page, "desktop-11-invented-reference-removed");
      expect(fake.requests).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it("explains a provider failure in Portuguese and answers on 'Tentar de novo', keeping the question", async () => {
    fake.script({ fail: 500 });
    const { context, page } = await openApp(browser, server.url, { viewport: PHONE });
    try {
      await ask(page, "O que Jesus disse sobre amar os inimigos?");
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("O provedor de IA está indisponível no momento.");
      const box = page.getByRole("textbox", { name: "Sua pergunta" });
      expect(await box.inputValue()).toBe("O que Jesus disse sobre amar os inimigos?");
      await screenshot(page, "phone-12-provider-failure");

      fake.script({ chunks: ["Jesus ensinou: amai os vossos inimigos ", "(Mateus 5:44)."] });
      await alert.getByRole("button", { name: "Tentar de novo" }).click();
      const answer = await lastAnswerDone(page);
      expect(await answer.textContent()).toContain("amai os vossos inimigos");
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await page.getByRole("article", { name: "Sua pergunta" }).count()).toBe(1);
      expect(await box.inputValue()).toBe("");
      await screenshot(page, "phone-13-after-retry");
    } finally {
      await context.close();
    }
  });

  it("stops mid-answer with 'Parar': the partial answer stays and the server stops the provider", async () => {
    const words = Array.from({ length: 80 }, (_, i) => `palavra${i + 1} `);
    fake.script({ chunks: ["Não tenhas medo, ", ...words], delayMs: 150 });
    for (const [device, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const { context, page } = await openApp(browser, server.url, { viewport });
      try {
        await ask(page, "estou com medo do futuro");
        const answer = page.getByRole("article", { name: "Resposta" }).last();
        await answer.getByText(/palavra3/u).waitFor();
        const disconnected = fake.waitForClientDisconnect(10_000);
        await page.getByRole("button", { name: /Parar/u }).click();
        await answer.getByText("Resposta interrompida.").waitFor();
        expect(await disconnected).toBe(true);
        const text = (await answer.locator(".answer").textContent()) ?? "";
        expect(text).toContain("Não tenhas medo");
        expect(text).not.toContain("palavra80");
        const box = page.getByRole("textbox", { name: "Sua pergunta" });
        expect(await box.isEnabled()).toBe(true);
        await screenshot(page, `${device}-14-stopped`);
        // Nothing more arrives after the stop.
        await page.waitForTimeout(600);
        expect((await answer.locator(".answer").textContent()) ?? "").toBe(text);
      } finally {
        await context.close();
      }
      fake.reset();
      fake.script({ chunks: ["Não tenhas medo, ", ...words], delayMs: 150 });
    }
  });
});
