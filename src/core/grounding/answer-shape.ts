/**
 * The shape of an answer: what kind of message it answers (`reading/kinds.ts`) and what retrieval
 * found out for it (a saying's verdict, what a question of knowledge names, a passage's context),
 * as plain data for the answer — the note a real model reads before the question (`kindNote`,
 * inside `<tipo>`) and the offline default's text (`core/chat/answer-kinds.ts`). Pure.
 */
import type { AssistantTopic } from "../reading/kinds.js";
import type { SearchReading } from "../retrieval/engine.js";
import type { QuotationVerdict } from "../retrieval/stages/quotation.js";
import { personFacts } from "../retrieval/stages/knowledge.js";
import { personFactsSentence } from "./person-facts.js";

/** What the planner tells the answer about the kind of message (plain data; it crosses to the provider). */
export type AnswerShape =
  | { kind: "about_assistant"; topic: AssistantTopic }
  | { kind: "quotation_check"; quote: string; verdict: QuotationVerdict; verses: string[] }
  | { kind: "explain_passage"; passage: string[]; context: string[]; links: string[] }
  | { kind: "quote_passage" }
  | { kind: "study_prep"; subject: string; form: "sermon" | "study" | "note" | "devotional"; push: boolean }
  | { kind: "knowledge"; profile: "person" | "place" | "definition" | "practice" | "event"; subject: string; label: string; named: boolean; facts?: string; placeType?: string }
  | { kind: "situation" };

/** The kind the `done` event names: the shape's, a knowledge question by its profile, else `question`. */
export function answerKindOf(shape: AnswerShape | undefined): Exclude<AnswerShape["kind"], "knowledge"> | Extract<AnswerShape, { kind: "knowledge" }>["profile"] | "question" {
  if (!shape) return "question";
  return shape.kind === "knowledge" ? shape.profile : shape.kind;
}

/** A person named in more verses than this is not introduced by their family. */
const GENEALOGY_MAX_MENTIONS = 1000;

/**
 * The shape of an answer from what the search read (`SearchReading`) and the passages it found,
 * in order, each with the lists that brought it (`via`); undefined for a question of no special
 * kind.
 */
export function shapeOf(reading: SearchReading | undefined, passages: readonly { reference: string; via: readonly string[] }[]): AnswerShape | undefined {
  if (!reading) return undefined;
  const refs = (via: string) => passages.filter((passage) => passage.via.includes(via)).map((passage) => passage.reference);
  switch (reading.kind) {
    case "about_assistant":
      return reading.topic ? { kind: "about_assistant", topic: reading.topic } : undefined;
    case "quotation_check":
      return reading.quotation ? { kind: "quotation_check", quote: reading.quotation.quote, verdict: reading.quotation.verdict, verses: refs("quotation") } : undefined;
    case "explain_passage":
      return { kind: "explain_passage", passage: refs("reference"), context: refs("context"), links: refs("crossref") };
    case "quote_passage":
      return { kind: "quote_passage" };
    case "study_prep":
      return reading.study ? { kind: "study_prep", ...reading.study } : undefined;
    case "knowledge": {
      const finding = reading.knowledge;
      if (!finding) return undefined;
      const match = finding.match;
      // A genealogy says who most people were; not who the Bible's central figure is (Jesus: 1,831 verses).
      const facts = match.kind === "person" && match.mentions <= GENEALOGY_MAX_MENTIONS ? personFactsSentence(match.label, match.gender, personFacts(match)) : undefined;
      return {
        kind: "knowledge",
        profile: finding.profile,
        subject: finding.profile === "practice" || finding.profile === "definition" ? match.label : finding.subject,
        label: match.label,
        named: finding.named,
        ...(facts ? { facts } : {}),
        ...(match.kind === "place" && match.type ? { placeType: match.type } : {}),
      };
    }
    default:
      // Someone telling what they live ("estou com medo", "minha mãe morreu") is also pointed to people.
      return reading.profile && SITUATIONS.has(reading.profile) ? { kind: "situation" } : undefined;
  }
}

/** The profiles of a message about the asker's own life. */
const SITUATIONS: ReadonlySet<string> = new Set(["situation", "self", "own-story", "guidance"]);

/** The note a real model reads before the question (inside `<tipo>`), for each kind. */
export function kindNote(shape: AnswerShape): string {
  switch (shape.kind) {
    case "about_assistant":
      return "Pergunta sobre você. Diga com honestidade e simplicidade que você é um programa de computador (uma inteligência artificial), não uma pessoa: não ora, não crê, não tem vida nem experiências próprias, não ouve confissões nem perdoa pecados, pode errar e não fala em nome de Deus, não substitui um pastor, a igreja ou amigos. Aponte para pessoas e para a conferência na própria Bíblia. Use as fontes só se ajudarem.";
    case "quotation_check": {
      const found =
        shape.verdict === "found"
          ? `A busca encontrou a frase em ${shape.verses.join(" e ")}: mostre o texto.`
          : shape.verdict === "near"
            ? `A busca encontrou algo parecido, com outras palavras, em ${shape.verses.join(" e ")}: mostre o texto e a diferença.`
            : shape.verdict === "absent"
              ? "A busca não encontrou essa frase na Bíblia: diga claramente que ela não está na Bíblia (não é um versículo) e mostre o que as fontes dizem sobre o assunto."
              : "A busca não encontrou essas palavras na Bíblia Livre: diga isso com franqueza, sem afirmar que a frase está ou não está na Bíblia, e mostre as fontes mais próximas.";
      return `Conferência de citação: a pessoa quer saber se a frase “${shape.quote}” está na Bíblia. ${found} Nunca atribua a frase a um livro ou versículo que não esteja nas fontes.`;
    }
    case "explain_passage":
      return `Explicação de passagem: explique ${shape.passage.join(", ")} a partir do seu contexto (${[...shape.context].join(", ") || "os versículos ao redor"}), antes de qualquer aplicação; diga também o que o texto não quer dizer, se for comum lê-lo fora do contexto.`;
    case "quote_passage":
      return "Citação de passagem: mostre o texto pedido exatamente como está nas fontes, com a referência, sem parafrasear.";
    case "study_prep":
      return shape.push
        ? "A pessoa pede um texto pronto, sem tempo para estudar. Com bondade e sem sermão, não entregue um manuscrito pronto: diga uma vez por quê (a pregação nasce do estudo de quem prega) e ofereça o caminho mais rápido e honesto: uma passagem, uma estrutura e três perguntas para trabalhar."
        : shape.form === "note"
          ? "Mensagem pastoral: ajude a pessoa a escrever com as palavras dela. Não invente fatos, lembranças, nomes nem compromissos: use [colchetes] para o que só ela sabe (o nome, a relação, lembranças). Sugira passagens de consolo das fontes."
          : `Preparo de ${shape.form === "sermon" ? "sermão" : shape.form === "devotional" ? "devocional" : "estudo"}${shape.subject ? ` sobre ${shape.subject}` : ""}: ajude quem prepara com passagens agrupadas por subtemas, o contexto de cada uma, perguntas para reflexão e uma estrutura a completar. Não escreva o texto pronto para ser lido, nem histórias pessoais inventadas.`;
    case "situation":
      return "A pessoa fala de algo que está vivendo. Acolha primeiro, com as fontes; depois, incentive-a a conversar com alguém de confiança (um pastor, alguém da família, amigos), sem se colocar no lugar dessas pessoas.";
    case "knowledge":
      return [
        `Pergunta sobre ${shape.profile === "person" ? "uma pessoa da Bíblia" : shape.profile === "place" ? "um lugar da Bíblia" : shape.profile === "event" ? "um acontecimento da Bíblia" : shape.profile === "practice" ? "uma prática ou conduta" : "o significado de um termo"}: ${shape.label}.`,
        shape.facts ? `Dados confiáveis: ${shape.facts}` : "",
        shape.profile === "practice" && !shape.named ? `A Bíblia não usa a palavra “${shape.subject}”: diga isso e mostre os princípios que as fontes trazem, sem inventar uma proibição ou permissão que o texto não diz.` : "",
      ]
        .filter(Boolean)
        .join(" ");
  }
}

