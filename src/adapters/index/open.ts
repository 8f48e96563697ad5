import { assertCollectionName } from "./collection-names.js";
import { SqliteUnitStore } from "./sqlite-unit-store.js";
import type { UnitStore } from "./store.js";

/** Which store to open: the embedded SQLite file (default) or a shared ChromaDB server. */
export type StoreConfig =
  | { kind: "sqlite"; dataDir: string }
  | { kind: "chroma"; url: string; prefix: string; timeoutMs?: number };

/**
 * Opens the Bible's index on the configured store. The Chroma adapter (and its client,
 * installed apart with `npm run setup:chroma`) is loaded only when asked for; opening it makes
 * no request, so a server that is down does not stop the process from starting.
 */
export async function openIndexStore(config: StoreConfig): Promise<UnitStore> {
  if (config.kind === "sqlite") return SqliteUnitStore.bible(config.dataDir);
  const { ChromaUnitStore } = await import("./chroma-unit-store.js");
  return ChromaUnitStore.open(config);
}

/**
 * Where document collections are kept: beside the Bible's store, through the same interface.
 * Local files (one SQLite file per collection under DATA_DIR) are read only by the process that
 * has the source; on a shared Chroma every replica serves what any of them indexed, so the
 * collections are also listed there.
 */
export interface CollectionStores {
  readonly shared: boolean;
  /** The index of collection `name` (created empty if new). @throws CollectionStoreError for an invalid name. */
  open(name: string): UnitStore;
  /** Collections indexed in the shared store, with the kind of their source (none for local files). */
  indexed(): Promise<{ name: string; kind: string }[]>;
  /** Lists a collection as indexed in the shared store (a no-op for local files). */
  register(name: string, kind: string): Promise<void>;
  close(): void;
}

export async function openCollectionStores(config: StoreConfig): Promise<CollectionStores> {
  if (config.kind === "sqlite") {
    return {
      shared: false,
      open: (name) => SqliteUnitStore.collection(config.dataDir, name),
      indexed: () => Promise.resolve([]),
      register: () => Promise.resolve(),
      close: () => undefined,
    };
  }
  const { ChromaUnitStore } = await import("./chroma-unit-store.js");
  const chroma = await ChromaUnitStore.open(config);
  return {
    shared: true,
    open: (name) => {
      assertCollectionName(name);
      return chroma.collectionStore(name);
    },
    indexed: () => chroma.indexedCollections(),
    register: (name, kind) => chroma.registerCollection(name, kind),
    close: () => chroma.close(),
  };
}
