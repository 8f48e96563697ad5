/**
 * Follow-up questions: in a conversation, "pode explicar melhor?", "por quê?" or "e como faço
 * isso na prática?" are about the question before them, and their own words find verses about
 * explaining, or nothing. Retrieval reads such a message together with the last question that
 * stood on its own; the model still reads the message as it was written, after the history.
 *
 * A message is a follow-up when it points back ("isso", "ele", "desse") or when every word it
 * has is conversation ("explicar", "exemplo", "melhor", "sim"); a message with a subject of its
 * own ("e o que a Bíblia diz sobre o perdão?") is a new question.
 */
import { smallTalkOf, withoutSmallTalk, wordsOf } from "./small-talk.js";

/** A turn of the conversation as retrieval reads it (the chat's turns fit). */
export interface AskedTurn {
  role: string;
  content: string;
}

/** Words that point back to what was said before (folded). */
const POINTING_BACK: ReadonlySet<string> = new Set([
  "isso", "disso", "nisso", "isto", "disto", "nisto", "aquilo", "daquilo", "naquilo",
  "esse", "essa", "esses", "essas", "desse", "dessa", "desses", "dessas", "nesse", "nessa", "nesses", "nessas",
  // not "esta", "estas": folded, they are also "está", "estás"
  "este", "estes", "deste", "desta", "neste", "nesta",
  "ele", "ela", "eles", "elas", "dele", "dela", "deles", "delas", "nele", "nela",
  "aquele", "aquela", "daquele", "daquela", "naquele", "naquela",
]);

/**
 * Words of conversation rather than of a subject (folded): asking to explain, go on, give an
 * example, apply, agree, and the small words around them.
 */
const CONVERSATION: ReadonlySet<string> = new Set([
  // asking for more
  "explica", "explicar", "explique", "explicacao", "entendi", "entender", "entendo", "compreendi", "compreender",
  "exemplo", "exemplos", "outro", "outra", "outros", "outras", "mais", "melhor", "detalhe", "detalhes", "detalhar",
  "continua", "continue", "continuar", "resumo", "resume", "resumir", "resuma", "significa", "significado", "quer", "dizer",
  "pratica", "praticar", "aplicar", "aplico", "faco", "fazer", "faz", "viver", "vivo", "funciona", "novo",
  // asking where it is written ("está" folds to "esta")
  "esta", "escrito", "escrita", "tem", "algum", "alguma", "versiculo", "versiculos", "sobre",
  // asking what it means here, what came next, where it is in the Bible ("como assim?", "e depois, o que aconteceu?")
  "assim", "claro", "clara", "ficou", "depois", "ai", "aconteceu", "acontece", "aconteceram", "contexto", "hoje", "vale",
  "biblia", "livro", "capitulo", "trecho", "passagem", "texto", "fala", "falar", "diz", "mostra", "mostrar", "mostre",
  // agreeing, doubting
  "sim", "nao", "ok", "certo", "entao", "serio", "verdade", "mesmo", "talvez", "agora", "diferenca", "certeza", "tipo", "ne",
  // question and joining words
  "e", "mas", "por", "porque", "que", "o", "a", "os", "as", "um", "uma", "como", "qual", "quais", "onde", "quando",
  "pode", "poderia", "voce", "vc", "me", "mim", "eu", "da", "de", "do", "dar", "no", "na", "em", "pra", "para",
  "pro", "pq", "q", "tb", "tbm",
]);

/** A follow-up is short: a longer message states its own question. */
const MAX_WORDS = 12;
/**
 * Words of its own a message that points back may hold and still be a follow-up ("por que ele
 * fez isso?", "o que Jesus quis dizer com isso?"); with more it asks its own question, the
 * pronoun inside it ("quem foi Davi e o que ele fez?").
 */
const MAX_SUBJECT_WORDS = 3;

/** Whether a message, read alone, leans on what was said before it (see the module doc). */
export function isFollowUp(message: string): boolean {
  const words = wordsOf(message).map((word) => word.folded);
  if (words.length === 0 || words.length > MAX_WORDS) return false;
  const subject = words.filter((word) => !CONVERSATION.has(word) && !POINTING_BACK.has(word));
  return subject.length === 0 || (subject.length <= MAX_SUBJECT_WORDS && words.some((word) => POINTING_BACK.has(word)));
}

/** How many of the asker's earlier turns are looked at for the question a follow-up is about. */
const LOOK_BACK = 3;

/**
 * What retrieval should search for `message`: the question in it without the greeting or thanks
 * around it (core/reading/small-talk.ts), or, for a follow-up, the last earlier question of the
 * asker that stood on its own (small talk passed over) followed by what the message adds to it
 * (its words of conversation and pointing back left out: "explicar" would find verses about
 * explaining, "isso" nothing).
 */
export function retrievalQuery(message: string, history: readonly AskedTurn[]): string {
  const question = withoutSmallTalk(message);
  if (!isFollowUp(question)) return question;
  const standalone = history
    .filter((turn) => turn.role === "user" && smallTalkOf(turn.content) === undefined)
    .slice(-LOOK_BACK)
    .map((turn) => withoutSmallTalk(turn.content))
    .findLast((turn) => !isFollowUp(turn));
  if (!standalone) return question;
  const added = wordsOf(question)
    .filter((word) => !CONVERSATION.has(word.folded) && !POINTING_BACK.has(word.folded))
    .map((word) => question.slice(word.start, word.end));
  return [standalone.trim(), ...added].join(" ");
}
