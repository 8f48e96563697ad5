import type { DocumentSource } from "../lib/api";
import { documentLabel } from "../lib/document-text";

/**
 * A document citation in the answer ("[A Trindade (teologia/a-trindade.md, trecho 1)]" in the
 * text): a chip of its own look that reads as the lesson's title and page, with the number of
 * the consulted excerpt; it opens the answer's sources on that excerpt.
 */
export function DocChip({ citation, source, number }: { citation: string; source: DocumentSource | undefined; number: number | undefined }) {
  const label = source ? documentLabel(source) : citation;
  return (
    <button
      type="button"
      className="doc-chip"
      aria-label={`Ver o trecho citado: ${label}${number === undefined ? "" : `, fonte ${number}`}`}
      title={`Fonte${number === undefined ? "" : ` ${number}`}: ${label}`}
      data-citation={citation}
      // Drawn by the stylesheet (::after), so the visible text stays the label the name carries.
      data-n={number}
      onClick={(event) => showSource(event.currentTarget, citation)}
    >
      {label}
    </button>
  );
}

/**
 * Opens the sources of the same answer and brings the cited excerpt into view, with the focus
 * on it (the page's scroll padding keeps it clear of the question box).
 */
function showSource(chip: HTMLElement, citation: string): void {
  const answer = chip.closest("article");
  if (!answer) return;
  const item = Array.from(answer.querySelectorAll<HTMLElement>(".sources [data-citation]")).find((element) => element.dataset.citation === citation);
  if (!item) return;
  const panel = item.closest("details");
  if (panel && !panel.open) panel.open = true;
  item.focus({ preventScroll: true });
  if (typeof item.scrollIntoView === "function") item.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
}

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
