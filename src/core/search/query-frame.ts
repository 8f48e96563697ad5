import { foldAccents } from "../analysis/index.js";

/**
 * Words that frame a question about the Bible rather than name its content: "a parábola do
 * bom samaritano", "a história de Jonas", "um versículo sobre perdão", "o que a Bíblia diz".
 * The verses that answer such a question rarely contain the frame word, while the verses
 * that do ("ouvi a parábola do semeador") crowd out the content words. The lexical side
 * gives them a reduced weight, and the phrase and dense sides leave them out.
 * Stored folded (queries are often typed without accents).
 */
const FRAME_WORDS = [
  "parábola", "parábolas", "história", "histórias", "relato", "relatos", "passagem", "passagens",
  "versículo", "versículos", "verso", "versos", "texto", "textos", "capítulo", "capítulos",
  "bíblia", "bíblico", "bíblica", "bíblicos", "bíblicas", "escritura", "escrituras",
] as const;

const QUESTION_FRAME_WORDS: ReadonlySet<string> = new Set(FRAME_WORDS.map((word) => foldAccents(word)));

/**
 * "o que <quem> <diz/disse/falou/ensina/ensinou> sobre <assunto>": who spoke frames the
 * question, the subject is what the verses must be about ("o que Jesus disse sobre amar os
 * inimigos?" asks for verses about loving one's enemies, not for verses where Jesus speaks).
 */
const SPEECH_FRAME = /^\s*(?:e\s+)?o\s+que\s+((?:[\p{L}-]+\s+){1,4}?)(?:diz|disse|dizem|disseram|fala|falou|falam|ensina|ensinou|ensinam|ensinaram)\s+(?:a\s+respeito\s+de|sobre|acerca\s+de)\s+/iu;

/** The words of a query that frame it (see above), folded and lowercase. */
export function frameWordsOf(query: string): Set<string> {
  const words = new Set<string>();
  for (const word of query.split(/\s+/)) {
    const bare = word.toLowerCase().replace(/[^\p{L}-]/gu, "");
    if (isFrameWord(bare)) words.add(foldAccents(bare));
  }
  const speech = SPEECH_FRAME.exec(query);
  if (speech) for (const word of speech[1]!.trim().split(/\s+/)) words.add(foldAccents(word.toLowerCase()));
  return words;
}

/** Whether a (lowercase) word is a question-frame word, accents or not. */
export function isFrameWord(lowercaseWord: string): boolean {
  return QUESTION_FRAME_WORDS.has(foldAccents(lowercaseWord));
}

/** The query without its frame words (for the dense side), unless nothing else would be left. */
export function withoutFrameWords(query: string, frame: ReadonlySet<string> = frameWordsOf(query)): string {
  const words = query.split(/\s+/).filter((word) => word !== "");
  const content = words.filter((word) => !frame.has(foldAccents(word.toLowerCase().replace(/[^\p{L}-]/gu, ""))));
  return content.length > 0 && content.length < words.length ? content.join(" ") : query;
}
