/**
 * Small talk: the words people wrap a question in, or send alone ("oi", "Bom dia, pastor!",
 * "obrigada pela ajuda", "a paz do Senhor", "amém", "tchau, fique com Deus").
 *
 * - `smallTalkOf`: a message that is only small talk asks nothing; the chat gives it a fixed,
 *   friendly reply (core/chat/small-talk.ts) instead of searching it (its words would
 *   find verses that merely say "dia" or "paz") or refusing it as out of scope. Conservative by
 *   construction: every word must belong to a known phrase or be a form of address ("pastor");
 *   one other word ("bom dia, estou com medo") and the message is a question.
 * - `withoutSmallTalk`: the question inside a greeting or a thanks ("Bom dia, pastor! Estou com
 *   medo do futuro" → "Estou com medo do futuro"), so that retrieval and the gate read the
 *   question alone: "bom" and "pastor" found "Eu sou o bom Pastor" before the verses on fear.
 */
import { foldAccents } from "../analysis/fold.js";

export type SmallTalk = "greeting" | "thanks" | "blessing" | "farewell";

const THANKS_BASES = ["obrigado", "obrigada", "muito obrigado", "muito obrigada", "obrigadao", "brigado", "brigada", "grato", "grata", "muito grato", "muito grata", "agradeco", "valeu"];
const THANKS_FOR = ["", "por tudo", "pela ajuda", "pela resposta", "pelas respostas", "pela explicacao", "pela atencao", "pelos versiculos", "desde ja"];

/** Greetings that open a message ("Bom dia, pastor! …"), folded (no accents), lowercase, one space between words. */
const OPENERS = [
  "oi", "oie", "ola", "opa", "ei", "e ai", "eai", "salve", "hey", "hello", "hi", "saudacoes",
  "bom dia", "boa tarde", "boa noite", "tudo bem", "tudo bom", "tudo certo", "tudo joia",
  "a paz do senhor", "paz do senhor", "graca e paz", "shalom",
];
/** Thanks, blessings and goodbyes that close a message ("… Obrigado!"), never a question's own words ("o que significa amém?"). */
const THANKS = [...THANKS_BASES.flatMap((base) => THANKS_FOR.map((reason) => `${base} ${reason}`.trim())), "desde ja obrigado", "desde ja obrigada", "desde ja agradeco", "obg", "vlw", "agradecido", "agradecida"];
const CLOSING_BLESSINGS = ["deus te abencoe", "deus abencoe", "deus lhe abencoe", "que deus te abencoe", "que deus abencoe"];
const CLOSING_FAREWELLS = ["tchau", "tchauzinho", "adeus", "ate logo", "ate mais", "ate breve", "ate amanha", "fique com deus", "fica com deus"];

/** Every phrase of a message that is only small talk, by kind. */
const PHRASES: Readonly<Record<SmallTalk, readonly string[]>> = {
  greeting: [
    ...OPENERS,
    "e voce", "e com voce", "como vai", "como vai voce", "como voce esta", "como esta", "como estao",
    // what the service is: the greeting's reply says it
    "quem e voce", "quem e vc", "o que voce faz", "o que vc faz", "como funciona", "como voce funciona", "ajuda",
  ],
  thanks: THANKS,
  blessing: [...CLOSING_BLESSINGS, "amem", "aleluia", "gloria a deus", "deus e bom", "deus e fiel"],
  farewell: [...CLOSING_FAREWELLS, "va com deus", "vai com deus", "boa semana", "bom descanso"],
};

/** Forms of address a message may hold around its small talk ("oi, pastor, tudo bem?"). */
const ADDRESS: ReadonlySet<string> = new Set(["pastor", "pastora", "irmao", "irma", "irmaos", "irmas", "amigo", "amiga", "querido", "querida"]);
/** Joining words a message that is only small talk may hold ("oi e obrigado", "muito obrigado mesmo"). */
const JOINING: ReadonlySet<string> = new Set(["e", "meu", "minha", "muito", "mesmo", "demais", "entao", "por", "favor"]);

/** When a message mixes kinds, the reply answers the one that ends a conversation first ("obrigado, tchau": goodbye). */
const PRIORITY: readonly SmallTalk[] = ["farewell", "thanks", "blessing", "greeting"];

/** Longer than this, a message is a question, not small talk. */
const MAX_CHARS = 120;

interface Phrase {
  words: string[];
  kind: SmallTalk;
}

const phrasesOf = (kind: SmallTalk, phrases: readonly string[]): Phrase[] => phrases.map((phrase) => ({ words: phrase.split(" "), kind }));
/** Longest first, so "bom dia" is tried before a shorter phrase that starts the same. */
const longestFirst = (phrases: Phrase[]): readonly Phrase[] => phrases.sort((a, b) => b.words.length - a.words.length);

const ALL = longestFirst((Object.entries(PHRASES) as [SmallTalk, readonly string[]][]).flatMap(([kind, phrases]) => phrasesOf(kind, phrases)));
const OPENING = longestFirst(phrasesOf("greeting", [...OPENERS, "por favor"]));
const CLOSING = longestFirst([...phrasesOf("thanks", [...THANKS, "por favor"]), ...phrasesOf("blessing", CLOSING_BLESSINGS), ...phrasesOf("farewell", CLOSING_FAREWELLS)]);

/** A word of a message: lowercase without accents, and where it stands in the message. */
export interface Word {
  folded: string;
  start: number;
  end: number;
}

/** The words of a message (letters and digits, with their combining accents), folded, with their places. */
export function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((match) => ({ folded: foldAccents(match[0].toLowerCase()), start: match.index, end: match.index + match[0].length }));
}

/** The phrase of `phrases` whose words are `words` from `at` on, if any. */
function phraseAt(phrases: readonly Phrase[], words: readonly Word[], at: number): Phrase | undefined {
  return phrases.find((phrase) => phrase.words.every((word, i) => words[at + i]?.folded === word));
}

/** The phrase of `phrases` whose words end just before `end`, if any. */
function phraseEndingAt(phrases: readonly Phrase[], words: readonly Word[], end: number): Phrase | undefined {
  return phrases.find((phrase) => end - phrase.words.length >= 0 && phrase.words.every((word, i) => words[end - phrase.words.length + i]!.folded === word));
}

/** The kind of small talk a message is, or undefined when it says anything else. */
export function smallTalkOf(message: string): SmallTalk | undefined {
  if (message.length > MAX_CHARS) return undefined;
  const words = wordsOf(message);
  const kinds = new Set<SmallTalk>();
  let at = 0;
  while (at < words.length) {
    const phrase = phraseAt(ALL, words, at);
    if (phrase) {
      kinds.add(phrase.kind);
      at += phrase.words.length;
    } else if (ADDRESS.has(words[at]!.folded) || JOINING.has(words[at]!.folded)) at++;
    else return undefined;
  }
  return PRIORITY.find((kind) => kinds.has(kind));
}

/**
 * The question without the greeting before it and the thanks or goodbye after it (each with
 * its forms of address: "Olá, pastor, boa noite. …", "… Obrigada, irmão!"). A message that is
 * nothing but small talk, or has none around it, comes back as it is.
 */
export function withoutSmallTalk(message: string): string {
  const words = wordsOf(message);
  let from = 0;
  for (let phrase = phraseAt(OPENING, words, from); ; phrase = phraseAt(OPENING, words, from)) {
    if (phrase) from += phrase.words.length;
    else if (from > 0 && ADDRESS.has(words[from]?.folded ?? "")) from++;
    else break;
  }
  let to = words.length;
  let closed = false;
  for (;;) {
    const phrase = to > from ? phraseEndingAt(CLOSING, words, to) : undefined;
    if (phrase) {
      to -= phrase.words.length;
      closed = true;
    } else if (to > from && ADDRESS.has(words[to - 1]!.folded)) to--;
    else break;
  }
  if (!closed) to = words.length;
  if (to <= from || (from === 0 && to === words.length)) return message;
  return message.slice(words[from]!.start, to === words.length ? message.length : words[to - 1]!.end).trim();
}
