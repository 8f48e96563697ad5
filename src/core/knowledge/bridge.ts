/**
 * English headings into Portuguese through Princeton WordNet 3.0 and OpenWordNet-PT, which share
 * synset ids: "Tattooing" → (morphy) "tattoo" → its noun synsets, most frequent first → their
 * Portuguese lemmas, "tatuagem". Every lemma keeps a weight: its sense's rank, raised when the
 * entry's own verses hold the lemma in the Bíblia Livre (the corpus picks the sense: "Passover"
 * verses print "páscoa"), so the most plausible Portuguese word comes first and none is lost.
 */
import { stopwords as englishStopwords } from "@orama/stopwords/english";
import { modernizeSpelling } from "../analysis/lexicon.js";
import { keySimilarity, nameKey } from "./name-key.js";
import type { Wordnet, WordnetPos } from "./wordnet.js";

export interface BridgeSources {
  wordnet: Wordnet;
  /** OpenWordNet-PT's lemmas of a synset (by the WordNet files' id), as written there. */
  portugueseOf(synsetId: string): readonly string[];
}

export interface PortugueseLemma {
  /** As OpenWordNet-PT writes it, spelling modernised; lowercase unless every variant is capitalised ("Páscoa"). */
  lemma: string;
  /** 0..1, the best lemma 1. */
  weight: number;
  /** The share of the entry's verses that hold it (0 when not given). */
  inVerses: number;
}

export interface Bridge {
  lemmas: PortugueseLemma[];
  /** The English words of the synsets the lemmas came from ("Jehovah": "yahweh", "jahvey"…). */
  english: string[];
}

/** A lemma's weight below this share of the best one is dropped. */
const MIN_WEIGHT = 0.15;
/** How much a lemma the entry's verses hold outweighs the sense order. */
const CORPUS_BOOST = 3;
/** A lemma spelled this close to the English word is its cognate… */
const COGNATE_SIMILARITY = 0.5;
/** …and weighs up to this much more (within a synset, "idolatria" before "adorar"). */
const COGNATE_BOOST = 2;
/** At most this many senses of a word are read (WordNet orders them by frequency). */
const MAX_SENSES = 4;

const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(englishStopwords);

/**
 * The WordNet lookups a heading stands for, each with a weight: the whole heading ("Kingdom of
 * God" → kingdom_of_god; "PRIEST, HIGH" → high_priest), else its head word (the word before "of",
 * else the last word) at a lower weight.
 */
export function headingPhrases(heading: string): { phrase: string; weight: number }[] {
  let text = heading.replace(/\([^)]*\)/g, " ").replace(/[.;:!?]+$/, "").trim();
  const inverted = /^([A-Za-z'-]+),\s*([A-Za-z'-]+)$/.exec(text);
  if (inverted) text = `${inverted[2]} ${inverted[1]}`;
  const words = text.toLowerCase().replace(/[’]/g, "'").split(/[\s,]+/).filter(Boolean);
  if (words.length === 0) return [];
  const phrases = [{ phrase: words.join("_"), weight: 1 }];
  if (words.length > 1) {
    const of = words.indexOf("of");
    const head = of > 0 ? words[of - 1]! : words[words.length - 1]!;
    if (!ENGLISH_STOPWORDS.has(head)) phrases.push({ phrase: head, weight: 0.6 });
  }
  return phrases;
}

/** The noun synsets (with their rank) a lemma reaches: as a noun, else as a verb's derived nouns ("tattooing" → tattoo). */
function synsetsOf(phrase: string, wordnet: Wordnet): { id: string; rank: number; weight: number }[] {
  const found: { id: string; rank: number; weight: number }[] = [];
  const seen = new Set<string>();
  const add = (id: string, rank: number, weight: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    found.push({ id, rank, weight });
  };
  for (const base of wordnet.morphy(phrase, "n")) wordnet.sensesOf(base, "n").slice(0, MAX_SENSES).forEach((id, rank) => add(id, rank, 1));
  if (found.length > 0) return found;
  // A participle WordNet lists as an adjective ("forbidden") before its verb.
  wordnet.sensesOf(phrase, "a").slice(0, MAX_SENSES).forEach((id, rank) => add(id, rank, 0.8));
  if (found.length > 0) return found;
  for (const base of wordnet.morphy(phrase, "v")) {
    // A verb's base that is also a noun ("tattoo"): the noun's senses; else the verb's derived nouns.
    const nouns = wordnet.sensesOf(base, "n");
    if (nouns.length > 0) nouns.slice(0, MAX_SENSES).forEach((id, rank) => add(id, rank, 0.9));
    else {
      wordnet.sensesOf(base, "v").slice(0, MAX_SENSES).forEach((verb, rank) => {
        for (const derived of wordnet.synset(verb)?.derived ?? []) if (derived.endsWith("-n")) add(derived, rank, 0.8);
        add(verb, rank, 0.7);
      });
    }
  }
  if (found.length > 0) return found;
  for (const pos of ["a", "r"] as const satisfies readonly WordnetPos[]) {
    for (const base of wordnet.morphy(phrase, pos)) wordnet.sensesOf(base, pos).slice(0, MAX_SENSES).forEach((id, rank) => add(id, rank, 0.7));
  }
  return found;
}

const PORTUGUESE_LEMMA = /^[a-záàâãéêíóôõúüç][a-záàâãéêíóôõúüç '-]*$/iu;

/** OpenWordNet-PT's spelling of a lemma, cleaned: qualifiers out, modern spelling, case kept. */
export function cleanPortuguese(raw: string): string | undefined {
  const text = raw.normalize("NFC").replace(/\s*\([^)]*\)/g, "").replace(/\s+/g, " ").trim();
  // Letters Portuguese writes only: OpenWordNet-PT has a few words of other languages, or
  // mis-encoded ("świnia" among the words for pig, "furăo" for "furão").
  if (text.length < 2 || !PORTUGUESE_LEMMA.test(text)) return undefined;
  return text.split(" ").map(modernizeSpelling).join(" ");
}

/**
 * A heading's Portuguese lemmas. `inVerses(lemma)` tells the share of the entry's verses that hold
 * a lemma (the corpus's word for the sense); without it the sense order alone decides.
 */
export function bridgeHeading(heading: string, sources: BridgeSources, inVerses: (lemma: string) => number = () => 0): Bridge {
  const scores = new Map<string, { forms: Set<string>; weight: number; inVerses: number }>();
  const englishBySynset = new Map<string, string[]>();
  for (const { phrase, weight: phraseWeight } of headingPhrases(heading)) {
    const synsets = synsetsOf(phrase, sources.wordnet);
    const phraseKey = nameKey(phrase);
    // A synset whose Portuguese the verses hold is the sense meant; its lemmas all rise.
    const confirmed = new Map<string, number>();
    for (const { id } of synsets) {
      let best = 0;
      for (const raw of sources.portugueseOf(id)) {
        const lemma = cleanPortuguese(raw);
        if (lemma) best = Math.max(best, inVerses(lemma.toLowerCase()));
      }
      confirmed.set(id, best);
    }
    for (const { id, rank, weight } of synsets) {
      const lemmas = sources.portugueseOf(id).map(cleanPortuguese).filter((lemma): lemma is string => lemma !== undefined);
      if (lemmas.length === 0) continue;
      englishBySynset.set(id, (sources.wordnet.synset(id)?.words ?? []).map((word) => word.replace(/_/g, " ").toLowerCase()));
      const senseWeight = (phraseWeight * weight) / (1 + rank);
      for (const lemma of lemmas) {
        const key = lemma.toLowerCase();
        const share = inVerses(key);
        // A cognate of the heading ("necromancy", "necromancia") is the likelier sense's word.
        const similarity = lemma.includes(" ") ? 0 : keySimilarity(phraseKey, nameKey(lemma));
        const cognate = similarity >= COGNATE_SIMILARITY ? 1 + COGNATE_BOOST * similarity ** 2 : 1;
        const score = senseWeight * cognate * (1 + CORPUS_BOOST * Math.max(share, confirmed.get(id)! / 2));
        const entry = scores.get(key) ?? { forms: new Set<string>(), weight: 0, inVerses: share };
        entry.forms.add(lemma);
        entry.weight = Math.max(entry.weight, score);
        scores.set(key, entry);
      }
    }
    // The whole heading found: its head word is not looked up on its own.
    if (synsets.length > 0) break;
  }
  const top = Math.max(0, ...[...scores.values()].map((entry) => entry.weight));
  const lemmas: PortugueseLemma[] = [...scores.entries()]
    .map(([key, entry]) => ({
      lemma: [...entry.forms].every((form) => /^\p{Lu}/u.test(form)) ? [...entry.forms][0]! : key,
      weight: top > 0 ? entry.weight / top : 0,
      inVerses: entry.inVerses,
    }))
    .filter((entry) => entry.weight >= MIN_WEIGHT)
    .sort((a, b) => b.weight - a.weight || a.lemma.localeCompare(b.lemma));
  const english = [...new Set([...englishBySynset.values()].flat())];
  return { lemmas, english };
}

/**
 * A word-by-word Portuguese gloss of a short English text (a sub-heading, an event's title):
 * each content word's first Portuguese lemma, function words left out; undefined when a content
 * word has none. `names` gives the Portuguese of capitalised names (the aligned names).
 */
export function glossWords(text: string, sources: BridgeSources, names: (english: string) => string | undefined = () => undefined): string[] | undefined {
  const out: string[] = [];
  for (const word of text.split(/[^A-Za-z'-]+/).filter(Boolean)) {
    const lower = word.toLowerCase().replace(/'s$/, "");
    if (ENGLISH_STOPWORDS.has(lower) || lower.length < 2) continue;
    const named = /^[A-Z]/.test(word) ? names(word.replace(/'s$/, "")) : undefined;
    if (named) {
      out.push(named);
      continue;
    }
    const lemma = bridgeHeading(lower, sources).lemmas.find((entry) => !entry.lemma.includes(" "))?.lemma;
    if (!lemma) return undefined;
    out.push(lemma);
  }
  return out;
}
