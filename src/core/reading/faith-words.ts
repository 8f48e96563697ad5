/**
 * Words that name the Bible or the Christian faith, and the worldly senses some of them also
 * have: read by the out-of-scope gate (a question holding one is about the Bible) and by the
 * message reading. Pure.
 */
import { foldAccents, splitWords } from "../analysis/index.js";

/**
 * Words that name the Bible or the Christian faith: a question holding one is about the Bible
 * even when the answer is that it says nothing ("a Bíblia fala de dinossauros?"). Generic
 * words of the domain, folded; ambiguous ones ("céu", "pastor", "santo", "graça") left out.
 */
const FAITH_WORDS = new Set(
  [
    "deus", "deuses", "jesus", "cristo", "bíblia", "bíblico", "bíblica", "bíblicos", "bíblicas", "escritura", "escrituras",
    "versículo", "versículos", "evangelho", "evangelhos", "igreja", "igrejas", "fé", "oração", "orações", "orar", "oro",
    "rezar", "pecado", "pecados", "pecar", "pequei", "salvação", "espírito", "cristão", "cristã", "cristãos", "cristãs",
    "crente", "crentes", "cristianismo", "apóstolo", "apóstolos", "profeta", "profetas", "anjo", "anjos", "demônio",
    "demônios", "diabo", "satanás", "inferno", "batismo", "batizar", "culto", "dízimo", "evangélico", "evangélica",
    "católico", "católica", "religião", "milagre", "milagres", "ressurreição", "messias", "testamento", "salmo", "salmos",
    "mandamento", "mandamentos", "discípulo", "discípulos", "louvor", "adoração", "espiritual", "jejum", "gênesis",
    "apocalipse", "provérbios", "fariseus", "parábola", "parábolas", "sacerdote", "profecia", "profecias", "arrebatamento", "eternidade",
  ].map((word) => foldAccents(word)),
);

/**
 * Phrases where a faith word has its worldly sense, folded: a medical fast ("glicose em jejum",
 * "jejum intermitente"), a clause in grammar ("oração subordinada"), a will ("testamento"
 * without "novo" or "antigo" before it). Inside one of these, the word settles nothing: the
 * classifier decides, as for any question.
 */
const WORLDLY_SENSES: readonly RegExp[] = [
  /\bem\s+jejum\b/gu,
  /\bjejum\s+(?:intermitente|para\s+(?:o\s+|os\s+)?exames?|antes\s+d[oe]s?\s+exames?)\b/gu,
  /\bora(?:cao|coes)\s+(?:subordinadas?|coordenadas?|principa(?:l|is)|intercaladas?|reduzidas?|absolutas?|adjetivas?|substantivas?|adverbia(?:l|is)|sindeticas?|assindeticas?)\b/gu,
  /(?<!\b(?:novo|antigo|velho)\s+)\btestamentos?\b/gu,
];

/** The faith words of a question, folded, outside their worldly senses. */
export function faithWordsOf(question: string): string[] {
  const folded = WORLDLY_SENSES.reduce((text, sense) => text.replace(sense, " "), foldAccents(question.toLowerCase()));
  return [...new Set(splitWords(folded).filter((word) => FAITH_WORDS.has(word)))];
}

