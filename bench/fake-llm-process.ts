/**
 * A fake OpenAI-compatible provider in a process of its own, for the load bench: the provider
 * is a remote service in real use, so it must not share an event loop with the bench's
 * clients (whose 50–200 streams would delay its chunks and count as server latency).
 *
 *   node --import tsx bench/fake-llm-process.ts TOKENS DELAY_MS
 *
 * Prints one JSON line `{"baseUrl", "apiKey"}` when listening; exits when stdin closes.
 */
import { startFakeLlmServer } from "../test/support/fake-llm-servers.js";

const [tokens, delayMs] = process.argv.slice(2).map(Number);
const fake = await startFakeLlmServer("openai");
fake.script({ chunks: Array.from({ length: tokens ?? 40 }, (_, i) => `palavra${i} `), delayMs: delayMs ?? 20 });
process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void fake.close().then(() => process.exit(0)));
