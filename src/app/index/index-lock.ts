/**
 * The indexing lock and the generation of a shared store, as the Bible indexer and the
 * collection reloads both use them: who this process is, taking the lock (a refusal names the
 * holder), renewing it while the work runs (a lost lock aborts the work), and telling the
 * replicas sharing the store to reload.
 */
import { hostname } from "node:os";
import { GENERATION_KEY, type UnitStore } from "../../adapters/index/store.js";

/** Who holds the lock, for messages: host, process and a random suffix. */
export const INDEX_LOCK_OWNER = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

/** What the lock and the generation need of a store (the Bible's or a document collection's). */
export type LockableStore = Pick<UnitStore, "shared" | "getManifest" | "setManifest" | "tryLockIndexing">;

export interface IndexLockOptions {
  ttlMs: number;
  /** How often the lock is renewed; a third of the TTL unless told. */
  renewEveryMs?: number;
  /** The error when another process holds the lock (`until`: its expiry, ISO 8601). */
  refused: (holder: string, until: string) => Error;
  /** The reason the work is aborted with when a renewal finds the lock lost. */
  lost: () => Error;
}

/**
 * Runs `work` holding the store's indexing lock: throws `refused` when another process holds
 * it; renews it every `renewEveryMs`, aborting `work`'s signal with `lost` when it was lost;
 * releases it when `work` ends, however it ends.
 */
export async function withIndexLock<T>(store: LockableStore, options: IndexLockOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const attempt = await store.tryLockIndexing(INDEX_LOCK_OWNER, options.ttlMs);
  if (!attempt.acquired) throw options.refused(attempt.owner, new Date(attempt.expiresAt).toISOString());
  const lock = attempt.lock;
  const lost = new AbortController();
  const renewal = setInterval(() => {
    lock.renew().then(
      (held) => {
        if (!held) lost.abort(options.lost());
      },
      () => undefined, // the store is unreachable: the work's own writes fail and say so
    );
  }, options.renewEveryMs ?? options.ttlMs / 3);
  try {
    return await work(lost.signal);
  } finally {
    clearInterval(renewal);
    await lock.release().catch(() => undefined);
  }
}

/** Tells replicas sharing the store to reload (they poll this manifest entry); nothing on a local store. */
export async function bumpGeneration(store: LockableStore): Promise<void> {
  if (!store.shared) return;
  const current = Number((await store.getManifest(GENERATION_KEY)) ?? "0");
  await store.setManifest(GENERATION_KEY, String((Number.isFinite(current) ? current : 0) + 1));
}

/**
 * Runs `work` holding the indexing lock of a shared store (renewed while it runs), or, while
 * another process holds it, not at all: false then. A local store needs no lock. For writes
 * besides indexing that replicas may all want at once (a snapshot a replica found stale).
 */
export async function unlessIndexing(store: LockableStore, ttlMs: number, work: () => Promise<void>): Promise<boolean> {
  if (!store.shared) {
    await work();
    return true;
  }
  const refused = new Error("index locked");
  try {
    await withIndexLock(store, { ttlMs, renewEveryMs: Math.max(250, Math.floor(ttlMs / 3)), refused: () => refused, lost: () => new Error("a trava de indexação foi perdida") }, work);
    return true;
  } catch (error) {
    if (error === refused) return false;
    throw error;
  }
}
