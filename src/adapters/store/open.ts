import { SqliteStore } from "./sqlite-store.js";
import type { IndexStore } from "./store.js";

/** Which store to open: the embedded SQLite file (default) or a shared ChromaDB server. */
export type StoreConfig =
  | { kind: "sqlite"; dataDir: string }
  | { kind: "chroma"; url: string; prefix: string; timeoutMs?: number };

/**
 * Opens the configured store. The Chroma adapter (and its client, installed apart with
 * `npm run setup:chroma`) is loaded only when asked for; opening it makes no request, so a
 * server that is down does not stop the process from starting.
 */
export async function openIndexStore(config: StoreConfig): Promise<IndexStore> {
  if (config.kind === "sqlite") return SqliteStore.open(config.dataDir);
  const { ChromaStore } = await import("./chroma-store.js");
  return ChromaStore.open(config);
}
