import { setTimeout as sleep } from "node:timers/promises";
import { LlmError, type GenerateRequest, type GroundingPassage, type LlmProvider } from "../../core/chat/llm.js";
import type { CrisisKind } from "../../core/reading/crisis.js";
import { shapedAnswer, SITUATION_CLOSING } from "../../core/chat/answer-kinds.js";

/**
 * The offline default provider: no model, no network. It answers extractively from the
 * retrieved passages, citing each one by its reference exactly as given, and streams the
 * answer in small chunks like a real model would. Same input, same output: no randomness,
 * no dates.
 */

export interface StubProviderOptions {
  /** Pause between chunks, in milliseconds (default 15; use 0 in tests). */
  chunkDelayMs?: number;
}

export const STUB_MODEL = "extrativo";
export const STUB_DEFAULT_CHUNK_DELAY_MS = 15;

/** How many passages are quoted in full; the rest are only named. */
const MAX_QUOTED = 4;
const MAX_QUOTE_CHARS = 240;
const MAX_QUESTION_CHARS = 160;

const NUMBER_WORDS: Record<number, string> = { 2: "duas", 3: "três", 4: "quatro" };

/** Lead-ins for the quoted passages, in order: the answer reads as prose, not as a list. */
const LEAD_INS = ["O texto mais direto diz", "Também está escrito", "Em outro lugar, lemos", "E ainda"] as const;

/** To a person at risk (core/reading/crisis.ts): no echo of the message, no "your question"; the notice with the numbers comes before. */
const CARE_OPENINGS: Readonly<Record<CrisisKind, string>> = {
  self_harm: "Sinto muito que você esteja passando por isso. A sua vida tem valor, e você não precisa carregar esse peso sem ajuda.",
  violence: "Sinto muito pelo que você está passando. Você não tem culpa, e a sua segurança vem primeiro.",
};

/** The care opening, then what the passages are: the Bible's words for such a moment, or what a collection's material says. */
function careOpening(kind: CrisisKind, corpusLabel: string | undefined): string {
  const passages = corpusLabel === undefined ? "A Bíblia tem palavras para momentos assim." : `Veja o que ${corpusLabel} diz sobre isso.`;
  return `${CARE_OPENINGS[kind]} ${passages}`;
}
const CARE_CLOSING = "Por favor, procure ajuda hoje: ligue para um dos números acima e converse com alguém de confiança, um pastor, um familiar ou um amigo. Se quiser, continue me contando o que está acontecendo.";

export const STUB_NOTHING_FOUND =
  "Não encontrei, nas passagens consultadas, um texto bíblico que responda a essa pergunta. Tente reformulá-la com outras palavras ou cite um livro ou personagem.";

export function createStubProvider(options: StubProviderOptions = {}): LlmProvider {
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? STUB_DEFAULT_CHUNK_DELAY_MS);
  return {
    id: "stub",
    model: STUB_MODEL,
    stream(request: GenerateRequest): AsyncIterable<string> {
      return streamChunks(composeStubAnswer(request), chunkDelayMs, request.signal);
    },
  };
}

/** The whole answer the stub streams for a request (exported for tests and previews). */
export function composeStubAnswer(request: Pick<GenerateRequest, "passages" | "question" | "messages" | "corpusLabel" | "care" | "doubtful" | "shape">): string {
  const passages = (request.passages ?? [])
    .map((passage) => ({ reference: passage.reference.trim(), text: normalizeSpace(passage.text) }))
    .filter((passage) => passage.reference !== "" && passage.text !== "");
  // A kind of message with its own honest answer (about the assistant, a saying checked, a passage
  // explained or quoted, a study prepared, a person, place, term or practice): its own voice,
  // unless the writer is at risk (care speaks first) or the gate doubted the question.
  const shaped = request.shape && !request.care && !request.doubtful ? shapedAnswer(request.shape, passages) : undefined;
  if (shaped !== undefined) return shaped;
  if (passages.length === 0) return STUB_NOTHING_FOUND;

  const quoted = passages.slice(0, MAX_QUOTED);
  const others = passages.slice(MAX_QUOTED);
  const question = questionOf(request);

  const paragraphs = [
    request.care
      ? careOpening(request.care, request.corpusLabel)
      : request.doubtful
        ? doubtfulOpening(question)
        : request.shape?.kind === "situation" && !question.trimEnd().endsWith("?")
          ? situationOpening(quoted.length, request.corpusLabel ?? "a Bíblia")
          : opening(question, quoted.length, request.corpusLabel ?? "a Bíblia"),
    quoted.map(quoteSentence).join(" "),
  ];
  if (others.length > 0) {
    const names = others.map((passage) => passage.reference);
    paragraphs.push(`${others.length === 1 ? "Outra passagem relacionada é" : "Outras passagens relacionadas são"} ${joinList(names)}.`);
  }
  if (request.shape?.kind === "situation" && !request.care) paragraphs.push(SITUATION_CLOSING);
  paragraphs.push(
    request.care
      ? CARE_CLOSING
      : quoted.length === 1
        ? "Vale ler a passagem por inteiro, no seu contexto, para entender melhor o que ela ensina."
        : "Vale ler essas passagens por inteiro, cada uma no seu contexto, para entender melhor o que ensinam.",
  );
  return paragraphs.join("\n\n");
}

function questionOf(request: Pick<GenerateRequest, "question" | "messages">): string {
  const explicit = normalizeSpace(request.question ?? "");
  if (explicit !== "") return explicit;
  const lastUser = request.messages?.findLast((turn) => turn.role === "user");
  return normalizeSpace(lastUser?.content ?? "");
}

function opening(question: string, count: number, corpus: string): string {
  const what = count === 1 ? "uma passagem que ajuda" : `${NUMBER_WORDS[count] ?? String(count)} passagens que ajudam`;
  const source = corpus.charAt(0).toUpperCase() + corpus.slice(1);
  if (question === "") return `${source} traz ${what} a refletir sobre isso.`;
  return `Sobre a sua pergunta, “${truncate(question, MAX_QUESTION_CHARS)}”, ${corpus} traz ${what} a responder.`;
}

/** Someone telling what they live through asked no question: the passages are for the moment, not an answer. */
function situationOpening(count: number, corpus: string): string {
  const what = count === 1 ? "uma passagem" : `${NUMBER_WORDS[count] ?? String(count)} passagens`;
  const source = corpus.charAt(0).toUpperCase() + corpus.slice(1);
  return `Obrigado por contar o que você está vivendo. ${source} traz ${what} para um momento assim.`;
}

/**
 * The gate kept the question with a doubt (the page says so above the answer; the `sources`
 * event carries it): the passages are offered as the nearest found, never as an answer.
 */
function doubtfulOpening(question: string): string {
  if (question === "") return "Estas são as passagens mais próximas que encontrei.";
  return `Para “${truncate(question, MAX_QUESTION_CHARS)}”, estas são as passagens mais próximas que encontrei.`;
}

function quoteSentence(passage: GroundingPassage, index: number): string {
  const lead = LEAD_INS[index] ?? LEAD_INS[LEAD_INS.length - 1]!;
  const quote = truncate(passage.text, MAX_QUOTE_CHARS).replace(/[.,;:]+$/u, "");
  // A bracketed marker ("[2]", for document excerpts) is written as is; a verse reference in parentheses.
  const cite = passage.reference.startsWith("[") ? passage.reference : `(${passage.reference})`;
  return `${lead}: “${quote}” ${cite}.`;
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]!}`;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** Cuts at a word boundary and marks the cut with an ellipsis. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(" ");
  const base = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut;
  return `${base.replace(/[\s.,;:!?]+$/u, "")}…`;
}

async function* streamChunks(text: string, delayMs: number, signal: AbortSignal | undefined): AsyncGenerator<string> {
  const chunks = text.match(/\S+\s*/gu) ?? [];
  for (const [index, chunk] of chunks.entries()) {
    if (signal?.aborted) throw aborted();
    // A pause cut short by an abort rejects (AbortError): the check below turns it into llm_aborted.
    if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal }).catch(() => undefined);
    if (signal?.aborted) throw aborted();
    yield chunk;
  }
}

function aborted(): LlmError {
  return new LlmError("llm_aborted", "stub");
}
