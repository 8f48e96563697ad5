import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * A button that shows a small panel below it (not modal): Escape or a click elsewhere closes
 * it, and Escape gives the focus back to the button.
 */
export function Popover(props: { buttonLabel: string; buttonContent: ReactNode; buttonClassName?: string; panelLabel: string; panelId?: string; children: ReactNode }) {
  const { buttonLabel, buttonContent, buttonClassName = "", panelLabel, children } = props;
  const generated = useId();
  const panelId = props.panelId ?? generated;
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  return (
    <div
      ref={root}
      className="popover-root"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`button ghost ${buttonClassName}`}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={buttonLabel}
        onClick={() => setOpen((value) => !value)}
      >
        {buttonContent}
      </button>
      <section id={panelId} className="popover" aria-label={panelLabel} hidden={!open}>
        {open && children}
      </section>
    </div>
  );
}
