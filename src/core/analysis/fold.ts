/** Removes diacritics (NFD + strip combining marks): "Coração" → "Coracao". Keeps case. */
export function foldAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "");
}
