import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { VersePanel } from "./VersePanel";

/**
 * Opening references: any chip or source anywhere in the page calls `open(query)`, and one
 * panel shows the verses and their "veja também" links, which open in turn (with a way back).
 * When the panel closes, focus returns to what opened it.
 */
interface ReferenceApi {
  open(query: string): void;
}

const ReferenceContext = createContext<ReferenceApi>({ open: () => undefined });

export function useReferences(): ReferenceApi {
  return useContext(ReferenceContext);
}

export function ReferenceProvider({ children }: { children: ReactNode }) {
  const [stack, setStack] = useState<string[]>([]);
  const opener = useRef<HTMLElement | null>(null);

  const open = useCallback((query: string) => {
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement ? active : null;
    setStack([query]);
  }, []);
  const close = useCallback(() => {
    setStack([]);
    const back = opener.current;
    opener.current = null;
    if (back && back.isConnected) back.focus();
  }, []);
  const push = useCallback((query: string) => setStack((current) => [...current, query]), []);
  const pop = useCallback(() => setStack((current) => current.slice(0, -1)), []);

  const api = useMemo(() => ({ open }), [open]);
  const current = stack[stack.length - 1];
  return (
    <ReferenceContext.Provider value={api}>
      {children}
      {current !== undefined && (
        <VersePanel query={current} canGoBack={stack.length > 1} onBack={pop} onClose={close} onOpenReference={push} />
      )}
    </ReferenceContext.Provider>
  );
}

export function RefChip({ text, query }: { text: string; query: string }) {
  const { open } = useReferences();
  return (
    <button type="button" className="ref-chip checked" aria-haspopup="dialog" aria-label={`Abrir ${query}`} title={`Ler ${query}`} onClick={() => open(query)}>
      {text}
    </button>
  );
}
