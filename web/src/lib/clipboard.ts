/** Copying and sharing from the page, with a fallback where the browser lacks the modern APIs. */

/** Copies text to the clipboard; false when the browser would not. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // denied or unavailable: try the old way
  }
  return copyWithSelection(text);
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "clipboard-buffer";
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(area);
  area.select();
  let copied: boolean;
  try {
    copied = typeof document.execCommand === "function" && document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  active?.focus({ preventScroll: true });
  return copied;
}

export type ShareOutcome = "shared" | "copied" | "cancelled" | "failed";

/**
 * Shares a link: the system's share sheet where there is one (phones), else the link copied to
 * the clipboard.
 */
export async function shareLink(data: { title: string; text?: string; url: string }): Promise<ShareOutcome> {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share(data);
      return "shared";
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
      // not allowed here: copy instead
    }
  }
  return (await copyText(data.url)) ? "copied" : "failed";
}

/** The page's own address with one query parameter: what a shared link opens. */
export function appLink(parameter: string, value: string): string {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = "";
  url.searchParams.set(parameter, value);
  return url.toString();
}
