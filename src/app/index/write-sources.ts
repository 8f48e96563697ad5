import type { SourceWrite, UnitStore } from "../../adapters/index/store.js";
import { yieldToEventLoop } from "./event-loop.js";

/** A source ready to write: its units, and where an interrupted run left it. */
export interface SourceUnits extends SourceWrite {
  /** Units an interrupted run already committed: writing goes on from there, the source is not restarted. */
  resumeFrom?: number;
}

export interface WriteSourcesOptions {
  /** Units per write: a larger source (or a resumed one) is written in pieces of this size, each committed. */
  batchUnits: number;
  /** Whole sources per write at most (small sources go together: one transaction in SQLite, a few requests in Chroma). */
  batchSources: number;
  signal?: AbortSignal | undefined;
  /** After each write: a source and how many of its units are stored now. */
  onWritten?(source: string, stored: number, total: number): void;
}

/**
 * The one write loop of every collection (the Bible's files of verses, a collection's documents
 * of chunks). A source that fits in a batch is written whole, together with the next ones
 * (`writeSources`: never half there in SQLite); a larger one is started, written in batches
 * (each committed, so an interrupted run resumes from the last) and completed. The signal is
 * checked before each write, and the event loop runs after each. How many units were written.
 */
export async function writeSourcesInBatches(store: UnitStore, sources: AsyncIterable<SourceUnits> | Iterable<SourceUnits>, options: WriteSourcesOptions): Promise<number> {
  const { batchUnits, batchSources, signal, onWritten } = options;
  let pending: SourceWrite[] = [];
  let pendingUnits = 0;
  let written = 0;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    signal?.throwIfAborted();
    await store.writeSources(pending);
    for (const source of pending) onWritten?.(source.id, source.units.length, source.units.length);
    written += pendingUnits;
    pending = [];
    pendingUnits = 0;
    await yieldToEventLoop();
  };

  for await (const source of sources) {
    const from = source.resumeFrom ?? 0;
    const total = source.units.length;
    if (from === 0 && total <= batchUnits) {
      if (pending.length >= batchSources || pendingUnits + total > batchUnits) await flush();
      pending.push(source);
      pendingUnits += total;
      continue;
    }
    await flush();
    signal?.throwIfAborted();
    if (from === 0) await store.beginSources([{ id: source.id, sha256: source.sha256, ...(source.fields ? { fields: source.fields } : {}) }]);
    onWritten?.(source.id, from, total);
    for (let start = from; start < total; start += batchUnits) {
      signal?.throwIfAborted();
      const batch = source.units.slice(start, start + batchUnits);
      await store.insertUnits(batch.map((unit) => ({ ...unit, source: source.id })));
      written += batch.length;
      onWritten?.(source.id, start + batch.length, total);
      await yieldToEventLoop();
    }
    await store.completeSources([source.id]);
  }
  await flush();
  return written;
}
