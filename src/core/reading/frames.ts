import { analyze, foldAccents } from "../analysis/index.js";

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

/** A word of a query as frame words are compared: lowercase, without punctuation, folded. */
const bareWord = (word: string) => foldAccents(word.toLowerCase().replace(/[^\p{L}-]/gu, ""));

/** The words of a query that frame it (see above), folded and lowercase. */
export function frameWordsOf(query: string): Set<string> {
  const words = new Set(query.split(/\s+/).map(bareWord).filter((word) => QUESTION_FRAME_WORDS.has(word)));
  const speech = SPEECH_FRAME.exec(query);
  if (speech) for (const word of speech[1]!.trim().split(/\s+/)) words.add(foldAccents(word.toLowerCase()));
  return words;
}

/**
 * Words that ask for a story without saying which ("o que aconteceu com…", "onde fala de…", "o
 * que significa…", "a história de…"), analysed: the story index leaves them out of its phrasings
 * and of the question, so a name it does not know ("o que aconteceu com Geazi?") is not matched
 * on "aconteceu" alone.
 */
const STORY_FRAME_TERMS: ReadonlySet<string> = new Set(
  [...FRAME_WORDS, "onde", "aconteceu", "acontecer", "acontece", "significa", "significado", "fala", "falam", "conta", "contam", "lembro", "lembra", "vez", "episódio", "cena"].flatMap(
    (word) => analyze(foldAccents(word)),
  ),
);

/**
 * The story index's analysis: the words of a text folded before they are stemmed (its phrasings
 * are typed with and without accents, as questions are, and Snowball cuts "purificação" and
 * "purificacao" apart), without the words that only ask for a story.
 */
export function storyTerms(text: string): string[] {
  return analyze(foldAccents(text)).filter((term) => !STORY_FRAME_TERMS.has(term));
}

/** The query without its frame words (for the dense side), unless nothing else would be left. */
export function withoutFrameWords(query: string, frame: ReadonlySet<string> = frameWordsOf(query)): string {
  const words = query.split(/\s+/).filter((word) => word !== "");
  const content = words.filter((word) => !frame.has(bareWord(word)));
  return content.length > 0 && content.length < words.length ? content.join(" ") : query;
}

const SCRIPTURE = String.raw`(?:a\s+)?(?:b[ií]blia|palavra(?:\s+de\s+deus)?|escrituras?|deus|jesus|cristo|senhor)`;
const SPEAKS = String.raw`(?:diz|dizem|fala|falam|ensina|ensinam|afirma|mostra|revela|nos\s+diz|nos\s+ensina)`;
const ABOUT = String.raw`(?:sobre|a\s+respeito\s+d[eoa]s?|acerca\s+d[eoa]s?|em\s+rela[cç][aã]o\s+[aà]o?s?)`;
const PASSAGES = String.raw`(?:(?:alguns?|algumas?|uns|umas|quais|que|os|as|me\s+(?:d[eê]|mostre|indique))\s+)?(?:vers[ií]culos?|versos?|passagens?|textos?|trechos?|cita[cç][oõ]es)(?:\s+b[ií]blic[oa]s?)?`;

/**
 * Topical frames: questions that name a theme and ask what the Bible says about it, rather
 * than quoting or telling a story ("o que a Bíblia diz sobre a ansiedade?", "versículos sobre
 * perdão", "casamento na Bíblia"). Each pattern keeps the theme in its named group.
 */
const THEME_FRAMES: readonly RegExp[] = [
  new RegExp(String.raw`^\s*(?:e\s+)?(?:o\s+)?que\s+${SCRIPTURE}\s+${SPEAKS}\s+${ABOUT}\s+(?<theme>.+)$`, "iu"),
  new RegExp(String.raw`^\s*${PASSAGES}\s+(?:que\s+falam\s+|que\s+tratam\s+)?(?:${ABOUT}|d[eoa]s?|para|com)\s+(?<theme>.+)$`, "iu"),
  new RegExp(String.raw`^\s*(?:o\s+que\s+[eé]\s+)?(?<theme>.+?)\s+(?:na|segundo\s+a|de\s+acordo\s+com\s+a|conforme\s+a)\s+b[ií]blia\s*$`, "iu"),
  new RegExp(String.raw`^\s*(?:o\s+)?que\s+${SCRIPTURE}\s+${SPEAKS}\s+(?:d[eoa]s?)\s+(?<theme>.+)$`, "iu"),
];

/**
 * The theme of a topical question, without its frame and final punctuation ("a ansiedade" for
 * "o que a Bíblia diz sobre a ansiedade?"), or undefined when the question is not framed as a
 * theme. Quotations, stories and references are never framed this way, so the engine can
 * search a theme as a theme (verses readers link most among those about it) without changing
 * how it answers them.
 */
export function themeOf(query: string): string | undefined {
  const trimmed = query.trim().replace(/[?!.;:…]+$/u, "").trim();
  for (const pattern of THEME_FRAMES) {
    const theme = pattern.exec(trimmed)?.groups?.theme?.trim();
    if (theme && /\p{L}/u.test(theme)) return theme;
  }
  return undefined;
}

/**
 * A first-person statement of a feeling or situation ("estou com medo do futuro", "me sinto
 * sozinho", "não consigo perdoar"): the asker describes themselves, so the question is a theme
 * in their own words, never a quotation of the text.
 */
const SITUATION_FRAME = /^\s*(?:eu\s+)?(?:estou|estava|tô|to|me\s+sinto|sinto|tenho|n[aã]o\s+consigo|perdi|fui|acho\s+que|quero|fiz|sou|fico|ando|vivo|minha\s+vida|meu\s+cora[cç][aã]o)\b/iu;

/** Whether the question describes the asker's own feeling or situation (see above). */
export function isSituation(query: string): boolean {
  return SITUATION_FRAME.test(query);
}

/**
 * Words with which askers speak of their own life ("minha mãe morreu mês passado", "meu filho
 * não fala comigo", "estamos endividados"): possessives, "comigo" and first-person "estar" — never
 * "eu", "me" or "mim", which quotations put in God's or Jesus's mouth ("eu sou a luz do mundo",
 * "vinde a mim").
 */
const SELF_WORDS = /(?:^|[^\p{L}])(?:comigo|meu|minha|meus|minhas|estou|tô|estamos|nosso|nossa|nossos|nossas)(?![\p{L}])/iu;

/** Whether the question speaks of the asker's own life (see above). */
export function speaksOfSelf(query: string): boolean {
  return SELF_WORDS.test(query);
}

/**
 * The asker speaking in the first person anywhere in the message: "eu", "me", "mim", a possessive
 * or "comigo", or a verb of the first person past ("assinei", "terminei", "descobri" is left
 * out: "-i" ends too many other words). Quotations speak so too ("vinde a mim", "clamei ao
 * Senhor"), so this alone never says that a message is about the asker's life: the engine also
 * asks that no verse quotes it (`tellsOwnStory`).
 */
const FIRST_PERSON_WORDS = /(?:^|[^\p{L}])(?:eu|me|mim|comigo|meu|minha|meus|minhas|\p{L}{3,}ei)(?![\p{L}])/giu;

/** Nouns that end like a verb of the first person past ("vôlei", "jóquei", "pônei", "hóquei"), folded. */
const NOUNS_IN_EI = new Set(["volei", "joquei", "ponei", "hoquei"]);

/** Whether the message speaks in the first person anywhere (see above). */
export function speaksInFirstPerson(query: string): boolean {
  return [...query.matchAll(FIRST_PERSON_WORDS)].some((match) => !NOUNS_IN_EI.has(foldAccents(match[0].replace(/^[^\p{L}]/u, "").toLowerCase())));
}

/**
 * Words with which an asker points at the text rather than at their life ("a história do rapaz
 * que me contaram…", "aquele versículo que eu li…"): a story, passage or verse they recall. Not
 * FRAME_WORDS above, which serve the lexical weights: "texto", "verso" and "relato" are words of
 * a person's own day too ("mandei um texto pro meu chefe"), and "salmo", "provérbio" and "trecho"
 * name the text without framing a search.
 */
const TEXT_WORDS = /(?:^|[^\p{L}])(?:hist[oó]rias?|passage(?:m|ns)|par[aá]bolas?|vers[ií]culos?|trechos?|cap[ií]tulos?|salmos?|prov[eé]rbios?)(?![\p{L}])/iu;

/** Whether the message names a story, passage or verse of the text (see above). */
export function pointsAtText(query: string): boolean {
  return TEXT_WORDS.test(query);
}

/**
 * The shape of a verb of the third person past ("voltou", "bateu", "caiu", "jogaram", "venderam",
 * "fugiram"): what someone did. A regular-expression source, shared with the gate's narrative
 * verbs (scope/features.ts), which also ask WordNet that the word names a verb.
 */
export const THIRD_PERSON_PAST = "\\p{L}{2,}(?:ou|eu|iu|aram|eram|iram)";

/** A word of that shape anywhere in a message ("estou" has it too, and is no story). */
const THIRD_PERSON_PAST_WORD = new RegExp(`(?<![\\p{L}])(?!estou(?![\\p{L}]))${THIRD_PERSON_PAST}(?![\\p{L}])`, "iu");

/**
 * Whether the message recalls a story: it names one ("a passagem em que…") or tells what someone
 * did ("o cara q escondeu uma faca…"). A few nouns end the same way ("judeu", "museu"); they only
 * let a question be searched as a story too.
 */
export function recallsStory(query: string): boolean {
  return pointsAtText(query) || THIRD_PERSON_PAST_WORD.test(query);
}

/**
 * A request for guidance about the asker's own conduct or trouble ("devo contar pro meu amigo…?",
 * "é errado baixar filme pirata?", "como lidar com o medo na véspera de uma cirurgia?", "vale a
 * pena voltar com meu ex?", "o que faço com a raiva…?"): like a situation, a theme in the
 * asker's words, never a quotation of the text. Anchored at the start, so "tudo posso naquele
 * que me fortalece" is not one, and "posso…" only as a question.
 */
const GUIDANCE_FRAMES: readonly RegExp[] = [
  /^\s*(?:e\s+)?(?:eu\s+)?(?:devo|deveria|preciso|tenho\s+que|vou\s+ter\s+que)(?=\s+\p{L})/iu,
  // "posso" opens a quotation too ("Posso todas as coisas em Cristo…"): only as a question.
  /^\s*(?:e\s+)?(?:eu\s+)?(?:posso|poderia)(?=\s+\p{L}[^?]*\?)/iu,
  /^\s*(?:[eé]|eh|seria)\s+(?:errado|certo|correto|normal|pecado|justo|ego[ií]smo)\b/iu,
  /^\s*(?:como|o\s+que|oq|o\s+q)\s+(?:(?:eu|a\s+gente)\s+)?(?:fa[cç]o|fazer|lidar|lido|superar|supero|enfrentar|enfrento|agir|ajo|reagir|perdoar|recuperar|ajudar|tratar|aceitar|resistir|vencer|sair|esquecer|parar)\b/iu,
  /^\s*vale\s+a\s+pena\b/iu,
  /^\s*(?:qual|quais)\s+(?:[eé]\s+)?(?:a\s+|as\s+)?(?:atitude|melhor\s+forma|melhor\s+maneira|maneira\s+certa|forma\s+certa|postura)(?:\s+(?:correta|certa|crist[aã]))?\b/iu,
];

/** Whether the question asks for guidance about the asker's own conduct or trouble (see above). */
export function asksForGuidance(query: string): boolean {
  return GUIDANCE_FRAMES.some((frame) => frame.test(query));
}
