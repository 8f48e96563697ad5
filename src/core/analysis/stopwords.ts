import { stopwords as snowballPortuguese } from "@orama/stopwords/portuguese";
import { foldAccents } from "./fold.js";

/**
 * Portuguese stopwords: the Snowball project's list (203 words, shipped by @orama/stopwords),
 * with these changes:
 * - added "têm": the Snowball list spells the plural of "ter" as "tém" (a typo); the real
 *   form is "têm". Both fold to "tem", which is already listed, so after folding this only
 *   documents intent.
 * - added "sobre": the preposition frames questions ("o que Jesus disse sobre…") and is in
 *   most other Portuguese lists; as a content word ("sobre" = surplus) it is rare. Measured:
 *   it pulled Ezekiel 36:2 ("o inimigo disse sobre vós") above Matthew 5:44 for "o que Jesus
 *   disse sobre amar os inimigos?".
 * Nothing is removed. "não" stays a stopword as in Snowball: for ranking it carries little,
 * and phrase matching (which keeps every word) still sees it.
 *
 * Stored folded, because queries are often typed without accents ("nao", "voce").
 */
const ADDED = ["têm", "sobre"] as const;

export const STOPWORDS: ReadonlySet<string> = new Set(
  [...snowballPortuguese, ...ADDED].map((word) => foldAccents(word.toLowerCase())),
);

export function isStopword(foldedLowercaseWord: string): boolean {
  return STOPWORDS.has(foldedLowercaseWord);
}
