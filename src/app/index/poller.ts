/** A periodic look at a shared store (another replica's indexing, the store going down or coming back). */
export interface Poller {
  /** Stops the timer and waits for a look still running. */
  stop(): Promise<void>;
}

/**
 * Runs `look` every `everyMs` until stopped; a tick while a look still runs is skipped (never
 * two at once), and the timer never keeps the process alive. `look` handles its own failures.
 */
export function startPoller(look: () => Promise<void>, everyMs: number): Poller {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= look().finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
