import { foldAccents, splitWords } from "../analysis/index.js";

/**
 * Word bigrams over folded words, stopwords kept: the phrase signal. Quotes whose
 * distinctive words are stopwords ("pai nosso que estás nos céus") keep their verse through
 * it, since "que estas" and "estas nos" are rare as pairs even if each word is common.
 */
export function wordBigrams(text: string): string[] {
  const words = splitWords(text).map(foldAccents);
  const bigrams: string[] = [];
  for (let i = 1; i < words.length; i++) bigrams.push(`${words[i - 1]} ${words[i]}`);
  return bigrams;
}
