import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./paths.js";
import {
  ask,
  DESKTOP,
  e2eDataDir,
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
 * axe-core in a real Chromium against the real server (stub provider), in every state a person
 * meets, at desktop 1366×850 and phone 390×844, in the light and the dark theme: no violation.
 *
 * axe goes in through the DevTools protocol (`page.evaluate` of its source). Not through
 * `page.addScriptTag({ content })`: that adds an inline <script>, which the server's Content
 * Security Policy (`script-src 'self'`) refuses, as it should. The CSP stays as it is; every
 * test below also checks that the page reported no CSP violation.
 */
const AXE_SOURCE = readFileSync(path.join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

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

interface AxeSummary {
  version: string;
  /** Rules that found something to check (passed, failed or needing review). */
  applicable: string[];
  /** Rules that ran and found nothing of theirs on the page. */
  inapplicable: string[];
  violations: { id: string; impact: string; help: string; nodes: string[] }[];
  /** What axe could not decide by itself (left to a person), as "rule: reason". */
  incomplete: string[];
}

/** Runs axe (every rule it enables by default: WCAG 2.0–2.2 A/AA and best practices) on the whole page. */
async function runAxe(page: Page): Promise<AxeSummary> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
  // Not while anything moves (a smooth scroll, the stub's streaming is over by now).
  await scrollSettled(page);
  return (await page.evaluate(`axe.run(document).then((r) => ({
    version: axe.version,
    applicable: [...new Set([...r.passes, ...r.violations, ...r.incomplete].map((x) => x.id))].sort(),
    inapplicable: r.inapplicable.map((x) => x.id).sort(),
    violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ") + " — " + n.failureSummary) })),
    incomplete: r.incomplete.flatMap((v) => v.nodes.map((n) => v.id + ": " + [...n.any, ...n.all, ...n.none].map((c) => c.message).join(" / "))),
  }))`)) as AxeSummary;
}

/** WCAG contrast ratio of two opaque sRGB colours given as "rgb(r, g, b)". */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/\d+(\.\d+)?/gu) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

const COMBINATIONS = [
  ["desktop", "light", DESKTOP],
  ["desktop", "dark", DESKTOP],
  ["phone", "light", PHONE],
  ["phone", "dark", PHONE],
] as const;

describe.each(COMBINATIONS)("axe-core on a %s, %s theme", (device, scheme, viewport) => {
  it("finds no violation in any state of the app", async () => {
    const { context, page } = await openApp(browser, server.url, { viewport, colorScheme: scheme });
    const failures: string[] = [];
    const ran = new Set<string>();
    const applicable = new Set<string>();
    const review = new Map<string, number>();
    let version = "";
    const check = async (state: string) => {
      const result = await runAxe(page);
      version = result.version;
      for (const id of [...result.applicable, ...result.inapplicable]) ran.add(id);
      for (const id of result.applicable) applicable.add(id);
      for (const violation of result.violations) failures.push(`${state}: ${violation.id} (${violation.impact}) ${violation.help}\n    ${violation.nodes.join("\n    ")}`);
      for (const item of result.incomplete) review.set(item, (review.get(item) ?? 0) + 1);
    };
    try {
      await check("empty start");
      // What axe leaves to a person: the hint under the question box sits where the box's fading
      // background has become the page's own colour, so its contrast is that of the two.
      const hint = (await page.evaluate(`(() => {
        const hint = document.getElementById("pergunta-dica");
        const dock = document.querySelector(".dock").getBoundingClientRect();
        return { color: getComputedStyle(hint).color, page: getComputedStyle(document.body).backgroundColor, offset: hint.getBoundingClientRect().top - dock.top };
      })()`)) as { color: string; page: string; offset: number };
      expect(hint.offset).toBeGreaterThan(12);
      expect(contrast(hint.color, hint.page)).toBeGreaterThan(4.5);

      await ask(page, "estou com medo do futuro");
      const answer = await lastAnswerDone(page);
      await answer.getByText(/Versículos consultados \(\d+\)/u).click();
      await answer.locator(".sources-list").waitFor();
      await check("a streamed answer with sources open");
      await screenshot(page, `${device}-axe-01-sources-open-${scheme}`);

      await answer.locator(".answer .ref-chip").first().click();
      const dialog = page.getByRole("dialog");
      await dialog.locator("mark").first().waitFor();
      await check("the verse reading view");
      await screenshot(page, `${device}-axe-02-reading-view-${scheme}`);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);

      await ask(page, "tenho vontade de me matar");
      await page.getByRole("alert", { name: "Você não precisa enfrentar isso só" }).waitFor();
      await lastAnswerDone(page);
      await check("the crisis notice");
      await screenshot(page, `${device}-axe-03-crisis-${scheme}`);

      await ask(page, "como fazer um bolo de chocolate?");
      const refusal = page.getByRole("article", { name: "Pergunta fora do tema" });
      await refusal.waitFor({ timeout: 60_000 });
      await waitForPage(page, `document.querySelectorAll('.refusal .example').length === 4`);
      await check("the refusal with suggestions");
      await screenshot(page, `${device}-axe-04-refusal-${scheme}`);

      await page.getByRole("button", { name: "Situação: pronto" }).click();
      await page.getByRole("region", { name: "Situação do serviço" }).getByText(/Pronto: 31\.102 versículos indexados/u).waitFor();
      await check("the status panel open");
      await screenshot(page, `${device}-axe-05-status-${scheme}`);
      await page.keyboard.press("Escape");

      // A second conversation, so that the list has the current one and an earlier one.
      await page.getByRole("button", { name: "Nova conversa" }).click();
      await page.getByRole("button", { name: "Desfazer" }).waitFor();
      await check("a new conversation, with its undo bar");
      await ask(page, "João 3:16");
      await lastAnswerDone(page);
      await page.getByRole("button", { name: "Conversas" }).click();
      const list = page.getByRole("dialog", { name: "Conversas" });
      await list.getByRole("button", { name: /^estou com medo do futuro/u }).waitFor();
      await check("the conversation list open");
      await screenshot(page, `${device}-axe-06-conversations-${scheme}`);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);

      await page.getByRole("button", { name: "Tamanho do texto" }).click();
      await page.getByRole("radio", { name: "Muito grande" }).check();
      await check("the text size control, largest size chosen");
      await page.keyboard.press("Escape");
      expect(await page.evaluate("document.documentElement.dataset.fontSize")).toBe("enorme");
      await check("the largest text size");
      await screenshot(page, `${device}-axe-07-largest-text-${scheme}`);

      console.log(
        `[axe ${version}] ${device}, ${scheme}: ${ran.size} rules ran, ${applicable.size} applied to the page: ${[...applicable].join(", ")}` +
          `\n  found nothing of theirs: ${[...ran].filter((id) => !applicable.has(id)).sort().join(", ")}` +
          [...review].map(([reason, count]) => `\n  left to review (not a violation) ×${count}: ${reason}`).join(""),
      );
      expect(version).toBe("4.14.1");
      expect(ran.size).toBeGreaterThan(80);
      expect(applicable).toContain("color-contrast");
      expect(failures).toEqual([]);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
