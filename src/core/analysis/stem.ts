import { stemmer } from "@orama/stemmers/portuguese";

/**
 * Snowball Portuguese stemmer (the 2015 revision of the algorithm, as reproduced by
 * @orama/stemmers; checked against the Snowball reference vocabulary in the tests).
 * Expects a lowercase word with its accents: the algorithm's suffixes are accented.
 */
export function stemPortuguese(lowercaseWord: string): string {
  return stemmer(lowercaseWord);
}
