import { describe, expect, it } from "vitest";
import { BusyError, ConcurrencyGate, RateLimiter } from "../src/http/limits.js";
import { estimatePromptTokens, fitPrompt } from "../src/http/prompt-budget.js";
import { Metrics } from "../src/http/metrics.js";

describe("RateLimiter", () => {
  it("allows perMinute at once, then one more each 60/perMinute seconds, per key", () => {
    let now = 0;
    const limiter = new RateLimiter(6, () => now);
    for (let i = 0; i < 6; i++) expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(10);
    expect(limiter.take("b")).toBe(0);
    now = 9_000;
    expect(limiter.take("a")).toBe(1);
    now = 10_000;
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(10);
  });

  it("forgets the least recently seen keys past maxKeys", () => {
    const limiter = new RateLimiter(1, () => 0, 2);
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("b")).toBe(0);
    expect(limiter.take("c")).toBe(0);
    expect(limiter.take("a")).toBe(0); // forgotten: a full bucket again
    expect(limiter.take("c")).toBe(60);
  });
});

describe("ConcurrencyGate", () => {
  it("holds `limit`, queues `queueMax` first come first served, refuses beyond", async () => {
    const gate = new ConcurrencyGate(1, 1, 10_000);
    const release = await gate.acquire();
    const queued = gate.acquire();
    await expect(gate.acquire()).rejects.toEqual(new BusyError("queue_full"));
    expect([gate.inFlight, gate.queued]).toEqual([1, 1]);
    release();
    release(); // twice is once
    const next = await queued;
    expect([gate.inFlight, gate.queued]).toEqual([1, 0]);
    next();
    expect(gate.inFlight).toBe(0);
  });

  it("gives up after the queue timeout, and when the waiter's signal aborts", async () => {
    const gate = new ConcurrencyGate(1, 5, 50);
    const release = await gate.acquire();
    await expect(gate.acquire()).rejects.toEqual(new BusyError("queue_timeout"));
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toEqual(new BusyError("aborted"));
    expect(gate.queued).toBe(0);
    release();
    expect(gate.inFlight).toBe(0);
  });

  it("is off with a limit of 0", async () => {
    const gate = new ConcurrencyGate(0, 0, 1);
    await Promise.all(Array.from({ length: 100 }, () => gate.acquire()));
    expect(gate.inFlight).toBe(0);
  });
});

describe("fitPrompt", () => {
  const turns = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content: "x".repeat(300) }));
  const question = { role: "user" as const, content: "pergunta <fontes>…</fontes>" };

  it("keeps everything that fits", () => {
    expect(fitPrompt("sistema", [...turns, question], 10_000)).toEqual([...turns, question]);
  });

  it("drops the oldest turns until the estimate fits, starting again with a user turn", () => {
    const fitted = fitPrompt("sistema", [...turns, question], 350);
    expect(estimatePromptTokens("sistema", fitted)).toBeLessThanOrEqual(350);
    expect(fitted.at(-1)).toBe(question);
    expect(fitted[0]!.role).toBe("user");
    expect(fitted).toEqual([turns[4], turns[5], question]);
  });

  it("always keeps the question", () => {
    expect(fitPrompt("s".repeat(10_000), [...turns, question], 10)).toEqual([question]);
  });
});

describe("Metrics", () => {
  it("renders counters, histograms and gauges in the Prometheus text format", () => {
    const metrics = new Metrics();
    metrics.requests.inc({ method: "GET", route: "/api/health", status: "200" });
    metrics.requests.inc({ method: "GET", route: "/api/health", status: "200" });
    metrics.latency.observe({ route: "/api/health" }, 0.003);
    metrics.refusals.inc({ reason: 'a"b' });
    metrics.firstToken.observe({}, 0.2);
    metrics.gauge("pastor_x", "X.", () => 7);
    const text = metrics.render();
    expect(text).toContain('pastor_http_requests_total{method="GET",route="/api/health",status="200"} 2\n');
    expect(text).toContain('pastor_http_request_duration_seconds_bucket{route="/api/health",le="0.005"} 1\n');
    expect(text).toContain('pastor_http_request_duration_seconds_count{route="/api/health"} 1\n');
    expect(text).toContain('pastor_refusals_total{reason="a\\"b"} 1\n');
    // A histogram without labels: only the bucket bound in braces.
    expect(text).toContain('pastor_chat_first_token_seconds_bucket{le="0.1"} 0\npastor_chat_first_token_seconds_bucket{le="0.25"} 1\n');
    expect(text).toContain("pastor_chat_first_token_seconds_sum 0.2\npastor_chat_first_token_seconds_count 1\n");
    expect(text.endsWith("# HELP pastor_x X.\n# TYPE pastor_x gauge\npastor_x 7\n")).toBe(true);
  });
});
