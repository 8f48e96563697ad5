/**
 * The spelling key of a name, so that the forms people type meet the forms the Bíblia Livre
 * prints and the English forms of the reference data: one skeleton for "Melquisedeque",
 * "Melquisedec" and "Melchizedek", for "Ester" and "Esther", "Javé" and "Yahweh", "Arão" and
 * "Aaron", "Nefilins" and "Nephilim". General transliteration rules only, no list of names:
 *
 * - accents folded, case and hyphens dropped ("En-Dor" → "endor");
 * - digraphs: ph → f, th → t, ch → k, sh → s, gh → g, kh → k, lh → l, nh → n, ck → k;
 *   qu/gu before e, i → k/g; c before e, i → s, else k; ç, z, x → s; y → i, j → i, w → v;
 *   every h left is silent and dropped;
 * - a final nasal with the vowels before it is one mark: -ão, -ã, -am, -an, -em, -en, -im,
 *   -in, -om, -on, -um, -un, and their plurals -ãos, -ãs, -ns ("Arão", "Aaron"; "Nefilins",
 *   "Nephilim"); m before a consonant is n ("Amram", "Anrão");
 * - a final -e after a consonant is dropped (the paragogic e of Portuguese: "Joquebede",
 *   "Jochebed"); a final -s is kept ("Jeremias" and "Jeremiah" differ by one letter, which the
 *   edit distance allows);
 * - doubled letters are one.
 */
import { foldAccents } from "../analysis/fold.js";

/** Bumped whenever `nameKey` changes for some input: the stored keys (resources/knowledge/index.tsv.gz) name it. */
export const NAME_KEY_VERSION = "name-key/v1";

/** The mark a final nasal syllable becomes in a key (not a letter of any input, after folding). */
export const NASAL_MARK = "N";

const VOWELS = "aeiou";

/** The spelling key of one word or name (letters only; empty for a word without letters). */
export function nameKey(word: string): string {
  let text = word.normalize("NFC").toLowerCase();
  // Nasal finals before folding, where the tilde still tells them: -ão(s), -ã(s), -õe(s).
  text = text.replace(/(?:ãos|ães|ões|ão|ãe|õe|ãs|ã)$/u, NASAL_MARK);
  text = foldAccents(text).replace(/[^a-zN]/g, "");
  text = text
    .replace(/ph/g, "f")
    .replace(/th/g, "t")
    .replace(/sch/g, "s")
    .replace(/ch/g, "k")
    .replace(/sh/g, "s")
    .replace(/gh/g, "g")
    .replace(/kh/g, "k")
    .replace(/ck/g, "k")
    .replace(/lh/g, "l")
    .replace(/nh/g, "n")
    .replace(/qu(?=[ei])/g, "k")
    .replace(/gu(?=[ei])/g, "g")
    .replace(/c(?=[eiy])/g, "s")
    .replace(/[cq]/g, "k")
    .replace(/[zxç]/g, "s")
    .replace(/[yj]/g, "i")
    .replace(/w/g, "v")
    .replace(/h/g, "");
  // Final nasal: vowels then m/n, with a plural s ("-ins", "-ons"), or the mark made above.
  text = text.replace(/[aeiou]*(?:[mn]s?|N)$/, NASAL_MARK);
  // m before a consonant sounds as n ("Amram" / "Anrão").
  text = text.replace(/m(?=[^aeiouN])/g, "n");
  // The paragogic final e after a consonant ("Joquebede" / "Jochebed").
  if (text.length > 3 && text.endsWith("e") && !VOWELS.includes(text[text.length - 2]!)) text = text.slice(0, -1);
  // Doubled letters are one ("Aaron", "Abbadon").
  return text.replace(/(.)\1+/g, "$1");
}

/**
 * How many edits a typed word of this length may differ from a known name by and still be
 * taken for it: none up to 4 letters, 1 up to 7, 2 from 8 (a key is compared, not the word).
 */
export function maxEditsFor(length: number): number {
  if (length <= 4) return 0;
  if (length <= 7) return 1;
  return 2;
}

/**
 * Levenshtein distance between `a` and `b`, or `max + 1` as soon as it must exceed `max`
 * (one row of the table; the band of width 2·max + 1 around the diagonal).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length;
  let previous = new Array<number>(width + 1);
  let current = new Array<number>(width + 1);
  for (let j = 0; j <= width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(width, i + max);
    current.fill(max + 1);
    current[0] = i;
    let best = i <= max ? i : max + 1;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j - 1]! + cost, previous[j]! + 1, current[j - 1]! + 1);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[width]!, max + 1);
}

/** 1 − distance / longer length, over the keys (0 when nothing is shared, 1 for the same key). */
export function keySimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 0;
  return 1 - boundedDistance(a, b, longer) / longer;
}
