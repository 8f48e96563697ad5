import { useCallback, useEffect, useState } from "react";
import { fetchStatus, type ServerStatus } from "./api";

export const FAST_POLL_MS = 1500;
export const SLOW_POLL_MS = 20_000;
export const RETRY_POLL_MS = 4000;

/**
 * Polls /api/status: every 1.5 s while the server indexes (or is not ready), every 20 s
 * otherwise, and every 4 s while it does not answer.
 */
export function useServerStatus(): { status: ServerStatus | undefined; unreachable: boolean; refresh(): void } {
  const [status, setStatus] = useState<ServerStatus>();
  const [unreachable, setUnreachable] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let next = SLOW_POLL_MS;
      try {
        const value = await fetchStatus(controller.signal);
        if (controller.signal.aborted) return;
        setStatus(value);
        setUnreachable(false);
        if (value.indexing || !value.lexicalReady) next = FAST_POLL_MS;
      } catch {
        if (controller.signal.aborted) return;
        setUnreachable(true);
        next = RETRY_POLL_MS;
      }
      timer = setTimeout(() => void poll(), next);
    };
    void poll();
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [tick]);

  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    window.addEventListener("online", refresh);
    return () => window.removeEventListener("online", refresh);
  }, [refresh]);

  return { status, unreachable, refresh };
}
