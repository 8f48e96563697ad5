/**
 * What kind of message it is, when it is not a plain search: a question about the assistant
 * itself, a check of a saying ("onde diz que…?", "isso está na Bíblia?"), a passage to explain
 * or to quote, a request to prepare a sermon, a study or a note, and the questions people ask of
 * the Bible's people, words, practices, places and events ("quem foi X?", "o que é X?", "é
 * pecado X?", "onde fica X?", "o que aconteceu em X?"), with the subject they ask about. Each is
 * read from the message's words (`message-text.ts`), never from a list of questions. Pure.
 */
import { foldAccents } from "../analysis/fold.js";
import { tokenize } from "../analysis/index.js";
import { resolveBookName } from "../bible/books.js";
import { findQueryReferences, type ReferenceMatch } from "../bible/references.js";
import { readText, typedFrom, type MessageText } from "./message-text.js";

/** What the assistant is asked about itself. */
export type AssistantTopic = "identity" | "prayer" | "belief" | "role" | "church" | "only_you" | "own_life" | "trust" | "confession";

/** What a question of knowledge asks of its subject. */
export type KnowledgeFrame = "who" | "what" | "conduct" | "where" | "happened" | "property";

export type MessageKind =
  | { kind: "about_assistant"; topic: AssistantTopic; rest?: string }
  | { kind: "quotation_check"; quote: string }
  | { kind: "explain_passage"; references: ReferenceMatch[] }
  | { kind: "quote_passage"; references: ReferenceMatch[] }
  | { kind: "study_prep"; subject: string; form: "sermon" | "study" | "note" | "devotional"; push: boolean }
  | { kind: "knowledge"; frame: KnowledgeFrame; subject: string }
  | { kind: "question" };

const YOU = String.raw`(?:voce|tu|pastor online|o assistente|esse assistente|essa ia|esta ia|esse robo|esse bot|esse app|esse aplicativo|esse chat)`;
const ROLES = String.raw`(?:pastor|pastora|lider|mentor|mentora|conselheiro|conselheira|amigo|amiga|professor|professora|discipulador|discipuladora|guia|psicologo|psicologa|terapeuta|padre|confessor|companheiro|companheira|namorado|namorada)`;

/** Each topic's patterns, on the spelled text (`message-text.ts`): the first that matches names it. */
const ASSISTANT: readonly [AssistantTopic, RegExp][] = [
  ["confession", new RegExp(String.raw`\s(?:confessar|confesso|confessando|me confessar)\s(?:\S+\s){0,4}?(?:pra|para|a|com)\s(?:voce|ti)\s|\s${YOU}\s(?:(?:pode|consegue|poderia|vai)\s)?(?:me\s)?(?:perdoar|perdoa|absolver|absolve)\s(?:(?:o|os|meu|meus|esse|esses|todos|todos os)\s){0,2}pecados?\s`)],
  ["trust", new RegExp(String.raw`\s(?:posso|podemos|da para|pode se|devo)\s(?:confiar|acreditar)\s(?:\S+\s){0,2}?(?:em\s${YOU}|no que\s${YOU}\s(?:diz|fala|escreve|responde)|em tudo (?:o )?que\s${YOU}\s(?:diz|fala|escreve|responde)|nas\s(?:suas|tuas)\s(?:respostas|palavras|informacoes))\s|\s${YOU}\s(?:(?:nunca|as vezes|tambem|pode|consegue|costuma)\s)?(?:erra|errar|se engana|se enganar|mente|mentir|inventa|inventar)\s|\s${YOU}\s(?:e|eh)\s(?:confiavel|infalivel|inspirado|inspirada)\s|\s(?:as\s)?(?:suas|tuas)\s(?:respostas|palavras)\s(?:sao|vem)\s(?:confiaveis|inspiradas|infaliveis|de deus|do espirito santo)\s|\s(?:deus|o espirito santo|o espirito|jesus)\s(?:que\s)?(?:fala|falando|esta falando)\s(?:\p{L}+\s){0,2}?(?:por meio de|atraves de|por|pelo|pela)\s${YOU}\s`, "u")],
  ["own_life", new RegExp(String.raw`\s(?:historia|experiencia|testemunho|lembranca)s?\s(?:da|de)\s(?:sua|tua)\s(?:propria\s)?vida\s|\s(?:sua|tua)\s(?:propria\s)?(?:historia|experiencia|testemunho|vida)\s(?:pessoal\s)?(?:para|pra|pro|com)\s`)],
  ["prayer", new RegExp(String.raw`\s${YOU}\s(?:(?:pode|podia|poderia|vai|iria|consegue|quer|sabe)\s)?(?:orar|rezar|interceder|ora|reza|intercede)\s|\s(?:pode|podia|poderia|consegue|quer)\s(?:orar|rezar|interceder)\s(?:por|pra|para)\s(?:mim|nos)\s|\s(?:ore|ora|reze|reza)\s(?:por|pra|para)\s(?:mim|nos)\s|\s(?:faz|faca)\s(?:uma\s)?oracao\s(?:por|pra|para)\s(?:mim|nos)\s`)],
  ["belief", new RegExp(String.raw`\s${YOU}\s(?:acredita|cre|tem fe|confia|ama)\s(?:em|no|na|a)\s?(?:deus|jesus|cristo|biblia|espirito)|\s${YOU}\s(?:e|eh|seria)\s(?:cristao|crista|crente|evangelico|evangelica|catolico|catolica|salvo|salva|convertido|convertida|ateu|ateia|religioso|religiosa)\s|\s${YOU}\s(?:vai|iria)\s(?:para|pro|pra)\s(?:o\s)?(?:ceu|inferno)\s|\s(?:qual|que)\s(?:e\s)?(?:a\s)?(?:sua|tua)\s(?:religiao|igreja|fe)\s`)],
  ["role", new RegExp(String.raw`\s(?:pode|podia|poderia|quer|vai|aceita|topa)\s(?:ser|virar)\s(?:o\s|a\s)?(?:meu|minha)\s(?:\p{L}+\s)?${ROLES}|\s(?:seja|sera)\s(?:o\s|a\s)?(?:meu|minha)\s${ROLES}|\s${YOU}\s(?:e|eh|sera|seria)\s(?:o\s|a\s)?(?:meu|minha)\s(?:\p{L}+\s)?${ROLES}|\s${YOU}\s(?:substitui|pode substituir)\s`, "u")],
  ["church", new RegExp(String.raw`\snao\s(?:preciso|precisamos|vou precisar)\s(?:mais\s)?(?:de\s|da\s|ir\s(?:a|na|pra|para a)\s)?(?:igreja|pastor|congregacao|culto|comunidade)s?\s|\s(?:prefiro|melhor)\s(?:conversar|falar|ficar)\s(?:com\s)?${YOU}\s|\s${YOU}\s(?:e|eh)\s(?:melhor|mais\sutil)\s(?:que|do que)\s`)],
  ["only_you", new RegExp(String.raw`\s(?:so|somente|apenas)\s(?:${YOU}\s)?(?:me\s)?(?:entende|escuta|ouve|compreende)\s|\s(?:so|somente|apenas)\s(?:tenho|confio\sem)\s${YOU}\s|\s(?:tenho|tenho a)\s${YOU}\s$|\s${YOU}\s(?:e|eh)\s(?:o\s|a\s)?(?:meu|minha)\s(?:unico|unica|melhor)\s`)],
  ["identity", new RegExp(String.raw`\s${YOU}\s(?:e|eh|seria|ser|existe)\s(?:uma?\s)?(?:pessoa|humano|humana|gente|real|de verdade|robo|ia|inteligencia artificial|programa|maquina|computador|bot|chatbot|deus|anjo|espirito|pastor)|\s(?:tem|ha|existe)\s(?:alguem|uma pessoa|gente)\s(?:ai|do outro lado|respondendo|digitando)|\scom\squem\s(?:eu\s)?(?:estou|to|falo)\s(?:falando|conversando)?|\s(?:quem|o que)\s(?:e|eh)\s(?:voce|vc)\s|\squem\s(?:te|o)\s(?:criou|fez|programou|desenvolveu|treinou)\s|\s${YOU}\s(?:tem|sente)\s(?:alma|sentimentos|emocoes|vida|consciencia)\s`)],
];

/** Where a saying is asked about. */
const WHERE = String.raw`(?:onde|aonde|em que (?:parte|lugar|livro|versiculo|capitulo|trecho|passagem)|qual (?:e )?(?:o |a )?(?:versiculo|livro|capitulo|texto|referencia|passagem|trecho))`;
const SAYS = String.raw`(?:diz|dizem|fala|falam|se diz|se fala|esta escrito|ta escrito|tem escrito|escreve|afirma|menciona|aparece|encontro|acho|manda|ensina)`;
/** Frames that open a saying's check, the saying after them in the named group. */
const QUOTATION_LEADS: readonly RegExp[] = [
  new RegExp(String.raw`^\s(?:e\s)?${WHERE}\s(?:(?:na|da)\sbiblia\s|a biblia\s)?${SAYS}\s(?:na biblia\s)?(?:que\s|:\s|para\s|pra\s|a\s)?(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:e\s)?(?:(?:tem|existe|ha|qual e|qual)\s)?(?:algum\s|um\s|o\s)?(?:versiculo|texto|passagem|trecho)\s(?:na biblia\s|da biblia\s)?(?:que\s)?(?:diz|fala|afirma)\s(?:que\s)(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:e\s)?(?:a\s)?biblia\s(?:diz|fala|ensina|afirma)\s(?:mesmo\s|realmente\s|de verdade\s)?(?:que\s)?(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:e|eh|seria)\s(?:biblico|biblica)\s(?:dizer\s)?(?:que\s)?(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:isso|isto|essa frase|esse ditado)\s(?:esta|ta|existe|aparece)\s(?:escrito\s|escrita\s)?(?:na biblia|em algum versiculo)\s(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:quem|qual profeta|que profeta|qual apostolo)\s(?:disse|falou|escreveu)\s(?:que\s)?(?<quote>.+)$`),
  new RegExp(String.raw`^\s(?:em\s)?(?:que|qual)\s(?:versiculo|passagem|capitulo|parte da biblia)\s(?<quote>(?!(?:fala|falam|trata|tratam|sobre|que fala|que falam)\s).+)$`),
];
/** Frames that close a saying's check ("…, onde está escrito?", "… — versículo?", "… é de Isaías?"), the saying before them. */
const QUOTATION_TAILS: readonly RegExp[] = [
  /\s(?:e\s)?(?:onde|aonde)\s(?:\p{L}+\s){0,3}?(?:esta|ta|fica|e|eh|falou|disse|escreveu|fala|diz|aparece)\s(?:escrito\s)?(?:isso\s|isto\s)?(?:na biblia\s)?(?:onde\s)?$/u,
  /\s(?:jesus|paulo|deus|pedro|davi|salomao|moises|ele|a biblia)\s(?:que\s)?(?:falou|disse|escreveu|diz|fala)\s(?:isso\s)?(?:na biblia\s)?(?:onde\s|mesmo\s)?$/u,
  /\s(?:foi\s\p{L}+\sque\s(?:disse|falou|escreveu)|quem\s(?:disse|falou|escreveu)|qual\s(?:profeta|apostolo)\s(?:disse|falou|escreveu))\s(?:isso\s)?(?:onde\s)?$/u,
  /\s(?:isso\s|isto\s)?(?:(?:e|eh|esta|ta|fica)\s)?(?:em\s)?(?:que|qual)\s(?:parte|livro|evangelho|salmo|capitulo|versiculo|lugar)\s(?:da biblia\s)?(?:(?:e|eh|esta|ta|fica)\s)?$/u,
  /\s(?:em\s)?(?:qual|que)\s(?:e\s)?(?:o\s|a\s)?(?:versiculo|livro|referencia|capitulo|evangelho|profeta|salmo|carta|passagem)\s(?:e\s(?:esse|essa|este|esta)\s)?(?:e\s)?(?:(?:fala|diz|esta|ta|aparece)\s)?(?:isso\s)?(?:jesus\s(?:diz|disse|fala|falou)\s(?:isso\s)?(?:\p{L}+\s){0,3})?$/u,
  /\s(?<book>\d?\s?\p{L}+)\s(?:capitulo|versiculo)\s(?:por favor\s)?$/u,
  /\s(?:versiculo|referencia|ref|capitulo)\s(?:por favor\s)?$/u,
  /\s(?:isso\s|isto\s)?(?:e|eh|seria|esta|ta|existe)\s(?:mesmo\s)?(?:um\s|o\s|a\s)?(?:versiculo|biblico|biblica|biblia|da biblia|na biblia|bibl(?:ia|ico)\smesmo|de (?:um\s)?salmo|um salmo|salmo|proverbio|proverbios|mandamento(?: da biblia)?|escrito na biblia)\s(?:mesmo\s|ne\s|isso\s)?$/u,
  /\s(?:isso\s|isto\s)?(?:e|eh|esta|ta)\s(?:em\s|de\s|do\s|da\s|no\s|na\s)(?<book>\d?\s?\p{L}+)(?:\s\d+)*(?:\s(?:ou|versiculo|capitulo)\s.*)?\s(?:ne\s)?$/u,
];
/** A saying that is a theme after all ("onde a Bíblia fala sobre o perdão?"): the check reads a statement, not a subject. */
const THEME_START = /^\s*(?:sobre|a respeito|acerca|de|do|da|dos|das|em relacao)\s/u;
/** Quoted spans: the saying asked about, when the message holds one. */
const QUOTED = /["“”«»]([^"“”«»]{6,})["“”«»]|(?:^|[\s(:])[‘'’]([^‘'’]{6,})[‘'’](?=[\s,.;:!?)—–-]|$)/u;
/** Words that make a quoted span a question about the text (not a quotation to search plainly). */
const ASKS_ABOUT_TEXT = /\s(?:onde|aonde|versiculo|versiculos|biblia|biblico|biblica|referencia|livro|capitulo|escrito|existe|passagem|citacao)\s/u;

/** A passage to explain, or to quote, by what the message asks of its reference. */
const EXPLAIN = /\s(?:o que (?:significa|quer dizer|esta dizendo|ensina|quis dizer|queria dizer)|qual (?:e )?o (?:significado|sentido|contexto|ensino)|significado|significa|explica|explique|explicar|explicacao|me explica|interpreta|interprete|interpretacao|interpretar|entender|entendo|comenta|comente|comentario|contexto|estudo|estuda)\s/u;
const QUOTE = /\s(?:cite|cita|citar|me (?:manda|mande|envia|envie|passa|passe|mostra|mostre|da|de|diga|fala)|manda|mande|mostra|mostre|escreve|escreva|copia|copie|leia|ler|transcreva|qual (?:e )?o (?:texto|versiculo)|o que diz|como diz|texto de|texto do|texto da|versiculo|versiculos)\s/u;
/** Words of such a request that are not its own subject ("o que significa Fp 4:13 pra mim?" still explains). */
const PASSAGE_ASIDES = new Set(["o", "a", "que", "de", "da", "do", "pra", "para", "mim", "me", "por", "favor", "ai", "isso", "esse", "essa", "este", "esta", "versiculo", "passagem", "texto", "trecho", "biblia", "na", "no", "em", "e", "um", "uma", "sobre", "voce", "pode", "poderia", "consegue", "ajuda", "ajudar", "melhor", "exatamente", "realmente", "inteiro", "completo", "todo", "toda"]);

/** A sermon, a study, a class or a note asked for, and the request itself. */
const STUDY_WORDS = String.raw`(?:sermao|sermoes|pregacao|pregacoes|pregar|esboco|esbocos|estudo biblico|estudo|estudos|aula|licao|devocional|devocionais|mensagem|palestra|ministracao|ministrar|reflexao|homilia|celula|ebd|escola dominical|discipulado|recado|bilhete|carta|cartao)`;
const REQUEST = String.raw`(?:escreva|escreve|escrever|prepare|prepara|preparar|preparando|monte|monta|montar|faca|faz|fazer|crie|cria|criar|elabore|elabora|elaborar|me ajuda|me ajude|ajuda|ajude|ajudar|preciso|quero|gostaria|vou|pode|poderia|sugira|sugere|sugestao|ideias|ideia|roteiro|redija|redigir|organizar|organize|dar|dou|ministrar|pregar)`;
const STUDY = new RegExp(String.raw`\s${REQUEST}\s(?:\p{L}+\s){0,6}?${STUDY_WORDS}\s|\s${STUDY_WORDS}\s(?:\p{L}+\s){0,3}?(?:pronto|pronta|para (?:domingo|sabado|quarta|amanha|hoje)|pra (?:domingo|sabado|quarta|amanha|hoje))\s`, "u");
/** Asking for a finished text instead of help to prepare one ("só me dá a versão final"). */
const PUSH = /\s(?:versao final|texto pronto|sermao pronto|pronto (?:para|pra) pregar|so (?:me )?(?:da|de|manda|mande|passa) o (?:texto|sermao)|nao tenho tempo (?:de|para|pra) estudar|sem tempo (?:de|para|pra) estudar)\s/u;
/** Where the subject of a study starts: after "sobre", "a respeito de", "com o tema"… */
const STUDY_SUBJECT = /\s(?:sobre|a respeito de|a respeito do|a respeito da|acerca de|com o tema|com tema|do tema|tema|que fale de|que fale sobre|baseado em|baseada em)\s(?<subject>.+)$/u;
/** Where it ends: the occasion, the audience or the time it is for ("para este domingo", "pra célula de quinta", "de 25 minutos"). */
const STUDY_SUBJECT_END = /\s(?:(?:para|pra|pro|no|na|neste|nesta|este|esta|de|em)\s(?:o\s|a\s|os\s|as\s|este\s|esta\s|esse\s|essa\s|minha\s|meu\s|nossa\s|nosso\s|proximo\s|proxima\s)?(?:domingo|sabado|sexta|quinta|quarta|terca|segunda|amanha|hoje|semana|mes|celula|igreja|culto|ebd|escola dominical|jovens|adolescentes|criancas|mulheres|homens|casais|grupo|congregacao|reuniao|minutos|minuto|hora|horas|\d+)|\s(?:me ajuda|me ajude|por favor|obrigad[oa]|vinte|trinta|quarenta)|\s\d+\s(?:minutos|min))\s/u;
/** What the reader of a note is living, after "para alguém … que": the note's subject. */
const NOTE_READER = /\s(?:para|pra|pro)\s(?:\p{L}+\s){1,6}?(?:que|cujo|cuja)\s(?<situation>.+)$/u;
const NOTE = /\s(?:recado|bilhete|carta|cartao|mensagem|texto)\s(?:\p{L}+\s){0,2}?(?:para|pra|pro)\s(?:um|uma|alguem|o|a|meu|minha|nosso|nossa|irmao|irma|familia|amigo|amiga|pessoa)\s/u;

/** The knowledge frames, each with its subject in the named group; the first that matches names it. */
const KNOWLEDGE_FRAMES: readonly [KnowledgeFrame, RegExp][] = [
  ["who", /^\s(?:e\s)?(?:quem|qm)\s(?:foi|era|e|eh|sao|foram|eram|seria|seriam)\s(?:(?:o|a|os|as)\s(?:pai|mae|pais|esposa|mulher|marido|filho|filha|filhos|irmao|irma|irmaos|avo|tio|sogro|sogra)\s(?:de|do|da)\s)?(?<subject>.+)$/u],
  ["who", /^\s(?:e\s)?(?:(?:a|me conta a|conte a|conta a)\s)?(?:vida|biografia)\s(?:de|do|da)\s(?<subject>.+)$/u],
  ["who", /^\s(?:e\s)?(?:o que|oque)\s(?:fez|faz|aconteceu com)\s(?<subject>.+)$/u],
  ["who", /^\s(?:e\s)?(?:fale|fala|me fale|me fala)\s(?:um pouco\s)?(?:sobre|de)\s(?<subject>.+)$/u],
  ["happened", /^\s(?:e\s)?(?:o que|oque)\s(?:aconteceu|houve|ocorreu|acontece)\s(?:no|na|nos|nas|em|durante o|durante a)\s(?<subject>.+)$/u],
  ["happened", /^\s(?:e\s)?como\s(?:foi|aconteceu|ocorreu)\s(?:o|a|os|as)\s(?<subject>.+)$/u],
  ["where", /^\s(?:e\s)?(?:onde|aonde)\s(?:fica|ficava|ficavam|e|eh|era|esta|estava|foi|fica localizado|fica localizada|se localiza|se localizava)\s(?<subject>.+)$/u],
  ["where", /^\s(?:e\s)?(?:em\s)?(?:que|qual)\s(?:pais|lugar|regiao|cidade|local)\s(?:fica|ficava|era|e|esta)\s(?<subject>.+)$/u],
  ["where", /^\s(?<subject>.+?)\s(?:onde|aonde)\s(?:fica|ficava|e|era|esta|estava)\s$/u],
  ["conduct", /^\s(?:e\s)?(?:mas\s)?(?:e|eh|seria|sera)\s(?:pecado|errado|proibido|abominacao)\s(?<subject>.+)$/u],
  ["conduct", /^\s(?:e\s)?(?<subject>.+?)\s(?:e|eh|seria|sera)\s(?:pecado|errado|proibido|abominacao)\s(?:\p{L}+\s){0,4}$/u],
  ["conduct", /^\s(?:e\s)?(?:(?:um|o|uma|a|os|as)\s)?(?:(?:homem|mulher|mulheres|homens|jovem|jovens|adolescente|adolescentes|casal|casais|menina|menino|pastor|pastora|lider)\s)?(?:cristao|crista|cristaos|crente|crentes|evangelico|evangelica|evangelicos|servo de deus|filho de deus|seguidor de jesus)\s(?:pode|podem|deve|devem|pode ou nao|pode ou nao pode)\s(?<subject>.+)$/u],
  ["conduct", /^\s(?:e\s)?(?:pode|posso|podemos)\s(?<subject>.+?)\s(?:sendo|se (?:sou|for|e))\s(?:cristao|crista|crente|evangelico|evangelica)\s/u],
  ["conduct", /^\s(?:e\s)?(?:pode|posso|podemos|e permitido|e proibido)\s(?<subject>(?:\p{L}+\s){1,4})$/u],
  ["conduct", /^\s(?:e\s)?(?:a biblia|deus|jesus)\s(?:proibe|permite|condena|aprova|apoia|e contra|e a favor d[oa]|aceita|abencoa)\s(?:o\s|a\s|os\s|as\s)?(?<subject>.+)$/u],
  ["what", /^\s(?:e\s)?(?:o que|oque)\s(?:e|eh|sao|era|eram|foi|foram|significa|significam|significava|quer dizer|querem dizer|representa|representam|simboliza|simbolizam)\s(?<subject>.+)$/u],
  ["what", /^\s(?:e\s)?(?:qual|quais)\s(?:e\s|sao\s|era\s)?(?:o\s|os\s)?(?:significado|sentido|definicao)\s(?:biblico\s)?(?:de|da|do|dos|das)\s(?<subject>.+)$/u],
  ["what", /^\s(?:e\s)?(?:significado|definicao|conceito)\s(?:biblico\s)?(?:de|da|do|dos|das)\s(?<subject>.+)$/u],
  ["what", /^\s(?<subject>.+?)\s(?:o que (?:e|eh|significa|sao)|significado|significa o que)\s$/u],
  ["what", /^\s(?:e\s)?(?:defina|definir|explique o que (?:e|sao)|explica o que (?:e|sao))\s(?<subject>.+)$/u],
  // "A Bíblia é confiável?", "o dízimo é obrigatório?": what the subject's entry says answers it,
  // beside the question's own words. A quality (and at most three words more) of a subject of one
  // word or "X de Y".
  ["property", /^\s(?:e\s)?(?:(?:o|a|os|as)\s)?(?<subject>(?!(?:isso|isto|ele|ela|eles|elas|eu|voce|tu|nos|aquilo|tudo|algo|quem|que|qual|onde|como|porque|por que)\s)\p{L}+(?:\s(?:de|do|da|dos|das)\s\p{L}+)?)\s(?:e|eh|sao|foi|era)\s(?:mesmo\s|realmente\s|de fato\s|so\s)?(?<quality>\p{L}+)(?:\s\p{L}+){0,3}\s$/u],
];

/** Words a knowledge subject may open with that only name what it is ("o nome Javé", "a palavra graça"). */
const SUBJECT_HEAD = /^\s(?:(?:o|a)\s)?(?:nome|termo|palavra|expressao|conceito|doutrina)\s(?:de\s|da\s|do\s)?/u;

/** Words a knowledge subject may end with that are not its own ("na Bíblia", "segundo a Bíblia", "pra Deus"). */
const SUBJECT_TAIL = /\s(?:na|segundo a|de acordo com a|conforme a|para a|pela)\s(?:biblia|palavra|escritura|escrituras)(?:\s.*)?$|\s(?:pra|para)\s(?:deus|os cristaos|os crentes|a igreja|o cristao|um cristao)\s*$|\s(?:na|no)\s(?:antigo|novo)\s(?:testamento)\s*$/u;

/** What kind of message it is (see the module doc); `question` when none of them. */
export function messageKind(message: string): MessageKind {
  const text = readText(message);
  if (text.words.length === 0) return { kind: "question" };
  // A saying quoted and asked about comes first: "'o Senhor é o meu pastor', onde está?" is no question about the assistant.
  const quoted = QUOTED.test(message) ? quotationOf(message, text) : undefined;
  if (quoted !== undefined) return { kind: "quotation_check", quote: quoted };
  const assistant = ASSISTANT.find(([, pattern]) => pattern.test(text.spelled));
  if (assistant) {
    // "…estou apavorada, ore por mim": a prayer asked (or a friend sought) with a situation told, which is answered too.
    const [topic, pattern] = assistant;
    const match = pattern.exec(text.spelled)!;
    const rest = [typedFrom(text, 1, match.index + 1), typedFrom(text, match.index + match[0].length - 1)].filter((part) => part !== "").join(" ");
    const situational = topic === "prayer" || topic === "only_you";
    return situational && tokenize(rest).length >= REST_WORDS ? { kind: "about_assistant", topic, rest: trimSubject(rest) } : { kind: "about_assistant", topic };
  }
  const references = findQueryReferences(message).filter((match) => match.references.length > 0);
  if (references.length > 0) {
    const passage = passageKind(text, references);
    if (passage) return passage;
  }
  const study = studyKind(text);
  if (study) return study;
  const quote = quotationOf(message, text);
  if (quote !== undefined) return { kind: "quotation_check", quote };
  const knowledge = knowledgeOf(text);
  if (knowledge) return knowledge;
  return { kind: "question" };
}

/** A message about a reference: explain it, or quote it, when nothing else is asked with it. */
function passageKind(text: MessageText, references: ReferenceMatch[]): MessageKind | undefined {
  let rest = text.message;
  for (const match of [...references].sort((a, b) => b.start - a.start)) rest = `${rest.slice(0, match.start)} ${rest.slice(match.end)}`;
  const words = readText(rest);
  const explain = EXPLAIN.test(words.spelled);
  const quote = QUOTE.test(words.spelled);
  const frame = new Set((words.spelled.match(explain ? EXPLAIN : QUOTE)?.[0] ?? "").trim().split(" "));
  const own = words.words.map((word) => word.spelled).filter((word) => !PASSAGE_ASIDES.has(word) && !frame.has(word) && !/^\d+$/.test(word));
  // "João 3:16 e o amor de Deus" asks something of its own: a search, as before. But what the
  // passage itself means, asked of it with words of the asker's own ("Filipenses 4:13 significa
  // que eu consigo qualquer coisa?", "o que significa Mateus 19:24, o camelo…"), is explained.
  const ofThePassage = asksOfThePassage(text, references);
  if (own.length > 2) return ofThePassage ? { kind: "explain_passage", references } : undefined;
  if (explain || ofThePassage) return { kind: "explain_passage", references };
  if (quote || own.length === 0) return { kind: "quote_passage", references };
  return undefined;
}

/** A reference in the message as one word, to read what is said of it. */
const PASSAGE_MARK = "passagemx";
/** An explaining frame takes the passage as its object ("o que significa Mateus 19:24, …"), or the passage is the subject of "significa", "quer dizer", "está falando"… */
const OF_THE_PASSAGE = new RegExp(
  String.raw`${EXPLAIN.source.replace(/^\\s|\\s$/g, "")}\s(?:de\s|do\s|da\s|o\s|a\s|em\s)?${PASSAGE_MARK}\s|\s${PASSAGE_MARK}\s(?:significa|quer dizer|esta falando|esta dizendo|fala|diz|manda|ensina)\s`,
  "u",
);

/** Whether the explaining is asked of the passage itself (see `OF_THE_PASSAGE`). */
function asksOfThePassage(text: MessageText, references: readonly ReferenceMatch[]): boolean {
  let marked = text.message;
  for (const match of [...references].sort((a, b) => b.start - a.start)) marked = `${marked.slice(0, match.start)} ${PASSAGE_MARK} ${marked.slice(match.end)}`;
  return OF_THE_PASSAGE.test(readText(marked).spelled);
}

function studyKind(text: MessageText): MessageKind | undefined {
  const push = PUSH.test(text.spelled);
  if (!push && !STUDY.test(text.spelled)) return undefined;
  const spelled = text.spelled;
  const form: "sermon" | "study" | "note" | "devotional" = NOTE.test(spelled)
    ? "note"
    : /\sdevociona(?:l|is)\s/u.test(spelled)
      ? "devotional"
      : /\s(?:sermao|sermoes|pregacao|pregacoes|pregar|esboco|esbocos|homilia|mensagem|ministracao|ministrar)\s/u.test(spelled)
        ? "sermon"
        : "study";
  const at = STUDY_SUBJECT.exec(spelled);
  let subject = "";
  if (at?.groups?.subject) {
    const start = at.index + at[0].length - at.groups.subject.length;
    const end = STUDY_SUBJECT_END.exec(spelled.slice(start - 1));
    subject = trimSubject(typedFrom(text, start, end ? start - 1 + end.index + 1 : spelled.length));
  }
  if (form === "note" && subject === "") {
    // A note's subject is what its reader is living: "…para alguém da igreja que acabou de perder o cônjuge".
    const reader = NOTE_READER.exec(spelled);
    if (reader?.groups?.situation) subject = trimSubject(typedFrom(text, reader.index + reader[0].length - reader.groups.situation.length));
  }
  return { kind: "study_prep", subject, form, push };
}

/** The saying a message asks about: its quoted span, or what follows or precedes the frame of a check; undefined when it is not a check. */
export function quotationOf(message: string, text: MessageText = readText(message)): string | undefined {
  const quoted = QUOTED.exec(message);
  const span = quoted ? (quoted[1] ?? quoted[2])!.trim() : undefined;
  if (span !== undefined && ASKS_ABOUT_TEXT.test(text.spelled.replace(readText(span).spelled.trim(), " "))) return span;
  const cut = (typed: string) => typed.replace(/^[\s"“”'‘’«»:—–-]+|[\s"“”'‘’«»?!.,:;—–-]+$/gu, "");
  for (const frame of QUOTATION_LEADS) {
    const match = frame.exec(text.spelled);
    const group = match?.groups?.quote;
    if (!match || group === undefined || THEME_START.test(group)) continue;
    const start = match.index + match[0].lastIndexOf(group);
    const typed = cut(typedFrom(text, start, start + group.length + 1));
    if (readText(typed).words.length >= MIN_SAYING_WORDS) return span ?? typed;
  }
  for (const tail of QUOTATION_TAILS) {
    const match = tail.exec(text.spelled);
    if (!match) continue;
    if (match.groups?.book !== undefined && !resolveBookName(match.groups.book)) continue;
    const typed = cut(typedFrom(text, 1, match.index + 1));
    if (readText(typed).words.length >= MIN_SAYING_WORDS && !/^\s*(?:qual|quais|como|por que)\s/iu.test(foldAccents(typed))) return span ?? typed;
  }
  return undefined;
}

/** A question about the assistant inside a message of at least this many other content words also answers the rest of it. */
const REST_WORDS = 4;

/** A saying checked holds at least this many words ("orem continuamente" is a verse too). */
const MIN_SAYING_WORDS = 2;

function knowledgeOf(text: MessageText): MessageKind | undefined {
  // "pode comer carne de porco? adventista diz que não": the frame is read on the question itself.
  const question = text.message.indexOf("?");
  if (question > 0 && question < text.message.trim().length - 1) {
    const first = knowledgeOf(readText(text.message.slice(0, question + 1)));
    if (first) return first;
  }
  for (const [frame, pattern] of KNOWLEDGE_FRAMES) {
    const match = pattern.exec(text.spelled);
    const group = match?.groups?.subject;
    if (!match || group === undefined) continue;
    // "o dízimo é obrigatório." states; only the question asks.
    if (frame === "property" && !/\?\s*$/u.test(text.message)) continue;
    const start = match.index + match[0].lastIndexOf(group);
    let subject = trimSubject(typedFrom(text, start, start + group.length + 1));
    const head = SUBJECT_HEAD.exec(readText(subject).spelled);
    if (head && readText(subject).words.length > 1) subject = typedFrom(readText(subject), head[0].length);
    if (subject !== "") return { kind: "knowledge", frame, subject };
  }
  return undefined;
}

/** Where a subject may be placed in a book of the Bible: "em Atos", "no livro de Daniel", "segundo os evangelhos". */
const BOOK_PLACE = /\s(?:em|no|na|nos|segundo|conforme|de acordo com)\s(?:o\s|a\s|os\s)?(?:(?:livro|evangelho|carta|epistola)\s(?:de|do|da|aos|as|a)\s)?(?<book>(?:\p{L}+\s){1,3})$/u;

/** A subject without what only frames it ("na Bíblia", "pra Deus", "em Atos dos Apóstolos") and its end punctuation. */
function trimSubject(subject: string): string {
  const spelled = readText(subject).spelled;
  const tail = SUBJECT_TAIL.exec(spelled);
  const kept = tail ? typedFrom(readText(subject), 1, tail.index + 1) : subject;
  return withoutBookPlace(kept.replace(/[\s?!.,;:…]+$/u, "").trim());
}

/**
 * A subject without the book it is placed in ("Dorcas em Atos dos Apóstolos" asks of Dorcas, "a
 * ressurreição segundo os evangelhos" of the resurrection), when something is left of it: "o que
 * aconteceu no Êxodo" keeps its subject.
 */
function withoutBookPlace(subject: string): string {
  const text = readText(subject);
  const place = BOOK_PLACE.exec(text.spelled);
  const book = place?.groups?.book?.trim();
  if (!place || !book || book.length < 4 || (resolveBookName(book) === undefined && book !== "evangelhos")) return subject;
  const kept = typedFrom(text, 1, place.index + 1).trim();
  return tokenize(kept).length > 0 ? kept : subject;
}
