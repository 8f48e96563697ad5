import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ask, DESKTOP, e2eDataDir, lastAnswerDone, launchChromium, openApp, pageProblems, startPastor, type PastorServer } from "./support.js";

/** The web app under the server's Content Security Policy: it works and the browser reports no violation. */
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
