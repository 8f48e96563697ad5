import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { clearVerseCache } from "../../web/src/components/VersePanel";

// React Testing Library wraps updates in act() when this flag is on (it sets it only with test globals).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  clearVerseCache();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
