import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { loadChromaModule } from "../../src/adapters/index/chroma-client.js";
import { ChromaUnitStore } from "../../src/adapters/index/chroma-unit-store.js";
import { ENGINE_SNAPSHOT, engineSnapshotKey } from "../../src/app/retrieval/engine-snapshot.js";
import { loadEngine } from "../../src/app/retrieval/load-engine.js";
import { loadRetrievalAids } from "../../src/app/retrieval/retrieval-aids.js";
import { readSettings } from "../../src/config/settings.js";
import { parseEvalFile } from "../../src/core/retrieval/eval.js";
import { realBibleIndex, ROOT } from "../support/bible-index.js";
import { chromaPrefixFor, freshChromaPrefix, storeEnvFor } from "../support/store.js";

/**
 * The snapshots on the shared Chroma (issue 45): kept in pieces with their header written
 * last, read whole or not at all, the pieces of the one before deleted; the Bible index the
 * global setup built (as `pastor index` does) carries its snapshot, and a replica's engine read
 * from it answers as one built from the verses and vectors.
 */
const url = inject("chromaUrl");
const opened: ChromaUnitStore[] = [];
afterAll(() => opened.forEach((store) => store.close()));

async function open(prefix: string): Promise<ChromaUnitStore> {
  const store = await ChromaUnitStore.open({ url, prefix });
  opened.push(store);
  return store;
}

/** How many records the space's snapshot collection holds (pieces and headers). */
async function snapshotRecords(prefix: string): Promise<number> {
  const { ChromaClient } = await loadChromaModule();
  const address = new URL(url);
  const client = new ChromaClient({ host: address.hostname, port: Number(address.port), ssl: false });
  return (await client.getCollection({ name: `${prefix}_snapshot` })).count();
}

describe("a snapshot on Chroma", () => {
  it("is read back whole, replaced with the pieces of the one before deleted, and refused when a piece is missing", async () => {
    const prefix = freshChromaPrefix();
    const store = await open(prefix);
    expect(await store.loadSnapshot("x")).toBeUndefined();
    const first = randomBytes(3 * 2 ** 20 + 123);
    await store.saveSnapshot("x", "key-1", first);
    expect(await store.snapshotKey("x")).toBe("key-1");
    const read = await store.loadSnapshot("x");
    expect(read && "data" in read && Buffer.from(read.data).equals(first)).toBe(true);
    // 3 MiB + of bytes are 4 MiB + of base64: 5 pieces of 1 MiB, and the header.
    expect(await snapshotRecords(prefix)).toBe(6);

    const second = randomBytes(2 ** 20);
    await store.saveSnapshot("x", "key-2", second);
    const again = await open(prefix);
    const reread = await again.loadSnapshot("x");
    expect(reread && "data" in reread && reread.key === "key-2" && Buffer.from(reread.data).equals(second)).toBe(true);
    expect(await snapshotRecords(prefix)).toBe(3);

    // A piece gone (a replica that replaced it as this one read): not its bytes, a reason.
    const { ChromaClient } = await loadChromaModule();
    const address = new URL(url);
    const collection = await new ChromaClient({ host: address.hostname, port: Number(address.port), ssl: false }).getCollection({ name: `${prefix}_snapshot` });
    const pieces = await collection.get({ where: { kind: "snapshot-part" } });
    await collection.delete({ ids: [pieces.ids[0]!] });
    expect(await again.loadSnapshot("x")).toEqual({ key: "key-2", damaged: expect.stringMatching(/faltam partes/) });
  });

  it("of the Bible, saved by the indexing, gives a replica the engine built from the verses and vectors, answer for answer", async () => {
    const { dataDir } = await realBibleIndex();
    const store = await open(chromaPrefixFor(dataDir));
    expect(await store.snapshotKey(ENGINE_SNAPSHOT)).toBe(await engineSnapshotKey(store));
    const settings = readSettings({ DATA_DIR: dataDir, ...storeEnvFor(dataDir) });
    const aids = await loadRetrievalAids({ store });
    const replica = await loadEngine(store, settings, aids);
    expect(replica.snapshot.state).toBe("loaded");
    const built = await loadEngine(store, settings, aids, { snapshot: "ignore" });
    for (const query of parseEvalFile(readFileSync(path.join(ROOT, "eval/dev.jsonl"), "utf8"), "eval/dev.jsonl")) {
      expect(JSON.stringify(await replica.engine.search(query.query, { k: 10, explain: true })), query.query).toBe(JSON.stringify(await built.engine.search(query.query, { k: 10, explain: true })));
    }
  });
});
