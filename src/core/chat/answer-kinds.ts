/**
 * The offline default's honest answer for each kind of message (`reading/kinds.ts`): the
 * extractive text the stub streams (`shapedAnswer`); what a real model is told is
 * `core/grounding/answer-shape.ts`'s. Every fact comes from the data or the
 * passages: a person's family from the knowledge index, a verse's words from the corpus. The
 * default voice "a Bíblia traz N passagens que ajudam a responder" is kept for the questions it
 * is true of. Pure.
 */
import type { AssistantTopic } from "../reading/kinds.js";
import type { AnswerShape } from "../grounding/answer-shape.js";

/** A passage the answer quotes: its reference and text. */
export interface ShapedPassage {
  reference: string;
  text: string;
}

const ASSISTANT_OPENINGS: Readonly<Record<AssistantTopic, string>> = {
  identity:
    "Sou um programa de computador — uma inteligência artificial —, não uma pessoa. Não tenho vida, fé nem experiências próprias: o que faço é procurar na Bíblia as passagens que respondem às suas perguntas e mostrá-las com a referência, para você conferir. Para conversar, orar e caminhar junto, procure pessoas: um pastor, a sua igreja, amigos e a família.",
  prayer:
    "Eu não posso orar por você: sou um programa de computador, sem fé e sem voz diante de Deus. Mas você pode orar — Deus ouve você diretamente —, e pode pedir a alguém de confiança, ao seu pastor ou a irmãos da sua igreja que orem com você. A Bíblia encoraja exatamente isso:",
  belief:
    "Não tenho fé nem crenças: sou um programa de computador, e crer é algo que só uma pessoa pode fazer. O que posso é mostrar o que a Bíblia diz sobre a fé:",
  role:
    "Não posso ser seu pastor nem seu líder de estudo: sou um programa de computador. Posso ajudar a encontrar passagens, o contexto delas e referências cruzadas para você estudar, mas um estudo bíblico se faz melhor com pessoas — um pastor, um líder de célula, um grupo da sua igreja. A Bíblia fala do cuidado dos pastores e da vida em comunidade:",
  church:
    "Eu não substituo a igreja: sou um programa de computador. Posso mostrar o que a Bíblia diz, mas não posso caminhar com você, orar com você nem cuidar de você como uma comunidade de fé. A Bíblia insiste em não deixarmos de nos reunir:",
  only_you:
    "Fico contente em ajudar, mas preciso ser honesto: sou um programa de computador, e não posso ocupar o lugar das pessoas na sua vida. O que você sente importa e merece ser dividido com alguém que possa estar ao seu lado — um amigo, alguém da família, um pastor, um profissional de saúde. A Bíblia fala de carregarmos as cargas uns dos outros:",
  trust:
    "Não confie em mim sem conferir: sou um programa de computador e posso errar — ao entender a sua pergunta, ao escolher as passagens, ao resumi-las. Não falo em nome de Deus nem do Espírito Santo. Por isso mostro sempre a referência: leia cada versículo na sua Bíblia, com o trecho ao redor, e converse sobre o que ficar em dúvida com o seu pastor ou com irmãos maduros na fé. A Bíblia elogia quem examina o que ouve:",
  confession:
    "Eu não posso ouvir a sua confissão nem perdoar pecados: sou um programa de computador. Quem perdoa é Deus, e você pode falar com Ele diretamente, agora mesmo. A Bíblia também ensina a confessar as faltas a irmãos de confiança, que orem com você — um pastor pode ajudar nisso. Ela diz:",
  own_life:
    "Não tenho uma vida nem histórias minhas para contar: sou um programa de computador, e qualquer “história pessoal” que eu escrevesse seria inventada — e você a contaria como verdadeira. Para abrir a sua fala, sugiro uma história sua, de alguém da sua comunidade (com a permissão da pessoa) ou um relato da própria Bíblia. Se me disser o tema, procuro passagens e histórias bíblicas que combinem com ele.",
};

const ASSISTANT_CLOSINGS: Partial<Readonly<Record<AssistantTopic, string>>> = {
  church: "Se você está sem igreja, vale procurar uma comunidade perto de você e conversar com um pastor: eu continuo aqui para ajudar a estudar a Bíblia.",
  only_you: "Se estiver muito difícil, o CVV atende pelo telefone 188, a qualquer hora, de graça.",
  prayer: "Se quiser, mostro passagens para você usar na sua oração.",
  role: "Se quiser, diga o livro ou o tema que você está estudando, e eu mostro as passagens com o contexto e as referências cruzadas.",
  confession: "Se quiser, mostro passagens sobre o perdão de Deus para você ler e orar.",
};

/**
 * The offline default's answer for a shaped kind, from the passages it was given (their order
 * as the plan made it), or undefined to answer as any question. `care` answers keep their own
 * voice (the stub handles them first).
 */
export function shapedAnswer(shape: AnswerShape, passages: readonly ShapedPassage[]): string | undefined {
  const quote = (passage: ShapedPassage) => `“${passage.text.replace(/[.,;:]+$/u, "")}” (${passage.reference})`;
  switch (shape.kind) {
    case "about_assistant": {
      const paragraphs = [ASSISTANT_OPENINGS[shape.topic]];
      if (passages.length > 0 && shape.topic !== "identity" && shape.topic !== "own_life") paragraphs.push(passages.map((passage) => `${quote(passage)}.`).join(" "));
      else if (paragraphs[0]!.endsWith(":")) paragraphs[0] = `${paragraphs[0]!.slice(0, -1)}.`;
      const closing = ASSISTANT_CLOSINGS[shape.topic];
      if (closing) paragraphs.push(closing);
      return paragraphs.join("\n\n");
    }
    case "quotation_check":
      return quotationAnswer(shape, passages, quote);
    case "explain_passage": {
      const byRef = new Map(passages.map((passage) => [passage.reference, passage]));
      const own = shape.passage.map((ref) => byRef.get(ref)).filter((p): p is ShapedPassage => p !== undefined);
      const context = shape.context.map((ref) => byRef.get(ref)).filter((p): p is ShapedPassage => p !== undefined);
      const links = shape.links.filter((ref) => byRef.has(ref));
      if (own.length === 0) return undefined;
      const paragraphs = [`${own.map((passage) => `${passage.reference} diz: “${passage.text.replace(/[.,;:]+$/u, "")}”.`).join(" ")}`];
      if (context.length > 0) paragraphs.push(`O sentido de um versículo vem do trecho em que ele está. Leia o que vem ao redor: ${context.map((passage) => `${quote(passage)}`).join(" ")}.`);
      if (links.length > 0) paragraphs.push(`Passagens que os leitores da Bíblia mais ligam a este texto: ${joinList(links)}.`);
      paragraphs.push("Vale ler o capítulo inteiro antes de aplicar o versículo: assim ele diz o que o autor quis dizer, e não o que gostaríamos que dissesse.");
      return paragraphs.join("\n\n");
    }
    case "quote_passage":
      if (passages.length === 0) return undefined;
      return `${passages.map((passage) => `${passage.reference}: “${passage.text.replace(/\s+$/u, "")}”`).join("\n\n")}\n\n(Bíblia Livre)`;
    case "study_prep":
      return studyAnswer(shape, passages, quote);
    case "knowledge":
      return knowledgeAnswer(shape, passages, quote);
    case "situation":
      return undefined;
  }
}

/** The closing the default answer adds for someone telling what they live: people, not only passages. */
export const SITUATION_CLOSING = "Se puder, converse sobre isso com alguém de confiança — um pastor, alguém da sua família, um amigo. Ninguém precisa carregar tudo sozinho.";

function quotationAnswer(shape: Extract<AnswerShape, { kind: "quotation_check" }>, passages: readonly ShapedPassage[], quote: (passage: ShapedPassage) => string): string {
  const said = new Set(shape.verses);
  const verses = passages.filter((passage) => said.has(passage.reference));
  const others = passages.filter((passage) => !said.has(passage.reference)).slice(0, 3);
  const paragraphs: string[] = [];
  if (shape.verdict === "found" && verses.length > 0) {
    paragraphs.push(`Sim, está na Bíblia. ${verses.map((passage) => `${passage.reference} diz: “${passage.text.replace(/[.,;:]+$/u, "")}”.`).join(" ")}`);
    if (others.length > 0) paragraphs.push(`Passagens relacionadas: ${others.map(quote).join(" ")}.`);
  } else if (shape.verdict === "near" && verses.length > 0) {
    paragraphs.push(
      `A Bíblia diz algo parecido, mas não com essas palavras. ${verses.map((passage) => `Em ${passage.reference} (na tradução Bíblia Livre) está escrito: “${passage.text.replace(/[.,;:]+$/u, "")}”.`).join(" ")} Compare com a frase que você citou: “${shape.quote}”.`,
    );
    if (others.length > 0) paragraphs.push(`Passagens relacionadas: ${others.map(quote).join(" ")}.`);
  } else if (shape.verdict === "absent") {
    paragraphs.push(`A frase “${shape.quote}” não está na Bíblia: nenhum versículo diz isso com essas palavras.`);
    if (others.length > 0) paragraphs.push(`Veja o que a Bíblia diz sobre o assunto: ${others.map(quote).join(" ")}.`);
  } else {
    paragraphs.push(
      `Não encontrei essas palavras na Bíblia — consulto a tradução Bíblia Livre. Pode ser que a frase venha de outra tradução, com palavras bem diferentes, ou que não seja um texto bíblico.`,
    );
    if (others.length > 0) paragraphs.push(`Os textos mais próximos que encontrei: ${others.map(quote).join(" ")}.`);
  }
  paragraphs.push("Vale conferir cada passagem no seu contexto.");
  return paragraphs.join("\n\n");
}

function studyAnswer(shape: Extract<AnswerShape, { kind: "study_prep" }>, passages: readonly ShapedPassage[], quote: (passage: ShapedPassage) => string): string {
  const subject = shape.subject || "o tema";
  const chosen = passages.slice(0, 5);
  const list = chosen.map((passage, i) => `${i + 1}. ${quote(passage)}`).join("\n");
  if (shape.form === "note") {
    return [
      "Não vou escrever a mensagem no seu lugar com fatos que eu não conheço — uma lembrança ou uma promessa inventada seria lida como verdadeira. Mas posso ajudar você a escrever com as suas palavras. Uma estrutura para completar:",
      "[Nome da pessoa], [como você soube e o que sente]. [Uma lembrança sua da pessoa que partiu, se houver]. [O que você pode oferecer de concreto: uma visita, uma ligação, uma refeição]. [Um versículo que console].",
      chosen.length > 0 ? `Passagens de consolo que podem entrar na mensagem:\n${list}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  const what = shape.form === "sermon" ? "o sermão" : shape.form === "devotional" ? "o devocional" : "o estudo";
  const opening = shape.push
    ? `Entendo a pressão de uma semana sem tempo — ela é real e acontece com muitos pastores. Ainda assim, não vou entregar ${what} pronto: a mensagem nasce do seu próprio encontro com o texto, e um texto meu seria de quem nunca conheceu a sua igreja. O caminho mais rápido e honesto: escolha uma passagem, leia-a três vezes, responda às perguntas abaixo e pregue o que ela diz.`
    : `Não escrevo ${what} pronto — ele nasce do seu estudo e da sua vida com a igreja —, mas posso ajudar a preparar${shape.subject ? ` ${what} sobre ${subject}` : ""}. Estas passagens são um bom ponto de partida, cada uma para ler no seu contexto:`;
  return [
    opening,
    list,
    `Perguntas para o seu estudo:\n- O que cada texto diz sobre ${subject}, no seu contexto original?\n- O que ele revela sobre Deus e sobre nós?\n- O que muda, hoje, na vida de quem ouve?`,
    "Uma estrutura possível, para você preencher: introdução (uma pergunta ou situação real da sua comunidade); uma ideia central por passagem; aplicação; oração final.",
  ].join("\n\n");
}

const PLACE_TYPES: Readonly<Record<string, string>> = {
  City: "uma cidade",
  Town: "uma cidade",
  Village: "um povoado",
  Mountain: "um monte",
  Hill: "um monte",
  Region: "uma região",
  River: "um rio",
  Water: "um rio, lago ou mar",
  Sea: "um mar",
  Valley: "um vale",
  Island: "uma ilha",
  Well: "um poço",
  Spring: "uma fonte",
  Garden: "um jardim",
  Road: "um caminho",
  Wilderness: "um deserto",
  Desert: "um deserto",
};

function knowledgeAnswer(shape: Extract<AnswerShape, { kind: "knowledge" }>, passages: readonly ShapedPassage[], quote: (passage: ShapedPassage) => string): string | undefined {
  if (passages.length === 0) return undefined;
  const quoted = passages.slice(0, 4).map(quote).join(" ");
  const more = passages.slice(4).map((passage) => passage.reference);
  const paragraphs: string[] = [];
  switch (shape.profile) {
    case "person":
      paragraphs.push(`${shape.facts ? `${shape.facts} ` : ""}Os textos que contam quem foi ${shape.label}: ${quoted}.`);
      break;
    case "place": {
      const type = shape.placeType ? PLACE_TYPES[shape.placeType] : undefined;
      paragraphs.push(`${shape.label} é ${type ?? "um lugar"} citado na Bíblia. Os textos que falam de ${shape.label}: ${quoted}.`);
      break;
    }
    case "event":
      paragraphs.push(`Sobre ${shape.subject}, os textos que contam o que aconteceu: ${quoted}.`);
      break;
    case "practice":
      paragraphs.push(
        shape.named
          ? `Sobre ${shape.subject}, os textos bíblicos mais citados: ${quoted}.`
          : `A Bíblia não fala de ${shape.subject} com esse nome. ${passages.length === 1 ? "O texto mais citado sobre o assunto" : "Os textos mais citados sobre o assunto"}: ${quoted}.`,
      );
      break;
    case "definition":
      paragraphs.push(`Os textos bíblicos que explicam ${shape.subject}: ${quoted}.`);
      break;
  }
  if (more.length > 0) paragraphs.push(`${more.length === 1 ? "Outra passagem" : "Outras passagens"}: ${joinList(more)}.`);
  paragraphs.push("Vale ler cada passagem no seu contexto.");
  return paragraphs.join("\n\n");
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]!}`;
}

