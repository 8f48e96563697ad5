/**
 * What an incremental index run does with each source, decided from content hashes alone:
 * the one diff of every collection (the Bible's USFX files, a collection's documents) and of
 * the CLI's "is the index behind the corpus?" check. Pure: the callers hash and write.
 */

/** A source as the index holds it. */
export interface IndexedVersion {
  id: string;
  sha256: string;
  /** Whether every unit of it was written (an interrupted run leaves it partial). */
  complete: boolean;
}

/** A source as its origin offers it now. */
export interface OfferedVersion {
  id: string;
  sha256: string;
}

/**
 * - `add`: not in the index yet.
 * - `keep`: indexed whole with the same content; costs nothing.
 * - `resume`: the same content, left partial by an interrupted run; continue where it stopped.
 * - `replace`: indexed with other content (or partial, where resuming is not offered, or the
 *   whole index is being rebuilt); write it again from the start.
 */
export type SyncAction = "add" | "keep" | "resume" | "replace";

export interface SyncStep<V extends IndexedVersion = IndexedVersion> {
  id: string;
  action: SyncAction;
  /** The index's version, when it has one (as the caller gave it). */
  indexed?: V;
}

export interface SyncPlan<V extends IndexedVersion = IndexedVersion> {
  /** One step per offered source, in the order offered. */
  steps: SyncStep<V>[];
  /** Indexed sources the origin no longer offers, in the index's order. */
  removed: string[];
}

export interface SyncOptions {
  /** Rewrite every source (what a unit holds has changed: chunk settings, analyzer). */
  rebuild?: boolean;
  /** A partial source with unchanged content is resumed rather than written again. */
  resume?: boolean;
}

export function planSync<V extends IndexedVersion>(indexed: readonly V[], offered: readonly OfferedVersion[], options: SyncOptions = {}): SyncPlan<V> {
  const byId = new Map(indexed.map((version) => [version.id, version]));
  const offeredIds = new Set(offered.map((version) => version.id));
  const steps = offered.map(({ id, sha256 }): SyncStep<V> => {
    const current = byId.get(id);
    return current ? { id, action: actionFor(current, sha256, options), indexed: current } : { id, action: "add" };
  });
  return { steps, removed: indexed.filter((version) => !offeredIds.has(version.id)).map((version) => version.id) };
}

function actionFor(indexed: IndexedVersion, sha256: string, options: SyncOptions): SyncAction {
  if (options.rebuild || indexed.sha256 !== sha256) return "replace";
  if (indexed.complete) return "keep";
  return options.resume ? "resume" : "replace";
}
