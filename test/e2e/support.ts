import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_PATH, E2E_COLLECTIONS_DIR, ROOT, SCREENSHOTS } from "./paths.js";

/** The index prepared by the global setup; a clear error when the suite runs under another config. */
export function e2eDataDir(): string {
  const dataDir = inject("dataDir");
  if (typeof dataDir !== "string" || dataDir === "") {
    throw new Error("The e2e tests run with their own config: npx vitest run --config test/e2e/vitest.config.ts");
  }
  return dataDir;
}

/** The real product (`node bin/pastor.js serve`: API + built web app) on a loopback port. */
export interface PastorServer {
  url: string;
  port: number;
  /** What the process printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export async function startPastor(options: { dataDir: string; env?: Record<string, string>; port?: number }): Promise<PastorServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "bin", "pastor.js"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port ?? 0),
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      CORPUS_DIR: path.join(ROOT, "corpus"),
      COLLECTIONS_DIR: E2E_COLLECTIONS_DIR,
      AUTO_INDEX: "false",
      LLM_PROVIDER: "stub",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${output}`)), 60_000);
    const onData = () => {
      const match = /Pastor Online em http:\/\/localhost:(\d+)/u.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code}:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function tempDataDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Debian's Chromium driven by playwright-core (no browser download), headless, in a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const DESKTOP = { width: 1366, height: 850 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export async function openApp(
  browser: Browser,
  url: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark"; phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const phone = options.phone ?? options.viewport?.width === PHONE.width;
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.colorScheme ?? "light",
    locale: "pt-BR",
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  // Content Security Policy violations are reported as page problems too (a DOM event and a console line).
  await page.addInitScript(`document.addEventListener("securitypolicyviolation", (e) => console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));`);
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource/u.test(message.text())) problems.push(`console: ${message.text()}`);
    else if (/Content Security Policy|Refused to/u.test(message.text())) problems.push(`csp: ${message.text()}`);
  });
  (page as Page & { problems?: string[] }).problems = problems;
  await page.goto(url);
  await page.getByRole("textbox", { name: "Sua pergunta" }).waitFor();
  return { context, page };
}

/** Errors the page logged (uncaught exceptions, console errors) since it opened. */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

/**
 * Polls a page expression until it is truthy. Not `page.waitForFunction`: given a string it
 * evaluates it with eval inside the page, which the server's CSP (no 'unsafe-eval') refuses;
 * `page.evaluate` goes through the DevTools protocol, outside the page's CSP.
 */
export async function waitForPage(page: Page, expression: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves once the page has stopped scrolling (smooth scrolls run over several frames). */
export async function scrollSettled(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    let last = -1, still = 0;
    const tick = () => {
      const y = window.scrollY;
      still = y === last ? still + 1 : 0;
      last = y;
      if (still >= 5) resolve(true); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`);
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await scrollSettled(page);
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage, animations: "disabled", caret: "hide" });
  return file;
}

export async function ask(page: Page, question: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Sua pergunta" });
  await box.fill(question);
  await box.press("Enter");
}

/** Waits until the last answer is finished (no longer busy) and returns its locator. */
export async function lastAnswerDone(page: Page, timeout = 60_000) {
  const answer = page.getByRole("article", { name: "Resposta" }).last();
  await answer.waitFor();
  // A string, not a function: this file is type-checked without the DOM library.
  await waitForPage(
    page,
    `(() => { const all = document.querySelectorAll('article[aria-label="Resposta"]'); const last = all[all.length - 1]; return !!last && last.getAttribute("aria-busy") !== "true"; })()`,
    timeout,
  );
  return answer;
}

/** The sticky question box at the bottom (the dock): its top edge in the viewport. */
export async function dockTop(page: Page): Promise<number> {
  return (await page.evaluate(`document.querySelector(".dock").getBoundingClientRect().top`)) as number;
}

/**
 * Whether the element that has the focus is wholly hidden behind the sticky question box or
 * above the top of the screen (WCAG 2.2 SC 2.4.11): undefined when it is at least partly seen,
 * else a description of it. Elements inside the box itself, and in a dialog, are seen.
 */
export async function focusHidden(page: Page): Promise<string | undefined> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el.closest(".dock") || el.closest("[role=dialog]") || el.closest(".popover")) return undefined;
    const r = el.getBoundingClientRect();
    const top = document.querySelector(".dock").getBoundingClientRect().top;
    if (r.bottom > 0 && r.top < top && r.width > 0 && r.height > 0) return undefined;
    return (el.tagName + " " + (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 60) + " at " + Math.round(r.top) + "-" + Math.round(r.bottom) + " (dock at " + Math.round(top) + ")");
  })()`)) as string | undefined;
}
