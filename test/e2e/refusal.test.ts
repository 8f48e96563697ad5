import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, DESKTOP, lastAnswerDone, launchChromium, openApp, pageProblems, PHONE, screenshot, startPastor, type PastorServer, e2eDataDir } from "./support.js";

/** The out-of-scope refusal as a person sees it, on the real server (stub provider) and Chromium. */
let server: PastorServer;
let browser: Browser;

beforeAll(async () => {
  server = await startPastor({ dataDir: e2eDataDir() });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a question the Bible does not treat", () => {
  it.each([
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const)("shows the refusal state, with no verses, then answers a real question (%s)", async (device, viewport) => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "como fazer um bolo de chocolate?");
      const refusal = page.getByRole("article", { name: "Pergunta fora do tema" });
      await refusal.waitFor({ timeout: 60_000 });
      expect(await refusal.getAttribute("data-refusal")).toBe("out_of_scope");
      const text = (await refusal.textContent()) ?? "";
      expect(text).toContain("Fora do que a Bíblia trata");
      expect(text).toContain("eu respondo só a partir da Bíblia");
      expect(await refusal.locator(".sources").count()).toBe(0);
      expect(await refusal.getByRole("button").count()).toBe(0);
      await screenshot(page, `${device}-20-out-of-scope`);

      await ask(page, "estou endividado e desesperado");
      const answer = await lastAnswerDone(page);
      expect(await answer.locator(".sources li").count()).toBeGreaterThan(0);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
