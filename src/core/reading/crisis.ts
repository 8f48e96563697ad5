/**
 * A person at risk: a message that says its writer thinks of ending their life or hurting
 * themselves (`self_harm`), or is being hurt or threatened by someone (`violence`). Read from
 * the message alone, deterministically, with no language model (the offline default has none,
 * and the answer to such a message must not depend on one): patterns first, then two small
 * logistic classifiers for what the patterns leave unread (docs/CARE.md).
 *
 * What the chat does with it (src/app/chat/grounded-answer.ts): the `care` notice with the
 * numbers to call comes before any text, whatever the collection and whatever the gate
 * decides; and when the writer speaks of themselves (`personal`), the Bible's answer is built
 * over passages of consolation chosen here, not searched: the words of such a message find
 * the wrong verses ("me matar" finds "por que procurais me matar?", João 7:19; "quero morrer"
 * finds "o morrer é lucro", Filipenses 1:21).
 *
 * A question about the subject ("o que a Bíblia diz sobre suicídio?", "quem se mata vai para o
 * inferno?") gets the notice too (whoever asks may be the one at risk), and its own search.
 * A story of the Bible ("por que Caim matou Abel?", "Saul se matou?") and the figures of speech
 * of everyday talk ("minha chefe vai me matar se eu atrasar", "morri de vergonha") are not a
 * crisis.
 */
import { foldAccents } from "../analysis/fold.js";
import { stemPortuguese } from "../analysis/stem.js";
import { CHAT_SHORTHAND } from "../analysis/shorthand.js";
import { predict } from "./logistic.js";
import { CRISIS_MODELS, type CrisisModels } from "./crisis-model.js";

export type { CrisisModels };

export type CrisisKind = "self_harm" | "violence";

export interface Crisis {
  kind: CrisisKind;
  /**
   * The writer surely speaks of themselves (or of their child), not of the subject: the answer
   * is built over the passages of consolation. Otherwise the notice goes above the answer to the
   * question as asked.
   */
  personal: boolean;
}

/**
 * The shorthand the crisis classifiers were fitted with (scripts/care/train.ts), spelled out as
 * core/analysis/shorthand.ts spells it. Not the whole list: refitted with every form there
 * (2026-12-05), the classifiers changed 8 of 2,809 decisions over the evaluation sets and lost
 * "tô sentado no trilho esperando o trem das 22h"; a wider list needs its own measured refit.
 */
const FITTED_SHORTHAND = ["q", "c", "n", "nn", "to", "tou", "ta", "tava", "vc", "vcs", "pq", "pra", "pro", "mt", "mto", "mta", "tbm", "tb", "msm", "hj", "td", "tds", "ngm", "nd", "qro", "qria", "dps", "cmg", "oq", "qnd", "qdo", "eh", "vo"];
const SHORTHAND: Readonly<Record<string, string>> = Object.fromEntries(FITTED_SHORTHAND.map((form) => [form, CHAT_SHORTHAND[form]!]));

/**
 * The message as the patterns read it: lowercase, accents folded, punctuation gone, shorthand
 * spelled out, one space between words, a space at each end (so `\s` can bound a word).
 */
export function crisisText(message: string): string {
  const words = foldAccents(message.toLowerCase()).match(/[a-z0-9]+/g) ?? [];
  return ` ${words.map((word) => SHORTHAND[word] ?? word).join(" ")} `;
}

/** Ways of wanting, planning or trying, in the first person: what comes before "me matar", "morrer". */
const WANTING =
  "(?<!\\s(?:ele|ela|eles|elas|voce|voces|quem|pessoa|pessoas|gente|alguem|disse que|falou que|diz que|fala que|dizendo que))\\s(?:quero|queria|quis|vou|iria|preciso|desejo|gostaria de|prefiro|preferia|tentei|tento|tentar|penso em|pensei em|pensando em|penso muito em|so penso em|vontade de|coragem de|coragem para|decidi|resolvi|planejo|planejando|estou querendo|estou pensando em|estou com vontade de|devia|deveria)";
/** Wanting, in the first person only (not "gente pensando em suicídio"): what comes before "suicídio". */
const WANTING_MYSELF =
  "(?:quero|queria|vou|penso em|pensei em|penso muito em|so penso em|estou pensando em|ando pensando em|tenho pensado em|tenho pensado seriamente em|pensando seriamente em|tentei|planejo|decidi|resolvi)";
/** The same, and asking for it: "peço a Deus para morrer". */
const WANTING_OR_ASKING = `(?:${WANTING}|\\s(?:peco para|pedi para|peco a deus para|pedi a deus para|estou pedindo para|estou pedindo a deus para|vivo pedindo a deus para|vivo pedindo para))`;
/** "morrer" as the writer's wish, not "morrer de rir", "morrer para o pecado", "morrer na cirurgia". */
const TO_DIE = "morrer(?!\\sde\\s(?!vez)|\\spara\\s(?:o|a|mim|si|nos)\\s|\\sna\\s|\\sno\\s|\\sem\\s)";

const SELF_HARM_PERSONAL: readonly RegExp[] = [
  // Ending one's life: "quero me matar", "penso em suicídio", "vou me jogar da ponte", "pensei em pular do prédio"
  new RegExp(`${WANTING}\\s(?:\\w+\\s){0,2}me\\s(?:matar|suicidar|enforcar|atirar)\\s`),
  /\sme\sjogar\s(?:da|do|de cima|pela|na frente|no rio|no mar|embaixo|debaixo|nos trilhos|na linha|no trilho)\s/,
  new RegExp(`\\s${WANTING_MYSELF}\\s(?:\\w+\\s)?(?:suicidio|suicidar)\\s`),
  // "me matar" said of oneself: not after someone else's "vai", "quer", "ameaçou" (violence, or "minha chefe vai me matar")
  /(?<!\s(?:vai|vao|ia|iam|iria|quer|querem|queria|tentou|tentaram|ameacou|ameaca|ameacando|jurou|esta querendo|vai acabar|ele|ela))\sme\s(?:matar|suicidar)\s(?!se\s)/,
  /\s(?:unica|ultima|melhor)\ssaida\s(?:que\s)?(?:eu\s)?(?:vejo|tenho|encontro|resta)\s/,
  /\sme\s(?:suicido|suicidei|suicidaria|mato|mataria|matarei|enforco|enforcaria|automutilo|automutilei)\s/,
  /\sse\seu\sme\s(?:jogar|matar|suicidar|enforcar|atirar|cortar)\s/,
  new RegExp(`${WANTING}\\s(?:\\w+\\s){0,2}pular\\s(?:da|de|do|pela)\\s(?:\\w+\\s)?(?:ponte|predio|janela|sacada|viaduto|laje|varanda|terraco)\\s`),
  /\s(?:estou|estava)\s(?:no alto|em cima|na beira|no topo|no parapeito)\s(?:d[aoe]\s)?(?:\w+\s)?(?:predio|ponte|viaduto|janela|laje|terraco|sacada)\s/,
  /\s(?:estou|estava)\s(?:na|no|em cima da|em cima do)\s(?:ponte|viaduto|parapeito|telhado|laje|terraco)\s(?:agora|aqui|sozinho|sozinha)\s/,
  /\s(?:na|a)\sbeira\sd[ao]\s(?:ponte|viaduto|precipicio|abismo|linha do trem|trilho|predio|janela|laje)\s/,
  /\sjogar\so\scarro\s(?:contra|em cima|na frente|de|no|num|em)\s/,
  new RegExp(`${WANTING}\\s(?:\\w+\\s){0,2}(?:ir embora|partir|sair|sumir)\\s(?:desse|deste|do)\\smundo\\s`),
  new RegExp(`${WANTING}\\s(?:acabar com tudo|dar um fim em tudo|dar um fim nisso|dar fim a tudo|por um fim em tudo|por fim a tudo)\\s`),
  new RegExp(`${WANTING}\\s(?:fazer|cometer)\\s(?:uma\\s)?(?:besteira|bobagem|loucura)\\s`),
  /\s(?:fazer|faco|faca|fiz)\s(?:uma\s)?(?:besteira|bobagem|loucura)\scomigo\s/,
  /\s(?:tirar|tiro|acabar com|acabo com|acabar logo com|terminar com|dar cabo da|(?:por|dar)\s(?:um\s)?fim\s(?:a|na|em))\s(?:a\s)?minha\s(?:propria\s)?vida\s/,
  /\sacabar\slogo\scom\s(?:esse|este|todo esse|o meu|meu|essa|esta|isso)\s/,
  /\susar\stud[oa]\sde\suma\svez\s/,
  // Wishing to die or not to live: "quero morrer", "não aguento mais viver", "Deus, me deixa morrer"
  new RegExp(`${WANTING_OR_ASKING}\\s(?:\\w+\\s){0,1}${TO_DIE}`),
  new RegExp(`\\s(?:me\\sdeixa|me\\sdeixe|me\\sdeixar|deixa\\seu|deixe\\seu)\\s${TO_DIE}`),
  /\snao\s(?:quero|queria|aguento|consigo|tenho vontade de|tenho mais vontade de|vejo motivo para|vejo razao para|vejo sentido em)\s(?:mais\s)?(?:viver|continuar vivendo|continuar vivo|continuar viva|estar vivo|estar viva|existir)\s/,
  /\s(?:sentido|vale a pena)\s(?:em\s)?continuar\s(?:vivendo|vivo|viva|a viver)\s/,
  /\s(?:cansei|cansado|cansada|desisti|desistir|desistindo)\s(?:de|da|dessa|desta)\s(?:viver|vida|existir)\s/,
  /\snao\s(?:quero|queria|aguento)\s(?:mais\s)?(?:estar aqui|ficar aqui|estar neste mundo|estar nesse mundo|essa vida|esta vida|minha vida)\s/,
  /\snao\svale\s(?:mais\s)?a\spena\s(?:viver|continuar vivendo|estar vivo|estar viva)\s/,
  /\s(?:queria|quero|preferia)\s(?:\w+\s)?estar\s(?:morto|morta)\s/,
  /\s(?:acho que|penso que|pensando que|sinto que|talvez)\s(?:seria|era)\s(?:melhor|mais facil)\s(?:eu\s)?morrer\s/,
  /\s(?:descansar|dormir|sumir|desaparecer)\spara\ssempre\s/,
  /\s(?:desistir|desisto|desistindo|desisti)\sda\svida\s/,
  /\s(?:morte|morrer)\s(?:seria|e|parece)\s(?:a\s|um\s)?(?:alivio|unica saida|solucao|saida)\s/,
  /\s(?:dormir|deitar)\s(?:e\s)?(?:\w+\s)?nao\s(?:acordar|acordasse|acordar mais)\s/,
  /\snao\s(?:quero|queria|gostaria de)\s(?:mais\s)?acordar\s/,
  /\s(?:queria|quero|gostaria de)\s(?:\w+\s)?nunca mais acordar\s/,
  // "queria sumir" said alone, or for good (not "sumir nas férias", "sumir de vergonha")
  new RegExp(`\\s(?:quero|queria|vontade de|penso em|pensando em)\\s(?:\\w+\\s)?(?:sumir|desaparecer)\\s(?:$|para sempre|de vez|do mundo|desse mundo|deste mundo|e nunca|sem deixar)`),
  /\s(?:quero|queria|preferia|gostaria de)\s(?:nunca\s)?(?:nao\s)?(?:ter nascido|existir|estar aqui|estar mais aqui)\s/,
  // A burden to others: "todos ficariam melhor sem mim", "se eu sumir ninguém vai perceber"
  /\s(?:melhor|melhores|mais feliz|mais felizes|mais leve|mais facil|em paz)\s(?:\w+\s){0,2}(?:sem\smim|se\seu\s(?:nao\sexistisse|morresse|sumisse|nao\sestivesse|fosse\sembora|nunca\stivesse\snascido))\s/,
  /\sse\seu\s(?:sumir|morrer|for embora|nao existir|me matar|sumisse|morresse)\s(?:\w+\s){0,3}ninguem\s/,
  /\sninguem\s(?:\w+\s)?(?:vai sentir|sentiria|ia sentir|sente)\s(?:a\s)?minha\sfalta\s/,
  /\ssou\s(?:so\s|apenas\s)?um\speso\s/,
  /\snao\squero\s(?:dar|ser)\s(?:mais\s)?(?:trabalho|peso|fardo|despesa)\s/,
  // Asking God to be taken: "Deus, me leva", "peço todas as noites pra Deus me levar", "me tira desse mundo"
  /\s(?:deus|senhor|jesus|pai)\s(?:me\sleva|leva\sme|me\stira\sdaqui|me\stire\sdaqui)\s/,
  /\sdeus\s(?:para\s|que\s)?me\s(?:levar|leve|levasse|buscar|busque|buscasse)\s/,
  /\s(?:que|para)\s(?:o senhor|jesus)\s(?:me\sleve|me\slevasse|me\sbusque|me\sbuscasse)\s/,
  /\s(?:por que|porque)\s(?:deus|o senhor|voce|jesus)\snao\sme\s(?:leva|levou|tira daqui)\s/,
  /\sme\s(?:tira|tire|tirar|leva|leve|levar)\s(?:desse|deste|do)\smundo\s/,
  // Saying goodbye: "hoje eu vou me despedir", "cuida da minha mãe por mim", a farewell letter
  /\s(?:vou|quero|hoje)\s(?:\w+\s)?me\sdespedir\s(?!d[aeo]s?\s)/,
  /\scuid[aeo]m?\s(?:bem\s)?d[aeo]s?\s(?:\w+\s){1,2}por\smim\s/,
  /\s(?:carta|cartas|bilhete|bilhetes)\sde\sdespedida\s/,
  /\s(?:escrevi|deixei)\s(?:\w+\s)?(?:carta|cartas|bilhete|bilhetes)\s(?:para|pra)\s(?:cada|meus|minhas|minha|meu|os|as)\s/,
  /\sminhas\scartas\s(?:ja\s)?(?:estao\s|tao\s)?(?:escritas|prontas)\s/,
  /\snao\svou\s(?:mais\s)?estar\s(?:mais\s)?aqui\s/,
  /\sdepois\sque\seu\s(?:for|partir|morrer|me for|nao estiver)\s/,
  /\s(?:distribui|doei|dei)\s(?:todas\s|todos\s|as\s|os\s)?(?:minhas|meus)\s(?:coisas|pertences|bens)\s/,
  /\sfoi\sbom\senquanto\sdurou\s/,
  // The means: "tomei uma cartela de rivotril", "já separei os comprimidos", "bebi água sanitária"
  /\s(?:tomar|tomei|engolir|engoli)\s(?:\w+\s){0,2}(?:caixa|cartela|monte|frasco|vidro)\s(?:de|inteira|inteiro)\s/,
  /\s(?:tomar|tomei|tomo|engolir|engoli)\s(?:\w+\s){0,2}(?:remedios|comprimidos|pilulas|veneno|chumbinho)\s(?:\w+\s){0,3}(?:morrer|acabar|de vez|dormir para sempre)\s/,
  /\s(?:tomar|tomei|engolir|engoli)\s(?:todos|todas|varios|varias)\s(?:\w+\s){0,3}de\suma\svez\s/,
  /\s(?:tomei|engoli|tomar|engolir)\s(?:uns\s|umas\s|mais de\s)?[1-9][0-9]+\s(?:comprimidos|remedios|pilulas|capsulas)\s/,
  /\s(?:guardando|juntando|juntei|guardei|acumulando|acumulei|separei|separando|escondendo)\s(?:\w+\s){0,3}(?:remedios|comprimidos|pilulas|morfina|calmantes|rivotril|insulina)\s/,
  /\s(?:dose|quantidade)\s(?:letal|fatal|que mata|suficiente)\s|\s(?:pesquisei|pesquisando|pesquisar|procurei)\s(?:\w+\s){0,2}(?:quantidade|dose|quantos|quantas)\s/,
  /\s(?:separei|juntei|guardei|comprei|escondi)\s(?:os\s|uns\s|varios\s|todos os\s|muitos\s)?(?:comprimidos|remedios|pilulas|calmantes)\s/,
  /\s(?:bebi|tomei|beber|tomar|engoli)\s(?:\w+\s)?(?:agua sanitaria|veneno|chumbinho|soda caustica|creolina|raticida)\s/,
  /\s(?:comprei|comprar|arrumei)\s(?:uma\s|a\s)?corda\s|\scorda\sno\spescoco\s/,
  /\s(?:gilete|lamina|navalha|estilete|faca)\s(?:\w+\s){0,10}(?:pulso|pulsos|braco|bracos|cortar|me cortar|na mao agora)\s/,
  // Hurting oneself: "me corto", "voltei a me cortar", "arranho o braço até sangrar"
  /\sme\s(?:corto|cortei|cortando|cortar|machuco|arranho|arranhei)\s(?!(?:\w+\s){0,4}(?:forno|fogao|barba|papel|vidro|cozinhando|descascando|sem querer))/,
  new RegExp(`(?:${WANTING}|\\svoltei a|comecei a|continuo a|continuo|fico)\\s(?:\\w+\\s)?me\\s(?:machucar|ferir|machucando|ferindo|bater)\\s`),
  /\sme\s(?:machuquei|cortei|queimei|furei)\sde\sproposito\s/,
  /\s(?:cortar|cortei|corto)\s(?:os|meus|o\smeu|meu)\s(?:pulsos|pulso|braco|bracos)\s/,
  /\s(?:arranho|arranhei|arranhando|corto|cortei|cortando|mordo|mordi|bato|bati|batendo|belisco|queimo|queimei)\s(?:\w+\s){0,8}ate\s(?:sangrar|abrir|ferir|machucar|ficar roxo)\s/,
  /\s(?:queimei|queimo|cortei|corto|arranho|arranhei)\s(?:o\s|meu\s|minha\s|meus\s|minhas\s)?(?:braco|bracos|pulso|pulsos|perna|pernas|coxa|coxas|pele)\s(?:\w+\s){0,2}(?:com|de novo)\s/,
  /\s(?:tenho|tive|estou com|ando com|sinto|minhas|meus|os meus|as minhas)\s(?:\w+\s)?(?:pensamentos?|ideias?|ideacao|vontades?)\s(?:suicidas?|de\s(?:suicidio|me\smatar|morrer|sumir))\s/,
];

/** The subject of suicide and self-harm, in a message that need not be about its writer ("quem se mata vai para o inferno?"). */
const SELF_HARM_SUBJECT: readonly RegExp[] = [
  /\s(?:suicid\w*|automutil\w*|auto\s?mutilacao|auto\s?lesao|autolesao)\s/,
  /\s(?:quem|pessoa|pessoas|alguem|aqueles|os que|as que|jovens|gente)\s(?:\w+\s){0,2}se\s(?:mata|matam|matar|suicida|suicidam|corta|cortam|mutila|mutilam)\s/,
  // "tirar a própria vida", never "uma história da sua própria vida".
  /\s(?:tirar|tirou|tira|tiram|tiraram|tirando|atentar contra|atentou contra|acabar com|acabou com|dar fim (?:a|na)|deu fim (?:a|na)|por fim (?:a|na)|pos fim (?:a|na))\s(?:a\s)?(?:sua\s|tua\s)?propria\svida\s/,
  /\sse\s(?:cortar|mutilar)\s(?:e|eh)\s/,
  /\s(?:quer|querem|pensa em|pensam em|pensando em|pensar em)\s(?:morrer|se matar)\s/,
  /\s(?:filho|filha|mae|pai|irmao|irma|amigo|amiga|primo|prima|tio|tia|marido|esposa|colega|aluno|aluna|vizinho|vizinha|adolescente|jovem|membro|parente)\s(?:\w+\s){0,3}se\s(?:matou|suicidou|enforcou|matar)\s/,
  /\s(?:esta|estava|anda|vive)\sse\s(?:cortando|machucando|mutilando|ferindo)\s/,
  /\s(?:pensamentos?|ideias?|ideacao)\ssuicidas?\s|\ssetembro\samarelo\s/,
  /\s(?:desiste|desistem|desistir)\sda\svida\s/,
  /\s(?:chega|chegar|chegam|ir|partir|morrer)\s(?:\w+\s){0,3}antes\sda\shora\s/,
];

/**
 * In a message about the subject, the writer saying it is theirs: "tenho pensado seriamente em
 * suicídio", "pergunto porque eu estou perto disso", "pra um amigo... tá bom, sou eu".
 */
const SUBJECT_IS_MINE = /\s(?:sou eu|e comigo|porque eu|eu estou|eu tambem|antes de fazer|antes de eu fazer|estou perto disso|nao aguento mais|tenho pensado|ando pensando|penso nisso|penso muito nisso)\s/;

/** Someone else threatens, beats or abuses the writer (or their child). */
const VIOLENCE_PERSONAL: readonly RegExp[] = [
  // "meu marido me bate", "minha sogra e meu marido me batem", "ele me ameaça"
  /\s(?:me|nos)\s(?:(?:espanc|estupr|violent|abus|ameac|enforc|empurr|chut|esfaque|esmurr|estrangul)(?:a|ou|ava|am|aram|avam|ando|ar)|bat(?:e|eu|ia|em|eram|iam|endo|er)|agr(?:ide|ediu|edia|idem|ediram|ediam|edindo|edir))\s/,
  /\sme\s(?:da|deu|dava|dao|deram|davam)\s(?:um\s|uma\s|uns\s|umas\s|muitos\s|muitas\s)?(?:tapa|tapas|soco|socos|murro|murros|chute|chutes|surra|surras|empurrao|pancada|pancadas|bofetada|bofetadas)\s/,
  /\s(?:chutou|bateu|socou|esmurrou|espancou|empurrou|agrediu|aperta|apertou|enforcou|estrangulou)\s(?:\w+\s)?(?:na\s|no\s)?(?:minha|meu)\s(?:barriga|cara|rosto|pescoco|cabeca|olho|braco|costas|boca|garganta)\s/,
  /\s(?:abusa|abusou|abusava|abusando|bate|bateu|batia|espanca|espancou|mexe|mexeu|mexia)\s(?:de|da|do|na|no|em)\s(?:mim|minha filha|meu filho|meus filhos|minhas filhas|nossa filha|nosso filho)\s/,
  /\sme\s(?:segurou|segura|agarrou|agarra|puxou|arrastou|arrasta|arrastava)\s(?:pelo|pela|a forca|com forca)\s/,
  /\s(?:apontou|aponta|apontando)\s(?:uma\s|a\s)?(?:arma|faca|revolver|pistola|espingarda)\s(?:para|na|no)\s(?:mim|nos|a gente|minha|meu|cara)\s/,
  /\s(?:tacar|taca|botar|bota|por|poe|colocar|coloca)\sfogo\s(?:\w+\s){0,4}comigo\s/,
  /\s(?:espalhar|divulgar|vazar|postar|mostrar)\s(?:\w+\s){0,3}(?:fotos|videos|nudes)\s(?:\w+\s)?(?:intimas|intimos|pelada|pelado)?/,
  /\s(?:fotos|videos)\s(?:minhas\s|meus\s)?intim[ao]s\s/,
  /\sfaz(?:ia)?\scoisas\scom\s(?:ela|ele|minha filha|meu filho|a minha|o meu|mim)\s/,
  /\spass(?:a|ava|ou)\sa\smao\s(?:em|na|no)\s(?:mim|minha filha|meu filho)\s/,
  /\s(?:apanho|apanhei|apanhava|apanhando)\s(?:\w+\s){0,3}(?:do|da|de)\s(?:meu|minha|marido|esposa|esposo|pai|mae|ex|namorado|namorada|padrasto|madrasta|irmao|irma|tio|tia|sogro|sogra|dele|dela|ele|ela)\s/,
  /\s(?:aguento|aguentar|aguentando|medo de)\s(?:mais\s)?apanhar\s/,
  /\sfui\s(?:estuprada|estuprado|abusada|abusado|violentada|violentado|agredida|agredido|espancada|espancado|ameacada|ameacado)\s/,
  /\ssendo\s(?:ameacada|ameacado|agredida|agredido|abusada|abusado|espancada|espancado|violentada|violentado)\s/,
  /\s(?:sofro|sofri|estou sofrendo|venho sofrendo|vivo|estou vivendo|passo|estou passando por)\s(?:\w+\s)?(?:violencia|abuso|abusos|agressao|agressoes)\s/,
  /\s(?:tenho|ja tenho|pedi|consegui|tinha)\s(?:uma\s)?medida\sprotetiva\s/,
  // Threats: "ameaçou me matar", "disse que vai matar a gente", "falou que hoje eu não passo"
  /\s(?:ameacou|ameaca|ameacando|ameacava|jurou)\s(?:de\s)?(?:me|nos|matar|a gente|minha|meu|meus|minhas|levar|tirar|sumir)\s/,
  /\s(?:ameacada|ameacado|ameacados|ameacadas)\sde\smorte\s/,
  /\s(?:disse|falou|diz|fala|jurou|prometeu|mandou mensagem dizendo|dizendo)\sque\s(?:\w+\s)?(?:vai|ia|iria|vem)\s(?:\w+\s)?(?:me|nos|a gente|meus filhos|minha filha|meu filho)?\s?(?:matar|machucar|bater|pegar|acabar com)\s/,
  /\sque\s(?:hoje\s)?(?:eu\s)?nao\spasso\s(?:de\s)?(?:hoje|desta|dessa)?/,
  /\s(?:quer|queria|tentou|tenta|esta querendo)\s(?:\w+\s)?(?:me|nos)\s(?:matar|machucar|bater|espancar|estuprar|violentar|abusar|agarrar)\s(?!se\s)/,
  /\s(?:ele|ela)\s(?:\w+\s)?me\s(?:mata|matar)\s(?!de\s)/,
  /\smedo\s(?:de\s|que\s)?(?:ele|ela|dele|dela|meu\s\w+|minha\s\w+)\s(?:\w+\s)?(?:me|nos)\s(?:mate|matar|machuque|machucar|bata|bater)\s/,
  /\s(?:vindo|veio|chegou|apareceu|esta|entrou)\s(?:\w+\s){0,4}com\s(?:uma\s|um\s)?(?:faca|arma|revolver|facao|pistola|espingarda)\s/,
  /\s(?:me\sseguindo|me\sperseguindo|sabe\sonde\seu\s(?:moro|trabalho|estudo)|rondando\s(?:a\s)?minha\scasa)\s/,
  /\sme\s(?:segue|seguiu|persegue|perseguiu)\s(?:desde|ate|por|pela|pelo|na|no)\s/,
  // Held or forced: "me tranca em casa", "estou trancada no banheiro", "me obriga a ter relação"
  /\sme\s(?:tranca|trancou|prende|prendeu)\sem\scasa\s/,
  /\s(?:trancada|trancado)\s(?:no|na|em)\s(?:banheiro|quarto|armario|casa)\s/,
  /\sme\s(?:forcou|forca|forcava|obrigou|obriga|obrigava)\s(?:a\s)?(?:ter\srelacoes|ter\srelacao|transar|fazer\ssexo|sexo|relacao)\s/,
];

/** The subject of domestic violence and abuse, in a message that need not be about its writer. */
const VIOLENCE_SUBJECT: readonly RegExp[] = [
  /\s(?:violencia\s(?:domestica|contra\sa\smulher|sexual)|abuso\ssexual|marido\sviolento|esposo\sviolento|maria\sda\spenha|medida\sprotetiva)\s/,
  /\sapanhar\s(?:do|da|de)\s/,
  /\sapanha(?:r|m)?\s(?:em casa|do pai|da mae|do marido|da esposa|do padrasto)\s/,
  /\sbate(?:r)?\s(?:na|no)\s(?:esposa|mulher|filha|filho|crianca|criancas|marido)\s/,
];

/** Laughter and play: "kkk minha irmã disse que vai me matar", "me deu um tapa brincando" are not violence. */
const LAUGHTER = /\s(?:k{3,}|(?:rs){2,}|(?:ha){2,}|(?:he){2,}|kkk\w*|brincando|brincadeira)\s/;

/** What the patterns find in a message's `crisisText`. */
function readPatterns(text: string) {
  const said = (patterns: readonly RegExp[]) => patterns.some((pattern) => pattern.test(text));
  return {
    selfHarm: said(SELF_HARM_PERSONAL),
    violence: said(VIOLENCE_PERSONAL),
    selfHarmSubject: said(SELF_HARM_SUBJECT),
    subjectIsMine: SUBJECT_IS_MINE.test(text),
    violenceSubject: said(VIOLENCE_SUBJECT),
    laughter: LAUGHTER.test(text),
  };
}

/**
 * The classifiers' features of a message: its words stemmed (Snowball, on the folded text with
 * the shorthand spelled out; every number is one word), each pair of neighbouring stems, and
 * what the patterns found. Binary.
 */
export function crisisFeatures(message: string): Record<string, number> {
  const text = crisisText(message);
  return featuresOf(text, readPatterns(text));
}

function featuresOf(text: string, read: ReturnType<typeof readPatterns>): Record<string, number> {
  const stems = text
    .split(" ")
    .filter((word) => word !== "")
    .map((word) => (/^[0-9]+$/.test(word) ? "<n>" : stemPortuguese(word)));
  const features: Record<string, number> = {};
  stems.forEach((stem, i) => {
    features[`w:${stem}`] = 1;
    if (i > 0) features[`b:${stems[i - 1]!}_${stem}`] = 1;
  });
  for (const [name, found] of Object.entries(read)) if (found) features[`p:${name}`] = 1;
  return features;
}

/**
 * A classifier's probability from which its reading replaces the question's search with the
 * passages of consolation; between its threshold and this, the notice is shown above the answer
 * to the question as asked. The ordinary questions it read wrongly (measured: "não tenho vontade
 * de fazer nada, sou preguiçoso", 0.39; "pq Moisés bateu duas vezes na pedra?", 0.39) lie below;
 * most writers at risk only it recognises lie above (docs/CARE.md).
 */
const CONFIDENT = 0.6;

/**
 * Whether a message is a crisis, and of which kind (self-harm first when it says both): the
 * patterns first, then, for a message they leave unread, the classifiers (`models`, the fitted
 * ones by default, crisis-model.ts, written by scripts/care/train.ts; `null` for the patterns
 * alone). A classifier finds the writer at risk, never the subject; below CONFIDENT its reading
 * shows the notice without `personal`.
 */
export function crisisOf(message: string, models: CrisisModels | null = CRISIS_MODELS): Crisis | undefined {
  const text = crisisText(message);
  const read = readPatterns(text);
  if (read.selfHarm) return { kind: "self_harm", personal: true };
  if (read.violence && !read.laughter) return { kind: "violence", personal: true };
  if (models) {
    const features = featuresOf(text, read);
    const selfHarm = predict(models.selfHarm, features);
    if (selfHarm >= models.selfHarm.threshold) return { kind: "self_harm", personal: selfHarm >= CONFIDENT };
    const violence = read.laughter ? 0 : predict(models.violence, features);
    if (violence >= models.violence.threshold) return { kind: "violence", personal: violence >= CONFIDENT };
  }
  if (read.selfHarmSubject) return { kind: "self_harm", personal: read.subjectIsMine };
  if (read.violenceSubject) return { kind: "violence", personal: false };
  return undefined;
}

/** A service to call: its name, its number and when or what for. */
export interface CareContact {
  name: string;
  phone: string;
  detail: string;
  url?: string;
}

/** What the chat shows first, before any text, to a person at risk (Portuguese). */
export interface CareNotice {
  kind: CrisisKind;
  title: string;
  text: string;
  contacts: CareContact[];
}

const CARE_NOTICES: Readonly<Record<CrisisKind, Omit<CareNotice, "kind">>> = {
  self_harm: {
    title: "Você não precisa enfrentar isso só",
    text:
      "Sinto muito que você esteja sofrendo assim. Converse agora com quem pode ajudar: a ligação é gratuita e sigilosa. Procure também um pastor, alguém da família ou um amigo de confiança.",
    contacts: [
      { name: "CVV — Centro de Valorização da Vida", phone: "188", detail: "24 horas, todos os dias, gratuito; também por chat no site", url: "https://cvv.org.br" },
      { name: "SAMU", phone: "192", detail: "se você está em perigo agora ou já se machucou" },
    ],
  },
  violence: {
    title: "Você merece estar em segurança",
    text:
      "Ninguém tem o direito de machucar ou ameaçar você. Se você está em perigo agora, ligue 190. Os serviços abaixo atendem de graça e orientam sobre como se proteger. Procure também alguém de confiança que possa ficar com você.",
    contacts: [
      { name: "Polícia Militar", phone: "190", detail: "em perigo agora" },
      { name: "Central de Atendimento à Mulher", phone: "180", detail: "24 horas, gratuito, sigiloso" },
      { name: "Disque 100 — Direitos Humanos", phone: "100", detail: "violência contra crianças, adolescentes, idosos e pessoas com deficiência" },
    ],
  },
};

/** The notice for a crisis of this kind. */
export function careNotice(kind: CrisisKind): CareNotice {
  return { kind, ...CARE_NOTICES[kind] };
}
