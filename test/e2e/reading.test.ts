import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ask,
  DESKTOP,
  dockTop,
  e2eDataDir,
  focusHidden,
  lastAnswerDone,
  launchChromium,
  openApp,
  pageProblems,
  PHONE,
  screenshot,
  scrollSettled,
  startPastor,
  waitForPage,
  type PastorServer,
} from "./support.js";

/**
 * Reading and studying in the web app (issue 46), in a real Chromium against the real server
 * (stub provider, the real Bible index and the "exemplo" collection), at desktop 1366×850 and
 * phone 390×844.
 */
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

/** The passage links the reading view shared, by device (opened fresh by a later test). */
const sharedLinks = new Map<string, string>();

const SIZES = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

type Box = { top: number; bottom: number; left: number; right: number; height: number };

async function rect(page: Page, selector: string): Promise<Box> {
  return (await page.evaluate(`(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }; })()`)) as Box;
}

/** Waits until the last answer's text has at least `length` characters (it streams word by word). */
async function answerLongerThan(page: Page, length: number): Promise<void> {
  await waitForPage(page, `(() => { const all = document.querySelectorAll('article[aria-label="Resposta"] .answer'); const a = all[all.length - 1]; return !!a && a.textContent.length > ${length}; })()`);
}

/** The element at a point is `selector` (or inside it): nothing covers it there. */
async function uncovered(page: Page, selector: string): Promise<boolean> {
  return (await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    // The first line box of an element that wraps (its whole box's middle may fall between lines).
    const r = el.getClientRects()[0];
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  })()`)) as boolean;
}

async function clipboardText(page: Page): Promise<string> {
  return (await page.evaluate("navigator.clipboard.readText()")) as string;
}

describe.each(SIZES)("answers in view (%s)", (device, viewport) => {
  it("brings each new question to the top, its answer filling the screen below it as it streams", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      // A second question in an ongoing conversation: the first answer is above, out of the way.
      await ask(page, "estou com medo do futuro");
      await answerLongerThan(page, 120);
      await scrollSettled(page);
      const question = await rect(page, ".exchange.active .message.user");
      const answer = await rect(page, ".exchange.active .message.assistant");
      expect(question.top).toBeGreaterThanOrEqual(0);
      expect(question.top).toBeLessThan(40);
      expect(answer.top).toBeGreaterThan(question.top);
      // The answer's first paragraph is on screen, above the question box.
      const first = await rect(page, ".exchange.active .answer > p");
      expect(first.top).toBeGreaterThan(0);
      expect(first.bottom).toBeLessThan(await dockTop(page));
      expect(await page.getByRole("article", { name: "Resposta" }).last().getAttribute("aria-busy")).toBe("true");
      await screenshot(page, `${device}-46-01-answer-streaming-in-view`);
      await lastAnswerDone(page);
      // It does not jump away when it ends, and the sources stay closed below it.
      const after = await rect(page, ".exchange.active .message.user");
      expect(Math.abs(after.top - question.top)).toBeLessThan(4);
      await screenshot(page, `${device}-46-02-answer-done`);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("a person at risk in an ongoing conversation (%s)", (device, viewport) => {
  it("sees who to call at once, in view and not hidden, said once", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      // A conversation already long enough to scroll.
      for (const question of ["estou com medo do futuro", "o que Jesus disse sobre amar os inimigos?"]) {
        await ask(page, question);
        await lastAnswerDone(page);
      }
      await ask(page, "tenho vontade de me matar");
      const notice = page.getByRole("alert", { name: "Você não precisa enfrentar isso só" });
      await notice.waitFor();
      // In view as soon as it arrives, and still when the answer has ended, without any scrolling by the person.
      const inView = async () => {
        await scrollSettled(page);
        const box = await rect(page, ".exchange.active .care-box");
        expect(box.top).toBeGreaterThanOrEqual(0);
        expect(box.bottom).toBeLessThanOrEqual(await dockTop(page));
        for (const number of ["188", "192"]) expect(await uncovered(page, `.exchange.active a[href="tel:${number}"]`)).toBe(true);
      };
      await inView();
      const answer = await lastAnswerDone(page);
      await inView();
      for (const number of ["188", "192"]) {
        const link = answer.getByRole("link", { name: new RegExp(`Ligar para ${number}`, "u") });
        expect(await link.getAttribute("href")).toBe(`tel:${number}`);
      }
      // One notice, and its words of sympathy are not repeated by the answer.
      expect(await answer.getByRole("alert").count()).toBe(1);
      expect(((await answer.innerText()).match(/Sinto muito/gu) ?? []).length).toBe(1);
      await screenshot(page, `${device}-46-03-care-in-view`);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("compact numbered sources (%s)", (device, viewport) => {
  it("are closed by default; the answer's chips carry their numbers; a quoted verse is not shown twice", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "estou com medo do futuro");
      const answer = await lastAnswerDone(page);
      const panel = answer.locator("details.sources");
      expect(await panel.evaluate((element) => (element as unknown as { open: boolean }).open)).toBe(false);
      expect(await answer.locator(".sources-list").isVisible()).toBe(false);
      // Every checked chip points to a numbered source of the same reference.
      const chips = answer.locator(".answer .ref-chip.checked");
      const count = await chips.count();
      expect(count).toBeGreaterThan(2);
      await answer.getByText(/Versículos consultados \(\d+\)/u).click();
      for (let i = 0; i < count; i += 1) {
        const chip = chips.nth(i);
        const number = (await chip.getAttribute("data-n")) ?? "";
        const reference = ((await chip.getAttribute("aria-label")) ?? "").replace(/^Abrir /u, "");
        const source = answer.locator(`.sources-list > li[data-n="${number}"]`);
        expect(await source.locator(".source-ref").textContent()).toBe(reference);
      }
      // The verses the answer quotes show only their reference there; no verse text is on the page twice.
      const quoted = answer.locator('.sources-list > li[data-quoted="true"]');
      expect(await quoted.count()).toBeGreaterThan(0);
      expect(await quoted.first().locator(".source-text").count()).toBe(0);
      const texts = await answer.locator(".sources-list .source-text").allTextContents();
      const answerText = (await answer.locator(".answer").textContent()) ?? "";
      for (const text of texts) expect(answerText).not.toContain(text.slice(0, 40));
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `${device}-46-04-sources-open`);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("the reading view (%s)", (device, viewport) => {
  it("opens a verse in its chapter, goes to the chapters around it, copies it with the translation's name and shares a link to it", async () => {
    // The phone reads in the dark theme.
    const dark = device === "phone";
    const { context, page } = await openApp(browser, server.url, { viewport, colorScheme: dark ? "dark" : "light" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    try {
      await ask(page, "João 3:16");
      const answer = await lastAnswerDone(page);
      await answer.locator(".answer").getByRole("button", { name: "Abrir João 3:16" }).first().click();
      const dialog = page.getByRole("dialog", { name: "João 3:16" });
      await dialog.waitFor();
      await dialog.locator("mark").waitFor();
      // The whole chapter, the verse highlighted and in view.
      expect(await dialog.locator(".verse").count()).toBe(36);
      expect(await dialog.locator("mark").count()).toBe(1);
      expect(await dialog.locator("mark").textContent()).toMatch(/^16Porque Deus amou o mundo/u);
      const mark = (await dialog.locator("mark").boundingBox())!;
      expect(mark.y).toBeGreaterThan(0);
      expect(mark.y + mark.height).toBeLessThan(viewport.height);
      expect(await uncovered(page, "[role=dialog] mark")).toBe(true);
      await screenshot(page, `${device}-46-05-reading-view${dark ? "-dark" : ""}`);

      await dialog.getByRole("button", { name: "Copiar" }).click();
      await dialog.getByRole("status").getByText(/Passagem copiada/u).waitFor();
      expect(await clipboardText(page)).toBe(
        "“Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigênito, para que todo aquele que nele crê não pereça, mas tenha a vida eterna.”\n— João 3:16 (Bíblia Livre)",
      );
      await dialog.getByRole("button", { name: "Compartilhar" }).click();
      await dialog.getByRole("status").getByText(/Link copiado/u).waitFor();
      const link = await clipboardText(page);
      expect(new URL(link).searchParams.get("passagem")).toBe("João 3:16");

      await page.getByRole("dialog").getByRole("button", { name: "Próximo capítulo: João 4" }).click();
      const next = page.getByRole("dialog", { name: "João 4" });
      await next.getByText(/Quando, pois, o Senhor entendeu/u).waitFor();
      expect(await next.locator("mark").count()).toBe(0);
      await next.getByRole("navigation", { name: "Capítulos" }).getByRole("button", { name: /João 3/u }).click();
      await page.getByRole("dialog", { name: "João 3" }).getByText(/Nicodemos/u).first().waitFor();
      await screenshot(page, `${device}-46-06-reading-previous-chapter${dark ? "-dark" : ""}`);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);

      expect(pageProblems(page)).toEqual([]);
      sharedLinks.set(device, link);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("a shared passage link, loaded fresh (%s)", (device, viewport) => {
  it("opens the app on the reading view of that passage, in a browser that never saw the app", async () => {
    // The link the reading view's "Compartilhar" copied (above), or the same link written by hand.
    const link = sharedLinks.get(device) ?? `${server.url}/?passagem=${encodeURIComponent("João 3:16")}`;
    const { context, page } = await openApp(browser, link, { viewport });
    try {
      const dialog = page.getByRole("dialog", { name: "João 3:16" });
      await dialog.locator("mark").waitFor();
      expect(await dialog.locator("mark").textContent()).toMatch(/Porque Deus amou o mundo/u);
      expect(await dialog.locator(".verse").count()).toBe(36);
      await scrollSettled(page);
      expect(await uncovered(page, "[role=dialog] mark")).toBe(true);
      // The focus is in the reading view (on its title), not left on the page behind it.
      expect(await page.evaluate("document.activeElement.closest('[role=dialog]') !== null && document.activeElement.tagName")).toBe("H2");
      // Nothing else was asked: the conversation behind it is empty.
      expect(await page.getByRole("article").count()).toBe(0);
      await screenshot(page, `${device}-46-16-shared-passage-fresh`);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(new URL(page.url()).searchParams.has("passagem")).toBe(false);
      expect(await page.evaluate("document.activeElement.id")).toBe("pergunta");
      // Closed, it stays closed after a reload.
      await page.reload();
      await page.getByRole("heading", { name: "Converse com as Escrituras" }).waitFor();
      expect(await page.getByRole("dialog").count()).toBe(0);

      // A range: every verse of it highlighted.
      await page.goto(`${server.url}/?passagem=${encodeURIComponent("Romanos 8:28-30")}`);
      const range = page.getByRole("dialog", { name: "Romanos 8:28-30" });
      await range.locator("mark").first().waitFor();
      expect(await range.locator("mark").count()).toBe(3);
      // A link to no passage says so, in Portuguese, and the app stays usable.
      await page.goto(`${server.url}/?passagem=${encodeURIComponent("Hezequias 3:1")}`);
      await page.getByRole("dialog").getByRole("alert").getByText(/Não encontrei Hezequias 3:1/u).waitFor();
      await page.keyboard.press("Escape");
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("actions on an answer (%s)", (device, viewport) => {
  it("copies it, shares a link that asks it again, and asks again in place", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    try {
      await ask(page, "Salmos 23:1");
      const answer = await lastAnswerDone(page);
      const actions = answer.getByRole("group", { name: "Ações da resposta" });
      await actions.getByRole("button", { name: "Copiar" }).click();
      await actions.getByText("Resposta copiada.").waitFor();
      const copied = await clipboardText(page);
      expect(copied).toMatch(/^Salmos 23:1\n\n/u);
      expect(copied).toContain("O SENHOR é meu pastor");
      expect(copied).toMatch(/— Pastor Online · Textos bíblicos: Bíblia Livre$/u);
      expect(copied).not.toContain("**");

      await actions.getByRole("button", { name: "Compartilhar" }).click();
      await actions.getByText(/Link copiado/u).waitFor();
      const link = await clipboardText(page);
      expect(new URL(link).searchParams.get("pergunta")).toBe("Salmos 23:1");
      await screenshot(page, `${device}-46-07-answer-actions`);

      await actions.getByRole("button", { name: "Perguntar de novo" }).click();
      const again = await lastAnswerDone(page);
      expect(await page.getByRole("article", { name: "Resposta" }).count()).toBe(1);
      expect(await again.textContent()).toContain("O SENHOR é meu pastor");
      // The focus waits in the question box, never on the page's body.
      expect(await page.evaluate("document.activeElement.id")).toBe("pergunta");

      const shared = await context.newPage();
      await shared.goto(link);
      const box = shared.getByRole("textbox", { name: "Sua pergunta" });
      await box.waitFor();
      expect(await box.inputValue()).toBe("Salmos 23:1");
      expect(new URL(shared.url()).searchParams.has("pergunta")).toBe(false);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the question box while an answer streams", () => {
  it.each(SIZES)("keeps the focus and takes the next question, sent when the answer ends (%s)", async (device, viewport) => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      const box = page.getByRole("textbox", { name: "Sua pergunta" });
      await ask(page, "estou com medo do futuro");
      await answerLongerThan(page, 40);
      expect(await box.isDisabled()).toBe(false);
      expect(await page.evaluate("document.activeElement.id")).toBe("pergunta");
      await scrollSettled(page);
      const before = await rect(page, ".exchange.active .message.user");
      await box.pressSequentially("e a ansiedade?");
      // Typing does not move the page: the question stays at the top, its answer below it.
      const after = await rect(page, ".exchange.active .message.user");
      expect(Math.abs(after.top - before.top)).toBeLessThan(4);
      expect(after.top).toBeGreaterThanOrEqual(0);
      await box.press("Enter");
      // Not sent while the answer streams: it stays in the box.
      expect(await box.inputValue()).toBe("e a ansiedade?");
      expect(await page.getByRole("article", { name: "Sua pergunta" }).count()).toBe(1);
      await screenshot(page, `${device}-46-08-typing-while-streaming`);
      await lastAnswerDone(page);
      expect(await page.evaluate("document.activeElement.id")).toBe("pergunta");
      await box.press("Enter");
      await lastAnswerDone(page);
      expect(await page.getByRole("article", { name: "Sua pergunta" }).count()).toBe(2);
      if (device === "phone") {
        // The question box (with the collection list) keeps to a small part of a phone's screen.
        const dock = await rect(page, ".dock");
        expect(dock.height).toBeLessThan(100);
      }
    } finally {
      await context.close();
    }
  });
});

/** Where the focus is, for a failure message. */
async function focusedName(page: Page): Promise<string> {
  return (await page.evaluate(
    `(() => { const el = document.activeElement; return el ? el.tagName + (el.id ? "#" + el.id : "") + " " + (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 40) : "none"; })()`,
  )) as string;
}

const FOCUS_WALKS = [
  ["desktop", DESKTOP, "normal"],
  ["phone", PHONE, "normal"],
  // The largest text makes the question box taller: the page's scroll padding must follow it.
  ["phone", PHONE, "largest text"],
] as const;

describe.each(FOCUS_WALKS)("keyboard focus (%s, %s)", (device, viewport, size) => {
  it("is never wholly hidden behind the sticky question box over a full Tab walk of a long conversation (WCAG 2.2 SC 2.4.11)", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      if (size === "largest text") {
        await page.getByRole("button", { name: "Tamanho do texto" }).click();
        await page.getByRole("radio", { name: "Muito grande" }).check();
        await page.keyboard.press("Escape");
      }
      for (const question of ["estou com medo do futuro", "o que Jesus disse sobre amar os inimigos?", "João 3:16", "tenho vontade de me matar", "como fazer um bolo de chocolate?", "Como perdoar quem me magoou?"]) {
        await ask(page, question);
        await page.getByRole("article", { name: "Sua pergunta" }).filter({ hasText: question }).waitFor();
        await waitForPage(page, `document.querySelector("form.composer").dataset.streaming === "false"`, 60_000);
      }
      // Open every sources list so that there is more to tab through.
      for (const summary of await page.locator("details.sources summary").all()) await summary.click();
      // Forwards from the top of the page (the skip link is its first stop) to the question box, the whole way.
      await page.evaluate("window.scrollTo(0, 0)");
      await page.locator(".skip-link").focus();
      const hidden: string[] = [];
      let forward = 0;
      let reached = false;
      for (let i = 0; i < 600 && !reached; i += 1) {
        await page.keyboard.press("Tab");
        forward += 1;
        const problem = await focusHidden(page);
        if (problem) hidden.push(`Tab ${forward}: ${problem}`);
        reached = (await page.evaluate("document.activeElement && document.activeElement.id")) === "pergunta";
      }
      expect(reached, `the Tab walk ended on ${await focusedName(page)}`).toBe(true);
      expect(forward).toBeGreaterThan(60);
      expect(hidden).toEqual([]);
      await screenshot(page, `${device}-46-09-focus-visible${size === "normal" ? "" : "-largest-text"}`);

      // Backwards, from the question box to the skip link, the whole way.
      let backward = 0;
      reached = false;
      for (let i = 0; i < 600 && !reached; i += 1) {
        await page.keyboard.press("Shift+Tab");
        backward += 1;
        const problem = await focusHidden(page);
        if (problem) hidden.push(`Shift+Tab ${backward}: ${problem}`);
        reached = (await page.evaluate("document.activeElement && document.activeElement.classList.contains('skip-link')")) === true;
      }
      expect(reached, `the Shift+Tab walk ended on ${await focusedName(page)}`).toBe(true);
      expect(Math.abs(backward - forward)).toBeLessThanOrEqual(1);
      expect(hidden).toEqual([]);
      console.log(`[focus] ${device}, ${size}: ${forward} stops forwards, ${backward} backwards, none hidden`);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("diagnostics behind a status indicator (%s)", (device, viewport) => {
  it("keeps the page to the conversation; the indicator opens the service's details", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      expect(await page.getByRole("complementary").count()).toBe(0);
      const text = await page.locator("body").innerText();
      expect(text).not.toMatch(/LSA|Modo extrativo|Última recarga/u);
      const indicator = page.getByRole("button", { name: "Situação: pronto" });
      await indicator.waitFor();
      const size = (await indicator.boundingBox())!;
      expect(size.width).toBeLessThan(60);
      await indicator.click();
      const panel = page.getByRole("region", { name: "Situação do serviço" });
      await panel.getByText(/Pronto: 31\.102 versículos indexados/u).waitFor();
      expect(await panel.getByText("Modo extrativo (sem modelo de linguagem)").isVisible()).toBe(true);
      await screenshot(page, `${device}-46-10-status-open`);
      await page.keyboard.press("Escape");
      expect(await panel.isVisible()).toBe(false);
      expect(await page.evaluate("document.activeElement.getAttribute('aria-label')")).toBe("Situação: pronto");
      // The help is on the first screen.
      expect(await page.getByText("Como funciona").isVisible()).toBe(true);
      const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("a refusal (%s)", (device, viewport) => {
  it("is warm, and its suggestions are a tap away", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport, colorScheme: device === "phone" ? "dark" : "light" });
    try {
      await ask(page, "como fazer um bolo de chocolate?");
      const refusal = page.getByRole("article", { name: "Pergunta fora do tema" });
      await refusal.waitFor({ timeout: 60_000 });
      await waitForPage(page, `document.querySelectorAll('.refusal .example').length > 0`);
      expect(await page.evaluate("getComputedStyle(document.querySelector('.refusal .refusal-box')).borderTopStyle")).not.toBe("dashed");
      expect(await refusal.textContent()).not.toContain("∅");
      const suggestions = refusal.getByRole("button");
      expect(await suggestions.count()).toBe(4);
      await screenshot(page, `${device}-46-11-refusal${device === "phone" ? "-dark" : ""}`);
      await suggestions.first().click();
      const answer = await lastAnswerDone(page);
      expect(await page.getByRole("article", { name: "Sua pergunta" }).last().textContent()).toBe("O que a Bíblia diz sobre o medo?");
      expect(await answer.locator(".sources li").count()).toBeGreaterThan(0);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("collection sources (%s)", (device, viewport) => {
  it("read by title and page, never a file path or index markup", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await page.getByRole("combobox", { name: "Consultar" }).selectOption("exemplo");
      await ask(page, "a inspiração das Escrituras");
      const answer = await lastAnswerDone(page);
      await answer.getByText(/Trechos consultados/u).click();
      const text = await answer.innerText();
      expect(text).not.toMatch(/\.md\b|trecho \d|CONCEITOS E KEYWORDS|FIM DOS METADADOS|Keywords:/u);
      const titles = await answer.locator(".source-title").allTextContents();
      expect(titles).toContain("A Inspiração das Escrituras");
      expect(titles).toContain("Como Ler a Bíblia");
      const chips = await answer.locator(".answer .doc-chip").allTextContents();
      expect(chips.length).toBeGreaterThan(0);
      for (const chip of chips) expect(chip).not.toMatch(/\.md|trecho/u);
      // A chip brings its excerpt into view, with the focus on it, clear of the question box.
      await answer.locator(".answer .doc-chip").first().click();
      await scrollSettled(page);
      expect(await page.evaluate("document.activeElement.dataset.kind")).toBe("document");
      expect(await focusHidden(page)).toBeUndefined();
      const focused = (await rect(page, ":focus"))!;
      expect(focused.top).toBeLessThan(await dockTop(page));
      await screenshot(page, `${device}-46-12-collection-sources`);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("conversations (%s)", (device, viewport) => {
  it("are kept in a list; 'Nova conversa' and switching collection can be undone", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "Salmos 23:1");
      await lastAnswerDone(page);
      await page.getByRole("button", { name: "Nova conversa" }).click();
      await page.getByRole("heading", { name: "Converse com as Escrituras" }).waitFor();
      const undo = page.getByRole("button", { name: "Desfazer" });
      await screenshot(page, `${device}-46-13-new-conversation-undo`);
      await undo.click();
      await page.getByRole("article", { name: "Sua pergunta" }).filter({ hasText: "Salmos 23:1" }).waitFor();

      // Switching collection keeps the Bible's conversation too.
      await page.getByRole("combobox", { name: "Consultar" }).selectOption("exemplo");
      await page.getByRole("heading", { name: "Consulte a coleção “exemplo”" }).waitFor();
      await page.getByRole("button", { name: "Desfazer" }).click();
      await page.getByRole("article", { name: "Sua pergunta" }).filter({ hasText: "Salmos 23:1" }).waitFor();
      expect(await page.getByRole("combobox", { name: "Consultar" }).inputValue()).toBe("biblia");

      // A second conversation; the first stays in the list and opens again, after a reload too.
      await page.getByRole("button", { name: "Nova conversa" }).click();
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      await page.reload();
      await page.getByRole("button", { name: "Conversas" }).click();
      const list = page.getByRole("dialog", { name: "Conversas" });
      await list.getByRole("button", { name: /^Salmos 23:1/u }).waitFor();
      expect(await list.getByRole("region", { name: "Conversa atual" }).textContent()).toContain("João 3:16");
      await screenshot(page, `${device}-46-14-conversations`);
      await list.getByRole("button", { name: /^Salmos 23:1/u }).click();
      await page.getByRole("article", { name: "Sua pergunta" }).filter({ hasText: "Salmos 23:1" }).waitFor();
      expect(await page.getByRole("article", { name: "Sua pergunta" }).count()).toBe(1);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)("the text size (%s)", (device, viewport) => {
  it("grows the whole page, stays after a reload, and nothing overflows", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport });
    try {
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      const before = Number.parseFloat((await page.evaluate("getComputedStyle(document.querySelector('.answer p')).fontSize")) as string);
      await page.getByRole("button", { name: "Tamanho do texto" }).click();
      await page.getByRole("radio", { name: "Muito grande" }).check();
      const after = Number.parseFloat((await page.evaluate("getComputedStyle(document.querySelector('.answer p')).fontSize")) as string);
      expect(after / before).toBeCloseTo(1.4, 1);
      await page.keyboard.press("Escape");
      await screenshot(page, `${device}-46-15-large-text`);
      await page.reload();
      await page.getByRole("article", { name: "Resposta" }).waitFor();
      expect(await page.evaluate("document.documentElement.dataset.fontSize")).toBe("enorme");
      const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
