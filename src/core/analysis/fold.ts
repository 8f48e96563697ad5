/** Words folded so far (a corpus has some tens of thousands): folding is NFD and a pass over the marks. */
const folded = new Map<string, string>();
const FOLD_CACHE_LIMIT = 200_000;
const FOLD_CACHE_CHARS = 32;

/** Removes diacritics (NFD + strip combining marks): "Coração" → "Coracao". Keeps case. */
export function foldAccents(text: string): string {
  // ASCII has nothing to fold (NFD leaves it as it is, and it has no marks): most words.
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
  if (ascii) return text;
  if (text.length > FOLD_CACHE_CHARS) return strip(text);
  let result = folded.get(text);
  if (result === undefined) {
    result = strip(text);
    if (folded.size >= FOLD_CACHE_LIMIT) folded.clear();
    folded.set(text, result);
  }
  return result;
}

function strip(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "");
}
