/**
 * Portuguese lexicon for query expansion: synonyms (words sharing a WordNet synset) and
 * verb↔noun nominalization partners (perdoar↔perdão).
 *
 * Data (resources/lexicon/, see its README.md and scripts/build-resources.ts; read from disk by
 * adapters/sources/lexicon-files.ts, this module only parses text):
 * - `wn-data-por.single-words.tab`: OpenWordNet-PT synsets, single-word lemmas only (CC BY-SA);
 * - `nominalizations.tsv`: NomLex-PT verb↔noun pairs from OpenWordNet-PT (CC BY 4.0);
 * - `nominalizations-extra.tsv`: a few pairs the project added (amar↔amor, temer↔temor, …).
 * Attribution: "OpenWordNet-PT (own-pt/openWordnet-PT), Rademaker, de Paiva et al.; based on
 * Princeton WordNet 3.0".
 *
 * Word forms:
 * - Lemmas are lowercased (the data has capitalised entries such as "Deus").
 * - Spelling is modernised to the 1990 Orthographic Agreement where the change is mechanical
 *   and unambiguous (see {@link modernizeSpelling}): the corpus (Bíblia Livre) uses modern
 *   spelling, the WordNet data has some older forms ("idéia", "freqüente", "vôo"). Query
 *   words go through the same function, so "idéia" and "ideia" both find the lemma.
 * - Lookup is by the lowercase form first; when nothing matches exactly, by the accent-folded
 *   form ("perdao" → "perdão"; a folded key may reach several lemmas, e.g. "avo" → avó, avô).
 *   Noun plurals listed by NomLex-PT ("perdões") also resolve to their singular.
 * - No stemming here: callers pass a lemma or the word as typed.
 */
import { foldAccents } from "./fold.js";

/** A WordNet synset with its (cleaned, single-word) lemmas. */
export interface WordnetSynset {
  /** Princeton WordNet 3.0 offset + POS, e.g. "07519253-n". */
  id: string;
  /** "n" | "v" | "a" | "r" (and "s" if ever present). */
  pos: string;
  lemmas: string[];
}

/** One NomLex-PT verb↔noun pair. */
export interface Nominalization {
  verb: string;
  noun: string;
  /** The noun names the agent ("perdoador", "salvador"), not the action or its result. */
  agentive: boolean;
  /** Plural of the noun, when the data gives it. */
  plural?: string;
}

export interface SynonymOptions {
  /** At most this many synonyms (default 10). */
  limit?: number;
  /**
   * Synsets with more (single-word) lemmas than this are ignored (default 12). In the shipped
   * data 96% of synsets have 2–4 lemmas; the few with 10+ are lists of colloquial variants
   * ("garotinha guria puela mocinha …", "efectuar desempenhar fazer obter …") that expand to
   * noise. Polysemy shows up rather as many synsets per word ("fazer" 25, "dar" 21): `limit`
   * and the ordering (words sharing several synsets first, then tight synsets) handle that.
   */
  maxSynsetSize?: number;
  /** Only synsets of this part of speech ("n", "v", "a", "r"). */
  pos?: string;
}

export interface LexiconOptions {
  /** Modernise spelling (default true; see {@link modernizeSpelling}). */
  modernize?: boolean;
  /** Replaces {@link BLOCKED_SYNSET_MARKERS} (pass [] to keep every synset). */
  blockedSynsetMarkers?: readonly string[];
  /** Replaces {@link BLOCKED_LEMMAS} (pass [] to keep every lemma). */
  blockedLemmas?: readonly string[];
}

export interface RelatedOptions {
  /** Include agent nouns ("perdoador" for "perdoar"); default true. They come after the others. */
  agentive?: boolean;
}

export const DEFAULT_SYNONYM_LIMIT = 10;
export const DEFAULT_MAX_SYNSET_SIZE = 12;

/**
 * Synsets containing any of these lemmas are dropped whole: they are sexual or slur senses
 * whose other members are ordinary words ("comer", "montar" with "foder"; "veado" (deer, Ps
 * 42:1) with "viado"/"sapatão"; "menina", "rapariga" with "puta"), so expanding through them
 * would put obscene or offensive senses into Bible search. "bicha" is also European
 * Portuguese for a queue; those few synsets (fila/fileira) are lost with it.
 */
export const BLOCKED_SYNSET_MARKERS: readonly string[] = Object.freeze([
  "bicha", "boceta", "boquete", "bronha", "buceta", "caralho", "cuzão", "foder", "fufa", "jeba",
  "paneleiro", "piroca", "puta", "punheta", "quenga", "sapatão", "viado", "xavasca", "xoxota",
]);

/**
 * Vulgar lemmas removed from every synset (the synset is kept: "merda" leaves "excremento",
 * "fezes", "esterco" together). Never returned, never expanded from.
 */
export const BLOCKED_LEMMAS: readonly string[] = Object.freeze([
  "bosta", "cacete", "cagalhão", "cagar", "chifrudo", "conas", "cu", "merda", "mijar", "peido",
  "pentelho", "pica", "picha", "pinar", "porra", "tesão",
]);

// ---------------------------------------------------------------------------------------------
// Word forms

const PORTUGUESE_WORD = /^[a-záàâãéêíóôõúüç]+$/;
const QUALIFIER = /\s*\([^)]*\)/g;

/**
 * Spelling modernisation (1990 Orthographic Agreement), only for mechanical, unambiguous rules:
 * - trema dropped: ü → u ("freqüente" → "frequente", "lingüiça" → "linguiça");
 * - open diphthongs éi/ói in paroxytones lose the accent: "-éia(s)", "-éio(s)", "-éico/-éica(s)",
 *   "-óia(s)", "-óio(s)", "-óico/-óica(s)" ("idéia" → "ideia", "jóia" → "joia", "heróico" →
 *   "heroico"); oxytones keep it ("papéis", "herói", "anzóis" are not touched);
 * - hiatus "ôo" loses the circumflex ("vôo" → "voo", "perdôo" → "perdoo");
 * - "-êem" → "-eem" ("crêem" → "creem", "vêem" → "veem").
 * Not touched: differential accents (pára, pêlo, pólo: ambiguous with para, pelo, polo),
 * "feiúra"-type accents, and European spellings (acto, selecção), which are not pre-reform
 * Brazilian spellings but another norm.
 */
export function modernizeSpelling(word: string): string {
  if (!/[üéóôê]/.test(word)) return word;
  return word
    .replace(/ü/g, "u")
    .replace(/éi(?=c?[aoe]s?$)/, "ei")
    .replace(/ói(?=c?[aoe]s?$)/, "oi")
    .replace(/ôo(?=s?$)/, "oo")
    .replace(/êem$/, "eem");
}

/**
 * Cleans a WordNet lemma into one lowercase word, or returns undefined when it is not a single
 * Portuguese word: qualifiers in parentheses are removed ("exposição (saúde)" → "exposição",
 * "cauteloso(a)" → "cauteloso"); multi-word ("entidade física"), hyphenated ("guarda-chuva":
 * the tokenizer splits it anyway), abbreviated ("etc."), numeric or foreign-letter lemmas
 * ("dyskwalifikować") are rejected, as are one-letter ones. Spelling is kept as in the data.
 */
export function cleanLemma(raw: string): string | undefined {
  const word = raw.normalize("NFC").replace(QUALIFIER, "").trim().toLowerCase();
  if (word.length < 2 || !PORTUGUESE_WORD.test(word)) return undefined;
  return word;
}

/** Lookup form of a query word: NFC, trimmed, lowercase, modernised spelling. */
function normalizeQuery(word: string): string {
  return modernizeSpelling(word.normalize("NFC").trim().toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * Parses Open Multilingual Wordnet tab text (`synset<TAB>lemma<TAB>word`, `#` header/comment
 * lines), the format of both OpenWordNet-PT's `wn-data-por.tab` and the shipped subset.
 * Lemmas go through {@link cleanLemma} (multi-word and non-word lemmas are dropped) and, unless
 * `modernize: false`, {@link modernizeSpelling}; duplicates within a synset are merged. Synsets
 * are returned in first-seen order; those left with no lemma are omitted. Rows whose second
 * column is not `lemma` (or `por:lemma`) are ignored.
 */
export function parseWordnetTab(text: string, options: { modernize?: boolean } = {}): WordnetSynset[] {
  const modernize = options.modernize ?? true;
  const synsets = new Map<string, WordnetSynset>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [id, kind, rawWord] = line.replace(/\r$/, "").split("\t");
    if (!id || rawWord === undefined || (kind !== "lemma" && kind !== "por:lemma")) continue;
    const cleaned = cleanLemma(rawWord);
    if (cleaned === undefined) continue;
    const lemma = modernize ? modernizeSpelling(cleaned) : cleaned;
    let synset = synsets.get(id);
    if (!synset) {
      const dash = id.lastIndexOf("-");
      synset = { id, pos: dash >= 0 ? id.slice(dash + 1) : "", lemmas: [] };
      synsets.set(id, synset);
    }
    if (!synset.lemmas.includes(lemma)) synset.lemmas.push(lemma);
  }
  return [...synsets.values()];
}

const WORD_IRI = (role: "noun" | "verb", pos: "n" | "v"): RegExp =>
  new RegExp(`owns:${role}\\s+own-pt:word-(\\S+?)-${pos}\\s*(?:[;,.]|$)`);
const NOUN_IRI = WORD_IRI("noun", "n");
const VERB_IRI = WORD_IRI("verb", "v");
const PLURAL = /owns:plural\s+"([^"]*)"/;

/**
 * Parses OpenWordNet-PT's `own-pt-morphosemantic-links.ttl` (NomLex-PT, RDF Turtle): every
 * `owns:Nominalization` record with both an `owns:verb` and an `owns:noun`
 * (`own-pt:word-perdoar-v`, `own-pt:word-perdão-n`) becomes a pair, with `owns:Agentive` and
 * `owns:plural` kept. Word forms go through {@link cleanLemma} (so lowercased) but keep the
 * data's spelling. Sense-level statements (`own-pt:wordsense-… owns:event …`) are ignored: they
 * name synset members by position, which the tab file cannot resolve. A line-oriented reader
 * for this file's layout (one statement = lines up to one ending in " ."), not a general
 * Turtle parser.
 */
export function parseMorphosemanticLinks(ttl: string): Nominalization[] {
  const pairs: Nominalization[] = [];
  let statement: string[] = [];
  for (const rawLine of ttl.split("\n")) {
    const line = rawLine.replace(/\r$/, "");
    if (statement.length === 0 && (line.trim() === "" || line.startsWith("@prefix") || line.startsWith("#"))) continue;
    statement.push(line);
    if (!/\s\.\s*$/.test(line)) continue;
    const text = statement.join("\n");
    statement = [];
    if (!/nomlex-/.test(text.slice(0, text.search(/\s/))) || !/owns:Nominalization/.test(text)) continue;
    const noun = cleanLemma(NOUN_IRI.exec(text)?.[1] ?? "");
    const verb = cleanLemma(VERB_IRI.exec(text)?.[1] ?? "");
    if (noun === undefined || verb === undefined) continue;
    const pair: Nominalization = { verb, noun, agentive: /owns:Agentive\b/.test(text) };
    const plural = cleanLemma(PLURAL.exec(text)?.[1] ?? "");
    if (plural !== undefined) pair.plural = plural;
    pairs.push(pair);
  }
  return pairs;
}

/**
 * Parses the shipped nominalization table: `verb<TAB>noun<TAB>kind<TAB>plural`, where kind is
 * `agentive` or empty and plural may be empty; `#` lines are comments.
 */
export function parseNominalizations(text: string): Nominalization[] {
  const pairs: Nominalization[] = [];
  for (const rawLine of text.split("\n")) {
    const line = rawLine.replace(/\r$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const [verb, noun, kind, plural] = line.split("\t");
    if (!verb || !noun) continue;
    const pair: Nominalization = { verb: verb.trim().toLowerCase(), noun: noun.trim().toLowerCase(), agentive: kind === "agentive" };
    if (plural) pair.plural = plural.trim().toLowerCase();
    pairs.push(pair);
  }
  return pairs;
}

/** The `#` comment lines, then the rows, one a line. */
function formatLines(headerLines: readonly string[], rows: readonly string[]): string {
  return `${[...headerLines.map((line) => `# ${line}`), ...rows].join("\n")}\n`;
}

/** Inverse of {@link parseNominalizations}, after the given `#` comment lines. */
export function formatNominalizations(pairs: readonly Nominalization[], headerLines: readonly string[] = []): string {
  const rows = pairs.map((pair) => [pair.verb, pair.noun, pair.agentive ? "agentive" : "", pair.plural ?? ""].join("\t"));
  return formatLines(headerLines, rows);
}

/** Serialises synsets as OMW tab rows (`synset<TAB>lemma<TAB>word`), after `#` comment lines. */
export function formatWordnetTab(synsets: readonly WordnetSynset[], headerLines: readonly string[] = []): string {
  return formatLines(headerLines, synsets.flatMap((synset) => synset.lemmas.map((lemma) => `${synset.id}\tlemma\t${lemma}`)));
}

// ---------------------------------------------------------------------------------------------
// Index

interface Partner {
  word: string;
  agentive: boolean;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const collator = new Intl.Collator("pt");

/** A lexicon as flat lists: each map's keys in its order, and its values as runs of one list between ends. */
export interface LexiconParts {
  synsetIds: readonly string[];
  synsetPos: readonly string[];
  synsetLemmaEnds: Int32Array;
  synsetLemmas: readonly string[];
  byLemmaKeys: readonly string[];
  byLemmaEnds: Int32Array;
  byLemmaIndices: Int32Array;
  byFoldedKeys: readonly string[];
  byFoldedEnds: Int32Array;
  byFoldedWords: readonly string[];
  partnerKeys: readonly string[];
  partnerEnds: Int32Array;
  partnerWords: readonly string[];
  partnerAgentive: Uint8Array;
  pluralKeys: readonly string[];
  pluralValues: readonly string[];
}

/** `values` cut into consecutive runs ending at `ends`; throws when they do not fit. */
function runs<T>(ends: Int32Array, values: readonly T[]): T[][] {
  const out: T[][] = [];
  let from = 0;
  for (const end of ends) {
    if (end < from || end > values.length) throw new RangeError("lexicon parts: runs do not fit");
    out.push(values.slice(from, end));
    from = end;
  }
  if (from !== values.length) throw new RangeError("lexicon parts: runs do not fit");
  return out;
}

export class Lexicon {
  private readonly synsetList: WordnetSynset[];
  /** Lemma → indices into synsetList. */
  private readonly synsetsByLemma = new Map<string, number[]>();
  /** Folded lemma or nominalization word → lowercase forms. */
  private readonly byFolded = new Map<string, string[]>();
  /** Word → nominalization partners. */
  private readonly partners = new Map<string, Partner[]>();
  /** Noun plural (and its folded form) → singular. */
  private readonly plurals = new Map<string, string>();

  /**
   * Builds the index. Words are expected lowercase and already cleaned (as the parse functions
   * return them); spelling is modernised here unless `modernize: false`, and the blocklists
   * ({@link BLOCKED_SYNSET_MARKERS}, {@link BLOCKED_LEMMAS}) are applied.
   */
  constructor(synsets: readonly WordnetSynset[] | LexiconParts, nominalizations: readonly Nominalization[] = [], options: LexiconOptions = {}) {
    if (!Array.isArray(synsets)) {
      const parts = synsets as LexiconParts;
      this.synsetList = runs(parts.synsetLemmaEnds, parts.synsetLemmas).map((lemmas, i) => ({ id: parts.synsetIds[i]!, pos: parts.synsetPos[i]!, lemmas }));
      runs(parts.byLemmaEnds, Array.from(parts.byLemmaIndices)).forEach((indices, i) => this.synsetsByLemma.set(parts.byLemmaKeys[i]!, indices));
      runs(parts.byFoldedEnds, parts.byFoldedWords).forEach((words, i) => this.byFolded.set(parts.byFoldedKeys[i]!, words));
      const agentive = Array.from(parts.partnerAgentive, (flag) => flag === 1);
      runs(parts.partnerEnds, parts.partnerWords.map((word, i) => ({ word, agentive: agentive[i]! }))).forEach((list, i) => this.partners.set(parts.partnerKeys[i]!, list));
      parts.pluralKeys.forEach((plural, i) => this.plurals.set(plural, parts.pluralValues[i]!));
      return;
    }
    const modernize = options.modernize === false ? (word: string) => word : modernizeSpelling;
    const markers = new Set(options.blockedSynsetMarkers ?? BLOCKED_SYNSET_MARKERS);
    const blocked = new Set(options.blockedLemmas ?? BLOCKED_LEMMAS);
    this.synsetList = [];
    for (const synset of synsets as readonly WordnetSynset[]) {
      const all = [...new Set(synset.lemmas.map(modernize))];
      if (all.some((lemma) => markers.has(lemma))) continue;
      const lemmas = all.filter((lemma) => !blocked.has(lemma));
      if (lemmas.length === 0) continue;
      const index = this.synsetList.length;
      this.synsetList.push({ id: synset.id, pos: synset.pos, lemmas });
      for (const lemma of lemmas) pushTo(this.synsetsByLemma, lemma, index);
    }
    const seenPairs = new Set<string>();
    for (const pair of nominalizations) {
      const verb = modernize(pair.verb);
      const noun = modernize(pair.noun);
      if (verb === noun || blocked.has(verb) || blocked.has(noun) || markers.has(verb) || markers.has(noun)) continue;
      const key = `${verb}\t${noun}`;
      if (seenPairs.has(key)) continue;
      seenPairs.add(key);
      pushTo(this.partners, verb, { word: noun, agentive: pair.agentive });
      pushTo(this.partners, noun, { word: verb, agentive: pair.agentive });
      if (pair.plural) {
        const plural = modernize(pair.plural);
        if (plural !== noun && !this.plurals.has(plural)) this.plurals.set(plural, noun);
      }
    }
    const words = new Set([...this.synsetsByLemma.keys(), ...this.partners.keys()]);
    for (const word of words) pushTo(this.byFolded, foldAccents(word), word);
    for (const [plural, noun] of [...this.plurals]) {
      const folded = foldAccents(plural);
      if (!this.plurals.has(folded)) this.plurals.set(folded, noun);
    }
  }

  /** Everything the lexicon holds, as flat lists (what a snapshot saves; `new Lexicon(parts)` reads it back, every map in its order). */
  toParts(): LexiconParts {
    const flat = <V, W>(map: Map<string, V[]>, each: (value: V) => W) => {
      const ends = new Int32Array(map.size);
      const values: W[] = [];
      [...map.values()].forEach((list, i) => {
        for (const value of list) values.push(each(value));
        ends[i] = values.length;
      });
      return { keys: [...map.keys()], ends, values };
    };
    const lemmas = flat<string, string>(new Map(this.synsetList.map((synset, i) => [String(i), synset.lemmas])), (lemma) => lemma);
    const byLemma = flat<number, number>(this.synsetsByLemma, (index) => index);
    const byFolded = flat<string, string>(this.byFolded, (word) => word);
    const partners = flat<Partner, Partner>(this.partners, (partner) => partner);
    return {
      synsetIds: this.synsetList.map((synset) => synset.id),
      synsetPos: this.synsetList.map((synset) => synset.pos),
      synsetLemmaEnds: lemmas.ends,
      synsetLemmas: lemmas.values,
      byLemmaKeys: byLemma.keys,
      byLemmaEnds: byLemma.ends,
      byLemmaIndices: Int32Array.from(byLemma.values),
      byFoldedKeys: byFolded.keys,
      byFoldedEnds: byFolded.ends,
      byFoldedWords: byFolded.values,
      partnerKeys: partners.keys,
      partnerEnds: partners.ends,
      partnerWords: partners.values.map((partner) => partner.word),
      partnerAgentive: Uint8Array.from(partners.values, (partner) => (partner.agentive ? 1 : 0)),
      pluralKeys: [...this.plurals.keys()],
      pluralValues: [...this.plurals.values()],
    };
  }

  /** Number of distinct lemmas with at least one synset. */
  get size(): number {
    return this.synsetsByLemma.size;
  }

  /** Number of synsets kept. */
  get synsetCount(): number {
    return this.synsetList.length;
  }

  /** Number of distinct words with a nominalization partner. */
  get relatedCount(): number {
    return this.partners.size;
  }

  /** True when the word (resolved as in {@link lemmasFor}) is in the lexicon. */
  has(word: string): boolean {
    return this.lemmasFor(word).length > 0;
  }

  /**
   * The lexicon forms a query word stands for: its lowercase, modernised form when known;
   * otherwise every form with the same accent-folded spelling ("perdao" → ["perdão"]);
   * otherwise the singular of a known noun plural ("perdões" → ["perdão"]); otherwise [].
   */
  lemmasFor(word: string): string[] {
    const form = normalizeQuery(word);
    if (form === "") return [];
    if (this.synsetsByLemma.has(form) || this.partners.has(form)) return [form];
    const folded = foldAccents(form);
    const byFolded = this.byFolded.get(folded);
    if (byFolded) return [...byFolded];
    const singular = this.plurals.get(form) ?? this.plurals.get(folded);
    return singular === undefined ? [] : [singular];
  }

  /** The synsets of a word (resolved as in {@link lemmasFor}), with their lemmas, for inspection. */
  synsets(word: string): WordnetSynset[] {
    return this.synsetsOf(this.lemmasFor(word)).map((synset) => ({ ...synset, lemmas: [...synset.lemmas] }));
  }

  /** The synsets of these lemmas, each once, in the order first reached. */
  private synsetsOf(lemmas: readonly string[]): WordnetSynset[] {
    const indices = new Set(lemmas.flatMap((lemma) => this.synsetsByLemma.get(lemma) ?? []));
    return [...indices].map((index) => this.synsetList[index]!);
  }

  /**
   * Other lemmas sharing a synset with the word, deduplicated, the word itself (and any form
   * folding to the same spelling) excluded. Synsets larger than `maxSynsetSize` are skipped.
   * Ordered by the number of synsets shared with the word (descending), then by the size of the
   * smallest shared synset (a 2-word synset is a tighter synonym than an 11-word one), then
   * alphabetically; at most `limit` are returned.
   */
  synonyms(word: string, options: SynonymOptions = {}): string[] {
    const limit = options.limit ?? DEFAULT_SYNONYM_LIMIT;
    const maxSize = options.maxSynsetSize ?? DEFAULT_MAX_SYNSET_SIZE;
    const lemmas = this.lemmasFor(word);
    if (lemmas.length === 0 || limit <= 0) return [];
    const excluded = new Set([foldAccents(normalizeQuery(word)), ...lemmas.map((lemma) => foldAccents(lemma))]);
    const shared = new Map<string, { count: number; smallest: number }>();
    for (const synset of this.synsetsOf(lemmas)) {
      if (synset.lemmas.length > maxSize || (options.pos !== undefined && synset.pos !== options.pos)) continue;
      for (const other of synset.lemmas) {
        if (excluded.has(foldAccents(other))) continue;
        const entry = shared.get(other) ?? { count: 0, smallest: synset.lemmas.length };
        entry.count++;
        entry.smallest = Math.min(entry.smallest, synset.lemmas.length);
        shared.set(other, entry);
      }
    }
    return [...shared]
      .sort(([a, x], [b, y]) => y.count - x.count || x.smallest - y.smallest || collator.compare(a, b))
      .slice(0, limit)
      .map(([other]) => other);
  }

  /**
   * Verb↔noun nominalization partners ("perdoar" → ["perdão", "perdoador"], "perdão" →
   * ["perdoar"]), deduplicated, the word itself excluded; non-agentive partners first, then
   * alphabetical.
   */
  related(word: string, options: RelatedOptions = {}): string[] {
    const includeAgentive = options.agentive ?? true;
    const lemmas = this.lemmasFor(word);
    const found = new Map<string, boolean>();
    for (const lemma of lemmas) {
      for (const partner of this.partners.get(lemma) ?? []) {
        if (!includeAgentive && partner.agentive) continue;
        if (lemmas.includes(partner.word)) continue;
        // A partner that is both agentive and not (two records) counts as not agentive.
        found.set(partner.word, (found.get(partner.word) ?? true) && partner.agentive);
      }
    }
    return [...found]
      .sort(([a, x], [b, y]) => Number(x) - Number(y) || collator.compare(a, b))
      .map(([partner]) => partner);
  }
}
