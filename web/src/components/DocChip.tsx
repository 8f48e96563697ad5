/**
 * A document citation in the answer ("A Trindade (teologia/a-trindade.md, trecho 1)"): a chip
 * of its own look (it opens no verse), which shows the cited excerpt in the answer's sources.
 */
export function DocChip({ citation }: { citation: string }) {
  return (
    <button type="button" className="doc-chip" aria-label={`Ver o trecho citado: ${citation}`} title={`Fonte: ${citation}`} onClick={(event) => showSource(event.currentTarget, citation)}>
      {citation}
    </button>
  );
}

/** Opens the sources of the same answer and brings the cited excerpt into view, with the focus on it. */
function showSource(chip: HTMLElement, citation: string): void {
  const answer = chip.closest("article");
  if (!answer) return;
  const item = Array.from(answer.querySelectorAll<HTMLElement>("[data-citation]")).find((element) => element.dataset.citation === citation);
  if (!item) return;
  const panel = item.closest("details");
  if (panel && !panel.open) panel.open = true;
  if (typeof item.scrollIntoView === "function") item.scrollIntoView({ block: "nearest", behavior: "smooth" });
  item.focus({ preventScroll: true });
}
