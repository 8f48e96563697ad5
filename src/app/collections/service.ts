/**
 * The document collections a running server (or one CLI command) serves: one open store and
 * one loaded search per collection, and the reload that re-reads a collection's source.
 * Reloads of the same collection run one after another; a failing source keeps the search
 * that was being served.
 */
import path from "node:path";
import { CollectionStore } from "../../adapters/store/collection-store.js";
import type { Settings } from "../../config/settings.js";
import { discoverCollections, type CollectionSource, type CollectionWarning } from "./sources.js";
import { reloadCollection, type CollectionLogger, type CollectionReloadSummary } from "./indexer.js";
import { loadCollection, type LoadedCollection } from "./load.js";

export class CollectionNotFoundError extends Error {
  readonly code = "collection_not_found";
  constructor(
    readonly collection: string,
    available: readonly string[],
  ) {
    super(
      `Coleção "${collection}" não encontrada.${available.length > 0 ? ` Coleções disponíveis: ${available.join(", ")}.` : " Nenhuma coleção configurada."}`,
    );
    this.name = "CollectionNotFoundError";
  }
}

export class CollectionReloadError extends Error {
  constructor(
    readonly collection: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "CollectionReloadError";
  }
}

export interface CollectionStatus {
  name: string;
  kind: CollectionSource["kind"];
  documents: number;
  chunks: number;
  disciplines: string[];
  dense: { enabled: boolean; reason: string | null };
  reloading: boolean;
  lastReload: { finishedAt: string; ms: number; added: number; changed: number; unchanged: number; removed: number; skipped: number } | null;
  error: { code: string; message: string } | null;
}

interface Entry {
  source: CollectionSource;
  store: CollectionStore;
  loaded: LoadedCollection | undefined;
  running: Promise<CollectionReloadSummary> | undefined;
  lastReload: CollectionStatus["lastReload"];
  error: CollectionStatus["error"];
}

const silent: CollectionLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class CollectionService {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly settings: Settings,
    private readonly logger: CollectionLogger = silent,
  ) {}

  /**
   * Discovers the collections and loads what their stores already hold (sources are not read).
   * A collection whose store cannot be opened or read is logged and left out (the next reload
   * tries again); the others, and the server, go on.
   */
  async open(): Promise<void> {
    for (const source of this.discover()) {
      try {
        await this.loadEntry(this.entryFor(source));
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        const message = `não foi possível ler o índice da coleção "${source.name}": ${detail}`;
        const entry = this.entries.get(source.name);
        if (entry) entry.error = { code: "collection_load_failed", message };
        this.logger.error("collection load failed", { collection: source.name, code: "collection_load_failed", message });
      }
    }
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** The loaded search of a collection; throws CollectionNotFoundError naming the ones there are. */
  get(name: string): LoadedCollection | undefined {
    const entry = this.entries.get(name);
    if (!entry) throw new CollectionNotFoundError(name, this.names());
    return entry.loaded;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  isReloading(name: string): boolean {
    return this.entries.get(name)?.running !== undefined;
  }

  /**
   * Re-reads the sources (all collections, or one) and serves the new index. A collection
   * whose source fails keeps serving what it had, and its error shows in status().
   */
  async reload(name?: string): Promise<CollectionReloadSummary[]> {
    const sources = this.discover();
    if (name !== undefined && !sources.some((source) => source.name === name)) {
      throw new CollectionNotFoundError(name, sources.map((source) => source.name));
    }
    const summaries: CollectionReloadSummary[] = [];
    for (const source of sources) {
      if (name !== undefined && source.name !== name) continue;
      summaries.push(await this.reloadEntry(this.entryFor(source)));
    }
    return summaries;
  }

  status(): CollectionStatus[] {
    return this.names().map((name) => {
      const entry = this.entries.get(name)!;
      const loaded = entry.loaded;
      return {
        name,
        kind: entry.source.kind,
        documents: loaded?.documents ?? 0,
        chunks: loaded?.chunks ?? 0,
        disciplines: loaded?.search.disciplines() ?? [],
        dense: { enabled: loaded?.search.denseAvailable ?? false, reason: loaded ? (loaded.denseOffReason ?? null) : "a coleção ainda não foi carregada" },
        reloading: entry.running !== undefined,
        lastReload: entry.lastReload,
        error: entry.error,
      };
    });
  }

  /** Waits for running reloads, then closes the stores. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.entries.values()].map((entry) => entry.running));
    for (const entry of this.entries.values()) entry.store.close();
    this.entries.clear();
  }

  private discover(): CollectionSource[] {
    const settings = { ...this.settings, COLLECTIONS_DIR: path.resolve(this.settings.COLLECTIONS_DIR) };
    return discoverCollections(settings, (warning: CollectionWarning) => this.logger.warn(warning.code, { ...warning }));
  }

  private entryFor(source: CollectionSource): Entry {
    let entry = this.entries.get(source.name);
    if (!entry) {
      entry = {
        source,
        store: CollectionStore.open(path.resolve(this.settings.DATA_DIR), source.name),
        loaded: undefined,
        running: undefined,
        lastReload: null,
        error: null,
      };
      this.entries.set(source.name, entry);
    }
    entry.source = source;
    return entry;
  }

  private async loadEntry(entry: Entry): Promise<void> {
    entry.loaded = await loadCollection(entry.source.name, entry.store, this.settings);
  }

  private reloadEntry(entry: Entry): Promise<CollectionReloadSummary> {
    const previous = entry.running ?? Promise.resolve(undefined);
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        try {
          const summary = await reloadCollection(entry.source, { store: entry.store, settings: this.settings, logger: this.logger });
          await this.loadEntry(entry);
          entry.error = null;
          entry.lastReload = {
            finishedAt: new Date().toISOString(),
            ms: summary.ms,
            added: summary.added,
            changed: summary.changed,
            unchanged: summary.unchanged,
            removed: summary.removed,
            skipped: summary.skipped,
          };
          this.logger.info("collection reloaded", { collection: entry.source.name, ms: summary.ms, documents: summary.documents, chunks: summary.chunks });
          return summary;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          const failure = new CollectionReloadError(
            entry.source.name,
            typeof code === "string" ? code : "collection_reload_failed",
            error instanceof Error ? error.message : String(error),
          );
          entry.error = { code: failure.code, message: failure.message };
          this.logger.error("collection reload failed", { collection: entry.source.name, code: failure.code, message: failure.message });
          throw failure;
        }
      });
    entry.running = next;
    void next
      .finally(() => {
        if (entry.running === next) entry.running = undefined;
      })
      .catch(() => undefined);
    return next;
  }
}
