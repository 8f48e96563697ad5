/**
 * Follow-up questions (src/core/reading/follow-up.ts): a message that points back or only
 * converses is searched with the asker's last question that stood on its own; a message with
 * a subject of its own, or the first of a conversation, is searched as written.
 */
import { describe, expect, it } from "vitest";
import { isFollowUp, retrievalQuery } from "../src/core/reading/follow-up.js";
import type { ChatTurn } from "../src/core/chat/llm.js";

const asked = (...questions: string[]): ChatTurn[] => questions.flatMap((content) => [{ role: "user" as const, content }, { role: "assistant" as const, content: "Uma resposta (Mateus 5:44)." }]);

describe("isFollowUp", () => {
  it.each(["pode explicar melhor?", "Por quê?", "me dá outro exemplo", "o que Jesus quis dizer com isso?", "e como faço isso na prática?", "o que isso significa?", "quem disse isso?", "não entendi, explica de novo", "sim",
    "como assim?", "e depois, o que aconteceu?", "não ficou claro, pode detalhar?", "tem algum exemplo na Bíblia?", "e aí?", "mas pq?", "em que livro fala?"])(
    "%j leans on what came before",
    (message) => expect(isFollowUp(message)).toBe(true),
  );

  it.each([
    "e o que a Bíblia diz sobre o perdão?",
    "estou com medo do futuro",
    "Deus está comigo?",
    "quem foi Davi e o que ele fez?",
    "João 3:16",
    "o que é fé?",
    "o que aconteceu com Jonas depois?",
    "qual o contexto de Romanos 8?",
    "",
    "e isso " + "palavra ".repeat(20),
  ])("%j stands on its own", (message) => expect(isFollowUp(message)).toBe(false));
});

describe("retrievalQuery", () => {
  it("searches a follow-up with the last question, without its words of conversation", () => {
    expect(retrievalQuery("pode explicar melhor?", asked("o que Jesus disse sobre amar os inimigos?"))).toBe("o que Jesus disse sobre amar os inimigos?");
    expect(retrievalQuery("e isso vale pro casamento?", asked("o que Jesus disse sobre o perdão?"))).toBe("o que Jesus disse sobre o perdão? casamento");
  });

  it("goes back past earlier follow-ups to the question they were about", () => {
    expect(retrievalQuery("me dá outro exemplo", asked("versículos sobre a inveja", "por quê?", "não entendi"))).toBe("versículos sobre a inveja");
  });

  it("leaves alone a new subject, the first message, and a follow-up with no question before it", () => {
    expect(retrievalQuery("e o que a Bíblia diz sobre o perdão?", asked("amar os inimigos"))).toBe("e o que a Bíblia diz sobre o perdão?");
    expect(retrievalQuery("pode explicar melhor?", [])).toBe("pode explicar melhor?");
    expect(retrievalQuery("por quê?", asked("não entendi"))).toBe("por quê?");
  });

  it("looks back three questions at most", () => {
    expect(retrievalQuery("por quê?", asked("a torre de Babel", "sim", "não", "por quê?"))).toBe("por quê?");
  });
});

describe("retrievalQuery and small talk", () => {
  it("searches the question inside a greeting, and passes over small talk when looking back", () => {
    expect(retrievalQuery("Bom dia, pastor! Estou com medo do futuro", [])).toBe("Estou com medo do futuro");
    expect(retrievalQuery("oi, pode explicar melhor?", asked("Boa noite! O que Jesus disse sobre amar os inimigos?", "obrigado!"))).toBe(
      "O que Jesus disse sobre amar os inimigos?",
    );
    expect(retrievalQuery("por quê?", asked("oi"))).toBe("por quê?");
  });
});
