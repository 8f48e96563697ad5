import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { numbersText } from "../lib/citations";
import { VersePanel } from "./VersePanel";

/**
 * Opening references: any chip or source anywhere in the page calls `open(query)`, and one
 * reading view shows the chapter and its "veja também" links, which open in turn (with a way
 * back). When the view closes, focus returns to what opened it.
 */
interface ReferenceApi {
  open(query: string): void;
}

const ReferenceContext = createContext<ReferenceApi>({ open: () => undefined });

export function useReferences(): ReferenceApi {
  return useContext(ReferenceContext);
}

export function ReferenceProvider({ children, initial, onClosed }: { children: ReactNode; initial?: string; onClosed?(): void }) {
  const [stack, setStack] = useState<string[]>(() => (initial ? [initial] : []));
  const opener = useRef<HTMLElement | null>(null);

  const open = useCallback((query: string) => {
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement ? active : null;
    setStack([query]);
  }, []);
  const close = useCallback(() => {
    setStack([]);
    onClosed?.();
    const back = opener.current;
    opener.current = null;
    if (back && back.isConnected) back.focus();
    else document.getElementById("pergunta")?.focus();
  }, [onClosed]);
  const push = useCallback((query: string) => setStack((current) => [...current, query]), []);
  const pop = useCallback(() => setStack((current) => current.slice(0, -1)), []);
  // The chapter before or after takes the place of the one read (Back returns past it).
  const navigate = useCallback((query: string) => setStack((current) => [...current.slice(0, -1), query]), []);

  const api = useMemo(() => ({ open }), [open]);
  const current = stack[stack.length - 1];
  return (
    <ReferenceContext.Provider value={api}>
      {children}
      {current !== undefined && (
        <VersePanel query={current} canGoBack={stack.length > 1} onBack={pop} onClose={close} onOpenReference={push} onNavigate={navigate} />
      )}
    </ReferenceContext.Provider>
  );
}

/**
 * A reference in an answer: it opens the reading view. It shows the numbers of the consulted
 * sources it points to, and a check once the server confirmed it as a citation.
 */
export function RefChip({ text, query, numbers = [], checked = false }: { text: string; query: string; numbers?: readonly number[]; checked?: boolean }) {
  const { open } = useReferences();
  const shown = numbersText(numbers);
  return (
    <button
      type="button"
      className={checked ? "ref-chip checked" : "ref-chip"}
      aria-haspopup="dialog"
      aria-label={`Abrir ${query}`}
      title={shown === "" ? `Ler ${query}` : `Ler ${query} · fonte ${shown}`}
      data-checked={checked ? "true" : "false"}
      // Drawn by the stylesheet (::after), so the visible text stays the reference the name carries.
      data-n={shown === "" ? undefined : shown}
      onClick={() => open(query)}
    >
      {text}
    </button>
  );
}
