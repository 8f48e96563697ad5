/**
 * Warms the server before it takes traffic: a few answers run through the whole chat route
 * (body checks, search in the workers, the gate, prompt building, the stream, the citation
 * check) on a private app with the offline stub, so the first people to ask do not pay for V8
 * compiling that code under load. The answers go over real sockets on the loopback, asked with
 * `fetch`, many at once: node's HTTP server, the Hono adapter and undici (the client every
 * provider's SDK sends with) are compiled too, for many connections, not only the route.
 * Nothing is sent to the configured provider, nothing is counted in the server's metrics, and
 * nothing is logged.
 */
import type { AddressInfo } from "node:net";
import { createStubProvider } from "../adapters/chat/stub.js";
import type { CollectionService } from "../app/collection-service.js";
import type { SearchService } from "../app/search-service.js";
import type { Settings } from "../config/settings.js";
import { createApp } from "./app.js";
import { listen } from "./listen.js";
import { silentLogger } from "./logger.js";

/** One of each kind of question the chat answers differently: a feeling, a quotation, a reference, an off-topic one. */
export const WARM_UP_QUESTIONS: readonly string[] = [
  "estou com medo do futuro",
  "o que Jesus disse sobre amar os inimigos?",
  "João 3:16",
  "como fazer um bolo de chocolate?",
];

/**
 * Answers at once in each round, each on a connection of its own: a burst after the start
 * opens many connections at once. Load bench, fake OpenAI-compatible provider, the first burst
 * of 50 streams after the start, TTFT p95 (median of 5 runs): 327 ms with 3 rounds of 4
 * answers through `app.request`, 293 with 3 rounds of 16 over sockets, 260 with 6 (the default).
 */
export const WARM_UP_STREAMS_PER_ROUND = 16;

export interface WarmUpReport {
  answers: number;
  ms: number;
}

/** Runs `rounds` rounds of `WARM_UP_STREAMS_PER_ROUND` answers (the warm-up questions in turn), each round's at once. */
export async function warmUp(service: SearchService, collections: CollectionService, settings: Settings, rounds: number): Promise<WarmUpReport> {
  const started = performance.now();
  if (rounds <= 0 || !service.answers) return { answers: 0, ms: 0 };
  const app = createApp({
    service,
    collections,
    provider: createStubProvider({ chunkDelayMs: 0 }),
    settings: { ...settings, RATE_LIMIT: false },
    logger: silentLogger,
  });
  // On an ephemeral loopback port, reachable from this process only.
  const server = await listen({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let answers = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: WARM_UP_STREAMS_PER_ROUND }, async (_, i) => {
          const response = await fetch(`${base}/api/chat`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ message: WARM_UP_QUESTIONS[i % WARM_UP_QUESTIONS.length] }),
          });
          await response.text();
          if (response.ok) answers++;
        }),
      );
    }
  } finally {
    // Closes the idle keep-alive connections too (Node ≥ 19).
    await new Promise((resolve) => server.close(resolve));
  }
  return { answers, ms: Math.round(performance.now() - started) };
}
