/**
 * The Bible engine's snapshot in the store (`core/retrieval/engine-snapshot.ts` says what it
 * holds): its key, built, saved, read back. Saved by whoever indexes (`pastor index`, the
 * server's indexing worker) and read by every start (`load-engine.ts`); in the shared Chroma
 * store every replica reads the one the indexing replica saved.
 *
 * The key digests what the snapshot was built from, read from the store itself: the
 * snapshot's version, the analyzer (the code's and the index's), every source with its hash,
 * status and count, the number of units, the context window, the dense side's manifest and
 * its vector count. Any indexing that changes what the search would build changes one of them,
 * so a stale snapshot is never read as current. (Not a shared store's generation: the indexer
 * bumps it after saving the snapshot, so that replicas reload from it.)
 */
import { createHash } from "node:crypto";
import { loadIndexedVerses, type IndexedVerse } from "../../adapters/index/bible-units.js";
import type { StoredSnapshot, UnitStore } from "../../adapters/index/store.js";
import { ANALYZER_VERSION } from "../../core/analysis/index.js";
import { withinVerseBounds } from "../../core/bible/bounds.js";
import { SnapshotError } from "../../core/index/snapshot.js";
import type { EngineVerse } from "../../core/retrieval/engine.js";
import {
  decodeEngineSnapshot,
  ENGINE_SNAPSHOT_VERSION,
  finishEngineSnapshot,
  startEngineSnapshot,
  type EngineSnapshot,
  type EngineSnapshotStart,
  type SnapshotMatrix,
} from "../../core/retrieval/engine-snapshot.js";
import { BIBLE_DENSE_SERVING } from "../index/bible-dense.js";
import { storedDenseModel } from "../index/dense.js";
import { buildAidsSnapshotAhead } from "./aids-build.js";
import { refreshAidsSnapshot } from "./aids-snapshot.js";

/** The snapshot's name in the store. */
export const ENGINE_SNAPSHOT = "bible-engine";

/** The manifest entries the key reads (the dense side's, with a Bible index's keys of before). */
const MANIFEST_KEYS = [
  "analyzer_version",
  "context_window",
  "dense",
  "dense_model",
  "dense_off_reason",
  "lsa_model",
  "lsa_fingerprint",
  "corpus_fingerprint",
  "embedder",
];

/** What the store holds now, as the snapshot's key. */
export async function engineSnapshotKey(store: UnitStore): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`snapshot ${ENGINE_SNAPSHOT_VERSION}\nanalyzer ${ANALYZER_VERSION}\n`);
  for (const source of await store.listSources()) hash.update(`source ${source.id} ${source.sha256} ${source.status} ${source.unitCount}\n`);
  hash.update(`units ${await store.unitCount()}\n`);
  for (const key of MANIFEST_KEYS) hash.update(`${key}=${JSON.stringify((await store.getManifest(key)) ?? null)}\n`);
  const model = await storedDenseModel(store, (id) => BIBLE_DENSE_SERVING.vectorKey(id));
  hash.update(`vectors ${model === undefined ? "-" : await store.vectorCount(model)}\n`);
  return hash.digest("hex");
}

/** The stored verses as the engine holds them: without row ids, one string per distinct term. */
export function engineVerses(stored: readonly IndexedVerse[]): EngineVerse[] {
  // One string per distinct term: split() makes a copy of each occurrence (≈ 10 MB a worker).
  const interned = new Map<string, string>();
  const intern = (term: string) => interned.get(term) ?? (interned.set(term, term), term);
  return stored.map(({ id: _id, ord: _ord, canonical: _canonical, terms, ...verse }) => ({
    ...verse,
    terms: terms.split(" ").filter(Boolean).map(intern),
  }));
}

export interface SavedSnapshot {
  key: string;
  bytes: number;
  ms: number;
}

/**
 * What a snapshot's verses depend on in the store: the key's lexical half. A snapshot started
 * from the verses (`prepareEngineSnapshot`) is finished only if this has not changed since.
 */
async function lexicalState(store: UnitStore): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`analyzer ${ANALYZER_VERSION} ${JSON.stringify((await store.getManifest("analyzer_version")) ?? null)}\n`);
  for (const source of await store.listSources()) hash.update(`source ${source.id} ${source.sha256} ${source.status} ${source.unitCount}\n`);
  hash.update(`units ${await store.unitCount()}\nwindow ${JSON.stringify((await store.getManifest("context_window")) ?? null)}\n`);
  return hash.digest("hex");
}

/** A snapshot started from the verses the store holds (everything but the vectors and the key). */
export interface PreparedSnapshot {
  lexical: string;
  ids: number[];
  start: EngineSnapshotStart;
}

/** Starts the snapshot of the verses the store holds now: the lexical part, built before the dense side is done. */
export async function prepareEngineSnapshot(store: UnitStore): Promise<PreparedSnapshot> {
  const lexical = await lexicalState(store);
  // The verses the built engine holds (load-engine.ts): none beyond the bounds.
  const stored = (await loadIndexedVerses(store)).filter(withinVerseBounds);
  const stated = await store.getManifest("context_window");
  const window = stated === undefined || stated === "" ? Number.NaN : Number(stated);
  const contextWindow = Number.isSafeInteger(window) && window >= 0 ? window : undefined;
  const start = startEngineSnapshot(engineVerses(stored), contextWindow);
  return { lexical, ids: stored.map((verse) => verse.id), start };
}

/**
 * Builds the snapshot of what the store holds now and saves it; from `prepared` when it was
 * started from the verses the store still holds.
 */
export async function saveEngineSnapshot(store: UnitStore, prepared?: PreparedSnapshot): Promise<SavedSnapshot> {
  const started = performance.now();
  const key = await engineSnapshotKey(store);
  const fits = prepared !== undefined && !prepared.start.finished && prepared.lexical === (await lexicalState(store));
  const { ids, start } = fits ? prepared : await prepareEngineSnapshot(store);
  const dense = await storedMatrix(store, ids);
  const bytes = finishEngineSnapshot(start, { key, dense });
  await store.saveSnapshot(ENGINE_SNAPSHOT, key, bytes);
  // The time this call took: a start prepared while the model trained cost the run no time of its own.
  return { key, bytes: bytes.length, ms: Math.round(performance.now() - started) };
}

/**
 * The snapshots an index run saves (the retrieval aids', the engine's), as `indexCorpus` takes
 * them. The aids' snapshot is built at once on another thread (it depends on the resource files
 * alone); `whileTraining` starts the engine's while a corpus LSA trains on another thread;
 * `onIndexed` saves what is not current (`IndexSummary.snapshot`: the engine's size and the time
 * saving it added). Nothing prepared ahead is needed: what failed is done again there.
 */
export function indexSnapshots(store: UnitStore): {
  whileTraining: () => Promise<void>;
  onIndexed: () => Promise<{ bytes: number; ms: number } | undefined>;
} {
  const aids = buildAidsSnapshotAhead(store);
  let prepared: PreparedSnapshot | undefined;
  return {
    whileTraining: async () => {
      try {
        prepared = await prepareEngineSnapshot(store);
      } catch {
        // Done again, and told, after the index is written.
      }
    },
    onIndexed: async () => {
      await refreshAidsSnapshot(store, await aids);
      const saved = await refreshEngineSnapshot(store, prepared);
      prepared = undefined;
      return saved && { bytes: saved.bytes, ms: saved.ms };
    },
  };
}

/** Saves a new snapshot when the one stored is not the store's current one (or there is none); undefined when it was current. */
export async function refreshEngineSnapshot(store: UnitStore, prepared?: PreparedSnapshot): Promise<SavedSnapshot | undefined> {
  const current = await engineSnapshotKey(store);
  if ((await store.snapshotKey(ENGINE_SNAPSHOT)) === current) return undefined;
  return saveEngineSnapshot(store, prepared);
}

/**
 * The vectors in use (the manifest's model key) as one matrix in the verses' order, with their
 * dimensions as stored; none when the dense side is off or its vectors are not there (the
 * loader then finds what loadDenseSide would: no matrix for that model).
 */
async function storedMatrix(store: UnitStore, ids: readonly number[]): Promise<SnapshotMatrix | undefined> {
  const model = await storedDenseModel(store, (id) => BIBLE_DENSE_SERVING.vectorKey(id));
  if (model === undefined) return undefined;
  const vectors = await store.loadVectors(model);
  const first = vectors.values().next().value;
  if (first === undefined) return undefined;
  const dimensions = first.length;
  const matrix = new Float32Array(ids.length * dimensions);
  ids.forEach((id, row) => {
    const vector = vectors.get(id);
    if (vector && vector.length === dimensions) matrix.set(vector, row * dimensions);
  });
  return { matrix, dimensions, model };
}

export type SnapshotRead = { snapshot: EngineSnapshot } | { reason: string };

/** The stored snapshot when it is the store's current one and reads whole; otherwise why not (Portuguese). */
export async function readEngineSnapshot(store: UnitStore, prefetched?: Promise<StoredSnapshot | undefined>): Promise<SnapshotRead> {
  // The keys first: a stale snapshot's bytes are never read.
  const [storedKey, current] = [await store.snapshotKey(ENGINE_SNAPSHOT), await engineSnapshotKey(store)];
  if (storedKey === undefined) return { reason: "não há retrato do índice salvo" };
  if (storedKey !== current) return { reason: "o retrato do índice é de uma versão anterior do índice" };
  // A read ahead that failed (its thread could not open the file) is done again here.
  const stored = (await prefetched?.catch(() => undefined)) ?? (await store.loadSnapshot(ENGINE_SNAPSHOT));
  if (!stored) return { reason: "não há retrato do índice salvo" };
  if ("damaged" in stored) return { reason: `o retrato do índice está danificado (${stored.damaged})` };
  if (stored.key !== current) return { reason: "o retrato do índice é de uma versão anterior do índice" };
  try {
    const snapshot = decodeEngineSnapshot(stored.data);
    if (snapshot.key !== stored.key) return { reason: "o retrato do índice está danificado (chave trocada)" };
    return { snapshot };
  } catch (error) {
    if (error instanceof SnapshotError) return { reason: `o retrato do índice não pôde ser lido (${error.message})` };
    throw error;
  }
}
