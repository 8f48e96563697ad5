/**
 * The document collections a running server (or one CLI command) serves: one open store and
 * one loaded search per collection, and the reload that re-reads a collection's source.
 * Reloads of the same collection run one after another; a failing source keeps the search
 * that was being served.
 *
 * Names are compared by `collectionKey` (case, accents, NFC/NFD ignored): "Exemplo" asks for
 * the collection "exemplo", and two folders whose names differ only so are a configuration
 * error (`collection_name_clash`, logged at ERROR, on the status of a collection already served
 * under one of them, and a failure of the reload), never two collections or two stores.
 *
 * On a shared store (VECTOR_STORE=chroma) collections are the deployment's, not the process's:
 * a reload takes the collection's lock, writes to the store, bumps its generation and lists it
 * there; every replica polls (CHROMA_POLL_MS) and serves new collections and new generations
 * without reading any source. A replica without a collection's source "reloads" it by loading
 * the newest indexed version.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { UnitStore } from "../adapters/index/store.js";
import { collectionStoreFile } from "../adapters/index/collection-names.js";
import { openCollectionStores, type CollectionStores } from "../adapters/index/open.js";
import { GENERATION_KEY } from "../adapters/index/store.js";
import type { Settings } from "../config/settings.js";
import { bumpGeneration, withIndexLock } from "./index/index-lock.js";
import type { IndexPhase, IndexProgress } from "./index/indexer.js";
import { startPoller, type Poller } from "./index/poller.js";
import { storeConfig } from "./runtime.js";
import { discoverCollections, type CollectionSource, type CollectionWarning } from "./index/collection-sources.js";
import { collectionKey } from "../core/types.js";
import { reloadCollection, type CollectionLogger, type CollectionReloadSummary } from "./index/collection-indexer.js";
import { localCollectionHost, type CollectionSearchHost, type CollectionSummary } from "./grounding/collection-host.js";
import type { ChatTurn } from "../core/chat/llm.js";
import { CollectionError, CollectionNotFoundError } from "../core/documents/errors.js";
import { printable } from "../core/printable.js";
import type { DocumentSearchOptions, DocumentSearchResponse } from "../core/retrieval/document-search.js";
import type { PreparedCollectionAnswer } from "./grounding/collection-host.js";

/** Progress of a collection's reload, named. */
export type CollectionProgressListener = (collection: string, progress: IndexProgress) => void;

/** Where a caller of the service finds it (it lives in core, so the CLI's errors need not load the service). */
export { CollectionNotFoundError };

/** A reload that failed (the source's, the store's or the lock's code, or `collection_name_clash`). */
export class CollectionReloadError extends CollectionError {}

/** Every collection's reload, each on its own: what was reloaded, and what failed (the others went on). */
export interface CollectionReloadOutcome {
  summaries: CollectionReloadSummary[];
  /** Collections whose reload failed, and folders whose names clash (`collection_name_clash`, named by all their names). */
  failures: CollectionReloadError[];
}

export interface CollectionStatus {
  name: string;
  /** The kind of its source (folder or mysql), as the replica that indexed it recorded. */
  kind: string;
  /** False when this process does not read the source and serves what the shared store holds. */
  sourceHere: boolean;
  documents: number;
  chunks: number;
  disciplines: string[];
  dense: { enabled: boolean; reason: string | null };
  reloading: boolean;
  /** How far the running reload is (this process's), in the Bible indexer's terms; null when none runs here. */
  progress: { phase: IndexPhase; done: number; total: number; counts: "documents" | "chunks" | "verses" } | null;
  lastReload: { finishedAt: string; ms: number; added: number; changed: number; unchanged: number; removed: number; skipped: number } | null;
  error: { code: string; message: string } | null;
}

interface Entry {
  name: string;
  kind: string;
  /** The source this process reads; undefined for a collection another replica indexes. */
  source: CollectionSource | undefined;
  /** Opened on first use (a file that cannot be opened is an error of that collection only). */
  opened: UnitStore | undefined;
  /** What is served (its search lives in the host). */
  loaded: CollectionSummary | undefined;
  /** The shared store's generation the loaded search was read at. */
  generation: string | undefined;
  /** Whether the move of its version-1 index was logged. */
  migrationLogged?: boolean;
  running: Promise<CollectionReloadSummary> | undefined;
  /** The running reload's last progress report. */
  progress: IndexProgress | undefined;
  lastReload: CollectionStatus["lastReload"];
  error: CollectionStatus["error"];
}

const silent: CollectionLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class CollectionService {
  private readonly entries = new Map<string, Entry>();
  private poller: Poller | undefined;
  /** The last discovery's folders whose names differ only by case or accents: by collectionKey, the names and the message. */
  private clashes = new Map<string, { names: string[]; message: string }>();

  /**
   * @param host where the collections' searches live (default: this thread; the server passes
   *   its search workers').
   */
  constructor(
    private readonly settings: Settings,
    private readonly logger: CollectionLogger = silent,
    private stores?: CollectionStores,
    private readonly host: CollectionSearchHost = localCollectionHost(settings),
  ) {}

  /**
   * Discovers the collections (local sources, and on a shared store those indexed there) and
   * loads what their stores already hold (sources are not read). A collection whose store cannot
   * be opened or read is logged and left out (the next reload or poll tries again); the others,
   * and the server, go on.
   */
  async open(): Promise<void> {
    this.stores ??= await openCollectionStores(storeConfig(this.settings));
    for (const source of this.discover()) {
      const entry = this.entryFor(source.name, source.kind, source);
      await this.loadSafely(entry);
      this.noticeLocalIndex(entry);
    }
    await this.adoptIndexed();
    this.markClashes();
    if (this.stores.shared) this.poller ??= startPoller(() => this.poll(), this.settings.CHROMA_POLL_MS);
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** What is served of a collection (undefined until first loaded); throws CollectionNotFoundError naming the ones there are. */
  get(name: string): CollectionSummary | undefined {
    const entry = this.entryNamed(name);
    if (!entry) throw new CollectionNotFoundError(name, this.names());
    return entry.loaded;
  }

  /** Retrieval, the gate and the prompt for a question over a loaded collection (in the host: a search worker, or this thread). */
  prepare(name: string, question: string, history: readonly ChatTurn[], signal?: AbortSignal): Promise<PreparedCollectionAnswer> {
    return this.host.prepare(this.resolve(name) ?? name, question, history, this.settings.TOP_K, signal);
  }

  /** Searches a loaded collection (in the host). */
  search(name: string, query: string, options: DocumentSearchOptions): Promise<DocumentSearchResponse> {
    return this.host.search(this.resolve(name) ?? name, query, options);
  }

  has(name: string): boolean {
    return this.entryNamed(name) !== undefined;
  }

  /** The collection's own name for `name` ("Exemplo" → "exemplo": compared by collectionKey); undefined when none. */
  resolve(name: string): string | undefined {
    return this.entryNamed(name)?.name;
  }

  isReloading(name: string): boolean {
    return this.entryNamed(name)?.running !== undefined;
  }

  /**
   * Re-reads the sources (all collections, or one) and serves the new index. A collection
   * whose source fails keeps serving what it had, and its error shows in status(); the other
   * collections are reloaded all the same, then the first failure is thrown. On a shared store,
   * a collection whose source this process does not have is loaded from the store.
   *
   * @throws {CollectionNotFoundError} when `name` names no reloadable collection;
   *   {@link CollectionReloadError} for the first collection that failed (with `name`, also
   *   `collection_name_clash` when its folder's name clashes with another's).
   */
  async reload(name?: string, onProgress?: CollectionProgressListener): Promise<CollectionReloadSummary[]> {
    const { summaries, failures } = await this.reloadEach(name, onProgress);
    // Clashing folders are the configuration's error, logged and shown; they fail only the reload that names them.
    const failure = failures.find((error) => error.code !== "collection_name_clash" || name !== undefined);
    if (failure) throw failure;
    return summaries;
  }

  /**
   * Like reload(), but never throws for one collection: every reloadable collection (or the
   * one named) is reloaded on its own, and what failed is returned beside what was reloaded,
   * with folders whose names clash (`collection_name_clash`, one failure naming them all).
   *
   * @throws {CollectionNotFoundError} when `name` names no reloadable collection.
   */
  async reloadEach(name?: string, onProgress?: CollectionProgressListener): Promise<CollectionReloadOutcome> {
    const sources = new Map(this.discover().map((source) => [source.name, source]));
    for (const entry of this.entries.values()) entry.source = sources.get(entry.name);
    for (const source of sources.values()) {
      await this.dropOtherSpelling(source.name);
      this.entryFor(source.name, source.kind, source);
    }
    await this.adoptIndexed();
    this.markClashes();
    const clashFailures = [...this.clashes.entries()]
      .filter(([key]) => name === undefined || key === collectionKey(name))
      .map(([, clash]) => new CollectionReloadError("collection_name_clash", clash.names.join(", "), clash.message));
    if (name !== undefined && clashFailures.length > 0) return { summaries: [], failures: clashFailures };
    // A local collection whose source is gone keeps being served but cannot be reloaded.
    const reloadable = this.names().filter(
      (collection) => this.entries.get(collection)!.source !== undefined || this.stores!.shared,
    );
    const named = name === undefined ? undefined : this.resolve(name);
    if (name !== undefined && (named === undefined || !reloadable.includes(named))) throw new CollectionNotFoundError(name, reloadable);
    const outcome: CollectionReloadOutcome = { summaries: [], failures: clashFailures };
    for (const entry of (named === undefined ? reloadable : [named]).map((collection) => this.entries.get(collection)!)) {
      try {
        outcome.summaries.push(await this.reloadEntry(entry, onProgress));
      } catch (error) {
        if (!(error instanceof CollectionReloadError)) throw error;
        outcome.failures.push(error);
      }
    }
    return outcome;
  }

  status(): CollectionStatus[] {
    return this.names().map((name) => {
      const entry = this.entries.get(name)!;
      const loaded = entry.loaded;
      return {
        name,
        kind: entry.kind,
        sourceHere: entry.source !== undefined,
        documents: loaded?.documents ?? 0,
        chunks: loaded?.chunks ?? 0,
        disciplines: loaded?.disciplines ?? [],
        dense: { enabled: loaded?.denseAvailable ?? false, reason: loaded ? (loaded.denseOffReason ?? null) : "a coleção ainda não foi carregada" },
        reloading: entry.running !== undefined,
        progress:
          entry.running && entry.progress
            ? { phase: entry.progress.phase, done: entry.progress.done, total: entry.progress.total, counts: entry.progress.counts ?? "verses" }
            : null,
        lastReload: entry.lastReload,
        error: entry.error,
      };
    });
  }

  /** Stops polling, waits for running reloads, then closes the stores. */
  async close(): Promise<void> {
    await this.poller?.stop();
    this.poller = undefined;
    await Promise.allSettled([...this.entries.values()].map((entry) => entry.running));
    for (const entry of this.entries.values()) await entry.opened?.close();
    this.entries.clear();
    this.stores?.close();
  }

  private discover(): CollectionSource[] {
    const settings = { ...this.settings, COLLECTIONS_DIR: path.resolve(this.settings.COLLECTIONS_DIR) };
    const clashes = new Map<string, { names: string[]; message: string }>();
    const sources = discoverCollections(settings, (warning: CollectionWarning) => {
      if (warning.code !== "collection_name_clash") {
        this.logger.warn(warning.code, { ...warning });
        return;
      }
      // One warning per folder, each naming them all: one error per clash.
      const key = collectionKey(warning.sourceId);
      const clash = clashes.get(key) ?? { names: [], message: warning.message };
      if (clash.names.length === 0) this.logger.error(warning.code, { ...warning });
      clash.names.push(warning.sourceId);
      clashes.set(key, clash);
    });
    this.clashes = clashes;
    return sources;
  }

  /** The entry `name` names: its own, else the one with the same collectionKey ("Exemplo" for "exemplo"). */
  private entryNamed(name: string): Entry | undefined {
    const exact = this.entries.get(name);
    if (exact) return exact;
    const key = collectionKey(name);
    for (const entry of this.entries.values()) if (collectionKey(entry.name) === key) return entry;
    return undefined;
  }

  /**
   * A folder renamed by case or accents while served ("Exemplo" now "exemplo"): the entry of
   * the old spelling, whose source is gone, makes way for the new one (never two collections
   * with one key). Not while it reloads.
   */
  private async dropOtherSpelling(name: string): Promise<void> {
    const key = collectionKey(name);
    for (const entry of [...this.entries.values()]) {
      if (entry.name === name || collectionKey(entry.name) !== key || entry.source !== undefined || entry.running) continue;
      this.entries.delete(entry.name);
      await Promise.resolve(entry.opened?.close()).catch(() => undefined);
      this.logger.info("collection renamed", { from: entry.name, to: name });
    }
  }

  /** A collection served under a name that now clashes with another folder's says so in its status (and stops saying it once solved). */
  private markClashes(): void {
    for (const entry of this.entries.values()) {
      const clash = this.clashes.get(collectionKey(entry.name));
      if (clash) entry.error = { code: "collection_name_clash", message: clash.message };
      else if (entry.error?.code === "collection_name_clash") entry.error = null;
    }
  }

  private entryFor(name: string, kind: string, source: CollectionSource | undefined): Entry {
    let entry = this.entries.get(name);
    if (!entry) {
      entry = { name, kind, source, opened: undefined, loaded: undefined, generation: undefined, running: undefined, progress: undefined, lastReload: null, error: null };
      this.entries.set(name, entry);
    }
    if (source) {
      entry.source = source;
      entry.kind = source.kind;
    }
    return entry;
  }

  /**
   * A collection empty on the shared store whose index this data directory still has in SQLite
   * (indexed before VECTOR_STORE=chroma): said in the status and the log, never a silent empty index.
   */
  private noticeLocalIndex(entry: Entry): void {
    if (!this.stores?.shared || !entry.loaded || entry.loaded.documents > 0) return;
    const file = collectionStoreFile(path.resolve(this.settings.DATA_DIR), entry.name);
    if (!existsSync(file)) return;
    const message = `a coleção "${entry.name}" ainda não foi indexada no ChromaDB (o índice anterior está em ${file}, do modo SQLite); recarregue-a (POST /api/reload ou pastor reload) para indexá-la no armazenamento compartilhado.`;
    entry.error = { code: "collection_not_in_store", message };
    this.logger.warn("collection_not_in_store", { collection: entry.name, message });
  }

  /** Adds (and loads) the collections other replicas indexed in the shared store. */
  private async adoptIndexed(): Promise<void> {
    if (!this.stores?.shared) return;
    let indexed: { name: string; kind: string }[];
    try {
      indexed = await this.stores.indexed();
    } catch (error) {
      this.logger.warn("collection list failed", { message: error instanceof Error ? error.message : String(error) });
      return;
    }
    for (const { name, kind } of indexed) {
      if (this.entryNamed(name) !== undefined || this.clashes.has(collectionKey(name))) continue;
      await this.loadSafely(this.entryFor(name, kind, undefined));
    }
  }

  /** One look at the shared store: new collections, and new generations of those served. */
  private async poll(): Promise<void> {
    try {
      await this.adoptIndexed();
      for (const entry of this.entries.values()) {
        if (entry.running) continue;
        const generation = await this.store(entry).getManifest(GENERATION_KEY);
        if (generation === entry.generation && entry.loaded) continue;
        this.logger.info("collection generation changed", { collection: entry.name, from: entry.generation ?? null, to: generation ?? null });
        await this.loadSafely(entry);
      }
    } catch (error) {
      this.logger.warn("collection poll failed", { message: error instanceof Error ? error.message : String(error) });
    }
  }

  private store(entry: Entry): UnitStore {
    entry.opened ??= this.stores!.open(entry.name);
    return entry.opened;
  }

  private async loadSafely(entry: Entry): Promise<void> {
    try {
      await this.loadEntry(entry);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const message = printable(`não foi possível ler o índice da coleção "${entry.name}": ${detail}`);
      // Left out until a reload or a poll manages to read it.
      if (!entry.loaded) {
        this.entries.delete(entry.name);
        await Promise.resolve(entry.opened?.close()).catch(() => undefined);
      } else entry.error = { code: "collection_load_failed", message };
      this.logger.error("collection load failed", { collection: entry.name, code: "collection_load_failed", message });
    }
  }

  private async loadEntry(entry: Entry): Promise<void> {
    // Read before the chunks: a write that lands meanwhile shows as a newer generation at the next poll.
    const store = this.store(entry);
    const generation = store.shared ? await store.getManifest(GENERATION_KEY) : undefined;
    entry.loaded = await this.host.load(entry.name, store);
    entry.generation = generation;
    if (store.migrated && !entry.migrationLogged) {
      entry.migrationLogged = true;
      this.logger.info("index_migrated", { collection: entry.name, ...store.migrated });
    }
    // What a successful read answers: it could not be read, or it was not in the shared store yet.
    if (entry.error?.code === "collection_load_failed" || (entry.error?.code === "collection_not_in_store" && entry.loaded.documents > 0)) entry.error = null;
  }

  private reloadEntry(entry: Entry, onProgress?: CollectionProgressListener): Promise<CollectionReloadSummary> {
    const previous = entry.running ?? Promise.resolve(undefined);
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        try {
          const progress = (report: IndexProgress) => {
            entry.progress = report;
            onProgress?.(entry.name, report);
          };
          const summary = entry.source ? await this.indexEntry(entry, entry.source, progress) : await this.refreshEntry(entry);
          entry.error = null;
          const { ms, added, changed, unchanged, removed, skipped } = summary;
          entry.lastReload = { finishedAt: new Date().toISOString(), ms, added, changed, unchanged, removed, skipped };
          this.logger.info("collection reloaded", { collection: entry.name, ms: summary.ms, documents: summary.documents, chunks: summary.chunks });
          return summary;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          const failure = new CollectionReloadError(
            typeof code === "string" ? code : "collection_reload_failed",
            entry.name,
            printable(error instanceof Error ? error.message : String(error)),
          );
          if (failure.code === "index_locked") {
            // Another replica is reloading it: its result arrives with the next poll; nothing failed here.
            this.logger.info("collection reload left to another replica", { collection: entry.name, message: failure.message });
          } else {
            entry.error = { code: failure.code, message: failure.message };
            this.logger.error("collection reload failed", { collection: entry.name, code: failure.code, message: failure.message });
          }
          throw failure;
        }
      });
    entry.running = next;
    void next
      .finally(() => {
        if (entry.running !== next) return;
        entry.running = undefined;
        entry.progress = undefined;
      })
      .catch(() => undefined);
    return next;
  }

  /** Reads the source into the store (under the lock on a shared one), then serves it. */
  private async indexEntry(entry: Entry, source: CollectionSource, onProgress: (progress: IndexProgress) => void): Promise<CollectionReloadSummary> {
    const store = this.store(entry);
    const run = async (signal?: AbortSignal): Promise<CollectionReloadSummary> => {
      const summary = await reloadCollection(source, { store, settings: this.settings, logger: this.logger, onProgress, ...(signal ? { signal } : {}) });
      if (store.shared) {
        await bumpGeneration(store);
        await this.stores!.register(entry.name, source.kind);
      }
      await this.loadEntry(entry);
      return summary;
    };
    // Nothing to take for a local file; on a shared store, `index_locked` names who holds the lock.
    if (!store.shared) return run();
    return withIndexLock(
      store,
      {
        ttlMs: this.settings.INDEX_LOCK_TTL_MS,
        refused: (holder, until) =>
          new CollectionReloadError("index_locked", entry.name, `outra réplica (${holder}) está recarregando esta coleção; a trava vale até ${until} se ela não a renovar.`),
        lost: () => new CollectionReloadError("index_lock_lost", entry.name, "A trava de indexação da coleção expirou e foi tomada por outra réplica."),
      },
      run,
    );
  }

  /** A collection whose source is elsewhere: load the newest version the shared store holds. */
  private async refreshEntry(entry: Entry): Promise<CollectionReloadSummary> {
    const started = performance.now();
    await this.loadEntry(entry);
    const loaded = entry.loaded!;
    return {
      collection: entry.name,
      documents: loaded.documents,
      chunks: loaded.chunks,
      added: 0,
      changed: 0,
      unchanged: loaded.documents,
      removed: 0,
      skipped: 0,
      skippedDocuments: [],
      warnings: [
        {
          code: "source_not_here",
          sourceId: "",
          message: `Esta réplica não lê a fonte da coleção "${entry.name}"; carregou a versão indexada mais recente do armazenamento compartilhado.`,
        },
      ],
      dense: loaded.dense,
      ...(loaded.denseOffReason === undefined ? {} : { denseOffReason: loaded.denseOffReason }),
      vectorsComputed: 0,
      ms: Math.round(performance.now() - started),
    };
  }
}
