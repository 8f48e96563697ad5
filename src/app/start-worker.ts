import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { findProjectRoot } from "../project-root.js";

/**
 * Starts one of the worker modules under `src/app` (`name`: its path from here without extension, "grounding/search-worker"): the compiled module
 * in production; from the TypeScript sources (tests, `tsx`), a tiny bootstrap registers tsx
 * inside the worker first, since Node 20 does not carry `--import` loaders into workers. Found
 * from the project root, not from this file: in the CLI's bundle (dist/bundle/) this code is
 * not in dist/app, and the workers are not bundled.
 */
export function startAppWorker(name: string, options: WorkerOptions): Worker {
  const runningFromSources = import.meta.url.endsWith(".ts");
  const folder = path.join(findProjectRoot(import.meta.url), runningFromSources ? "src" : "dist", "app");
  const url = pathToFileURL(path.join(folder, `${name}${runningFromSources ? ".ts" : ".js"}`));
  if (!runningFromSources) return new Worker(url, options);
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
