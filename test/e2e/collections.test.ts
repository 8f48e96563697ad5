import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, waitForPage, DESKTOP, e2eDataDir, lastAnswerDone, launchChromium, openApp, pageProblems, PHONE, screenshot, startPastor, type PastorServer } from "./support.js";

/**
 * A question to the "exemplo" document collection (collections/exemplo, shipped with the
 * repository) in a real Chromium against the real server with the stub provider: the answer
 * streams, cites the lesson "A Trindade" by its human citation, and the page shows that
 * citation as a document chip and the lesson's excerpt as a cited source.
 */
let server: PastorServer;
let browser: Browser;

const CITATION = "A Trindade (teologia/a-trindade.md, trecho 1)";

beforeAll(async () => {
  server = await startPastor({ dataDir: e2eDataDir() });
  browser = await launchChromium();
  // The global setup already reloaded the collections into the data dir; reloading through the
  // API is incremental (nothing changed: nothing is re-read) and proves the route serves it.
  const reload = await fetch(`${server.url}/api/reload`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ collection: "exemplo" }),
  });
  expect(reload.status, server.output()).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a document collection", () => {
  it("answers 'o que é a Trindade?' from 'exemplo': streamed, with the cited lesson and a citation chip", async () => {
    const listed = (await (await fetch(`${server.url}/api/collections`)).json()) as { collections: { name: string; chunks: number }[] };
    expect(listed.collections.find((collection) => collection.name === "exemplo")?.chunks ?? 0).toBeGreaterThan(0);

    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    try {
      const picker = page.getByRole("combobox", { name: "Consultar" });
      await picker.waitFor();
      expect(await picker.inputValue()).toBe("biblia");
      await picker.selectOption("exemplo");
      await page.getByRole("heading", { name: "Consulte a coleção “exemplo”" }).waitFor();

      const request = page.waitForRequest((r) => r.url().endsWith("/api/chat") && r.method() === "POST");
      await ask(page, "o que é a Trindade?");
      expect((await request).postDataJSON()).toMatchObject({ message: "o que é a Trindade?", collection: "exemplo" });

      // The stub streams word by word: the text is seen growing while the answer is busy.
      const answer = page.getByRole("article", { name: "Resposta" }).last();
      await waitForPage(
        page,
        `(() => { const a = document.querySelector('article[aria-label="Resposta"] .answer'); return a && a.textContent.length > 40; })()`,
      );
      const early = (await answer.locator(".answer").textContent()) ?? "";
      expect(await answer.getAttribute("aria-busy")).toBe("true");
      await lastAnswerDone(page);
      const full = (await answer.locator(".answer").textContent()) ?? "";
      expect(full.length).toBeGreaterThan(early.length);
      expect(full).toContain("a coleção “exemplo”");

      // The lesson is among the sources (closed until opened), marked cited.
      expect(await answer.getByText(/Trechos consultados \(\d+\)/u).isVisible()).toBe(true);
      await answer.getByText(/Trechos consultados/u).click();
      const lesson = answer.locator('li[data-kind="document"]').filter({ has: page.locator(".source-title", { hasText: /^A Trindade$/u }) });
      expect(await lesson.count()).toBe(1);
      expect(await lesson.getAttribute("data-cited")).toBe("true");
      expect(await lesson.getByText(/citado na resposta/u).isVisible()).toBe(true);
      expect(await lesson.textContent()).not.toContain("a-trindade.md");
      expect(await lesson.getByText("Teologia Sistemática").isVisible()).toBe(true);

      // The citation in the text is a document chip (not a verse chip), by the lesson's title and its number.
      const chips = answer.locator(".answer .doc-chip", { hasText: /^A Trindade/u });
      expect(await chips.count()).toBeGreaterThan(0);
      expect(await chips.first().isVisible()).toBe(true);
      expect(await chips.first().getAttribute("data-citation")).toBe(CITATION);
      expect(full).not.toContain(`[${CITATION}]`);
      expect(full).not.toContain("a-trindade.md");
      await screenshot(page, "desktop-20-collection-answer", true);

      // The chip brings the cited excerpt into view, with the focus on it.
      await chips.first().click();
      const focused = await page.evaluate("document.activeElement && document.activeElement.getAttribute('data-citation')");
      expect(focused).toBe(CITATION);

      // The status panel lists the collection.
      await page.getByRole("button", { name: /^Situação/u }).click();
      const panel = page.getByRole("region", { name: "Situação do serviço" });
      const item = panel.locator('li[data-collection="exemplo"]');
      await item.waitFor();
      expect(await item.textContent()).toMatch(/\d+ documentos · \d+ trechos/u);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }

    // On a phone the selector fits the screen too.
    const phone = await openApp(browser, server.url, { viewport: PHONE });
    try {
      const picker = phone.page.getByRole("combobox", { name: "Consultar" });
      await picker.selectOption("exemplo");
      expect(await picker.isVisible()).toBe(true);
      const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      await screenshot(phone.page, "phone-20-collection-selected");
    } finally {
      await phone.context.close();
    }
  });
});
