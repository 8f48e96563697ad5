/** The reader's text size, kept across visits and applied to the whole page (the styles size everything in rem). */

export const FONT_SIZES = [
  { id: "normal", label: "Normal" },
  { id: "grande", label: "Grande" },
  { id: "maior", label: "Maior" },
  { id: "enorme", label: "Muito grande" },
] as const;

export type FontSize = (typeof FONT_SIZES)[number]["id"];

export const FONT_SIZE_KEY = "pastor-online:tamanho-do-texto:v1";

function isFontSize(value: unknown): value is FontSize {
  return FONT_SIZES.some((size) => size.id === value);
}

export function loadFontSize(): FontSize {
  try {
    const value = window.localStorage.getItem(FONT_SIZE_KEY);
    return isFontSize(value) ? value : "normal";
  } catch {
    return "normal";
  }
}

export function saveFontSize(size: FontSize): void {
  try {
    if (size === "normal") window.localStorage.removeItem(FONT_SIZE_KEY);
    else window.localStorage.setItem(FONT_SIZE_KEY, size);
  } catch {
    // storage disabled: the size just won't survive a reload
  }
}

/** Sets the size on the root element (`html[data-font-size]`, read by the stylesheet). */
export function applyFontSize(size: FontSize): void {
  document.documentElement.dataset.fontSize = size;
}
