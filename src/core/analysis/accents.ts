/**
 * Words typed without accents, read as the corpus writes them. Snowball's suffix rules are
 * accented, so "coracao" and "coração" stem apart (docs/ANALYSIS.md): a query word without any
 * accent is restored before it is analysed (`analyzeTokens`' `AccentRestorer`), and the dense
 * query is rewritten the same way (`restoreAccentsIn`). Learned from each collection's texts.
 */
import { analyze, splitWords, WORD_PATTERN, type AccentRestorer } from "./analyze.js";
import { foldAccents } from "./fold.js";

/**
 * The text with each word typed without accents replaced by its restored spelling, everything
 * else (case, punctuation, accented words) as written: what the dense side embeds, so that it
 * reads "crucificacao" as the lexical side does.
 */
export function restoreAccentsIn(text: string, restoreAccents: AccentRestorer): string {
  return text.replace(WORD_PATTERN, (word) => {
    const lower = word.toLowerCase();
    if (foldAccents(lower) !== lower) return word;
    const restored = restoreAccents(lower);
    return restored === lower ? word : restored;
  });
}

/**
 * Suffixes Portuguese always writes with an accent, as typed without it and as written
 * (longest first): "-ção", "-ções", "-ões", "-ães", "-ãos", "-ão", "-ência", "-ância", "-ável",
 * "-ível" and their plurals.
 */
const ACCENTED_SUFFIXES: readonly (readonly [typed: string, written: string])[] = [
  ["coes", "ções"],
  ["encias", "ências"],
  ["ancias", "âncias"],
  ["aveis", "áveis"],
  ["iveis", "íveis"],
  ["encia", "ência"],
  ["ancia", "ância"],
  ["cao", "ção"],
  ["oes", "ões"],
  ["aes", "ães"],
  ["aos", "ãos"],
  ["avel", "ável"],
  ["ivel", "ível"],
  ["ao", "ão"],
];

/**
 * The accent restorer of a corpus: its own spelling of the words typed without accents
 * (`buildAccentRestorer`), and for a word the corpus does not have in any spelling, the
 * accented suffix its stem needs ("crucificacao" → "crucificação", which meets "crucificado"
 * although the corpus never writes the noun), kept only when every term it gives is one the
 * corpus has (`known`). A word whose own stem the corpus has is left alone.
 */
export function corpusAccentRestorer(units: readonly { text: string }[] | AccentTable, known: (term: string) => boolean): AccentRestorer {
  const learned = (units instanceof AccentTable ? units : AccentTable.learn(units)).restorer();
  return (word) => {
    const restored = learned(word);
    if (restored !== word || analyze(word).every(known)) return restored;
    for (const [typed, written] of ACCENTED_SUFFIXES) {
      if (!word.endsWith(typed) || word.length - typed.length < 2) continue;
      const candidate = `${word.slice(0, -typed.length)}${written}`;
      const terms = analyze(candidate);
      if (terms.length > 0 && terms.every(known)) return candidate;
    }
    return word;
  };
}

/**
 * Learns, from the corpus vocabulary, the accented spelling of words people type without
 * accents: the most frequent accented word folding to it ("coracao" → "coração"). A word
 * the corpus itself has unaccented is left alone.
 */
export function buildAccentRestorer(units: readonly { text: string }[]): AccentRestorer {
  return AccentTable.learn(units).restorer();
}

/**
 * What a corpus teaches of its spelling: each word typed without accents that the corpus
 * writes accented more often than not, with that spelling (sorted by the unaccented word, so
 * it can be saved as two lists and read back as they are).
 */
export class AccentTable {
  private readonly byTyped: Map<string, string>;

  constructor(
    readonly typed: readonly string[],
    readonly written: readonly string[],
  ) {
    if (typed.length !== written.length) throw new RangeError("AccentTable: the two lists differ in length");
    this.byTyped = new Map(typed.map((word, i) => [word, written[i]!]));
  }

  /** The most frequent accented word folding to each unaccented one, kept when it outnumbers the unaccented spelling. */
  static learn(units: readonly { text: string }[]): AccentTable {
    const counts = new Map<string, number>();
    for (const unit of units) for (const word of splitWords(unit.text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const best = new Map<string, { word: string; count: number }>();
    for (const [word, count] of counts) {
      const folded = foldAccents(word);
      if (folded === word) continue;
      const current = best.get(folded);
      if (!current || count > current.count) best.set(folded, { word, count });
    }
    const kept = [...best].filter(([folded, candidate]) => candidate.count > (counts.get(folded) ?? 0)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return new AccentTable(
      kept.map(([folded]) => folded),
      kept.map(([, candidate]) => candidate.word),
    );
  }

  restorer(): AccentRestorer {
    return (word) => this.byTyped.get(word) ?? word;
  }
}
