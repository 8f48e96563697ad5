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

/**
 * Starts a worker module that posts one message and is done (a read ahead, an SVD, a snapshot
 * built): what `read` makes of its message, or rejects with the `Error` `read` returns, or when
 * the worker fails or exits first (`silent`, in Portuguese: the thread "terminou sem responder").
 * The worker is terminated once it answered.
 */
export function answerOf<Message, T>(name: string, options: WorkerOptions, read: (message: Message) => T | Error, silent: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = startAppWorker(name, options);
    worker.once("message", (message: Message) => {
      void worker.terminate();
      const answer = read(message);
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`${silent} terminou (código ${code}) sem responder`)));
  });
}
