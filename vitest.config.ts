import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The web components (jsdom), the browser end-to-end suite and the Chroma-only tests
    // (vitest.chroma.config.ts, `npm run test:chroma`) have their own configs.
    exclude: [...configDefaults.exclude, "test/e2e/**", "test/web/**", "test/chroma/**"],
    // The real Bible index, built once for the run (test/support/bible-global-setup.ts).
    globalSetup: ["test/support/bible-global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest-report.json" },
  },
});
