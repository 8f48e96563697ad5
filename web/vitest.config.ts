import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Component tests of the web app: `npx vitest run --config web/vitest.config.ts`. */
export default defineConfig({
  root: repoRoot,
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  test: {
    include: ["test/web/**/*.test.{ts,tsx}"],
    environment: "jsdom",
    setupFiles: ["test/web/setup.ts"],
    testTimeout: 20_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest-web-report.json" },
  },
});
