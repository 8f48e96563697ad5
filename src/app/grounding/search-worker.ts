/**
 * One search worker (src/app/grounding/search-pool.ts): its own store connection, retrieval aids and
 * read-only `SearchEngine`, and the document collections' searches (each from its own
 * connection to the collection's index), answering the pool's requests as they finish. An
 * engine or a collection is built whole and then swapped in, so a failed reload keeps the one
 * that was serving.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { StoreError, type UnitStore } from "../../adapters/index/store.js";
import type { Settings } from "../../config/settings.js";
import type { SearchEngine } from "../../core/retrieval/engine.js";
import type { Versification } from "../../core/bible/references.js";
import { localCitationCheck, prepareAnswer, versesAt, type AnswerCitationCheck } from "./answer-engine.js";
import { loadEngine, type LoadOptions } from "../retrieval/load-engine.js";
import { loadRetrievalAids, type RetrievalAids } from "../retrieval/retrieval-aids.js";
import { openStore, storeConfig } from "../runtime.js";
import { localCollectionHost } from "./collection-host.js";
import { openCollectionStores, type CollectionStores } from "../../adapters/index/open.js";
import type { EngineSummary, PoolRequest, PoolReply } from "./search-pool.js";

type PoolRequestPassages = Extract<PoolRequest, { type: "check-push" }>["passages"];

const port = parentPort!;
const settings = (workerData as { settings: Settings }).settings;
const storeOpened = openStore(settings);
/** The aids, read when the first engine load asks (with its snapshot mode: the first worker may save the aids' snapshot too). */
let aidsLoading: Promise<RetrievalAids> | undefined;
const aidsLoaded = (snapshot: LoadOptions["snapshot"] = "build") =>
  (aidsLoading ??= storeOpened.then((store) => loadRetrievalAids(snapshot === "ignore" ? {} : { store, snapshot: snapshot === "save" ? "save" : "build" })));
let engine: SearchEngine | undefined;
let versification: Versification = new Map();
/** The citation checks of the answers streaming through this worker, by session. */
const checks = new Map<number, AnswerCitationCheck>();
/** The document collections' searches, loaded from this worker's own connections to their indexes. */
const collections = localCollectionHost(settings);
let collectionStores: Promise<CollectionStores> | undefined;
const collectionIndexes = new Map<string, UnitStore>();
/** Test hook (`SearchPool.holdNextTask`): the next request waits until this flag is set. */
let hold: Int32Array | undefined;

async function load(snapshot: LoadOptions["snapshot"]): Promise<EngineSummary> {
  const loaded = await loadEngine(await storeOpened, settings, await aidsLoaded(snapshot), { snapshot });
  engine = loaded.engine;
  versification = loaded.engine.versificationOf();
  collectGarbage();
  return {
    snapshot: loaded.snapshot,
    size: loaded.engine.size,
    denseAvailable: loaded.engine.denseAvailable,
    denseModel: loaded.embedder?.id ?? null,
    denseReason: loaded.denseOffReason ?? null,
    versification: loaded.engine.versificationOf(),
  };
}

/**
 * One full collection after a load: the rows and vectors read from the store to build the
 * engine (and the engine it replaced) are garbage by then, and V8 would keep them for a
 * while: ≈ 50 MB of RSS per worker, measured. `gc` is exposed on a fresh context only.
 */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** An answer's check; its first request brings the passages and opens it. */
function check(session: number, passages: PoolRequestPassages): AnswerCitationCheck {
  if (passages) checks.set(session, localCitationCheck(passages, versification));
  const filter = checks.get(session);
  if (!filter) throw new Error(`search worker has no citation check ${session}`);
  return filter;
}

function loaded(): SearchEngine {
  if (!engine) throw new Error("search worker has no engine loaded");
  return engine;
}

async function handle(request: PoolRequest): Promise<unknown> {
  switch (request.type) {
    case "load":
      return load(request.snapshot);
    case "prepare":
      return prepareAnswer(loaded(), request.question, request.history, request.options);
    case "verses":
      return versesAt(loaded(), request.coordinates, (await aidsLoaded()).crossReferences);
    case "hold":
      hold = new Int32Array(request.flag);
      return null;
    case "check-push":
      return check(request.session, request.passages).push(request.delta);
    case "check-finish": {
      const finishing = check(request.session, request.passages);
      checks.delete(request.session);
      return finishing.finish();
    }
    case "check-close":
      checks.delete(request.session);
      return null;
    case "collection-load":
      return collections.load(request.name, await collectionStore(request.name));
    case "collection-prepare":
      return collections.prepare(request.name, request.question, request.history, request.topK);
    case "collection-search":
      return collections.search(request.name, request.query, request.options);
  }
}

/** This worker's own connection to a collection's index (opened on its first load). */
async function collectionStore(name: string): Promise<UnitStore> {
  collectionStores ??= openCollectionStores(storeConfig(settings));
  let store = collectionIndexes.get(name);
  if (!store) collectionIndexes.set(name, (store = (await collectionStores).open(name)));
  return store;
}

port.on("message", (request: PoolRequest) => {
  if (hold && request.type !== "hold") {
    const flag = hold;
    hold = undefined;
    // Blocks this thread (a stand-in for a long search) until the test sets the flag.
    while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 50);
  }
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies PoolReply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        ok: false,
        error: {
          message: error instanceof Error ? error.message : String(error),
          storeCode: error instanceof StoreError ? error.code : undefined,
        },
      } satisfies PoolReply),
  );
});
