import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:chroma`: the store-dependent suites (retrieval, chat, indexing, CLI) again,
 * against a real Chroma server started by the global setup (STORE=chroma selects it in
 * test/support/store.ts), plus the Chroma-only tests in test/chroma/ (lock, store down and
 * back, two API processes, top-10 parity with SQLite). Needs `npm run setup:chroma`.
 */
export default defineConfig({
  test: {
    include: [
      "test/search.test.ts",
      "test/server.test.ts",
      "test/chat.injection.test.ts",
      "test/server.indexing.test.ts",
      "test/indexer.test.ts",
      "test/indexer.resume.test.ts",
      "test/cli.test.ts",
      "test/chroma/**/*.test.ts",
    ],
    exclude: [...configDefaults.exclude],
    env: { STORE: "chroma" },
    globalSetup: ["test/support/chroma-global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest-chroma-report.json" },
  },
});
