import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, waitForPage, DESKTOP, lastAnswerDone, launchChromium, openApp, pageProblems, PHONE, screenshot, startPastor, type PastorServer, e2eDataDir } from "./support.js";

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

describe.each([
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const)("the chat on a %s (stub provider)", (device, viewport) => {
  it("answers 'João 3:16' with the verse, its citation chip and the cited source", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await screenshot(page, `${device}-01-welcome`);
      await ask(page, "João 3:16");
      const answer = await lastAnswerDone(page);
      expect(await answer.textContent()).toContain("Porque Deus amou o mundo");
      const chip = answer.getByRole("button", { name: "Abrir João 3:16" }).first();
      expect(await chip.isVisible()).toBe(true);
      await answer.getByText(/Versículos consultados/u).click();
      const cited = answer.locator('li[data-cited="true"]');
      expect(await cited.count()).toBeGreaterThan(0);
      expect(await cited.first().textContent()).toContain("João 3:16");
      await screenshot(page, `${device}-02-joao-3-16`);

      // By keyboard: the chip is a button.
      await chip.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "João 3:16" });
      await dialog.waitFor();
      await dialog.getByText(/Porque Deus amou o mundo/u).waitFor();
      const seeAlso = dialog.getByRole("region", { name: "Veja também" });
      const crossRefs = seeAlso.getByRole("button");
      expect(await crossRefs.count()).toBeGreaterThan(0);
      await screenshot(page, `${device}-03-verse-panel`);

      const first = (await crossRefs.first().textContent())!.trim();
      await crossRefs.first().click();
      await page.getByRole("dialog", { name: first }).waitFor();
      await page.getByRole("dialog").getByRole("button", { name: /Voltar/u }).waitFor();
      await screenshot(page, `${device}-04-cross-reference`);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);
      // Focus is back on the chip that opened the panel.
      const focused = await chip.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);
      expect(focused).toBe(true);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("streams an answer to a feelings question, with the consulted sources", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "estou com medo do futuro");
      const answer = page.getByRole("article", { name: "Resposta" }).last();
      // The stub streams word by word: the text is seen growing while the answer is busy.
      await waitForPage(
        page,
        `(() => { const a = document.querySelector('article[aria-label="Resposta"] .answer'); return a && a.textContent.length > 40; })()`,
      );
      const early = (await answer.locator(".answer").textContent()) ?? "";
      expect(await answer.getAttribute("aria-busy")).toBe("true");
      expect(await page.getByRole("textbox", { name: "Sua pergunta" }).isDisabled()).toBe(false);
      await screenshot(page, `${device}-05-streaming`);
      await lastAnswerDone(page);
      const full = (await answer.locator(".answer").textContent()) ?? "";
      expect(full.length).toBeGreaterThan(early.length);
      expect(full).toMatch(/A Bíblia traz \S+ passagens? para um momento assim/u);
      const sources = answer.locator(".sources-list > li");
      expect(await sources.count()).toBeGreaterThan(1);
      expect(await answer.getByText(/Versículos consultados \(\d+\)/u).isVisible()).toBe(true);
      expect(await answer.getByRole("button", { name: /^Abrir / }).count()).toBeGreaterThan(0);
      await answer.getByText(/Versículos consultados/u).click();
      await screenshot(page, `${device}-06-feelings-answer`, true);
    } finally {
      await context.close();
    }
  });

  it("keeps the conversation after a reload, and 'Nova conversa' starts an empty one", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "Salmos 23:1");
      await lastAnswerDone(page);
      await page.reload();
      await page.getByRole("article", { name: "Sua pergunta" }).filter({ hasText: "Salmos 23:1" }).waitFor();
      const answer = page.getByRole("article", { name: "Resposta" });
      expect(await answer.count()).toBe(1);
      expect(await answer.textContent()).toContain("O SENHOR é meu pastor");
      await screenshot(page, `${device}-07-after-reload`);

      // The conversation goes on with the same id after the reload.
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      expect(await page.getByRole("article", { name: "Resposta" }).count()).toBe(2);

      await page.getByRole("button", { name: "Nova conversa" }).click();
      await page.getByRole("heading", { name: "Converse com as Escrituras" }).waitFor();
      expect(await page.getByRole("article").count()).toBe(0);
      await page.reload();
      await page.getByRole("heading", { name: "Converse com as Escrituras" }).waitFor();
      expect(await page.getByRole("article").count()).toBe(0);
      await screenshot(page, `${device}-08-new-conversation`);
    } finally {
      await context.close();
    }
  });
});

describe("layout and status", () => {
  it("shows the service's state behind the status indicator, on a desktop and on a phone", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await openApp(browser, server.url, { viewport });
      try {
        const toggle = page.getByRole("button", { name: /^Situação/u });
        await toggle.click();
        expect(await toggle.getAttribute("aria-expanded")).toBe("true");
        const panel = page.getByRole("region", { name: "Situação do serviço" });
        await panel.getByText(/Pronto: 31\.102 versículos indexados/u).waitFor();
        expect(await panel.getByText("Por palavras-chave e por significado").isVisible()).toBe(true);
        expect(await page.getByRole("contentinfo").textContent()).toContain("Textos bíblicos: Bíblia Livre (BLIVRE)");
        if (viewport === PHONE) {
          await screenshot(page, "phone-09-status-open");
          // Nothing is wider than the screen.
          const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
          expect(overflow).toBe(0);
        }
      } finally {
        await context.close();
      }
    }
  });

  it("reads well in the dark theme", async () => {
    for (const [device, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const { context, page } = await openApp(browser, server.url, { viewport, colorScheme: "dark" });
      try {
        await ask(page, "o que Jesus disse sobre amar os inimigos?");
        await lastAnswerDone(page);
        const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
        expect(background).toBe("rgb(20, 19, 22)");
        await screenshot(page, `${device}-10-dark`);
      } finally {
        await context.close();
      }
    }
  });
});

/** The web app under the server's Content Security Policy: it works and the browser reports no violation. */
describe("Content Security Policy", () => {
  it("answers a question with the CSP on, with no violation and no console error", async () => {
    const document = await fetch(server.url);
    expect(document.headers.get("content-security-policy")).toContain("script-src 'self'");
    await document.text();

    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/u.test(message.text())) violations.push(message.text());
    });
    try {
      // Listen in the page too: a violation is also a DOM event.
      await page.evaluate(`document.addEventListener("securitypolicyviolation", (e) => { window.__csp = (window.__csp || []).concat(e.violatedDirective + " " + e.blockedURI); }); true`);
      await ask(page, "João 3:16");
      const answer = await lastAnswerDone(page);
      expect(await answer.innerText()).toContain("João 3:16");
      expect(await page.evaluate(`window.__csp || []`)).toEqual([]);
      expect(violations).toEqual([]);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The out-of-scope refusal as a person sees it (stub provider). */
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
      expect(text).toContain("Isso fica fora do que a Bíblia trata");
      expect(text).toContain("eu respondo só a partir da Bíblia");
      expect(await refusal.locator(".sources").count()).toBe(0);
      // No chip in the reply; its suggestions are buttons that ask them.
      expect(await refusal.locator(".refusal-box").getByRole("button").count()).toBe(0);
      expect(await refusal.getByRole("button").count()).toBe(4);
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

/** A question the gate keeps with a doubt, as a person sees it (stub provider). */
describe("a question the gate is not sure about", () => {
  it("is answered with its verses, the doubt said above the answer", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport: DESKTOP });
    try {
      await ask(page, "meu gato n come faz 2 dias, tenho q levar no vet?");
      const answer = await lastAnswerDone(page);
      const doubt = answer.locator("[data-doubt]");
      expect(await doubt.count()).toBe(1);
      expect(await doubt.textContent()).toContain("Não tenho certeza de ter entendido a sua pergunta.");
      expect(await answer.locator(".answer").textContent()).toMatch(/^Para “meu gato n come faz 2 dias, tenho q levar no vet\?”, estas são as passagens mais próximas que encontrei\./u);
      expect(await answer.locator(".sources li").count()).toBeGreaterThan(0);
      await doubt.scrollIntoViewIfNeeded();
      await screenshot(page, "desktop-21-doubt");

      await ask(page, "estou endividado e desesperado");
      const next = await lastAnswerDone(page);
      expect(await next.locator("[data-doubt]").count()).toBe(0);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** A greeting as a person sees it: a friendly answer, not the refusal, and no verses panel. */
describe("a greeting", () => {
  it("is answered kindly, without the refusal state or verses, and the next question is answered with verses", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport: PHONE });
    try {
      await ask(page, "Oi, pastor! Tudo bem?");
      const answer = await lastAnswerDone(page);
      expect(await answer.getAttribute("aria-label")).toBe("Resposta");
      const text = await answer.innerText();
      expect(text).toContain("Olá!");
      expect(text).toContain("mostro cada versículo que cito");
      expect(text).not.toContain("Fora do que a Bíblia trata");
      expect(await answer.locator(".sources").count()).toBe(0);
      expect(await page.getByRole("article", { name: "Pergunta fora do tema" }).count()).toBe(0);
      await screenshot(page, "phone-21-greeting");

      await ask(page, "João 3:16");
      const next = await lastAnswerDone(page);
      expect(await next.locator(".sources li").count()).toBeGreaterThan(0);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** A person at risk as they see it (stub provider): who to call comes first, then words of consolation, each checked. */
describe("a person at risk", () => {
  it("sees the numbers to call above the answer, as links a phone dials, and the chosen verses", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport: PHONE });
    try {
      await ask(page, "nao aguento mais viver");
      const answer = await lastAnswerDone(page);
      const notice = answer.getByRole("alert", { name: "Você não precisa enfrentar isso só" });
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.getByRole("link", { name: /Ligar para 188/u }).getAttribute("href")).toBe("tel:188");
      expect(await notice.getByRole("link", { name: /Ligar para 192/u }).getAttribute("href")).toBe("tel:192");
      // Above the text: its box ends before the answer's text begins.
      const noticeBox = (await notice.boundingBox())!;
      const textBox = (await answer.locator(".answer").boundingBox())!;
      expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(textBox.y);
      const text = await answer.locator(".answer").innerText();
      expect(text).toContain("Salmos 34:18");
      expect(text).not.toContain("procurais me matar");
      expect(await answer.locator('li[data-cited="true"]').count()).toBeGreaterThan(0);
      await notice.scrollIntoViewIfNeeded();
      await screenshot(page, "phone-22-care");
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
