/**
 * Searches take turns: one at a time, each in a macrotask of its own (after setImmediate), so
 * that the event loop reads sockets between two searches. Without this, a burst of chat
 * requests whose bodies arrive together runs all their searches (CPU-bound, tens of ms each
 * on a loaded machine) back to back, and /api/health and every stream wait behind them.
 * Total throughput is the same; what changes is who waits.
 */
type Searchable = { search(...args: never[]): Promise<unknown> };

export class SearchTurns {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly wrapped = new WeakMap<object, object>();
  private pending = 0;

  /** Searches waiting for their turn or running. */
  get queued(): number {
    return this.pending;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    const settled = result.finally(() => this.pending--);
    this.tail = settled.catch(() => undefined);
    return result;
  }

  /** `target` itself for everything but `search`, which takes its turn (one proxy per target). */
  wrap<T extends Searchable>(target: T): T {
    const known = this.wrapped.get(target);
    if (known) return known as T;
    const search = (...args: never[]) => this.run(() => target.search(...args));
    const proxy = new Proxy(target, {
      get(object, property) {
        if (property === "search") return search;
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
    this.wrapped.set(target, proxy);
    return proxy;
  }
}
