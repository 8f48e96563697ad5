/**
 * Warms the server before it takes traffic: a few answers run through the whole chat route
 * (body checks, search in the workers, the gate, prompt building, the stream, the citation
 * check) on a private app with the offline stub, so the first people to ask do not pay for V8
 * compiling that code under load. Nothing is sent to the configured provider, nothing is
 * counted in the server's metrics, and nothing is logged.
 */
import { createStubProvider } from "../adapters/chat/stub.js";
import type { CollectionService } from "../app/collection-service.js";
import type { SearchService } from "../app/search-service.js";
import type { Settings } from "../config/settings.js";
import { createApp } from "./app.js";
import { silentLogger } from "./logger.js";

/** One of each kind of question the chat answers differently: a feeling, a quotation, a reference, an off-topic one. */
export const WARM_UP_QUESTIONS: readonly string[] = [
  "estou com medo do futuro",
  "o que Jesus disse sobre amar os inimigos?",
  "João 3:16",
  "como fazer um bolo de chocolate?",
];

export interface WarmUpReport {
  answers: number;
  ms: number;
}

/** Runs `rounds` rounds of the warm-up questions, each round's answers at once. */
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
  let answers = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      WARM_UP_QUESTIONS.map(async (message) => {
        const response = await app.request("/api/chat", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ message }),
        });
        await response.text();
        if (response.ok) answers++;
      }),
    );
  }
  return { answers, ms: Math.round(performance.now() - started) };
}
