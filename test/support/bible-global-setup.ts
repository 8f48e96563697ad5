import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { buildSqliteBibleIndex } from "./bible-index.js";

/**
 * Global setup of `npm run test:unit`: the real Bible index (SQLite, lexical + the corpus LSA)
 * built once for the whole run, as the Chroma suite builds its own, instead of once in every
 * test file's process that needs it (about 50 s each). Tests only read it.
 */
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const started = performance.now();
  ({ dataDir } = await buildSqliteBibleIndex());
  console.log(`[bible] index built once for the run in ${Math.round(performance.now() - started)} ms`);
  project.provide("bibleDataDir", dataDir);
}

export function teardown(): void {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
