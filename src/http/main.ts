import { serveStatic } from "@hono/node-server/serve-static";
import { existsSync } from "node:fs";
import type { ServerOptions } from "node:http";
import path from "node:path";
import { createProvider, providerConfigFromEnv } from "../adapters/chat/providers.js";
import { loadRetrievalAids } from "../app/retrieval/retrieval-aids.js";
import { StoreError } from "../adapters/index/store.js";
import { openStore } from "../app/runtime.js";
import { SearchPool } from "../app/grounding/search-pool.js";
import { SearchService } from "../app/search-service.js";
import { CollectionService } from "../app/collection-service.js";
import type { Settings } from "../config/settings.js";
import { findProjectRoot } from "../project-root.js";
import { generateAdminToken, isLoopbackHost } from "./admin.js";
import { createApp } from "./app.js";
import { listen } from "./listen.js";
import { createJsonLogger, type Logger } from "./logger.js";
import { warmUp } from "./warm-up.js";

/**
 * Node's own guards against slow clients: the headers within HEADERS_TIMEOUT_MS and the whole
 * request within REQUEST_TIMEOUT_MS (a slowloris client is answered 408 and closed; the
 * streamed response is not bounded by these), idle keep-alive sockets closed after
 * KEEP_ALIVE_TIMEOUT_MS. The timeouts are checked every second at most.
 */
export function httpServerOptions(settings: Settings): ServerOptions {
  const requestTimeout = settings.REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(settings.HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: settings.KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

export interface RunningServer {
  port: number;
  service: SearchService;
  collections: CollectionService;
  /** The search workers (SEARCH_WORKERS ≥ 1); closed with the server. */
  searchPool: SearchPool | undefined;
  close(): Promise<void>;
}

/**
 * Starts the whole product in one process: the API, the web app's static files (when built)
 * and, with AUTO_INDEX, indexing in a background worker. The chat answers during indexing
 * from what is already indexed.
 */
export async function startServer(settings: Settings, options: { env?: NodeJS.ProcessEnv; logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createJsonLogger();
  const provider = createProvider(providerConfigFromEnv(options.env ?? process.env));
  const store = await openStore(settings);
  // With search workers the engine and its aids (lexicon, scope gate) live only in them.
  const pool = settings.SEARCH_WORKERS > 0 ? new SearchPool(settings, settings.SEARCH_WORKERS, logger) : undefined;
  const aids = pool ? {} : await loadRetrievalAids(settings.SNAPSHOTS ? { store, snapshot: "save" } : {});
  const service = new SearchService(store, settings, aids, logger, pool);
  try {
    await service.reload();
    if (store.migrated) logger.info("index_migrated", { collection: store.name, ...store.migrated });
  } catch (error) {
    await service.close();
    throw error;
  }
  // With search workers the collections' searches (and the gate's data they need) live only in them too.
  const collections = new CollectionService(settings, logger, undefined, pool?.collectionHost());
  await collections.open();

  const hostname = process.env.HOST ?? "0.0.0.0";
  const adminToken = adminTokenFor(settings, hostname, logger);
  const app = createApp({ service, provider, settings, collections, logger, ...(adminToken ? { adminToken } : {}) });
  const webDist = path.join(findProjectRoot(), "web", "dist");
  if (existsSync(webDist)) {
    app.use("/*", serveStatic({ root: path.relative(process.cwd(), webDist) || "." }));
  }

  // Before the port opens: the first people to ask should not pay for compiling the chat's code.
  // A warm-up that fails only costs the first askers that compilation: the server starts anyway.
  await warmUp(service, collections, settings, settings.WARM_UP_ROUNDS).then(
    (warmed) => warmed.answers > 0 && logger.info("warmed_up", { answers: warmed.answers, ms: warmed.ms }),
    (error: unknown) => logger.warn("warm_up_failed", { message: error instanceof Error ? error.message : String(error) }),
  );

  // A port already taken rejects (EADDRINUSE) after closing what was opened, instead of an unhandled 'error' event.
  const server = await listen({
    fetch: app.fetch,
    port: settings.PORT,
    hostname,
    serverOptions: httpServerOptions(settings),
  }).catch(async (error: unknown) => {
    await service.close();
    await collections.close();
    await store.close();
    throw error;
  });
  // A connection that sends nothing and receives nothing for IDLE_TIMEOUT_MS is closed.
  server.setTimeout(settings.IDLE_TIMEOUT_MS);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : settings.PORT;
  logger.info("listening", { port, provider: provider.id, model: provider.model, store: store.kind, verses: service.answers?.size ?? 0, searchWorkers: settings.SEARCH_WORKERS });

  if (settings.AUTO_INDEX) {
    // Collections first: they are small next to the Bible, and a failing source only logs.
    collections.reload().catch(() => undefined);
    service.startIndexing().then(
      (summary) => logger.info("indexed", { ms: summary.ms, versesIndexed: summary.versesIndexed, verses: summary.versesTotal }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        // Several replicas start together: one indexes, the others load its work when it is done.
        if (error instanceof StoreError && error.code === "index_locked") logger.info("indexing left to another replica", { message });
        else logger.error("indexing failed", { message });
      },
    );
  }

  return {
    port,
    service,
    collections,
    searchPool: pool,
    async close() {
      await service.close();
      await collections.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

/**
 * The token of the admin routes (admin.ts): REINDEX_TOKEN when set; else, when the server
 * listens beyond the loopback (HOST, 0.0.0.0 by default), one generated for this run and
 * logged once, so that nobody who can reach the port can reindex without it; else none
 * (only this machine reaches the port).
 */
function adminTokenFor(settings: Settings, hostname: string, logger: Logger): string | undefined {
  if (settings.REINDEX_TOKEN) return settings.REINDEX_TOKEN;
  if (isLoopbackHost(hostname)) return undefined;
  const token = generateAdminToken();
  // Said once, as the line's message, in Portuguese: who reads the log at the start finds it.
  logger.warn(
    `REINDEX_TOKEN não foi definido e o servidor escuta em ${hostname}, além do endereço local: ` +
      `POST /api/reindex e /api/reload exigem nesta execução o cabeçalho X-Reindex-Token: ${token} ` +
      "(gerado agora e mostrado só esta vez; defina REINDEX_TOKEN para um token fixo).",
  );
  return token;
}
