import { useCallback, useRef, type KeyboardEvent, type ReactNode } from "react";

const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * A modal panel: a bottom sheet on a phone, a drawer on a wide screen. Tab stays inside it,
 * Escape and a click on the backdrop close it. The caller puts the focus in it when it opens
 * and gives it back when it closes.
 */
export function Sheet(props: { labelledBy: string; onClose(): void; className?: string; side?: "right" | "left"; children: ReactNode }) {
  const { labelledBy, onClose, className, side = "right", children } = props;
  const dialog = useRef<HTMLDivElement>(null);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        onClose();
        return;
      }
      if (event.key !== "Tab" || !dialog.current) return;
      const focusable = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !dialog.current.contains(active) || (active instanceof HTMLElement && active.tabIndex === -1))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    },
    [onClose],
  );
  return (
    <div className={`sheet-backdrop ${side}`} onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialog} className={`sheet ${className ?? ""}`} role="dialog" aria-modal="true" aria-labelledby={labelledBy} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  );
}
