/**
 * Princeton WordNet 3.0 read from its database files' text (Debian's `wordnet-base`:
 * index.POS, data.POS, POS.exc), for the bridge of English headings into Portuguese:
 * `morphy` (the detachment rules and the exception lists of WordNet's own morphy, so
 * "Tattooing" reaches "tattoo" and "Familiar Spirits" "familiar spirit"), the senses of a lemma
 * in WordNet's order (most frequent first), a synset's English words and its derivational
 * links ("+": the verb "tattoo" to the nouns "tattoo"). Pure: the build hands it the files' text.
 */

export type WordnetPos = "n" | "v" | "a" | "r";

export interface WordnetSynset {
  /** "04395651-n": the file's byte offset and the part of speech (satellites are "a"). */
  id: string;
  words: string[];
  /** Derivationally related synsets (pointer "+"). */
  derived: string[];
}

export interface WordnetFiles {
  index: Partial<Record<WordnetPos, string>>;
  data: Partial<Record<WordnetPos, string>>;
  exceptions: Partial<Record<WordnetPos, string>>;
}

/** WordNet's morphy detachment rules (suffix, replacement) per part of speech. */
const DETACHMENTS: Record<WordnetPos, readonly (readonly [string, string])[]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

const POS_LIST: readonly WordnetPos[] = ["n", "v", "a", "r"];

export class Wordnet {
  private readonly senses = new Map<string, string[]>();
  private readonly synsets = new Map<string, WordnetSynset>();
  private readonly exceptions = new Map<string, string[]>();

  constructor(files: WordnetFiles) {
    for (const pos of POS_LIST) {
      for (const line of (files.index[pos] ?? "").split("\n")) {
        if (line === "" || line.startsWith(" ")) continue;
        const fields = line.trim().split(/\s+/);
        const synsetCount = Number(fields[2]);
        const pointerCount = Number(fields[3]);
        const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
        this.senses.set(`${fields[0]}|${pos}`, offsets.map((offset) => `${offset}-${pos}`));
      }
      for (const line of (files.data[pos] ?? "").split("\n")) {
        if (line === "" || line.startsWith(" ")) continue;
        const fields = line.split(" | ")[0]!.split(" ");
        const wordCount = parseInt(fields[3]!, 16);
        const words: string[] = [];
        for (let i = 0; i < wordCount; i++) words.push(fields[4 + i * 2]!.replace(/\(.*\)$/, ""));
        let at = 4 + wordCount * 2;
        const pointerCount = Number(fields[at]);
        at++;
        const derived: string[] = [];
        for (let i = 0; i < pointerCount; i++, at += 4) {
          if (fields[at] === "+") derived.push(`${fields[at + 1]}-${fields[at + 2] === "s" ? "a" : fields[at + 2]}`);
        }
        const id = `${fields[0]}-${pos}`;
        this.synsets.set(id, { id, words, derived });
      }
      for (const line of (files.exceptions[pos] ?? "").split("\n")) {
        const [inflected, ...bases] = line.trim().split(/\s+/);
        if (inflected && bases.length > 0) this.exceptions.set(`${inflected}|${pos}`, bases);
      }
    }
  }

  /** The synset ids a lemma (lowercase, words joined by "_") has in this part of speech, most frequent sense first. */
  sensesOf(lemma: string, pos: WordnetPos): readonly string[] {
    return this.senses.get(`${lemma}|${pos}`) ?? [];
  }

  synset(id: string): WordnetSynset | undefined {
    return this.synsets.get(id);
  }

  /** Every synset id of the files (to align other data's offsets with them). */
  synsetIds(): IterableIterator<string> {
    return this.synsets.keys();
  }

  /**
   * The base forms WordNet knows for a word in a part of speech, as its morphy finds them: the
   * word itself, its exception-list bases, then the detachment rules' results; for a phrase
   * ("familiar_spirits") the last word is reduced.
   */
  morphy(word: string, pos: WordnetPos): string[] {
    const lemma = word.toLowerCase().trim().replace(/\s+/g, "_");
    const found: string[] = [];
    const add = (candidate: string) => {
      if (!found.includes(candidate) && this.senses.has(`${candidate}|${pos}`)) found.push(candidate);
    };
    add(lemma);
    for (const base of this.exceptions.get(`${lemma}|${pos}`) ?? []) add(base);
    const parts = lemma.split("_");
    const last = parts.pop()!;
    const prefix = parts.length > 0 ? `${parts.join("_")}_` : "";
    for (const base of this.exceptions.get(`${last}|${pos}`) ?? []) add(prefix + base);
    for (const [suffix, replacement] of DETACHMENTS[pos]) {
      if (last.endsWith(suffix) && last.length > suffix.length + 1) add(prefix + last.slice(0, -suffix.length) + replacement);
    }
    return found;
  }
}

/**
 * Debian's `wordnet-base` corrects a few glosses of WordNet 3.0, which moves the byte offsets
 * of the synsets after them (by 18 for most verbs, by 1 for about half the adjectives; see
 * resources/scope/README.md). Data keyed by the original offsets (OpenWordNet-PT) is read
 * through this: an original id is the file's first synset of the same part of speech at most
 * `maxDrift` bytes after it (a synset line is longer than that, so no two ids meet one synset).
 */
export function originalIdResolver(fileIds: Iterable<string>, maxDrift = 64): (originalId: string) => string | undefined {
  const known = new Set(fileIds);
  return (originalId) => {
    const [offset, rawPos] = originalId.split("-") as [string, string];
    const pos = rawPos === "s" ? "a" : rawPos;
    for (let drift = 0; drift <= maxDrift; drift++) {
      const id = `${String(Number(offset) + drift).padStart(offset.length, "0")}-${pos}`;
      if (known.has(id)) return id;
    }
    return undefined;
  };
}
