/**
 * A saying checked against the Bible ("onde diz 'Deus ajuda quem se ajuda'?", "o dinheiro é a
 * raiz de todos os males, isso está na Bíblia?"): is it a verse, in this translation's words or
 * in another's, or is it not in the Bible at all? The saying is searched like any question; each
 * of the first hits of both sides (with the verse after it: a saying may run over two) is scored
 * by how much of the saying's weight it holds — its own words, their lexicon partners for the
 * words another translation chose, and their order — and the best decides: `found` (the verse
 * says it), `near` (the verse says it in other words, or the saying is the verse misquoted),
 * `absent` (no verse says it) or `unsure` (too little evidence either way). Pure.
 */
import { analyze, foldAccents } from "../../analysis/index.js";
import type { FirstFusion } from "./stage.js";
import type { VerseCorpus } from "./verse-context.js";

/**
 * found: a verse says it; near: a verse says it in other words (another translation's, or the
 * saying misquotes it); absent: no verse says it; unsure: the evidence is too thin either way
 * (the answer says the words were not found, never that the Bible lacks them).
 */
export type QuotationVerdict = "found" | "near" | "unsure" | "absent";

export interface QuotationCheck {
  quote: string;
  verdict: QuotationVerdict;
  /** The verse (and the one after it, when the saying runs over both) that says it, for found and near. */
  docs: number[];
  /** The best hit's share of the saying's weight (0..1), its words' order kept (0..1), and its dense similarity. */
  coverage: number;
  order: number;
  similarity: number;
  /** The share of the saying's pairs of consecutive words (function words too) the verse holds as they are. */
  phrase: number;
  /** How many words of weight the saying has, and their idf summed. */
  terms: number;
  mass: number;
}

/**
 * The thresholds of the verdict, chosen on eval/quotations-tune.jsonl so that a real verse is
 * rarely called absent and a saying rarely called a verse (docs/RETRIEVAL.md).
 */
export interface QuotationThresholds {
  /** Found: this share of the saying's weight and of its word pairs. */
  found: number;
  foundPhrase: number;
  /** Near: this share of its weight and of its word pairs. */
  near: number;
  nearPhrase: number;
  /** Absent: fewer word pairs than this, less weight than `absentCoverage` and less dense similarity than `absentSimilarity`… */
  absentPhrase: number;
  absentCoverage: number;
  absentSimilarity: number;
  /** …or a short saying (this much idf in all) with fewer word pairs than `shortPhrase`: a verse quoted that short keeps its words. */
  shortMass: number;
  shortPhrase: number;
}

export const DEFAULT_QUOTATION_THRESHOLDS: QuotationThresholds = {
  found: 0.7,
  foundPhrase: 0.3,
  near: 0.4,
  nearPhrase: 0.3,
  absentPhrase: 0.05,
  absentCoverage: 0.7,
  absentSimilarity: 0.6,
  shortMass: 10,
  shortPhrase: 0.2,
};

/** How many hits of each side are read, by default. */
const CANDIDATES = { lexical: 20, dense: 20 };
/** Weight of a lexicon partner of a saying's word (another translation's word for it). */
const PARTNER_WEIGHT = 0.7;

/**
 * `reach`: how many hits of each side are scored (a verse typed word for word is among the
 * first lexical hits, so the engine's check of a plain question reads only those).
 */
export function checkQuotation(
  corpus: VerseCorpus,
  first: FirstFusion,
  quote: string,
  thresholds: QuotationThresholds = DEFAULT_QUOTATION_THRESHOLDS,
  reach: { lexical: number; dense: number } = CANDIDATES,
): QuotationCheck {
  const lexical = corpus.lexical;
  const terms = [...new Set(analyze(quote))];
  const none: QuotationCheck = { quote, verdict: "absent", docs: [], coverage: 0, order: 0, similarity: 0, phrase: 0, terms: terms.length, mass: 0 };
  const quotePairs = wordPairs(quote);
  if (!lexical || terms.length === 0) return none;
  const idf = (term: string) => Math.max(0, lexical.index.idf(term));
  const total = terms.reduce((sum, term) => sum + idf(term), 0);
  if (total <= 0) return none;
  none.mass = round(total);
  // Each word's partners (synonyms, verb↔noun) that the corpus uses: another translation's word.
  // Looked up only for a term a span lacks (most of the first hits hold most of the words).
  const wordsByTerm = new Map<string, string[]>();
  for (const word of quote.split(/[^\p{L}]+/u).filter(Boolean)) {
    const own = analyze(word)[0];
    if (own) wordsByTerm.set(own, [...(wordsByTerm.get(own) ?? []), word]);
  }
  const partnersFound = new Map<string, string[]>();
  const partnersOf = (term: string): string[] => {
    let found = partnersFound.get(term);
    if (!found) {
      found = (wordsByTerm.get(term) ?? []).flatMap((word) => lexical.query(word).expansions.map((expansion) => expansion.term));
      partnersFound.set(term, found);
    }
    return found;
  };
  const similarity = new Map(first.dense.map((hit) => [hit.doc, hit.similarity]));
  const candidates = [...new Set([...first.lexical.slice(0, reach.lexical).map((hit) => hit.doc), ...first.dense.slice(0, reach.dense).map((hit) => hit.doc)])];
  let best: QuotationCheck = none;
  let bestScore = -1;
  // The saying's word pairs by first word: a span's pairs are looked up without being made.
  const pairIndex = new Map<string, Map<string, number>>();
  quotePairs.forEach((pair, i) => {
    const [a, b] = pair.split(" ") as [string, string];
    (pairIndex.get(a) ?? pairIndex.set(a, new Map()).get(a)!).set(b, i);
  });
  const pairSeen = new Int32Array(quotePairs.length).fill(-1);
  let spanNumber = 0;
  /** How many of the saying's pairs these words hold, each counted once. */
  const pairsHeld = (words: readonly string[]) => {
    spanNumber++;
    let count = 0;
    for (let i = 1; i < words.length; i++) {
      const at = pairIndex.get(words[i - 1]!)?.get(words[i]!);
      if (at === undefined || pairSeen[at] === spanNumber) continue;
      pairSeen[at] = spanNumber;
      count++;
    }
    return count;
  };
  // Each verse's words read once: a verse is in its own span and in the one before it.
  const wordsRead = new Map<number, string[]>();
  const wordsOf = (doc: number) => wordsRead.get(doc) ?? wordsRead.set(doc, foldedWords(corpus.verses[doc]!.text)).get(doc)!;
  for (const doc of candidates) {
    for (const span of spansFrom(corpus, doc)) {
      const held = span.flatMap((d) => corpus.verses[d]!.terms);
      const heldSet = new Set(held);
      let weight = 0;
      const found: string[] = [];
      for (const term of terms) {
        if (heldSet.has(term)) {
          weight += idf(term);
          found.push(term);
        } else if (partnersOf(term).some((partner) => heldSet.has(partner))) weight += PARTNER_WEIGHT * idf(term);
      }
      const coverage = weight / total;
      const order = orderKept(found, held);
      const sim = Math.max(...span.map((d) => similarity.get(d) ?? 0));
      const phrase = quotePairs.length > 0 ? pairsHeld(span.flatMap(wordsOf)) / quotePairs.length : 0;
      // One verse is preferred to two when they hold the saying alike.
      const score = coverage + 0.1 * order + 0.2 * sim + 0.15 * phrase - 0.05 * (span.length - 1);
      if (score > bestScore) {
        bestScore = score;
        best = { quote, verdict: "absent", docs: span, coverage: round(coverage), order: round(order), similarity: round(sim), phrase: round(phrase), terms: terms.length, mass: round(total) };
      }
    }
  }
  const t = thresholds;
  const verdict: QuotationVerdict =
    best.coverage >= t.found && best.phrase >= t.foundPhrase
      ? "found"
      : best.coverage >= t.near && best.phrase >= t.nearPhrase
        ? "near"
        : (best.phrase < t.absentPhrase && best.coverage < t.absentCoverage && best.similarity < t.absentSimilarity) || (best.mass <= t.shortMass && best.phrase < t.shortPhrase)
          ? "absent"
          : "unsure";
  return { ...best, verdict, docs: verdict === "found" || verdict === "near" ? best.docs : [] };
}

/**
 * Whether any of the first hits (`reach`) may hold `coverage` of the saying's weight: its own
 * words found count whole, the others at most as a lexicon partner would. False means
 * `checkQuotation` cannot reach that coverage there, so a caller that needs it skips the check
 * (the words' partners are the costly part of it).
 */
export function mayHold(corpus: VerseCorpus, first: FirstFusion, quote: string, coverage: number, reach: { lexical: number; dense: number } = CANDIDATES): boolean {
  const lexical = corpus.lexical;
  const terms = [...new Set(analyze(quote))];
  if (!lexical || terms.length === 0) return false;
  const idf = terms.map((term) => Math.max(0, lexical.index.idf(term)));
  const total = idf.reduce((sum, value) => sum + value, 0);
  if (total <= 0) return false;
  const candidates = [...first.lexical.slice(0, reach.lexical).map((hit) => hit.doc), ...first.dense.slice(0, reach.dense).map((hit) => hit.doc)];
  return candidates.some((doc) =>
    spansFrom(corpus, doc).some((span) => {
      const held = new Set(span.flatMap((d) => corpus.verses[d]!.terms));
      const own = terms.reduce((sum, term, i) => sum + (held.has(term) ? idf[i]! : 0), 0);
      return own + PARTNER_WEIGHT * (total - own) >= coverage * total;
    }),
  );
}

/**
 * Whether one of the first lexical hits (`reach`), alone or with the verse after it, holds the
 * saying word for word, function words too, in order: a short verse typed as it is ("Se Deus é
 * por nós, quem será contra nós?" has one word of weight), which `mayHold` cannot weigh.
 */
export function holdsWordForWord(corpus: VerseCorpus, first: FirstFusion, quote: string, reach: { lexical: number }): boolean {
  const words = foldedWords(quote);
  if (words.length === 0) return false;
  const wanted = ` ${words.join(" ")} `;
  return first.lexical.slice(0, reach.lexical).some(({ doc }) =>
    spansFrom(corpus, doc).some((span) => ` ${span.flatMap((d) => foldedWords(corpus.verses[d]!.text)).join(" ")} `.includes(wanted)),
  );
}

/** The pairs of consecutive words of a text (function words too), folded, each once. */
function wordPairs(text: string): string[] {
  return [...new Set(pairsOf(foldedWords(text)))];
}

/** A text's words, lower case and without accents (texts joined by a space give their words one after another). */
function foldedWords(text: string): string[] {
  return foldAccents(text.toLowerCase()).match(/\p{L}+/gu) ?? [];
}

/** Each word with the next, as "a b". */
function pairsOf(words: readonly string[]): string[] {
  return words.slice(1).map((word, i) => `${words[i]} ${word}`);
}

/** A verse alone, and with the verse after it (same book, not empty). */
function spansFrom(corpus: VerseCorpus, doc: number): number[][] {
  const verse = corpus.verses[doc]!;
  const next = corpus.verses[doc + 1];
  if (!next || next.text === "" || next.book !== verse.book || next.source !== verse.source) return [[doc]];
  return [[doc], [doc, doc + 1]];
}

/** The share of the saying's consecutive found words that the verse holds in the same order. */
function orderKept(found: readonly string[], held: readonly string[]): number {
  if (found.length < 2) return found.length === 1 ? 1 : 0;
  const position = new Map<string, number>();
  held.forEach((term, i) => {
    if (!position.has(term)) position.set(term, i);
  });
  let kept = 0;
  for (let i = 1; i < found.length; i++) if (position.get(found[i - 1]!)! < position.get(found[i]!)!) kept++;
  return kept / (found.length - 1);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
