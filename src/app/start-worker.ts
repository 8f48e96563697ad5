import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts one of the worker modules under `src/app` (`name`: its path from here without extension, "grounding/search-worker"): the compiled module
 * in production; from the TypeScript sources (tests, `tsx`), a tiny bootstrap registers tsx
 * inside the worker first, since Node 20 does not carry `--import` loaders into workers.
 */
export function startAppWorker(name: string, options: WorkerOptions): Worker {
  const runningFromSources = import.meta.url.endsWith(".ts");
  const url = new URL(`./${name}${runningFromSources ? ".ts" : ".js"}`, import.meta.url);
  if (!runningFromSources) return new Worker(url, options);
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
