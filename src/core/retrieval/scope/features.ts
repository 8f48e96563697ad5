/**
 * What a question's words say about whether the corpus can answer it: for each content word,
 * whether the corpus (or a close spelling of it) knows it, how focal it is there (idf), whether
 * it is a real Portuguese word at all, and what WordNet says it names (a food, a feeling, a
 * machine…). Pure: the corpus statistics, the dictionary and the topic lexicon are passed in.
 */
import { analyzeWord, foldAccents, splitWords, type AnalyzedToken } from "../../analysis/index.js";
import { CHAT_SHORTHAND } from "../../analysis/shorthand.js";
import { isStopword } from "../../analysis/stopwords.js";
import { THIRD_PERSON_PAST } from "../../reading/frames.js";
import type { TopicLexicon } from "./topics.js";
import { stretchMasses, stretchScratch, type StretchScratch } from "../stretches.js";
import { TermDictionary } from "../term-dictionary.js";
import { StringRuns } from "../string-runs.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../../index/snapshot.js";

/** Document statistics of the collection the question is asked of (Bible or documents). */
export interface CorpusVocabulary {
  readonly documentCount: number;
  /** Documents whose analysed terms include this term (stem). */
  termFrequency(term: string): number;
  /** Those documents, in increasing order (documents in corpus order: neighbours are neighbours in the text). */
  termDocuments(term: string): ArrayLike<number>;
  /** Documents containing this folded word exactly. */
  wordFrequency(foldedWord: string): number;
  /** The folded corpus words that analyse to a term ("amai", "amar" for "ama"). */
  wordsOfTerm(term: string): readonly string[];
  /** 0..1: how often the corpus writes this folded word capitalized in mid-sentence (a name: "Naamã", "Jericó"). */
  nameShare(foldedWord: string): number;
  /** The question's analysed tokens as the collection's lexical side sees them (accents restored). */
  analyze(text: string): AnalyzedToken[];
}

/** Which stems are words of the language (a dictionary's stems), to tell a typo from a word. */
export interface WordList {
  hasStem(stem: string): boolean;
}

/**
 * known: the collection has it; typo: a misspelling of a collection word; related: the
 * collection lacks it but has a synonym or verb↔noun partner of it ("solidão" → "sozinho");
 * foreign: a real Portuguese word the collection never uses; nonword: neither (a brand, a
 * foreign word, a typo too far from anything).
 */
export type WordStatus = "known" | "typo" | "related" | "foreign" | "nonword";

/** One content word of the question and what the corpus and the lexicons say of it. */
export interface WordEvidence {
  word: string;
  term: string;
  status: WordStatus;
  /** Documents with the term (for a typo: with the corrected spelling). */
  documentFrequency: number;
  /** 0..1: idf of the term over the largest possible idf (1 = a word the corpus lacks). */
  specificity: number;
  /** The corpus word a typo was read as, or the related word the corpus uses. */
  correctedTo?: string;
  /** WordNet lexicographer files of the word, with shares. */
  lexnames: ReadonlyMap<string, number>;
  domains: ReadonlySet<string>;
  /** The collection writes the word as a name (capitalized in mid-sentence at least NAME_SHARE of the time). */
  corpusName?: boolean;
}

/** The share of capitalized mid-sentence occurrences from which a corpus word is a name. */
export const NAME_SHARE = 0.9;

/**
 * Words that ask about the question rather than name its subject ("como", "fazer", "melhor"):
 * never evidence either way. Kept short and generic on purpose.
 */
const QUESTION_WORDS = new Set(
  [
    "como", "qual", "quais", "quanto", "quantos", "quantas", "quando", "onde", "porque", "quem", "oque",
    "fazer", "faço", "faz", "ser", "ter", "tem", "pode", "posso", "devo", "deve", "saber", "quero", "queria",
    "gostaria", "preciso", "melhor", "bom", "boa", "dizer", "diz", "fala", "falar", "explique", "explica",
    "explicar", "me", "sobre", "ajuda", "ajudar", "hoje", "agora", "coisa", "coisas", "favor", "alguém", "alguem",
    "vai", "vou", "ir", "fica", "ficar", "dá", "dar", "usar", "certo", "errado", "tudo",
  ]
    .map((word) => foldAccents(word))
    // Spoken contractions and the chat shorthand of Brazilian Portuguese ("pra", "vc", "dnv"):
    // function words, whatever the corpus spells alike ("pro" is in 3 verses), never a foreign word.
    .concat(Object.keys(CHAT_SHORTHAND)),
);

/**
 * "reprovei", "perdi", "sofri": a verb in the first person of the past tells the asker's own
 * story. Read from the word's form, checked against the WordNet verb its infinitive names.
 */
function isFirstPersonPreterite(word: string, evidence: readonly WordEvidence[]): boolean {
  const folded = foldAccents(word.toLowerCase());
  return /^\p{L}{3,}(?:ei|i)$/u.test(folded) && namesAVerb(folded, evidence);
}

/** Whether WordNet files the question word (folded) as a verb. */
function namesAVerb(folded: string, evidence: readonly WordEvidence[]): boolean {
  const entry = evidence.find((item) => item.word === folded);
  return entry !== undefined && [...entry.lexnames.keys()].some((name) => name.startsWith("verb."));
}

/**
 * Verbs of the third person past ("voltou", "engoliu", "jogaram", "fez"): a person recalling a
 * story tells what someone did. Regular forms are read from the ending and checked against the
 * WordNet verb the word names; the commonest irregular ones are listed.
 */
const IRREGULAR_NARRATIVE_VERBS = new Set(
  ["fez", "fizeram", "disse", "disseram", "deu", "deram", "veio", "vieram", "trouxe", "trouxeram", "puseram", "viu", "viram", "quis", "quiseram", "teve", "tiveram", "houve", "soube", "souberam", "coube", "fugiu", "caiu", "sumiu"].map(foldAccents),
);

/** A whole (folded) word of the third person past's shape (`THIRD_PERSON_PAST`, query-frame.ts). */
const THIRD_PERSON_PAST_WORD = new RegExp(`^${THIRD_PERSON_PAST}$`, "u");

function isNarrativeVerb(word: string, evidence: readonly WordEvidence[]): boolean {
  const folded = foldAccents(word.toLowerCase());
  if (IRREGULAR_NARRATIVE_VERBS.has(folded)) return true;
  return THIRD_PERSON_PAST_WORD.test(folded) && namesAVerb(folded, evidence);
}

/** "o cara q arrancou…", "a mulher que escondeu…": someone or something picked out by what it did. */
const RECALL_FRAME = new RegExp(`(?:^|\\s)(?:q|que)\\s+(?:\\p{L}+\\s+){0,2}${THIRD_PERSON_PAST}\\b`, "u");

/**
 * A question of fact about how the world is: why ("por que o mar é salgado"), how much or how
 * many ("quantos ossos…"), the largest or the first, how a thing forms or works, what a thing
 * is, where it comes from, who invented it. Asked of the Bible too ("por que Uzá morreu ao tocar
 * na arca?"), but then of its names and deeds, which the other signals read.
 */
const KNOWLEDGE_FRAME =
  /^\s*(?:(?:e|mas)\s+)?(?:por\s*que|pq|porque|quant[oa]s?|qnt[oa]?s?|qual\s+(?:e\s+)?(?:a|o)\s+(?:distancia|maior|menor|mais|primeir[oa]|altura|temperatura|velocidade|idade|tamanho|peso)|como\s+(?:se\s+forma|funciona|surgiu|nasce|acontece)|o\s+que\s+(?:e|eh)\s+(?:um|uma)|de\s+onde\s+vem|quem\s+(?:inventou|descobriu|ganhou)|em\s+que\s+ano)\b/u;

/** A question of conduct ("é pecado…", "posso…?", "um cristão pode…"): what a pastor is asked. */
const MORAL_FRAME =
  /^\s*(?:e\s+)?(?:e\s+(?:certo|errado|pecado|correto|licito)|devo|posso|podemos|um\s+cristao\s+pode|tudo\s+bem|como\s+(?:devo|posso)|o\s+que\s+(?:devo|posso)\s+fazer)\b|\be\s+(?:certo|errado|pecado|correto|licito)\s*\??\s*$/u;

/** Coping with something ("como lidar com…", "superar", "encontrar forças"): a pastor's question whatever the thing is. */
const COPING_FRAME =
  /\b(?:lidar\s+com|superar|vencer|enfrentar|suportar|aguentar|largar|livrar|sair\s+d[aoe]s?|forcas?|consolo|conforto|o\s+que\s+fazer\s+com|como\s+viver\s+com|como\s+perdoar)\b/u;

const FIRST_PERSON = new Set(
  ["eu", "meu", "minha", "meus", "minhas", "estou", "sinto", "tenho", "sou", "comigo", "mim", "ando", "fui", "perdi", "tô", "to", "tou", "tava", "estava", "consigo", "preciso"].map(foldAccents),
);

/** Whether the collection has the word, as written or as the spelling a typo was read as. */
export function isKnown(word: WordEvidence): boolean {
  return word.status === "known" || word.status === "typo";
}

/** The words' specificities summed, in order. */
export function specificitySum(words: readonly WordEvidence[]): number {
  return words.reduce((sum, word) => sum + word.specificity, 0);
}

/** Prefix of the word-cue features: each analysed word of the question, learned as evidence either way. */
export const CUE_PREFIX = "cue:";

/** The question's content words (stopwords, numbers and question words out), each once. */
export function contentTokens(question: string, vocabulary: CorpusVocabulary): AnalyzedToken[] {
  const seen = new Set<string>();
  return vocabulary.analyze(question).filter((token) => {
    if (QUESTION_WORDS.has(token.surface) || token.surface.length < 2 || seen.has(token.term)) return false;
    seen.add(token.term);
    return true;
  });
}

/**
 * The vocabulary of a collection held as texts with their analysed terms (document chunks):
 * term and exact-word document frequencies, built once on first use.
 */
export function textVocabulary(
  documents: readonly { text: string; terms: readonly string[] }[],
  analyzeText: (text: string) => AnalyzedToken[],
): CorpusVocabulary {
  let termDocs: Map<string, number[]> | undefined;
  let wordDf: Map<string, number> | undefined;
  /** Documents holding each folded word; each written form folded once (400,000 words are a few thousand forms). */
  const wordDocuments = () => {
    const folded = new Map<string, string>();
    const df = new Map<string, number>();
    for (const doc of documents) {
      const words = new Set<string>();
      for (const word of splitWords(doc.text)) {
        let fold = folded.get(word);
        if (fold === undefined) folded.set(word, (fold = foldAccents(word)));
        words.add(fold);
      }
      for (const word of words) df.set(word, (df.get(word) ?? 0) + 1);
    }
    return df;
  };
  const postings = () => {
    if (termDocs) return termDocs;
    termDocs = new Map();
    documents.forEach((doc, index) => {
      for (const term of new Set(doc.terms)) {
        const list = termDocs!.get(term);
        if (list) list.push(index);
        else termDocs!.set(term, [index]);
      }
    });
    return termDocs;
  };
  return {
    documentCount: documents.length,
    termFrequency: (term) => postings().get(term)?.length ?? 0,
    termDocuments: (term) => postings().get(term) ?? [],
    wordFrequency: (word) => (wordDf ??= wordDocuments()).get(word) ?? 0,
    wordsOfTerm: wordsByTerm(documents.map((doc) => doc.text)),
    nameShare: nameShares(documents.map((doc) => doc.text)),
    analyze: analyzeText,
  };
}

/** A lookup from each term to the folded words of the texts that analyse to it (built once per collection). */
export function wordsByTerm(texts: readonly string[]): (term: string) => readonly string[] {
  let table: WordsByTerm | undefined;
  return (term) => (table ??= WordsByTerm.of(texts)).get(term);
}

/**
 * Each term with the folded corpus words that analyse to it, in the order the corpus first
 * writes them: the terms as a sorted dictionary, the words as one list, each term's run of it
 * between two offsets (what a snapshot keeps).
 */
export class WordsByTerm {
  private constructor(private readonly runs: StringRuns) {}

  static of(texts: readonly string[]): WordsByTerm {
    const map = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const text of texts) {
      for (const word of splitWords(text)) {
        if (seen.has(word)) continue;
        seen.add(word);
        const key = analyzeWord(word);
        const folded = foldAccents(word);
        const list = map.get(key);
        if (!list) map.set(key, [folded]);
        else if (!list.includes(folded)) list.push(folded);
      }
    }
    return new WordsByTerm(StringRuns.of(map));
  }

  static read(snapshot: SnapshotReader, name: string): WordsByTerm {
    return new WordsByTerm(StringRuns.read(snapshot, wordParts(name)));
  }

  write(snapshot: SnapshotWriter, name: string): void {
    this.runs.write(snapshot, wordParts(name));
  }

  get(term: string): readonly string[] {
    return this.runs.get(term) ?? [];
  }
}

const wordParts = (name: string) => ({ keys: `${name}.terms`, offsets: `${name}.offsets`, values: `${name}.words`, label: `word table ${name}` });

/**
 * A lookup from each folded word to the share of its mid-sentence occurrences written
 * capitalized (built once per collection, on first use). A word opening a text or a sentence
 * says nothing and is not counted.
 */
export function nameShares(texts: readonly string[]): (foldedWord: string) => number {
  let table: NameShares | undefined;
  return (foldedWord) => (table ??= NameShares.of(texts)).get(foldedWord);
}

/** Each folded word written in mid-sentence, with how often, and how often capitalized (a sorted dictionary and two counts). */
export class NameShares {
  private constructor(
    private readonly words: TermDictionary,
    private readonly seen: Float64Array,
    private readonly capitalized: Float64Array,
  ) {}

  static of(texts: readonly string[]): NameShares {
    // Each written form counted first, then folded once: the Bible's 658,000 mid-sentence
    // words are 25,000 forms (0.28 → 0.12 s measured, the same shares).
    const forms = new Map<string, number>();
    for (const text of texts) {
      for (const match of text.matchAll(/(?<=[\p{L}\p{N},;:] +)\p{L}+/gu)) forms.set(match[0], (forms.get(match[0]) ?? 0) + 1);
    }
    const counts = new Map<string, { seen: number; capitalized: number }>();
    for (const [word, n] of forms) {
      const key = foldAccents(word.toLowerCase());
      let entry = counts.get(key);
      if (!entry) counts.set(key, (entry = { seen: 0, capitalized: 0 }));
      entry.seen += n;
      if (word[0] !== word[0]!.toLowerCase()) entry.capitalized += n;
    }
    const { dictionary, sorted } = TermDictionary.fromTerms(counts.keys());
    return new NameShares(
      dictionary,
      Float64Array.from(sorted, (word) => counts.get(word)!.seen),
      Float64Array.from(sorted, (word) => counts.get(word)!.capitalized),
    );
  }

  static read(snapshot: SnapshotReader, name: string): NameShares {
    const words = TermDictionary.read(snapshot, `${name}.words`);
    const seen = snapshot.f64(`${name}.seen`);
    const capitalized = snapshot.f64(`${name}.capitalized`);
    if (seen.length !== words.size || capitalized.length !== words.size) throw new SnapshotError(`bad name shares ${name}`);
    return new NameShares(words, seen, capitalized);
  }

  write(snapshot: SnapshotWriter, name: string): void {
    this.words.write(snapshot, `${name}.words`);
    snapshot.put(`${name}.seen`, this.seen);
    snapshot.put(`${name}.capitalized`, this.capitalized);
  }

  get(foldedWord: string): number {
    const id = this.words.idOf(foldedWord);
    return id < 0 ? 0 : this.capitalized[id]! / this.seen[id]!;
  }
}

/**
 * Whether a word that only shares its stem with corpus words is of their family: Snowball
 * cuts "relatividade" to the stem of "relatar" and "teoria" to that of "teor", which are not
 * the same words at all. A common prefix of most of the word's length is asked for.
 */
function sameFamily(word: string, corpusWords: readonly string[]): boolean {
  const needed = Math.max(3, Math.ceil(word.length * 0.7));
  return corpusWords.some((other) => {
    let common = 0;
    while (common < word.length && common < other.length && word[common] === other[common]) common++;
    return common >= needed;
  });
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzç";

/** A corpus word one edit away (deletion, substitution, insertion, transposition), most frequent first. */
function closeCorpusWord(word: string, vocabulary: CorpusVocabulary): { word: string; df: number } | undefined {
  if (word.length < 4) return undefined;
  let best: { word: string; df: number } | undefined;
  const consider = (candidate: string) => {
    if (candidate === word) return;
    const df = vocabulary.wordFrequency(candidate);
    if (df > 0 && (!best || df > best.df)) best = { word: candidate, df };
  };
  for (let i = 0; i < word.length; i++) {
    consider(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < word.length) consider(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
    for (const letter of LETTERS) consider(word.slice(0, i) + letter + word.slice(i + 1));
  }
  for (let i = 0; i <= word.length; i++) for (const letter of LETTERS) consider(word.slice(0, i) + letter + word.slice(i));
  return best;
}

export interface ScopeLexicons {
  words: WordList;
  topics: TopicLexicon;
  /** Synonyms and verb↔noun partners of a word (OpenWordNet-PT), as the query expansion uses them. */
  related?(word: string): readonly string[];
}

/** The evidence for each content word of a question. */
export function wordEvidence(question: string, vocabulary: CorpusVocabulary, lexicons: ScopeLexicons): WordEvidence[] {
  const n = Math.max(1, vocabulary.documentCount);
  const maxIdf = Math.log(1 + n / 0.5);
  const specificity = (df: number) => Math.min(1, Math.log(1 + n / Math.max(0.5, df)) / maxIdf);
  return contentTokens(question, vocabulary).map((token) => {
    const exactDf = vocabulary.wordFrequency(token.surface);
    const stemDf = exactDf > 0 || sameFamily(token.surface, vocabulary.wordsOfTerm(token.term)) ? vocabulary.termFrequency(token.term) : 0;
    const df = Math.max(stemDf, exactDf);
    const topics = lexicons.topics.topics(token.term, token.surface);
    const base = { word: token.surface, term: token.term, lexnames: topics?.lexnames ?? new Map(), domains: topics?.domains ?? new Set<string>() };
    if (df > 0) {
      const corpusName = exactDf > 0 && vocabulary.nameShare(token.surface) >= NAME_SHARE;
      return { ...base, status: "known" as const, documentFrequency: df, specificity: specificity(df), ...(corpusName ? { corpusName } : {}) };
    }
    const real = lexicons.words.hasStem(token.term) || topics !== undefined;
    for (const other of lexicons.related?.(token.surface) ?? []) {
      const otherTerm = analyzeWord(other.toLowerCase());
      const otherDf = vocabulary.termFrequency(otherTerm);
      if (otherDf > 0) return { ...base, status: "related" as const, documentFrequency: otherDf, specificity: specificity(otherDf), correctedTo: other };
    }
    const close = real ? undefined : closeCorpusWord(token.surface, vocabulary);
    if (close) {
      const closeDf = vocabulary.termFrequency(analyzeWord(close.word)) || close.df;
      return { ...base, status: "typo" as const, documentFrequency: closeDf, specificity: specificity(closeDf), correctedTo: close.word };
    }
    return { ...base, status: real ? ("foreign" as const) : ("nonword" as const), documentFrequency: 0, specificity: 1 };
  });
}

/** Lexname groups used as features: what kind of thing the question's words name. */
export const LEXNAME_FEATURES: Readonly<Record<string, readonly string[]>> = {
  food: ["noun.food", "verb.consumption"],
  artifact: ["noun.artifact"],
  possession: ["noun.possession", "verb.possession"],
  feeling: ["noun.feeling", "verb.emotion"],
  state: ["noun.state"],
  person: ["noun.person"],
  group: ["noun.group"],
  communication: ["noun.communication", "verb.communication"],
  act: ["noun.act"],
  cognition: ["noun.cognition", "verb.cognition"],
  body: ["noun.body", "verb.body"],
  time: ["noun.time"],
  quantity: ["noun.quantity"],
  location: ["noun.location"],
  nature: ["noun.plant", "noun.animal", "noun.object", "noun.phenomenon", "noun.substance", "verb.weather"],
  event: ["noun.event", "verb.competition"],
  creation: ["verb.creation", "verb.change", "verb.contact"],
  social: ["verb.social", "noun.relation", "noun.motive"],
  attribute: ["noun.attribute"],
};

const LEXNAME_GROUP = new Map<string, string>();
for (const [group, names] of Object.entries(LEXNAME_FEATURES)) for (const name of names) LEXNAME_GROUP.set(name, group);

/** The names of the numeric features, in model order. */
export const FEATURE_NAMES: readonly string[] = [
  "noContent",
  "unknownShare",
  "foreignShare",
  "nonwordShare",
  "knownIdfCoverage",
  "maxKnownSpecificity",
  "meanKnownSpecificity",
  "firstPerson",
  "moralFrame",
  "copingFrame",
  "number",
  "unknownName",
  "relatedShare",
  ...Object.keys(LEXNAME_FEATURES).map((group) => `lex:${group}`),
  ...Object.keys(LEXNAME_FEATURES).map((group) => `unknown:${group}`),
  "bestHitCoverage",
  "agreement",
  "passageCoverage",
  "corpusNameShare",
  "narrativeVerbs",
  "recallFrame",
  "knowledgeFrame",
];

export interface RetrievalEvidence {
  /** 0..1: the largest share of the question's idf mass that one retrieved passage matched. */
  bestHitCoverage: number;
  /** Share of the top results that both the lexical and the dense side found (0..1). */
  agreement: number;
}

/** How many units on each side of a unit make one stretch of text for {@link passageCoverage}. */
export const PASSAGE_RADIUS = 3;

/**
 * 0..1: the largest share of the question's idf mass that one stretch of the corpus (a unit and
 * PASSAGE_RADIUS neighbours on each side) holds, each known word counted once. A story is told
 * over several verses: "Naamã", "lepra" and "Jordão" meet in 2 Reis 5 though no verse holds all
 * three, while the words of a worldly question rarely meet anywhere ("passagem", "barata",
 * "Jerusalém"). Read from the lexical index, whatever retrieval ranked first.
 */
export function passageCoverage(words: readonly WordEvidence[], vocabulary: CorpusVocabulary, radius = PASSAGE_RADIUS): number {
  const total = specificitySum(words);
  const known = words.filter(isKnown);
  if (total === 0 || known.length === 0) return 0;
  const stretched = known.map((word) => ({
    docs: vocabulary.termDocuments(word.correctedTo === undefined ? word.term : analyzeWord(word.correctedTo)),
    weight: word.specificity,
  }));
  const { mass, touched } = stretchMasses(stretched, vocabulary.documentCount, { radius, scratch: scratchFor(vocabulary) });
  // A loop, not `reduce`: its accumulator is a boxed number per stretch (thousands for a common word).
  let best = 0;
  for (let i = 0; i < touched.length; i++) best = Math.max(best, mass[touched[i]!]!);
  return Math.min(1, best / total);
}

/** One pair of corpus-long arrays per vocabulary, reused by every question (not two new ones each time). */
const scratches = new WeakMap<CorpusVocabulary, StretchScratch>();
function scratchFor(vocabulary: CorpusVocabulary): StretchScratch {
  let scratch = scratches.get(vocabulary);
  if (!scratch || scratch.mass.length !== vocabulary.documentCount) scratches.set(vocabulary, (scratch = stretchScratch(vocabulary.documentCount)));
  return scratch;
}

/** Numeric features of one question (named as in {@link FEATURE_NAMES}). */
export function scopeFeatures(question: string, words: readonly WordEvidence[], retrieval?: RetrievalEvidence, passage = 0): Record<string, number> {
  const features: Record<string, number> = Object.fromEntries(FEATURE_NAMES.map((name) => [name, 0]));
  const count = words.length;
  const questionWords = splitWords(question);
  const narrative = questionWords.filter((word) => isNarrativeVerb(word, words)).length;
  features.narrativeVerbs = Math.min(narrative, 2) / 2;
  features.firstPerson = questionWords.some((word) => FIRST_PERSON.has(foldAccents(word)) || isFirstPersonPreterite(word, words)) ? 1 : 0;
  // A year, a price or a quantity: the Bible's numbers come as references, which are decided apart.
  features.number = /\d{3,}|\d+[.,]\d+|\d+\s*(?:%|reais|r\$|kg|km|mb|gb)/iu.test(question) ? 1 : 0;
  const folded = foldAccents(question.toLowerCase());
  features.moralFrame = MORAL_FRAME.test(folded) ? 1 : 0;
  features.copingFrame = COPING_FRAME.test(folded) ? 1 : 0;
  features.recallFrame = RECALL_FRAME.test(folded) ? 1 : 0;
  features.knowledgeFrame = KNOWLEDGE_FRAME.test(folded) ? 1 : 0;
  if (count === 0) {
    features.noContent = 1;
    return features;
  }
  const known = words.filter(isKnown);
  const shareOf = (test: (word: WordEvidence) => boolean) => words.filter(test).length / count;
  // A name the collection never mentions ("Orlando", "Git"): Bible names are all in the text.
  const names = new Set((question.match(/(?<=\S\s+)\p{Lu}[\p{L}\p{N}]+/gu) ?? []).map((name) => foldAccents(name.toLowerCase())));
  features.unknownName = words.some((word) => !isKnown(word) && names.has(word.word)) ? 1 : 0;
  features.unknownShare = shareOf((word) => !isKnown(word) && word.status !== "related");
  features.relatedShare = shareOf((word) => word.status === "related");
  features.foreignShare = shareOf((word) => word.status === "foreign");
  features.nonwordShare = shareOf((word) => word.status === "nonword");
  const totalIdf = specificitySum(words);
  features.knownIdfCoverage = totalIdf > 0 ? specificitySum(known) / totalIdf : 0;
  // How rare the asker's common words are in the collection; its names are rare by nature and say nothing of that.
  const common = known.filter((word) => !word.corpusName);
  features.maxKnownSpecificity = common.reduce((max, word) => Math.max(max, word.specificity), 0);
  features.meanKnownSpecificity = common.length > 0 ? specificitySum(common) / common.length : 0;
  for (const word of words) {
    for (const [lexname, share] of word.lexnames) {
      const group = LEXNAME_GROUP.get(lexname);
      if (!group) continue;
      features[`lex:${group}`]! += share / count;
      // What kind of thing the words the collection lacks name: a food or a machine points
      // away from the Bible, a feeling or a state of life does not.
      if (!isKnown(word)) features[`unknown:${group}`]! += share / count;
    }
  }
  // Word cues: every analysed content word ("receita", "comprar", "triste"); the classifier
  // learns which of them point which way. Question words stay out ("quanto tempo dura o
  // luto?" is a pastor's question): they are never evidence either way.
  for (const word of questionWords) {
    const folded = foldAccents(word);
    if (folded.length < 2 || isFunctionWord(folded) || /^\d+$/u.test(folded)) continue;
    features[`${CUE_PREFIX}${analyzeWord(word)}`] = 1;
  }
  features.passageCoverage = passage;
  // Names the collection writes as names ("Naamã", "Eliseu", "Jericó"), however the asker typed them.
  features.corpusNameShare = shareOf((word) => word.corpusName === true);
  if (retrieval) {
    features.bestHitCoverage = retrieval.bestHitCoverage;
    features.agreement = retrieval.agreement;
  }
  return features;
}

/** Whether a folded word is a stopword or question word (for callers listing evidence). */
export function isFunctionWord(foldedWord: string): boolean {
  return isStopword(foldedWord) || QUESTION_WORDS.has(foldedWord);
}
