import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSettings } from "../src/config/settings.js";
import { startServer, type RunningServer } from "../src/http/main.js";
import { WARM_UP_STREAMS_PER_ROUND } from "../src/http/warm-up.js";
import { realBibleIndex } from "./support/bible-index.js";
import { storeEnvFor } from "./support/store.js";

/** Every log line a server writes, parsed. */
function capturingLogger() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const log = (message: string, fields: Record<string, unknown> = {}) => void lines.push({ message, fields });
  return { lines, logger: { info: log, warn: log, error: log } };
}

describe("the server warms the chat's code before it takes traffic", () => {
  const servers: RunningServer[] = [];
  // The configured provider: an OpenAI-compatible server that counts what reaches it (nothing should).
  let provider: Server;
  let providerRequests = 0;
  beforeAll(async () => {
    provider = createServer((_request, response) => {
      providerRequests++;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await new Promise((resolve) => provider.close(resolve));
  });

  async function start(env: Record<string, string>) {
    const { dataDir } = await realBibleIndex();
    const settings = readSettings({ DATA_DIR: dataDir, AUTO_INDEX: "false", PORT: "0", SEARCH_WORKERS: "1", ...storeEnvFor(dataDir), ...env });
    const { lines, logger } = capturingLogger();
    const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
    const server = await startServer(settings, { env: { LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: providerUrl }, logger });
    servers.push(server);
    return { server, lines, settings };
  }

  it("answers its own questions through the search workers with the stub, before 'listening', counting and logging none of them", async () => {
    const { server, lines, settings } = await start({});
    const warmed = lines.findIndex((line) => line.message === "warmed_up");
    expect(warmed).toBeGreaterThanOrEqual(0);
    expect(settings.WARM_UP_ROUNDS).toBeGreaterThan(0);
    expect(lines[warmed]!.fields.answers).toBe(settings.WARM_UP_ROUNDS * WARM_UP_STREAMS_PER_ROUND);
    expect(warmed).toBeLessThan(lines.findIndex((line) => line.message === "listening"));
    // No chat request was logged or counted: the warm-up used a private app.
    expect(lines.some((line) => line.message.startsWith("chat"))).toBe(false);
    // The configured provider was never asked: the warm-up answers with the offline stub.
    expect(providerRequests).toBe(0);
    const metrics = await (await fetch(`http://127.0.0.1:${server.port}/api/metrics`)).text();
    expect(metrics).not.toMatch(/pastor_http_requests_total\{[^}]*route="\/api\/chat"/);
    expect(metrics).not.toMatch(/pastor_llm_errors_total\{/);
  }, 240_000);

  it("is skipped with WARM_UP_ROUNDS=0", async () => {
    const { lines } = await start({ WARM_UP_ROUNDS: "0" });
    expect(lines.some((line) => line.message === "warmed_up")).toBe(false);
    expect(lines.some((line) => line.message === "listening")).toBe(true);
  }, 240_000);
});
