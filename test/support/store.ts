import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { inject } from "vitest";
import type { UnitStore } from "../../src/adapters/index/store.js";
import { openStore } from "../../src/app/runtime.js";
import { readSettings } from "../../src/config/settings.js";

/**
 * Which store the parameterised suites run against: SQLite (the default, `npx vitest run`)
 * or a real Chroma server (`npm run test:chroma`: STORE=chroma, the server started by
 * test/support/chroma-global-setup.ts). A test names its index by a DATA_DIR as always; with
 * Chroma that folder maps to a collection prefix of its own on the shared test server.
 */
export type TestStoreKind = "sqlite" | "chroma";

export const STORE: TestStoreKind = process.env.STORE === "chroma" ? "chroma" : "sqlite";

declare module "vitest" {
  export interface ProvidedContext {
    chromaUrl: string;
    bibleDataDir: string;
  }
}

/** The Chroma collection prefix standing for a DATA_DIR. */
export function chromaPrefixFor(dataDir: string): string {
  return `t${createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 12)}`;
}

/** A collection prefix of its own, for a test that needs a fresh index and no DATA_DIR. */
export function freshChromaPrefix(): string {
  return chromaPrefixFor(`/fresh/${randomUUID()}`);
}

/** Settings (environment variables) selecting the store of `dataDir` for the current run. */
export function storeEnvFor(dataDir: string, chromaUrl?: string): Record<string, string> {
  if (STORE === "sqlite") return {};
  return {
    VECTOR_STORE: "chroma",
    CHROMA_URL: chromaUrl ?? inject("chromaUrl"),
    CHROMA_COLLECTION_PREFIX: chromaPrefixFor(dataDir),
    CHROMA_POLL_MS: "500",
  };
}

/** Opens the index of `dataDir` in the current run's store. */
export function openTestStore(dataDir: string): Promise<UnitStore> {
  return openStore(readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir) }));
}

/** Timeouts grow with Chroma: writes go over HTTP into a server that indexes them (measured ~3-5× SQLite). */
export const SLOWER = STORE === "chroma" ? 3 : 1;
