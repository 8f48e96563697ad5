/**
 * Lets the event loop run (HTTP requests, timers) between two batches of indexing work, so a
 * server indexing in its own process keeps answering.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
