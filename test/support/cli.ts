import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./bible-index.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The compiled launcher a user runs (`npx pastor` resolves to it). */
export const PASTOR_BIN = path.join(ROOT, "bin", "pastor.js");

/** Runs a program to its end in a child process, from the project root, collecting its output. */
export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI from its TypeScript sources (through tsx): no build needed. */
export function pastorFromSources(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return run(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), ...args], env);
}

/** Runs the compiled CLI through bin/pastor.js, as `npx pastor` does. */
export function pastorBuilt(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return run(process.execPath, [PASTOR_BIN, ...args], env);
}

/** Compiles dist/ (tsc) when a source file is newer than the compiled CLI, so bin/pastor.js runs the current code. */
export function ensureBuilt(): void {
  const built = (file: string) => (existsSync(path.join(ROOT, file)) ? statSync(path.join(ROOT, file)).mtimeMs : 0);
  const newest = Math.max(newestUnder(path.join(ROOT, "src")), built("scripts/bundle-cli.mjs"));
  if (built("dist/cli/main.js") < newest) execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit", timeout: 300_000 });
  if (built("dist/bundle/main.js") < built("dist/cli/main.js")) execFileSync(process.execPath, ["scripts/bundle-cli.mjs"], { cwd: ROOT, stdio: "inherit", timeout: 300_000 });
}

function newestUnder(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}
