import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findProjectRoot } from "../../project-root.js";
import { StoreError } from "./store.js";

/**
 * Loads the `chromadb` npm client. It is not a dependency of the app (the embedded default,
 * `npm install && npm start`, never downloads it nor its ~400 MB native server): it lives in
 * the separate `chroma/` package (`npm run setup:chroma`, pinned to 3.5.0 with the native
 * binding that runs on glibc 2.36) and is imported from there at run time. A copy installed
 * at the top level (`npm install chromadb`) is used as a fallback.
 *
 * Only the few calls the store makes are typed here, so the project type-checks without it.
 */

export type ChromaMetadata = Record<string, string | number | boolean | null>;
export type ChromaInclude = "documents" | "metadatas" | "embeddings";
export type ChromaWhere = Record<string, unknown>;

export interface ChromaGetResult {
  ids: string[];
  documents: (string | null)[];
  metadatas: (ChromaMetadata | null)[];
  embeddings: number[][];
}

export interface ChromaRecords {
  ids: string[];
  embeddings?: number[][];
  metadatas?: ChromaMetadata[];
  documents?: string[];
}

export interface ChromaCollection {
  readonly id: string;
  readonly name: string;
  readonly metadata: ChromaMetadata | undefined;
  count(): Promise<number>;
  get(args?: { ids?: string[]; where?: ChromaWhere; limit?: number; offset?: number; include?: ChromaInclude[] }): Promise<ChromaGetResult>;
  upsert(records: ChromaRecords): Promise<void>;
  update(records: ChromaRecords): Promise<void>;
  delete(args: { ids?: string[]; where?: ChromaWhere }): Promise<unknown>;
  modify(args: { metadata?: ChromaMetadata }): Promise<void>;
  query(args: { queryEmbeddings: number[][]; nResults: number; include: ("distances" | ChromaInclude)[] }): Promise<{ ids: string[][]; distances?: (number | null)[][] }>;
}

export interface ChromaCollectionOptions {
  name: string;
  metadata?: ChromaMetadata;
  configuration?: { hnsw?: { space?: "cosine" | "l2" | "ip" } };
  embeddingFunction: null;
}

export interface ChromaClientLike {
  heartbeat(): Promise<number>;
  version(): Promise<string>;
  getMaxBatchSize(): Promise<number>;
  listCollections(args?: { limit?: number; offset?: number }): Promise<ChromaCollection[]>;
  createCollection(options: ChromaCollectionOptions): Promise<ChromaCollection>;
  getOrCreateCollection(options: ChromaCollectionOptions): Promise<ChromaCollection>;
  getCollection(options: { name: string }): Promise<ChromaCollection>;
  deleteCollection(options: { name: string }): Promise<void>;
}

export interface ChromaModule {
  ChromaClient: new (args: { host: string; port: number; ssl: boolean; headers?: Record<string, string> }) => ChromaClientLike;
}

export const CHROMA_SETUP_HINT = "instale com npm run setup:chroma";

/** The entry file of the chromadb package found under `chroma/node_modules`, or undefined. */
export function chromaPackageEntry(root = findProjectRoot()): string | undefined {
  const dir = path.join(root, "chroma", "node_modules", "chromadb");
  const manifest = path.join(dir, "package.json");
  if (!existsSync(manifest)) return undefined;
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: { ".": { import?: { default?: string } } }; module?: string };
  const entry = pkg.exports?.["."]?.import?.default ?? pkg.module;
  return entry ? path.join(dir, entry) : undefined;
}

/** The native Chroma server's command line (`chroma run`), shipped by the same package. */
export function chromaCliPath(root = findProjectRoot()): string | undefined {
  const cli = path.join(root, "chroma", "node_modules", "chromadb", "dist", "cli.mjs");
  return existsSync(cli) ? cli : undefined;
}

let loading: Promise<ChromaModule> | undefined;

export function loadChromaModule(): Promise<ChromaModule> {
  loading ??= (async () => {
    const entry = chromaPackageEntry();
    try {
      if (entry) return (await import(pathToFileURL(entry).href)) as ChromaModule;
      const name = "chromadb"; // a variable: bundlers and tsc leave it alone
      return (await import(name)) as ChromaModule;
    } catch (error) {
      loading = undefined;
      throw new StoreError("store_not_installed", `VECTOR_STORE=chroma, mas o cliente do ChromaDB não está instalado: ${CHROMA_SETUP_HINT}.`, {
        cause: error,
      });
    }
  })();
  return loading;
}
