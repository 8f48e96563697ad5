/**
 * Small talk (src/core/reading/small-talk.ts, the replies in src/core/chat/small-talk.ts): messages that only greet, thank, bless or say
 * goodbye are recognised whatever their case, accents, punctuation, emoji and forms of
 * address; a message with any other word is a question and is left alone.
 */
import { describe, expect, it } from "vitest";
import { smallTalkOf, withoutSmallTalk, type SmallTalk } from "../src/core/reading/small-talk.js";
import { smallTalkReply } from "../src/core/chat/small-talk.js";
import { scanReferences } from "../src/core/grounding/reference-scan.js";

describe("smallTalkOf", () => {
  it.each<[string, SmallTalk]>([
    ["oi", "greeting"],
    ["Olá!", "greeting"],
    ["ola", "greeting"],
    ["Oi, pastor, tudo bem?", "greeting"],
    ["Bom dia!!! 🙂", "greeting"],
    ["boa noite, irmão", "greeting"],
    ["A paz do Senhor!", "greeting"],
    ["graça e paz", "greeting"],
    ["quem é você?", "greeting"],
    ["como funciona?", "greeting"],
    ["Obrigado!", "thanks"],
    ["muito obrigada pela ajuda, pastora", "thanks"],
    ["valeu mesmo", "thanks"],
    ["bom dia, obrigado pela resposta", "thanks"],
    ["Amém", "blessing"],
    ["amém, glória a Deus!", "blessing"],
    ["Deus te abençoe", "blessing"],
    ["Tchau", "farewell"],
    ["obrigado, tchau!", "farewell"],
    ["até logo e fique com Deus", "farewell"],
  ])("%s → %s", (message, kind) => {
    expect(smallTalkOf(message)).toBe(kind);
  });

  it("reads a message whose accents come as combining marks (NFD) as the same words", () => {
    expect(smallTalkOf("Agradeço, irmã!".normalize("NFD"))).toBe("thanks");
    expect(withoutSmallTalk("Olá! Não consigo dormir. Agradeço.".normalize("NFD"))).toBe("Não consigo dormir".normalize("NFD"));
  });

  it.each([
    "bom dia, estou com medo do futuro",
    "oi, o que Jesus disse sobre amar os inimigos?",
    "obrigado, Jesus",
    "paz",
    "a paz",
    "João 3:16",
    "amém significa o quê?",
    "como fazer um bolo de chocolate?",
    "boa noite, não consigo dormir",
    "",
    "   ",
    `${"oi ".repeat(50)}`,
  ])("leaves a question alone: %j", (message) => {
    expect(smallTalkOf(message)).toBeUndefined();
  });
});

describe("smallTalkReply", () => {
  it("speaks of the Bible, or of the collection asked", () => {
    expect(smallTalkReply("greeting")).toContain("Bíblia");
    expect(smallTalkReply("greeting", "aulas")).toContain('coleção "aulas"');
    expect(smallTalkReply("thanks")).toMatch(/^De nada!/);
    expect(smallTalkReply("thanks", "aulas")).toContain('coleção "aulas"');
    expect(smallTalkReply("blessing")).toMatch(/^Amém!/);
    expect(smallTalkReply("farewell")).toMatch(/^Até logo!/);
    expect(smallTalkReply("farewell", "aulas")).not.toContain("Deus");
  });
});

describe("the replies hold no reference (the web app would show it as a checked citation)", () => {
  it("the scan this relies on finds a reference in a sentence like theirs", () => {
    expect(scanReferences("peça um versículo como João 3:16, ou conte").length).toBe(1);
  });

  it.each<SmallTalk>(["greeting", "thanks", "blessing", "farewell"])("%s", (kind) => {
    for (const reply of [smallTalkReply(kind), smallTalkReply(kind, "aulas")]) expect(scanReferences(reply)).toEqual([]);
  });
});

describe("withoutSmallTalk", () => {
  it.each([
    ["Bom dia, pastor! Estou com medo do futuro", "Estou com medo do futuro"],
    ["oi, o que Jesus disse sobre amar os inimigos?", "o que Jesus disse sobre amar os inimigos?"],
    ["Olá, boa noite. A parábola do semeador", "A parábola do semeador"],
    ["A paz do Senhor, irmão! Quero entender Romanos 8", "Quero entender Romanos 8"],
    ["o que significa Salmo 23? Obrigada, pastor!", "o que significa Salmo 23"],
    ["Oi! Jo 3:16, por favor", "Jo 3:16"],
    ["boa tarde, não consigo dormir. Desde já, obrigado. Deus te abençoe", "não consigo dormir"],
  ])("%j → %j", (message, question) => {
    expect(withoutSmallTalk(message)).toBe(question);
  });

  it.each([
    "estou com medo do futuro",
    "o que significa amém?",
    "por que Deus é bom?",
    "meu coração está pesado",
    "e o que a Bíblia diz sobre o perdão?",
    "falou com o pastor",
    "Bom dia, pastor!",
    "obrigado",
  ])("leaves %j as it is (no small talk around a question)", (message) => {
    expect(withoutSmallTalk(message)).toBe(message);
  });
});
