import { stopwords as snowballPortuguese } from "@orama/stopwords/portuguese";
import { foldAccents } from "./fold.js";

/**
 * Portuguese stopwords: the Snowball project's list (203 words, shipped by @orama/stopwords),
 * with one correction:
 * - added "têm": the Snowball list spells the plural of "ter" as "tém" (a typo); the real
 *   form is "têm". Both fold to "tem", which is already listed, so after folding this only
 *   documents intent.
 * Nothing is removed. "não" stays a stopword as in Snowball: for ranking it carries little,
 * and phrase matching (which keeps every word) still sees it.
 *
 * Stored folded, because queries are often typed without accents ("nao", "voce").
 */
const ADDED = ["têm"] as const;

export const STOPWORDS: ReadonlySet<string> = new Set(
  [...snowballPortuguese, ...ADDED].map((word) => foldAccents(word.toLowerCase())),
);

export function isStopword(foldedLowercaseWord: string): boolean {
  return STOPWORDS.has(foldedLowercaseWord);
}
