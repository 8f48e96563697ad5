/**
 * The engine's and the retrieval aids' snapshots (issue 45): a start that reads the snapshot
 * serves exactly what a start that builds the engine from the index serves (on the real Bible
 * index: every response, explain trace and verse byte for byte); a snapshot the index has moved
 * past is noticed, the engine built from the index, said so, and a new one saved; a damaged
 * snapshot (bytes changed, cut short, or well formed but wrong) never stops a start.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteUnitStore } from "../src/adapters/index/sqlite-unit-store.js";
import { indexCorpus } from "../src/app/index/indexer.js";
import { AIDS_SNAPSHOT } from "../src/app/retrieval/aids-snapshot.js";
import { ENGINE_SNAPSHOT, engineSnapshotKey, indexSnapshots } from "../src/app/retrieval/engine-snapshot.js";
import { loadEngine } from "../src/app/retrieval/load-engine.js";
import { loadRetrievalAids, type RetrievalAids } from "../src/app/retrieval/retrieval-aids.js";
import { prefetchSnapshot } from "../src/app/retrieval/snapshot-prefetch.js";
import { readSettings } from "../src/config/settings.js";
import { SnapshotReader, SnapshotWriter } from "../src/core/index/snapshot.js";
import type { SearchEngine } from "../src/core/retrieval/engine.js";
import { parseEvalFile } from "../src/core/retrieval/eval.js";
import { realBibleIndex, ROOT } from "./support/bible-index.js";
import { pastorFromSources } from "./support/cli.js";
import { makeUsfx, tempDir, writeFile } from "./support/usfx.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** Every response of `engine` to the questions, as JSON: results, references, notices, the gate, and the explain trace. */
async function answers(engine: SearchEngine, questions: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const question of questions) {
    out.push(JSON.stringify(await engine.search(question, { k: 10, explain: true })));
    out.push(JSON.stringify(await engine.search(question, { k: 6, mode: "lexical" })));
    out.push(JSON.stringify(await engine.search(question, { k: 6, mode: "dense" })));
  }
  return out;
}

describe("a loaded snapshot and the engine built from the index (the real Bible)", () => {
  let dataDir: string;
  let store: SqliteUnitStore;
  let aids: RetrievalAids;

  beforeAll(async () => {
    // A copy of the shared index: this test writes its own snapshot.
    const shared = (await realBibleIndex()).dataDir;
    dataDir = temp("pastor-snapshot-real-");
    const source = new Database(path.join(shared, "pastor.sqlite"), { readonly: true });
    await source.backup(path.join(dataDir, "pastor.sqlite"));
    source.close();
    store = SqliteUnitStore.bible(dataDir);
    // The shared index has its snapshots, as `pastor index` leaves it; the aids' is taken away here, to be saved again.
    expect(store.snapshotKey(ENGINE_SNAPSHOT)).toBe(await engineSnapshotKey(store));
    store.db.prepare("DELETE FROM snapshots WHERE name = ?").run(AIDS_SNAPSHOT);
    aids = await loadRetrievalAids({ store, snapshot: "save" });
  }, 300_000);
  afterAll(() => store?.close());

  it("answers every question the same, byte for byte, and holds the same verses", async () => {
    const settings = readSettings({ DATA_DIR: dataDir });
    const fromSnapshot = await loadEngine(store, settings, aids);
    const built = await loadEngine(store, settings, await loadRetrievalAids(), { snapshot: "ignore" });
    expect(fromSnapshot.snapshot.state).toBe("loaded");
    expect(built.snapshot.state).toBe("rebuilt");
    expect(fromSnapshot.engine.denseAvailable).toBe(true);
    // Every verse, its windows (made again from the texts) and its terms.
    expect(fromSnapshot.engine.verses).toEqual(built.engine.verses);
    const questions = ["dev.jsonl", "stories-named.jsonl", "offtopic-own.jsonl", "long-messages-tune.jsonl", "knowledge-tune.jsonl"].flatMap((file) =>
      parseEvalFile(readFileSync(path.join(ROOT, "eval", file), "utf8"), file).map((query) => query.query),
    );
    expect(questions.length).toBeGreaterThan(200);
    expect(await answers(fromSnapshot.engine, questions)).toEqual(await answers(built.engine, questions));
    // The gate's statistics, read from the snapshot's tables.
    const [a, b] = [fromSnapshot.engine.vocabulary(), built.engine.vocabulary()];
    for (const word of ["naama", "jerico", "amor", "computador", "pedro", "coracao"]) {
      expect([a.wordFrequency(word), a.nameShare(word), a.wordsOfTerm(word)]).toEqual([b.wordFrequency(word), b.nameShare(word), b.wordsOfTerm(word)]);
    }
  }, 600_000);

  it("gives the retrieval aids from their snapshot as from the files: the same expansions, links, gate lexicons and topics", async () => {
    const files = await loadRetrievalAids();
    expect(aids.snapshot).toEqual({ state: "rebuilt", reason: "não há retrato dos recursos salvo", saved: true });
    const read = await loadRetrievalAids({ store });
    expect(read.snapshot).toEqual({ state: "loaded" });
    for (const word of ["medo", "perdão", "amar", "ansiedade", "luz", "coracao"]) expect(read.expander!.expand(word)).toEqual(files.expander!.expand(word));
    expect(read.crossReferences!.strongest("JHN", 3, 16, 20)).toEqual(files.crossReferences!.strongest("JHN", 3, 16, 20));
    expect(read.crossReferences!.inboundVotes("PSA", 23, 1)).toBe(files.crossReferences!.inboundVotes("PSA", 23, 1));
    for (const [stem, word] of [["med", "medo"], ["impost", "impostos"], ["comput", "computador"]] as const) {
      expect(read.scope!.lexicons.topics.topics(stem, word)).toEqual(files.scope!.lexicons.topics.topics(stem, word));
      expect(read.scope!.lexicons.words.hasStem(stem)).toBe(files.scope!.lexicons.words.hasStem(stem));
    }
    const selection = { minCoverage: 0.3, maxTopics: 3, minShareOfBest: 0.5 };
    for (const question of ["estou com medo do futuro", "perdi meu pai", "a mulher que tocou no manto de Jesus"]) {
      expect(read.topics!.match(question, selection)).toEqual(files.topics!.match(question, selection));
      expect(read.stories!.match(question, selection)).toEqual(files.stories!.match(question, selection));
    }
    expect(read.knowledge!.lookup("quem foi Melquisedeque?")).toEqual(files.knowledge!.lookup("quem foi Melquisedeque?"));
  }, 300_000);
});

/** A small corpus of two books, indexed into a fresh DATA_DIR with its snapshots. */
async function smallIndex(): Promise<{ corpusDir: string; dataDir: string; store: SqliteUnitStore; reindex: (snapshots: boolean) => Promise<void> }> {
  const corpusDir = temp("pastor-snapshot-corpus-");
  const dataDir = temp("pastor-snapshot-data-");
  writeFile(
    corpusDir,
    "a.usfx.xml",
    makeUsfx({
      GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "A terra era sem forma e vazia.", "Disse Deus: haja luz; e houve luz."]] },
      JHN: { name: "João", chapters: [["No princípio era o Verbo.", "Ele estava no princípio com Deus.", "Nele estava a vida, e a vida era a luz dos homens.", "A luz resplandece nas trevas."]] },
    }),
  );
  const store = SqliteUnitStore.bible(dataDir);
  const reindex = async (snapshots: boolean) => {
    await indexCorpus({ store, corpusDir, contextWindow: 1, batchSize: 64, dense: { kind: "lsa" }, ...(snapshots ? indexSnapshots(store) : {}) });
  };
  await reindex(true);
  return { corpusDir, dataDir, store, reindex };
}

describe("a stale snapshot", () => {
  it("is noticed when the index moved on, the engine built from the index and said so, and a new snapshot saved", async () => {
    const { corpusDir, dataDir, store, reindex } = await smallIndex();
    try {
      const settings = readSettings({ DATA_DIR: dataDir, CORPUS_DIR: corpusDir });
      expect((await loadEngine(store, settings)).snapshot.state).toBe("loaded");
      // The corpus changes and is indexed by a run that does not save snapshots (an older pastor, or one cut short).
      writeFile(corpusDir, "a.usfx.xml", makeUsfx({ GEN: { name: "Gênesis", chapters: [["No princípio criou Deus os céus e a terra.", "O jardim do Éden tinha um rio."]] } }));
      await reindex(false);
      const stale = await loadEngine(store, settings);
      expect(stale.snapshot).toMatchObject({ state: "rebuilt", reason: "o retrato do índice é de uma versão anterior do índice", saved: false });
      // Never the old snapshot's verses: the new text is found, the removed book is gone.
      expect((await stale.engine.search("jardim Éden rio", { k: 3, mode: "lexical" })).results[0]?.ref).toBe("GEN 1:2");
      expect(stale.engine.verseAt("JHN", 1, 1)).toBeUndefined();
      // Said on the command line, and saved: the next search reads it.
      const first = await pastorFromSources(["search", "jardim do Éden", "--k", "1"], { DATA_DIR: dataDir, CORPUS_DIR: corpusDir });
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/aviso: o retrato do índice é de uma versão anterior do índice: o motor de busca foi reconstruído a partir do índice em [\d.]+ s; um novo retrato foi salvo/);
      const second = await pastorFromSources(["search", "jardim do Éden", "--k", "1"], { DATA_DIR: dataDir, CORPUS_DIR: corpusDir });
      expect(second.stderr).not.toContain("retrato");
      expect(second.stdout).toBe(first.stdout);
      const fresh = await loadEngine(store, settings);
      expect(fresh.snapshot.state).toBe("loaded");
      const rebuilt = await loadEngine(store, settings, {}, { snapshot: "ignore" });
      expect(JSON.stringify(await fresh.engine.search("a luz e o jardim", { k: 5, explain: true }))).toBe(JSON.stringify(await rebuilt.engine.search("a luz e o jardim", { k: 5, explain: true })));
    } finally {
      store.close();
    }
  }, 300_000);
});

describe("a snapshot read ahead on a worker thread", () => {
  it("is what the store reads: the same bytes and key, the same verdict on damage, nothing for a missing one, and an error for a file that is not there", async () => {
    const { dataDir, store } = await smallIndex();
    try {
      const settings = readSettings({ DATA_DIR: dataDir });
      const ahead = await prefetchSnapshot(store.location, ENGINE_SNAPSHOT);
      const here = store.loadSnapshot(ENGINE_SNAPSHOT);
      expect(ahead && "data" in ahead).toBe(true);
      expect(ahead).toEqual(here);
      expect(Buffer.isBuffer(ahead && "data" in ahead ? ahead.data : undefined)).toBe(true);
      // The engine loads from the bytes read ahead, and answers as when it read them itself.
      const loaded = await loadEngine(store, settings, {}, { prefetched: prefetchSnapshot(store.location, ENGINE_SNAPSHOT) });
      expect(loaded.snapshot.state).toBe("loaded");
      const itself = await loadEngine(store, settings);
      expect(JSON.stringify(await loaded.engine.search("a luz", { k: 5 }))).toBe(JSON.stringify(await itself.engine.search("a luz", { k: 5 })));
      expect(await prefetchSnapshot(store.location, "no-such-snapshot")).toBeUndefined();
      store.db.prepare("UPDATE snapshots SET crc32 = crc32 + 1 WHERE name = ?").run(ENGINE_SNAPSHOT);
      expect(await prefetchSnapshot(store.location, ENGINE_SNAPSHOT)).toEqual({ key: here!.key, damaged: "a soma de verificação não confere" });
      await expect(prefetchSnapshot(path.join(dataDir, "missing.sqlite"), ENGINE_SNAPSHOT)).rejects.toThrow();
      // A read ahead that failed is read again on this thread: the verdict is the store's own.
      const fallback = await loadEngine(store, settings, {}, { prefetched: prefetchSnapshot(path.join(dataDir, "missing.sqlite"), ENGINE_SNAPSHOT) });
      expect(fallback.snapshot).toMatchObject({ state: "rebuilt", reason: expect.stringMatching(/danificado \(a soma de verificação não confere\)/) });
    } finally {
      store.close();
    }
  }, 300_000);
});

describe("a damaged snapshot", () => {
  it("never stops a start: changed bytes, a snapshot cut short, garbage with a good checksum, and well-formed parts that do not fit", async () => {
    const { dataDir, store } = await smallIndex();
    try {
      const settings = readSettings({ DATA_DIR: dataDir });
      const reference = JSON.stringify((await (await loadEngine(store, settings, {}, { snapshot: "ignore" })).engine.search("a luz", { k: 5 })).results);
      const good = store.db.prepare("SELECT bytes FROM snapshots WHERE name = ?").get(ENGINE_SNAPSHOT) as { bytes: Buffer };
      const key = await engineSnapshotKey(store);
      const parts = SnapshotReader.decode(good.bytes);
      // A part whose postings point past the verses: read, checked, refused.
      const wrong = new SnapshotWriter();
      for (const name of parts.names()) {
        const value = parts.part(name);
        if (name === "verses.silo0.bm25.docs") (value as Int32Array)[0] = 1_000_000;
        wrong.put(name, value);
      }
      const damages: [string, (bytes: Buffer) => void, RegExp][] = [
        ["bytes changed", (bytes) => store.db.prepare("UPDATE snapshots SET bytes = ? WHERE name = ?").run(Buffer.from(bytes.map((b, i) => (i === bytes.length >> 1 ? b ^ 0xff : b))), ENGINE_SNAPSHOT), /danificado \(a soma de verificação não confere\)/],
        ["cut short", (bytes) => store.saveSnapshot(ENGINE_SNAPSHOT, key, bytes.subarray(0, bytes.length >> 1)), /não pôde ser lido/],
        ["garbage", () => store.saveSnapshot(ENGINE_SNAPSHOT, key, Buffer.from("PSNP\u0001\u0000\u0000\u0000\u00ff\u00ff\u0000\u0000{not json")), /não pôde ser lido/],
        ["not a snapshot", () => store.saveSnapshot(ENGINE_SNAPSHOT, key, Buffer.alloc(64, 7)), /não pôde ser lido \(not a snapshot\)/],
        ["parts that do not fit", () => store.saveSnapshot(ENGINE_SNAPSHOT, key, wrong.encode(parts.meta as Record<string, unknown>)), /não pôde ser lido \(bad BM25 index/],
      ];
      for (const [what, damage, reason] of damages) {
        damage(good.bytes);
        const loaded = await loadEngine(store, settings);
        expect(loaded.snapshot.state, what).toBe("rebuilt");
        expect(loaded.snapshot.state === "rebuilt" && loaded.snapshot.reason, what).toMatch(reason);
        expect(JSON.stringify((await loaded.engine.search("a luz", { k: 5 })).results), what).toBe(reference);
      }
      // With "save", the damaged snapshot is replaced by a good one.
      expect((await loadEngine(store, settings, {}, { snapshot: "save" })).snapshot).toMatchObject({ state: "rebuilt", saved: true });
      expect((await loadEngine(store, settings)).snapshot.state).toBe("loaded");
      // The aids' snapshot likewise: a damaged one is rebuilt from the files, never a crash.
      await loadRetrievalAids({ store, snapshot: "save" });
      store.db.prepare("UPDATE snapshots SET bytes = zeroblob(100) WHERE name = ?").run(AIDS_SNAPSHOT);
      const aids = await loadRetrievalAids({ store });
      expect(aids.snapshot).toMatchObject({ state: "rebuilt", reason: expect.stringMatching(/danificado/) });
      expect(aids.expander!.expand("medo").length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 300_000);

  it("leaves the command line answering, and saying why the start was slow", async () => {
    const { corpusDir, dataDir, store } = await smallIndex();
    store.db.prepare("UPDATE snapshots SET crc32 = crc32 + 1 WHERE name = ?").run(ENGINE_SNAPSHOT);
    store.close();
    const run = await pastorFromSources(["search", "a luz", "--k", "2"], { DATA_DIR: dataDir, CORPUS_DIR: corpusDir });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/aviso: o retrato do índice está danificado/);
    expect(run.stdout).toMatch(/Gênesis 1:3|João 1:[45]/);
  }, 300_000);
});
