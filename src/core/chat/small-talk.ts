/**
 * Small talk: a message that only greets, thanks, blesses or says goodbye ("oi", "Bom dia,
 * pastor!", "obrigada pela ajuda", "a paz do Senhor", "amém", "tchau, fique com Deus"). It asks
 * nothing, so it gets a fixed, friendly reply: searching it would bring verses that merely say
 * "dia" or "paz", and the out-of-scope gate would answer "a Bíblia não trata desse assunto".
 *
 * Conservative by construction: every word of the message must belong to a known phrase (or
 * be a form of address such as "pastor"); one other word ("bom dia, estou com medo") and the
 * message is a question like any other.
 */
import { foldAccents } from "../analysis/fold.js";

export type SmallTalk = "greeting" | "thanks" | "blessing" | "farewell";

const THANKS_BASES = ["obrigado", "obrigada", "muito obrigado", "muito obrigada", "obrigadao", "brigado", "brigada", "grato", "grata", "muito grato", "muito grata", "agradeco", "valeu"];
const THANKS_FOR = ["", "por tudo", "pela ajuda", "pela resposta", "pelas respostas", "pela explicacao", "pela atencao", "pelos versiculos"];

/** Phrases by kind, folded (no accents), lowercase, words separated by one space. */
const PHRASES: Readonly<Record<SmallTalk, readonly string[]>> = {
  greeting: [
    "oi", "oie", "ola", "opa", "ei", "e ai", "eai", "salve", "hey", "hello", "hi", "saudacoes",
    "bom dia", "boa tarde", "boa noite", "tudo bem", "tudo bom", "tudo certo", "tudo joia", "e voce", "e com voce",
    "como vai", "como vai voce", "como voce esta", "como esta", "como estao",
    "a paz do senhor", "paz do senhor", "graca e paz", "shalom",
    // what the service is: the greeting's reply says it
    "quem e voce", "quem e vc", "o que voce faz", "o que vc faz", "como funciona", "como voce funciona", "ajuda",
  ],
  thanks: [...THANKS_BASES.flatMap((base) => THANKS_FOR.map((reason) => `${base} ${reason}`.trim())), "obg", "vlw", "agradecido", "agradecida"],
  blessing: ["amem", "aleluia", "gloria a deus", "deus te abencoe", "deus abencoe", "deus lhe abencoe", "que deus te abencoe", "que deus abencoe", "deus e bom", "deus e fiel"],
  farewell: ["tchau", "tchauzinho", "adeus", "ate logo", "ate mais", "ate breve", "ate amanha", "fique com deus", "fica com deus", "va com deus", "vai com deus", "boa semana", "bom descanso"],
};

/** Forms of address and joining words a small-talk message may hold anywhere ("oi, pastor, tudo bem?"). */
const FILLERS: ReadonlySet<string> = new Set(["pastor", "pastora", "irmao", "irma", "amigo", "amiga", "querido", "querida", "meu", "minha", "e", "muito", "mesmo", "demais", "entao"]);

/** When a message mixes kinds, the reply answers the one that ends a conversation first ("obrigado, tchau": goodbye). */
const PRIORITY: readonly SmallTalk[] = ["farewell", "thanks", "blessing", "greeting"];

/** Longer than this, a message is a question, not small talk. */
const MAX_CHARS = 120;

interface Phrase {
  words: string[];
  kind: SmallTalk;
}

/** Every phrase, longest first (so "bom dia" is tried before a shorter phrase that starts the same). */
const BY_LENGTH: readonly Phrase[] = (Object.entries(PHRASES) as [SmallTalk, readonly string[]][])
  .flatMap(([kind, phrases]) => phrases.map((phrase) => ({ words: phrase.split(" "), kind })))
  .sort((a, b) => b.words.length - a.words.length);

/** The kind of small talk a message is, or undefined when it says anything else. */
export function smallTalkOf(message: string): SmallTalk | undefined {
  if (message.length > MAX_CHARS) return undefined;
  const words = foldAccents(message.toLowerCase())
    .replace(/[^\p{L}]+/gu, " ")
    .trim()
    .split(" ")
    .filter((word) => word !== "");
  const kinds = new Set<SmallTalk>();
  let at = 0;
  while (at < words.length) {
    const phrase = BY_LENGTH.find((candidate) => candidate.words.every((word, i) => words[at + i] === word));
    if (phrase) {
      kinds.add(phrase.kind);
      at += phrase.words.length;
    } else if (FILLERS.has(words[at]!)) at++;
    else return undefined;
  }
  return PRIORITY.find((kind) => kinds.has(kind));
}

/**
 * The reply to small talk (Portuguese): about the Bible, or about a document collection when
 * `collection` names one. No reply holds a reference: the web app would show it as a checked citation.
 */
export function smallTalkReply(kind: SmallTalk, collection?: string): string {
  const source = collection === undefined ? "na Bíblia" : `nos documentos da coleção "${collection}"`;
  switch (kind) {
    case "greeting":
      return collection === undefined
        ? "Olá! Eu respondo a partir da Bíblia e mostro cada versículo que cito, para você conferir. Pergunte, por exemplo, o que Jesus disse sobre o perdão, peça uma passagem pela referência (livro, capítulo e versículo), ou conte o que você está vivendo."
        : `Olá! Aqui eu respondo a partir dos documentos da coleção "${collection}" e mostro cada trecho que cito, para você conferir. Faça a sua pergunta.`;
    case "thanks":
      return `De nada! Quando quiser, pergunte de novo: eu procuro ${source} com você.`;
    case "blessing":
      return `Amém! Se quiser continuar, é só perguntar: eu procuro ${source} com você.`;
    case "farewell":
      return collection === undefined ? "Até logo! Que Deus abençoe você. Volte quando quiser conversar." : "Até logo! Volte quando quiser.";
  }
}
