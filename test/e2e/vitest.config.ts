import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * End-to-end tests in a real Chromium against the real server (built web app + compiled
 * server): `npx vitest run --config test/e2e/vitest.config.ts`. The global setup builds what
 * is stale and prepares the Bible index once; it fails (does not skip) without Chromium.
 */
export default defineConfig({
  root: repoRoot,
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    pool: "forks",
    // One browser and a few servers at a time: the machines have two cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest-e2e-report.json" },
  },
});
