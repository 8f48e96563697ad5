/**
 * The lexical side of a collection's search, one for every collection (the Bible's verses, a
 * discipline's chunks): BM25 over the units' analysed terms, plus what refines it, each
 * switched by its weight — phrase bigrams, exact (unstemmed, folded) words for collision-prone
 * short stems, lexicon expansions, question-frame words weighed down — and the asker's
 * unaccented words restored to the corpus's spelling. Pure.
 */
import { analyze, analyzeTokens, foldAccents, restoreAccentsIn, splitWords, tokenize, type AccentRestorer } from "../analysis/index.js";
import { NameShares, WordsByTerm, type CorpusVocabulary } from "./scope/features.js";
import { Bm25Index, DEFAULT_BM25, type Bm25Hit, type WeightedTerm } from "./bm25.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";
import { StringRuns } from "./string-runs.js";
import { wordBigrams } from "./phrases.js";
import { frameWordsOf } from "../reading/frames.js";

/** How the lexical side scores: BM25's parameters and the weight of each refinement (0 or 1 turns it off, as said). */
export interface LexicalSettings {
  bm25K1: number;
  bm25B: number;
  /** Weight of the phrase (bigram) signal added to the BM25 score (0: no phrase index). */
  phraseWeight: number;
  /** Stems this short (or shorter) are collision-prone: matched mainly by the exact word (0: off). */
  shortStemLength: number;
  /** Weight of a collision-prone short stem (its exact word keeps weight 1). */
  shortStemWeight: number;
  /**
   * The exact word takes over only when the corpus has enough of it: "medo" (133 verses)
   * carries itself, while "amar" (16) still needs its stem to meet "amai".
   */
  shortStemMinExactDf: number;
  /** Weight of lexicon expansions relative to the asker's own words (0: none). */
  expansionWeight: number;
  /** At most this many expansions (that the corpus uses) per query word. */
  expansionsPerWord: number;
  /** Weight of question-frame words ("parábola", "versículo"…) on the lexical side (1: like any word). */
  frameWordWeight: number;
}

/** Plain BM25 over the analysed terms: every refinement off. */
export const PLAIN_LEXICAL: Omit<LexicalSettings, "bm25K1" | "bm25B"> = {
  phraseWeight: 0,
  shortStemLength: 0,
  shortStemWeight: 1,
  shortStemMinExactDf: 0,
  expansionWeight: 0,
  expansionsPerWord: 0,
  frameWordWeight: 1,
};

export interface QueryExpander {
  /** Other words worth searching for a query word (synonyms, verb↔noun partners). */
  expand(word: string): readonly string[];
}

/** What the lexical side reads of a unit: its text and the analysed terms BM25 indexes. */
export interface LexicalUnit {
  text: string;
  terms: readonly string[];
}

export interface LexicalOptions {
  expander?: QueryExpander | undefined;
  /** Restores the accents of words typed without them ("coracao" → "coração"): `buildAccentRestorer` over the collection's texts. */
  restoreAccents?: AccentRestorer | undefined;
  /** The indexes and tables as a snapshot holds them (`LexicalSide.read`): taken as they are, nothing is built from the units. */
  prebuilt?: LexicalPrebuilt | undefined;
}

/** Everything a lexical side builds from its units, ready made (read from a snapshot). */
export interface LexicalPrebuilt {
  index: Bm25Index;
  phrases: Bm25Index;
  exact: Bm25Index;
  families: FamilyIndex;
  wordsOfTerm: WordsByTerm;
  nameShares: NameShares;
}

/** A unit's lexical score and the analysed terms it matched. */
export interface LexicalScore {
  score: number;
  matchedTerms: string[];
}

/** The weighted terms of a query: the asker's own words, the lexicon's expansions, the exact words. */
export interface LexicalQuery {
  own: WeightedTerm[];
  expansions: WeightedTerm[];
  exact: WeightedTerm[];
}

/** How many recent texts a lexical side keeps the reading of. */
const RECENT_QUERIES = 4;

/** An expansion term in more than this share of units is too common to help. */
const MAX_EXPANSION_DOC_SHARE = 0.01;

/** One collection's (or one silo's) lexical side: its indexes, built at load, and its query reading. */
export class LexicalSide {
  /** BM25 over the analysed terms (stemmed, folded). */
  readonly index: Bm25Index;
  private phrases: Bm25Index | undefined;
  private exactIndex: Bm25Index | undefined;
  private familyIndex: FamilyIndex | undefined;
  private corpusVocabulary: CorpusVocabulary | undefined;
  private wordsOfTerm: WordsByTerm | undefined;
  private nameShares: NameShares | undefined;
  private readonly recentQueries: { text: string; query: LexicalQuery }[] = [];
  readonly restoreAccents: AccentRestorer | undefined;

  constructor(
    private readonly units: readonly LexicalUnit[],
    readonly settings: LexicalSettings,
    private readonly options: LexicalOptions = {},
  ) {
    const prebuilt = options.prebuilt;
    this.restoreAccents = options.restoreAccents;
    if (prebuilt) {
      this.index = prebuilt.index;
      this.phrases = settings.phraseWeight > 0 ? prebuilt.phrases : undefined;
      this.exactIndex = prebuilt.exact;
      this.familyIndex = prebuilt.families;
      this.wordsOfTerm = prebuilt.wordsOfTerm;
      this.nameShares = prebuilt.nameShares;
      return;
    }
    this.index = new Bm25Index(
      units.map((unit) => unit.terms),
      { k1: settings.bm25K1, b: settings.bm25B },
    );
    this.phrases = settings.phraseWeight > 0 ? this.buildPhrases() : undefined;
    if (settings.shortStemLength > 0) this.exact(); // built at load, not on the first query
  }

  private buildPhrases(): Bm25Index {
    return new Bm25Index(this.units.map((unit) => (unit.text === "" ? [] : wordBigrams(unit.text))));
  }

  /** Reads what `write` saved under `name`, for a side with these settings (its BM25 parameters). */
  static read(snapshot: SnapshotReader, name: string, settings: Pick<LexicalSettings, "bm25K1" | "bm25B">): LexicalPrebuilt {
    const prebuilt: LexicalPrebuilt = {
      index: Bm25Index.read(snapshot, `${name}.bm25`, { k1: settings.bm25K1, b: settings.bm25B }),
      phrases: Bm25Index.read(snapshot, `${name}.phrases`, DEFAULT_BM25),
      exact: Bm25Index.read(snapshot, `${name}.exact`, DEFAULT_BM25),
      families: FamilyIndex.read(snapshot, `${name}.families`),
      wordsOfTerm: WordsByTerm.read(snapshot, `${name}.wordsOfTerm`),
      nameShares: NameShares.read(snapshot, `${name}.nameShares`),
    };
    const documents = prebuilt.index.documentCount;
    if (prebuilt.phrases.documentCount !== documents || prebuilt.exact.documentCount !== documents) throw new SnapshotError(`lexical side ${name}: its indexes differ in size`);
    return prebuilt;
  }

  /** Saves every index and table of this side under `name` (building those not built yet: the phrases, whatever the settings). */
  write(snapshot: SnapshotWriter, name: string): void {
    this.index.write(snapshot, `${name}.bm25`);
    (this.phrases ?? this.buildPhrases()).write(snapshot, `${name}.phrases`);
    this.exact().write(snapshot, `${name}.exact`);
    this.families().write(snapshot, `${name}.families`);
    this.wordTable().write(snapshot, `${name}.wordsOfTerm`);
    this.nameTable().write(snapshot, `${name}.nameShares`);
  }

  private wordTable(): WordsByTerm {
    this.wordsOfTerm ??= WordsByTerm.of(this.units.map((unit) => unit.text));
    return this.wordsOfTerm;
  }

  private nameTable(): NameShares {
    this.nameShares ??= NameShares.of(this.units.map((unit) => unit.text));
    return this.nameShares;
  }

  get documentCount(): number {
    return this.index.documentCount;
  }

  /** The text as this side reads it: words typed without accents in the corpus's spelling (for the dense query). */
  restoreAccentsIn(text: string): string {
    return this.restoreAccents ? restoreAccentsIn(text, this.restoreAccents) : text;
  }

  /** The exact-word index, built on first use (only the exact-word settings and the gate need it). */
  exact(): Bm25Index {
    this.exactIndex ??= new Bm25Index(this.units.map((unit) => tokenize(unit.text)));
    return this.exactIndex;
  }

  /** Derivational root → the analysed terms of the corpus words sharing it (built on first use). */
  families(): FamilyIndex {
    this.familyIndex ??= FamilyIndex.of(this.units);
    return this.familyIndex;
  }

  /** The corpus statistics the out-of-scope gate reads (unit documents, stems and exact words). */
  vocabulary(): CorpusVocabulary {
    this.corpusVocabulary ??= {
      documentCount: this.index.documentCount,
      termFrequency: (term) => this.index.documentFrequency(term),
      termDocuments: (term) => this.index.documentsOf(term),
      wordFrequency: (word) => this.exact().documentFrequency(word),
      wordsOfTerm: (term) => this.wordTable().get(term),
      nameShare: (word) => this.nameTable().get(word),
      analyze: (text) => analyzeTokens(text, this.restoreAccents),
    };
    return this.corpusVocabulary;
  }

  /** Whether an expansion term is one the corpus uses, and not so common that it carries no signal. */
  usableExpansion(term: string): boolean {
    const df = this.index.documentFrequency(term);
    return df > 0 && df <= this.index.documentCount * MAX_EXPANSION_DOC_SHARE;
  }

  /**
   * The asker's own analysed terms (weight 1, less for short stems and frame words), the
   * lexicon expansions (lower weight) and the exact words. The last few texts' readings are
   * kept (a search reads its question more than once: the sides, the theme, the gate's search
   * again); each call gets its own copy.
   */
  query(text: string): LexicalQuery {
    let known = this.recentQueries.find((entry) => entry.text === text);
    if (!known) {
      known = { text, query: this.readQuery(text) };
      this.recentQueries.unshift(known);
      if (this.recentQueries.length > RECENT_QUERIES) this.recentQueries.pop();
    }
    const copy = (terms: readonly WeightedTerm[]) => terms.map(({ term, weight }) => ({ term, weight }));
    return { own: copy(known.query.own), expansions: copy(known.query.expansions), exact: copy(known.query.exact) };
  }

  private readQuery(text: string): LexicalQuery {
    const { settings } = this;
    const tokens = analyzeTokens(text, this.restoreAccents);
    const own = tokens.map((token) => token.term);
    const expansions: WeightedTerm[] = [];
    const expander = this.options.expander;
    if (expander && settings.expansionWeight > 0) {
      const taken = new Set(own);
      for (const word of splitWords(text)) {
        let added = 0;
        for (const related of expander.expand(word)) {
          if (added >= settings.expansionsPerWord) break;
          // An expansion counts only when every new term of it is usable.
          const candidates = analyze(related).filter((term) => !taken.has(term));
          if (candidates.length === 0 || !candidates.every((term) => this.usableExpansion(term))) continue;
          for (const term of candidates) {
            taken.add(term);
            expansions.push({ term, weight: settings.expansionWeight });
          }
          added++;
        }
      }
    }
    // Short stems collide across word families ("medo" and "mediu" both stem to "med",
    // "luto" and "lutar" to "lut"): for those, the exact word carries the match and the
    // stem only a share of it.
    const shortStem = (token: { term: string; surface: string }) =>
      token.term.length <= settings.shortStemLength &&
      token.surface !== token.term &&
      this.exact().documentFrequency(token.surface) >= settings.shortStemMinExactDf;
    const frame = settings.frameWordWeight < 1 ? frameWordsOf(text) : new Set<string>();
    const ownTerms = tokens.map((token) => ({
      term: token.term,
      weight: (shortStem(token) ? settings.shortStemWeight : 1) * (frame.has(token.surface) ? settings.frameWordWeight : 1),
    }));
    // The exact word of a collision-prone short stem carries its match.
    const exact = tokens.filter(shortStem).map((token) => ({ term: token.surface, weight: 1 }));
    return { own: ownTerms, expansions, exact };
  }

  /**
   * The units matching a query, `depth` deep on each index: BM25 over the own words and
   * expansions, plus the exact-word and phrase scores where they apply, in the order found
   * (best BM25 first; a caller that adds other signals sorts again).
   */
  hits(text: string, depth: number): Map<number, LexicalScore> {
    const scores = new Map<number, LexicalScore>();
    /** Adds a hit's score to its unit's entry, or starts the entry with the terms given. */
    const add = (hit: Bm25Hit, matchedTerms: string[]) => {
      const entry = scores.get(hit.doc);
      if (entry) entry.score += hit.score;
      else scores.set(hit.doc, { score: hit.score, matchedTerms });
    };
    const { own, expansions, exact } = this.query(text);
    // Expansions, exact-word and phrase signals only refine a query that has words of its
    // own: a stopword-only query gives nothing.
    if (own.length === 0) return scores;
    for (const hit of this.index.search([...own, ...expansions], depth)) add(hit, hit.matchedTerms);
    for (const hit of exact.length > 0 ? this.exact().search(exact, depth) : []) add(hit, hit.matchedTerms);
    if (this.phrases) {
      const frame = this.settings.frameWordWeight < 1 ? frameWordsOf(text) : new Set<string>();
      const bigrams = wordBigrams(text)
        .filter((bigram) => !bigram.split(" ").some((word) => frame.has(word)))
        .map((term) => ({ term, weight: this.settings.phraseWeight }));
      for (const hit of this.phrases.search(bigrams, depth)) add(hit, []);
    }
    return scores;
  }
}

/**
 * Derivational root → the analysed terms of the corpus words sharing it, in the order the
 * corpus first writes them (that order is the theme list's query order): the roots as a
 * sorted dictionary, the terms as one list, each root's run of it between two offsets.
 */
export class FamilyIndex {
  private constructor(private readonly runs: StringRuns) {}

  static of(units: readonly { text: string }[]): FamilyIndex {
    const families = new Map<string, Set<string>>();
    // The distinct words, gathered without a list of every word of the corpus (800,000 for the Bible).
    const words = new Set<string>();
    for (const unit of units) for (const word of splitWords(unit.text)) words.add(word);
    for (const word of words) {
      const root = derivationalRoot(foldAccents(word));
      if (!root) continue;
      const terms = analyze(word);
      if (terms.length !== 1) continue;
      let family = families.get(root);
      if (!family) families.set(root, (family = new Set()));
      family.add(terms[0]!);
    }
    return new FamilyIndex(StringRuns.of(families));
  }

  static read(snapshot: SnapshotReader, name: string): FamilyIndex {
    return new FamilyIndex(StringRuns.read(snapshot, familyParts(name)));
  }

  write(snapshot: SnapshotWriter, name: string): void {
    this.runs.write(snapshot, familyParts(name));
  }

  /** The family's terms, in the corpus's order; undefined for a root no corpus word has. */
  get(root: string): readonly string[] | undefined {
    return this.runs.get(root);
  }
}

const familyParts = (name: string) => ({ keys: `${name}.roots`, offsets: `${name}.offsets`, values: `${name}.terms`, label: `family index ${name}` });

/**
 * Portuguese derivational suffixes that turn a quality or feeling into its noun or adjective
 * ("ansiedade" / "ansiosos", "paciência" / "pacientes"); folded, longest first. Snowball keeps
 * such families apart ("ansiedad" ≠ "ansios").
 */
const DERIVATIONAL_SUFFIXES = ["edades", "idades", "edade", "idade", "encias", "ancias", "encia", "ancia", "entes", "antes", "ente", "ante", "osos", "osas", "oso", "osa", "ezas", "eza"];
const MIN_ROOT = 4;

/** The root of a folded word under one derivational suffix, or undefined when none applies. */
export function derivationalRoot(word: string): string | undefined {
  for (const suffix of DERIVATIONAL_SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= MIN_ROOT) return word.slice(0, -suffix.length);
  }
  return undefined;
}
