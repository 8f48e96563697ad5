/**
 * The Bible engine's snapshot: what `SearchEngine` builds from the index at every start (the
 * verses, the BM25, phrase and exact-word indexes, the word families, the gate's word tables,
 * the accent table, the vector matrix and its int8 screen), saved at index time in the form
 * the search reads, and read back without building anything. Pure: verses and vectors in,
 * bytes out, and back.
 *
 * `ENGINE_SNAPSHOT_VERSION` says what the parts mean: bump it whenever a structure saved here
 * is built differently (an analyzer rule, the bigrams, the families…), so an older snapshot is
 * never read as a newer one (test/snapshot.test.ts pins the parts of a small corpus).
 */
import { SnapshotError, SnapshotReader, SnapshotWriter } from "../index/snapshot.js";
import { DEFAULT_SEARCH_SETTINGS, type EngineVerse } from "./engine.js";
import type { LexicalSettings } from "./lexical-side.js";
import { Int8Screen } from "./int8-screen.js";
import { UnitSearch, type UnitSearchPrebuilt } from "./unit-search.js";
import { VectorIndex } from "./vector-index.js";

export const ENGINE_SNAPSHOT_VERSION = 1;

/** The vectors of the verses, as the dense side scans them (row i: verse i) and the model key they were stored under. */
export interface SnapshotMatrix {
  matrix: Float32Array;
  dimensions: number;
  model: string;
}

export interface EngineSnapshotInput {
  /** What the snapshot was built from (the index's state: sources, analyzer, dense model…), compared at load. */
  key: string;
  verses: readonly EngineVerse[];
  dense?: SnapshotMatrix | undefined;
  /**
   * The index's context window (verses each side): when every verse's stored window is what
   * `contextWindows` gives from the verses' texts, the windows are not saved but made again at
   * load (a quarter of the snapshot's bytes); otherwise they are saved as they are.
   */
  contextWindow?: number | undefined;
}

/**
 * A snapshot read back: the verses and vectors, and the engine's structures for settings of
 * given BM25 parameters. Nothing read from it keeps the snapshot's bytes: they can go once the
 * engine is made (the matrix is a view of them, copied by the vector index).
 */
export interface EngineSnapshot {
  key: string;
  verses: EngineVerse[];
  dense: SnapshotMatrix | undefined;
  /** Reads the structures (once: the snapshot's bytes are let go after). */
  prebuilt(settings: Pick<LexicalSettings, "bm25K1" | "bm25B">): UnitSearchPrebuilt;
}

const UNITS = "verses";

/** Builds every structure the engine would build from these verses and vectors, and encodes them. */
export function encodeEngineSnapshot(input: EngineSnapshotInput): Uint8Array {
  return finishEngineSnapshot(startEngineSnapshot(input.verses, input.contextWindow), input);
}

/**
 * The part of a snapshot the verses alone decide (the verses, the lexical structures): built
 * while the dense side is still being computed, then finished once with
 * {@link finishEngineSnapshot}.
 */
export interface EngineSnapshotStart {
  readonly verses: number;
  readonly windowsFrom: number | undefined;
  readonly writer: SnapshotWriter;
  finished: boolean;
}

/** Writes the verses and the lexical structures (see {@link EngineSnapshotInput} for `contextWindow`). */
export function startEngineSnapshot(verses: readonly EngineVerse[], contextWindow: number | undefined): EngineSnapshotStart {
  const writer = new SnapshotWriter();
  const windowsFrom = contextWindow !== undefined && windowsMatch(verses, contextWindow) ? contextWindow : undefined;
  writeVerses(writer, verses, windowsFrom);
  // The engine's one silo over the verses (engine.ts: `new UnitSearch(verses, VERSE_SHAPE, …)`, no silo per unit).
  const search = new UnitSearch(verses, { keyOf: () => "", staleVectors: "" }, undefined, {}, DEFAULT_SEARCH_SETTINGS);
  search.write(writer, UNITS);
  return { verses: verses.length, windowsFrom, writer, finished: false };
}

/** Adds the vectors and the key to a started snapshot and encodes it (once). */
export function finishEngineSnapshot(start: EngineSnapshotStart, input: Pick<EngineSnapshotInput, "key" | "dense">): Uint8Array {
  if (start.finished) throw new Error("engine snapshot: finished twice");
  start.finished = true;
  const { writer, windowsFrom } = start;
  const dense = input.dense;
  if (dense) {
    if (dense.matrix.length !== start.verses * dense.dimensions) throw new RangeError("snapshot: the vector matrix does not fit the verses");
    writer.put("dense.matrix", dense.matrix);
    new VectorIndex(dense.matrix, dense.dimensions, { screen: true }).writeScreen(writer, "dense.screen");
  }
  return writer.encode({
    version: ENGINE_SNAPSHOT_VERSION,
    key: input.key,
    verses: start.verses,
    ...(windowsFrom !== undefined ? { contextWindow: windowsFrom } : {}),
    ...(dense ? { dense: { model: dense.model, dimensions: dense.dimensions } } : {}),
  });
}

/** Reads a snapshot; `SnapshotError` when it is not one of this version or does not hold together. */
export function decodeEngineSnapshot(bytes: Uint8Array): EngineSnapshot {
  const snapshot = SnapshotReader.decode(bytes);
  const meta = snapshot.meta as { version?: unknown; key?: unknown; verses?: unknown; contextWindow?: unknown; dense?: { model?: unknown; dimensions?: unknown } };
  if (meta.version !== ENGINE_SNAPSHOT_VERSION) throw new SnapshotError(`engine snapshot version ${String(meta.version)}, expected ${ENGINE_SNAPSHOT_VERSION}`);
  if (typeof meta.key !== "string") throw new SnapshotError("engine snapshot without a key");
  if (meta.contextWindow !== undefined && !(Number.isSafeInteger(meta.contextWindow) && (meta.contextWindow as number) >= 0)) throw new SnapshotError("engine snapshot: bad context window");
  const verses = readVerses(snapshot, meta.contextWindow as number | undefined);
  if (verses.length !== meta.verses) throw new SnapshotError("engine snapshot: verse count");
  let dense: SnapshotMatrix | undefined;
  if (meta.dense) {
    const { model, dimensions } = meta.dense;
    if (typeof model !== "string" || !Number.isInteger(dimensions) || (dimensions as number) <= 0) throw new SnapshotError("engine snapshot: bad dense header");
    // A view of the snapshot's bytes: the vector index copies it into its own memory at once.
    const matrix = snapshot.f32View("dense.matrix");
    if (matrix.length !== verses.length * (dimensions as number)) throw new SnapshotError("engine snapshot: vector matrix shape");
    dense = { matrix, dimensions: dimensions as number, model };
  }
  let reader: SnapshotReader | undefined = snapshot;
  return {
    key: meta.key,
    verses,
    dense,
    prebuilt: (settings) => {
      if (!reader) throw new Error("engine snapshot: its structures were read already");
      const read = reader;
      reader = undefined;
      const prebuilt = UnitSearch.read(read, UNITS, settings);
      const screen = dense && read.has("dense.screen.rowScale") ? Int8Screen.read(read, "dense.screen", verses.length, dense.dimensions) : undefined;
      return { ...prebuilt, screen };
    },
  };
}

/**
 * The verses as columns: each distinct source, book and book name once with an index per
 * verse, the numbers as integer arrays, the texts as string lists, and the analysed terms as
 * ids into one list of the distinct terms.
 */
function writeVerses(snapshot: SnapshotWriter, verses: readonly EngineVerse[], windowsFrom: number | undefined): void {
  const table = (values: (verse: EngineVerse) => string, name: string) => {
    const ids = new Map<string, number>();
    const column = new Uint32Array(verses.length);
    verses.forEach((verse, i) => {
      const value = values(verse);
      let id = ids.get(value);
      if (id === undefined) ids.set(value, (id = ids.size));
      column[i] = id;
    });
    snapshot.putStrings(`${UNITS}.${name}.values`, [...ids.keys()]);
    snapshot.put(`${UNITS}.${name}`, column);
  };
  table((verse) => verse.source, "source");
  table((verse) => verse.book, "book");
  table((verse) => verse.bookName, "bookName");
  snapshot.put(`${UNITS}.chapter`, Int32Array.from(verses, (verse) => verse.chapter));
  snapshot.put(`${UNITS}.verse`, Int32Array.from(verses, (verse) => verse.verse));
  snapshot.put(`${UNITS}.verseEnd`, Int32Array.from(verses, (verse) => verse.verseEnd));
  snapshot.putStrings(`${UNITS}.text`, verses.map((verse) => verse.text));
  if (windowsFrom === undefined) {
    snapshot.putStrings(`${UNITS}.contextBefore`, verses.map((verse) => verse.contextBefore));
    snapshot.putStrings(`${UNITS}.contextAfter`, verses.map((verse) => verse.contextAfter));
  }
  const termIds = new Map<string, number>();
  const ends = new Int32Array(verses.length);
  const ids: number[] = [];
  verses.forEach((verse, i) => {
    for (const term of verse.terms) {
      let id = termIds.get(term);
      if (id === undefined) termIds.set(term, (id = termIds.size));
      ids.push(id);
    }
    ends[i] = ids.length;
  });
  snapshot.putStrings(`${UNITS}.terms.values`, [...termIds.keys()]);
  snapshot.put(`${UNITS}.terms.ends`, ends);
  snapshot.put(`${UNITS}.terms`, Int32Array.from(ids));
}

function readVerses(snapshot: SnapshotReader, contextWindow: number | undefined): EngineVerse[] {
  const table = (name: string, count: number) => {
    const values = snapshot.strings(`${UNITS}.${name}.values`);
    const column = snapshot.u32(`${UNITS}.${name}`);
    if (column.length !== count || column.some((id) => id >= values.length)) throw new SnapshotError(`engine snapshot: bad column ${name}`);
    return (i: number) => values[column[i]!]!;
  };
  const text = snapshot.strings(`${UNITS}.text`);
  const n = text.length;
  const source = table("source", n);
  const book = table("book", n);
  const bookName = table("bookName", n);
  const chapter = snapshot.i32(`${UNITS}.chapter`);
  const verse = snapshot.i32(`${UNITS}.verse`);
  const verseEnd = snapshot.i32(`${UNITS}.verseEnd`);
  let contextBefore: readonly string[];
  let contextAfter: readonly string[];
  if (contextWindow === undefined) {
    contextBefore = snapshot.strings(`${UNITS}.contextBefore`);
    contextAfter = snapshot.strings(`${UNITS}.contextAfter`);
  } else {
    const runs = Array.from({ length: n }, (_, i) => `${source(i)}\u0000${book(i)}`);
    ({ before: contextBefore, after: contextAfter } = contextWindows(text, runs, contextWindow));
  }
  const termValues = snapshot.strings(`${UNITS}.terms.values`);
  const termEnds = snapshot.i32(`${UNITS}.terms.ends`);
  const termIds = snapshot.i32(`${UNITS}.terms`);
  const lengthsFit = [chapter, verse, verseEnd, contextBefore, contextAfter, termEnds].every((column) => column.length === n);
  if (!lengthsFit || (n > 0 && termEnds[n - 1] !== termIds.length) || termIds.some((id) => id < 0 || id >= termValues.length)) {
    throw new SnapshotError("engine snapshot: bad verse columns");
  }
  const verses = new Array<EngineVerse>(n);
  let from = 0;
  for (let i = 0; i < n; i++) {
    const to = termEnds[i]!;
    if (to < from) throw new SnapshotError("engine snapshot: bad verse terms");
    const terms = new Array<string>(to - from);
    for (let t = from; t < to; t++) terms[t - from] = termValues[termIds[t]!]!;
    from = to;
    // The properties in the order the index's rows give them (load-engine.ts), so results serialise alike.
    verses[i] = {
      source: source(i),
      book: book(i),
      bookName: bookName(i),
      chapter: chapter[i]!,
      verse: verse[i]!,
      verseEnd: verseEnd[i]!,
      text: text[i]!,
      contextBefore: contextBefore[i]!,
      contextAfter: contextAfter[i]!,
      terms,
    };
  }
  return verses;
}

/**
 * The context windows of verses (core/sources/context.ts's rule: `size` non-empty neighbours
 * each side, within a run of one source and book, joined by single spaces), from their texts
 * and runs. Joined with `+`, so V8 keeps each window as a rope over the verse texts instead of
 * a copy of their characters.
 */
export function contextWindows(texts: readonly string[], runs: readonly string[], size: number): { before: string[]; after: string[] } {
  const before = new Array<string>(texts.length);
  const after = new Array<string>(texts.length);
  const join = (parts: readonly string[], from: number, to: number) => {
    let joined = parts[from] ?? "";
    for (let i = from + 1; i < to; i++) joined = joined + " " + parts[i]!;
    return from < to ? joined : "";
  };
  let start = 0;
  while (start < texts.length) {
    let end = start + 1;
    while (end < texts.length && runs[end] === runs[start]) end++;
    const nonEmpty: string[] = [];
    const preceding = new Int32Array(end - start);
    for (let i = start; i < end; i++) {
      preceding[i - start] = nonEmpty.length;
      if (texts[i] !== "") nonEmpty.push(texts[i]!);
    }
    for (let i = start; i < end; i++) {
      const b = preceding[i - start]!;
      const a = texts[i] === "" ? b : b + 1;
      before[i] = join(nonEmpty, Math.max(0, b - size), b);
      after[i] = join(nonEmpty, a, Math.min(nonEmpty.length, a + size));
    }
    start = end;
  }
  return { before, after };
}

/** Whether every verse's stored window is the one `contextWindows` makes. */
function windowsMatch(verses: readonly EngineVerse[], size: number): boolean {
  const { before, after } = contextWindows(
    verses.map((verse) => verse.text),
    verses.map((verse) => `${verse.source}\u0000${verse.book}`),
    size,
  );
  return verses.every((verse, i) => verse.contextBefore === before[i] && verse.contextAfter === after[i]);
}
