/**
 * The retrieval aids' snapshot: what the engine's aids build from the shipped resources at
 * every start (OpenWordNet-PT's lexicon, the cross-reference tables, the gate's dictionary of stems and WordNet topic
 * lexicon, the topical and story indexes' analysed phrasings with their BM25 indexes), saved in
 * the index's store in the form they are read, beside the engine's snapshot. Its key digests
 * the resource files' bytes, the analyzer and the snapshot's version: a changed resource, or a
 * code that analyses or builds them differently, is never read from an old snapshot.
 *
 * What is cheap to read as text (the topics' JSON lines, the gate's fitted model) is read as
 * text; the knowledge index reads its own files (it parses its records only when asked).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CROSS_REFERENCES_FILE } from "../../adapters/sources/cross-references-file.js";
import { lexiconOf, readLexiconFiles, type LexiconTexts } from "../../adapters/sources/lexicon-files.js";
import { Lexicon } from "../../core/analysis/lexicon.js";
import type { UnitStore } from "../../adapters/index/store.js";
import { unlessIndexing } from "../index/index-lock.js";
import { DEFAULT_LOCK_TTL_MS } from "../index/indexer.js";
import { ANALYZER_VERSION } from "../../core/analysis/index.js";
import { CrossReferenceIndex, parseCrossReferences } from "../../core/bible/cross-references.js";
import { SnapshotError, SnapshotReader, SnapshotWriter } from "../../core/index/snapshot.js";
import { storyTerms } from "../../core/reading/frames.js";
import { parseTopicRows, TopicLexicon } from "../../core/retrieval/scope/topics.js";
import { TermDictionary } from "../../core/retrieval/term-dictionary.js";
import { parseTopicsFile, TopicalIndex } from "../../core/retrieval/topical-index.js";
import { findProjectRoot } from "../../project-root.js";
import { readScopeFiles, scopeResources, scopeStems, type ScopeFiles, type ScopeResources } from "./scope.js";
import { STORIES_FILE, TOPICS_FILE } from "./topics-file.js";

export const AIDS_SNAPSHOT = "retrieval-aids";
/** Bump when a structure saved here is built differently. */
export const AIDS_SNAPSHOT_VERSION = 2;

/** The aids a snapshot holds, ready to use. */
export interface SnapshotAids {
  lexicon: Lexicon;
  crossReferences: CrossReferenceIndex;
  scope: ScopeResources & { stems: TermDictionary };
  topics: TopicalIndex;
  stories: TopicalIndex;
}

interface AidFiles {
  lexicon: LexiconTexts;
  crossReferences: Buffer;
  scope: ScopeFiles;
  topics: { file: string; text: string };
  stories: { file: string; text: string };
}

async function readAidFiles(): Promise<AidFiles> {
  const root = findProjectRoot();
  const text = async (relative: string) => ({ file: join(root, relative), text: await readFile(join(root, relative), "utf8") });
  const [lexicon, crossReferences, scope, topics, stories] = await Promise.all([
    readLexiconFiles(),
    readFile(join(root, CROSS_REFERENCES_FILE)),
    readScopeFiles(),
    text(TOPICS_FILE),
    text(STORIES_FILE),
  ]);
  return { lexicon, crossReferences, scope, topics, stories };
}

function aidsKey(files: AidFiles): string {
  const hash = createHash("sha256").update(`aids ${AIDS_SNAPSHOT_VERSION}\nanalyzer ${ANALYZER_VERSION}\n`);
  for (const part of [files.lexicon.tab, files.lexicon.links, files.lexicon.extra, files.crossReferences, files.scope.stemsGz, files.scope.topicsGz, files.scope.modelJson, files.topics.text, files.stories.text]) {
    hash.update(`${part.length}:`).update(part);
  }
  return hash.digest("hex");
}

function fromFiles(files: AidFiles): SnapshotAids {
  return {
    lexicon: lexiconOf(files.lexicon),
    crossReferences: parseCrossReferences(gunzipSync(files.crossReferences).toString("utf8")),
    scope: scopeResources(files.scope, scopeStems(files.scope), new TopicLexicon(parseTopicRows(gunzipSync(files.scope.topicsGz).toString("utf8")))),
    topics: new TopicalIndex(parseTopicsFile(files.topics.text, files.topics.file)),
    stories: new TopicalIndex(parseTopicsFile(files.stories.text, files.stories.file), storyTerms),
  };
}

function encode(aids: SnapshotAids, key: string): Uint8Array {
  const snapshot = new SnapshotWriter();
  const lexicon = aids.lexicon.toParts();
  for (const [name, part] of Object.entries(lexicon)) {
    if (Array.isArray(part)) snapshot.putStrings(`lexicon.${name}`, part as string[]);
    else snapshot.put(`lexicon.${name}`, part as Int32Array | Uint8Array);
  }
  const columns = aids.crossReferences.columns;
  snapshot.put("crossReferences.sources", columns.sources);
  snapshot.put("crossReferences.offsets", columns.offsets);
  snapshot.put("crossReferences.targetStart", columns.targetStart);
  snapshot.put("crossReferences.targetEnd", columns.targetEnd);
  snapshot.put("crossReferences.votes", new Uint16Array(columns.votes.buffer, columns.votes.byteOffset, columns.votes.length));
  const inbound = aids.crossReferences.inboundTable();
  snapshot.put("crossReferences.inbound.chapterOffset", inbound.chapterOffset);
  snapshot.put("crossReferences.inbound.chapterLength", new Uint16Array(inbound.chapterLength.buffer, inbound.chapterLength.byteOffset, inbound.chapterLength.length));
  snapshot.put("crossReferences.inbound.values", inbound.values);
  aids.scope.stems.write(snapshot, "scope.stems");
  aids.scope.lexicons.topics.write(snapshot, "scope.topics");
  aids.topics.write(snapshot, "topics");
  aids.stories.write(snapshot, "stories");
  return snapshot.encode({ version: AIDS_SNAPSHOT_VERSION, key });
}

function decode(bytes: Uint8Array, key: string, files: AidFiles): SnapshotAids {
  const snapshot = SnapshotReader.decode(bytes);
  if (snapshot.meta.version !== AIDS_SNAPSHOT_VERSION || snapshot.meta.key !== key) throw new SnapshotError("retrieval aids snapshot: another version");
  const sources = snapshot.i32("crossReferences.sources");
  const votes = snapshot.u16("crossReferences.votes");
  const offsets = snapshot.u32("crossReferences.offsets");
  const targetStart = snapshot.i32("crossReferences.targetStart");
  const targetEnd = snapshot.i32("crossReferences.targetEnd");
  const links = votes.length;
  const chapterOffset = snapshot.i32("crossReferences.inbound.chapterOffset");
  const chapterLength = snapshot.u16("crossReferences.inbound.chapterLength");
  const inboundValues = snapshot.f64("crossReferences.inbound.values");
  const fits = offsets.length === sources.length + 1 && offsets[sources.length] === links && targetStart.length === links && targetEnd.length === links;
  if (!fits || chapterLength.length !== chapterOffset.length) throw new SnapshotError("retrieval aids snapshot: bad cross references");
  let inboundMax = 0;
  for (const value of inboundValues) if (value > inboundMax) inboundMax = value;
  const topics = parseTopicsFile(files.topics.text, files.topics.file);
  const stories = parseTopicsFile(files.stories.text, files.stories.file);
  let lexicon: Lexicon;
  try {
    const strings = (name: string) => snapshot.strings(`lexicon.${name}`);
    lexicon = new Lexicon({
      synsetIds: strings("synsetIds"),
      synsetPos: strings("synsetPos"),
      synsetLemmaEnds: snapshot.i32("lexicon.synsetLemmaEnds"),
      synsetLemmas: strings("synsetLemmas"),
      byLemmaKeys: strings("byLemmaKeys"),
      byLemmaEnds: snapshot.i32("lexicon.byLemmaEnds"),
      byLemmaIndices: snapshot.i32("lexicon.byLemmaIndices"),
      byFoldedKeys: strings("byFoldedKeys"),
      byFoldedEnds: snapshot.i32("lexicon.byFoldedEnds"),
      byFoldedWords: strings("byFoldedWords"),
      partnerKeys: strings("partnerKeys"),
      partnerEnds: snapshot.i32("lexicon.partnerEnds"),
      partnerWords: strings("partnerWords"),
      partnerAgentive: snapshot.u8("lexicon.partnerAgentive"),
      pluralKeys: strings("pluralKeys"),
      pluralValues: strings("pluralValues"),
    });
  } catch (error) {
    throw error instanceof RangeError ? new SnapshotError(`retrieval aids snapshot: ${error.message}`) : error;
  }
  return {
    lexicon,
    crossReferences: new CrossReferenceIndex(
      { sources, offsets, targetStart, targetEnd, votes: new Int16Array(votes.buffer, votes.byteOffset, votes.length) },
      { chapterOffset, chapterLength: new Int16Array(chapterLength.buffer, chapterLength.byteOffset, chapterLength.length), values: inboundValues, max: inboundMax },
    ),
    scope: scopeResources(files.scope, TermDictionary.read(snapshot, "scope.stems"), TopicLexicon.read(snapshot, "scope.topics")),
    topics: new TopicalIndex(topics, undefined, TopicalIndex.read(snapshot, "topics", topics.length)),
    stories: new TopicalIndex(stories, storyTerms, TopicalIndex.read(snapshot, "stories", stories.length)),
  };
}

/** How the aids were loaded: from the snapshot, or built from the files (why, and whether a snapshot was saved). */
export type AidsSnapshotUse = { state: "loaded" } | { state: "rebuilt"; reason: string; saved: boolean };

/**
 * The snapshot's aids: read from the store's snapshot when it is current, else built from the
 * resource files — and saved as the new snapshot when `mode` is "save".
 */
export async function loadSnapshotAids(store: UnitStore, mode: "save" | "build"): Promise<{ aids: SnapshotAids; use: AidsSnapshotUse }> {
  const files = await readAidFiles();
  const key = aidsKey(files);
  // The key first: a stale snapshot's bytes are never read.
  const storedKey = await store.snapshotKey(AIDS_SNAPSHOT);
  let reason = "não há retrato dos recursos salvo";
  if (storedKey !== undefined && storedKey !== key) reason = "o retrato dos recursos é de outra versão dos recursos";
  else if (storedKey !== undefined) {
    const stored = await store.loadSnapshot(AIDS_SNAPSHOT);
    if (stored && "damaged" in stored) reason = `o retrato dos recursos está danificado (${stored.damaged})`;
    else if (stored) {
      try {
        return { aids: decode(stored.data, key, files), use: { state: "loaded" } };
      } catch (error) {
        if (!(error instanceof SnapshotError)) throw error;
        reason = `o retrato dos recursos não pôde ser lido (${error.message})`;
      }
    }
  }
  const aids = fromFiles(files);
  if (mode !== "save") return { aids, use: { state: "rebuilt", reason, saved: false } };
  try {
    // On a shared store, under the indexing lock (several replicas starting at once save it once).
    const saved = await unlessIndexing(store, DEFAULT_LOCK_TTL_MS, async () => {
      await store.saveSnapshot(AIDS_SNAPSHOT, key, encode(aids, key));
    });
    return { aids, use: { state: "rebuilt", reason, saved } };
  } catch {
    return { aids, use: { state: "rebuilt", reason, saved: false } };
  }
}

/** The aids' snapshot of the resource files as they are now: its key and bytes. */
export interface BuiltAidsSnapshot {
  key: string;
  bytes: Uint8Array;
}

/** Builds the aids' snapshot from the resource files (./aids-build-worker.ts runs it on another thread). */
export async function buildAidsSnapshot(): Promise<BuiltAidsSnapshot> {
  return snapshotOf(await readAidFiles());
}

function snapshotOf(files: AidFiles, key = aidsKey(files)): BuiltAidsSnapshot {
  return { key, bytes: encode(fromFiles(files), key) };
}

/** Whether the stored aids' snapshot is the one the resource files make now (a read and a hash of them). */
export async function aidsSnapshotCurrent(store: UnitStore): Promise<boolean> {
  return (await store.snapshotKey(AIDS_SNAPSHOT)) === aidsKey(await readAidFiles());
}

/**
 * Saves the aids' snapshot when the one stored is not current (after indexing); whether it did.
 * `built`: the snapshot built already (on another thread), saved unless the stored one is it;
 * without it, the files are read and the snapshot built only when the stored one is not theirs.
 */
export async function refreshAidsSnapshot(store: UnitStore, built?: BuiltAidsSnapshot): Promise<boolean> {
  const stored = await store.snapshotKey(AIDS_SNAPSHOT);
  let snapshot = built;
  if (!snapshot) {
    const files = await readAidFiles();
    const key = aidsKey(files);
    if (stored !== key) snapshot = snapshotOf(files, key);
  }
  if (!snapshot || stored === snapshot.key) return false;
  await store.saveSnapshot(AIDS_SNAPSHOT, snapshot.key, snapshot.bytes);
  return true;
}
