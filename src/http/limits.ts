import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * Fair use for a public server: a token bucket per client and a global gate on concurrent
 * answers. Both live in this process's memory, so with several replicas (VECTOR_STORE=chroma)
 * every limit holds per replica.
 */

/** Per-key token buckets: `perMinute` requests a minute, bursts up to `perMinute`. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly refillPerMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => Date.now(),
    private readonly maxKeys = 10_000,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** Takes one token for `key`: 0 when allowed, else the seconds to wait before the next one. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.refillPerMs) : this.perMinute;
    // Re-inserted on every take: the Map's order is least recently seen first, which the bound evicts.
    this.buckets.delete(key);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000));
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    while (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return 0;
  }
}

export class BusyError extends Error {
  constructor(readonly reason: "queue_full" | "queue_timeout" | "aborted") {
    super(`busy: ${reason}`);
    this.name = "BusyError";
  }
}

/**
 * At most `limit` holders at once; up to `queueMax` more wait (first come, first served) for
 * at most `timeoutMs`. Beyond that, `acquire` rejects with BusyError. A limit of 0 turns the
 * gate off.
 */
export class ConcurrencyGate {
  private active = 0;
  /** Each waiter's way to take the slot handed to it. */
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly queueMax: number,
    private readonly timeoutMs: number,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function (call it once) when a slot is free. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.limit === 0) return () => undefined;
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.queueMax) throw new BusyError("queue_full");
    await new Promise<void>((resolve, reject) => {
      // Settles the wait once: with the slot, or (leaving the queue) with a BusyError.
      const settle = (error?: BusyError) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (error === undefined) return resolve();
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(error);
      };
      const take = () => settle();
      const timer = setTimeout(() => settle(new BusyError("queue_timeout")), this.timeoutMs);
      const onAbort = () => settle(new BusyError("aborted"));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(take);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter: `active` stays the same.
      if (next) next();
      else this.active--;
    };
  }
}

/**
 * The client a request counts against: the socket's peer address, or with `trustProxy` the
 * last address in X-Forwarded-For (the one the proxy in front of us appended; earlier ones
 * are whatever the client wrote).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("X-Forwarded-For");
    const last = forwarded?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
