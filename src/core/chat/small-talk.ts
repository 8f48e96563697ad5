/**
 * The chat's fixed replies to small talk (a message that only greets, thanks, blesses or says
 * goodbye; core/reading/small-talk.ts recognises it).
 */
import type { SmallTalk } from "../reading/small-talk.js";

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
