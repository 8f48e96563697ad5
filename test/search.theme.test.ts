import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { derivationalRoot } from "../src/core/retrieval/lexical-side.js";
import { asksForGuidance, isSituation, pointsAtText, speaksInFirstPerson, speaksOfSelf, themeOf } from "../src/core/reading/frames.js";
import { withProfiles } from "../src/core/retrieval/stages/profiles.js";
import { openBibleEngine } from "./support/bible-index.js";

describe("topical frames", () => {
  it("finds the theme of a question framed as a theme", () => {
    expect(themeOf("o que a Bíblia diz sobre a ansiedade?")).toBe("a ansiedade");
    expect(themeOf("O que a biblia fala a respeito do perdão")).toBe("perdão");
    expect(themeOf("versículos sobre casamento")).toBe("casamento");
    expect(themeOf("passagens bíblicas de esperança")).toBe("esperança");
    expect(themeOf("a oração na Bíblia")).toBe("a oração");
  });

  it("leaves quotations, stories, speech frames and references alone", () => {
    for (const query of ["o que Jesus disse sobre amar os inimigos?", "a parábola do semeador", "no princípio criou Deus os céus e a terra", "João 3:16", "estou com medo do futuro"]) {
      expect(themeOf(query)).toBeUndefined();
    }
  });

  it("joins a quality's noun and adjective by their derivational root, never short roots", () => {
    expect(derivationalRoot("ansiedade")).toBe("ansi");
    expect(derivationalRoot("ansiosos")).toBe("ansi");
    expect(derivationalRoot("paciencia")).toBe(derivationalRoot("pacientes"));
    expect(derivationalRoot("gente")).toBeUndefined();
    expect(derivationalRoot("cidade")).toBeUndefined();
  });

  it("tells a message about the asker's own life by its possessives and 'estou', never by 'eu', 'me' or 'mim'", () => {
    expect(speaksOfSelf("minha mãe morreu mês passado")).toBe(true);
    expect(speaksOfSelf("meu filho não fala comigo")).toBe(true);
    expect(speaksOfSelf("tô sem chão desde ontem")).toBe(true);
    expect(speaksOfSelf("Jesus disse: eu sou a luz do mundo")).toBe(false);
    expect(speaksOfSelf("vinde a mim todos os que estais cansados")).toBe(false);
    expect(speaksOfSelf("a minhoca e o meteoro")).toBe(false);
  });

  it("tells a request for guidance about the asker's own conduct or trouble from a quotation", () => {
    for (const query of [
      "devo contar pra minha sogra que o filho dela perdeu o emprego?",
      "é errado mentir pra proteger alguém?",
      "eh pecado tatuagem",
      "como lidar com a saudade de casa",
      "oq eu faço qnd bate a vontade de beber?",
      "vale a pena insistir num namoro à distância?",
      "posso casar com alguém de outra religião?",
      "qual a melhor forma de pedir perdão a um amigo?",
    ]) {
      expect(asksForGuidance(query), query).toBe(true);
    }
    for (const query of [
      "posso todas as coisas em Cristo que me fortalece",
      "tudo posso naquele que me fortalece",
      "o que Jesus disse sobre amar os inimigos?",
      "como Davi venceu Golias?",
      "a parábola do semeador",
      "o Senhor é o meu pastor, nada me faltará",
    ]) {
      expect(asksForGuidance(query), query).toBe(false);
    }
  });

  it("tells a first-person feeling or situation from a quotation", () => {
    expect(isSituation("estou com medo do futuro")).toBe(true);
    expect(isSituation("me sinto sozinho")).toBe(true);
    expect(isSituation("não consigo perdoar meu pai")).toBe(true);
    expect(isSituation("o Senhor é o meu pastor, nada me faltará")).toBe(false);
    expect(isSituation("a história de Jonas")).toBe(false);
  });

  it("hears the first person anywhere in a message, and a message that points at the text", () => {
    for (const query of [
      "na firma me chamam de burro e eu engulo calado",
      "assinei hoje os papéis do divórcio",
      "ninguém liga pra mim desde que mudei de cidade",
      "vinde a mim todos os que estais cansados",
    ]) {
      expect(speaksInFirstPerson(query), query).toBe(true);
    }
    // "rei", "lei", "Sinai" and "vôlei" are not verbs of the first person past.
    for (const query of ["o rei Davi e a lei de Moisés", "Deus falou a Moisés no Sinai", "a parábola do semeador", "o filme do cara que conversava com uma bola de vôlei"]) {
      expect(speaksInFirstPerson(query), query).toBe(false);
    }
    expect(pointsAtText("a história do rapaz que me contaram, que gastou a herança")).toBe(true);
    expect(pointsAtText("aquele versículo que eu li ontem sobre a ansiedade")).toBe(true);
    expect(pointsAtText("aquela passagem que me marcou na adolescência")).toBe(true);
    expect(pointsAtText("na firma me chamam de burro e eu engulo calado")).toBe(false);
  });
});

const refs = (response: SearchResponse) => response.results.map((r) => r.ref);

describe("a theme is searched as a theme (issue 14)", () => {
  let withTheme: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutTheme: Awaited<ReturnType<typeof openBibleEngine>>;
  let withoutFamilies: Awaited<ReturnType<typeof openBibleEngine>>;
  beforeAll(async () => {
    // The theme lever alone, at the weight issue 14 chose for it: the topical index
    // (test/topical-index.test.ts), whose arrival lowered that weight to 1, is off in all three.
    withTheme = await openBibleEngine({}, { topicWeight: 0, profiles: withProfiles({ theme: { themeWeight: 3 } }) });
    withoutFamilies = await openBibleEngine({}, { themeFamilyWeight: 0, topicWeight: 0, profiles: withProfiles({ theme: { themeWeight: 3 } }) });
    withoutTheme = await openBibleEngine({}, { off: ["theme"], topicWeight: 0 });
  }, 240_000);
  afterAll(async () => {
    await withTheme?.close();
    await withoutTheme?.close();
    await withoutFamilies?.close();
  });

  it("reaches the verses that say 'ansiosos' for a theme named 'ansiedade' (Snowball keeps them apart)", async () => {
    const query = "o que a Bíblia diz sobre a ansiedade?";
    const top = refs(await withTheme.engine.search(query, { k: 10 }));
    expect(top).toEqual(expect.arrayContaining(["1PE 5:7", "PHP 4:6", "MAT 6:34"]));
    expect(refs(await withoutFamilies.engine.search(query, { k: 10 }))).not.toContain("PHP 4:6");
  });

  it("brings the verses readers link most about mercy, not only those that repeat the word", async () => {
    const query = "versículos sobre a misericórdia";
    const themed = await withTheme.engine.search(query, { k: 10 });
    const plain = await withoutTheme.engine.search(query, { k: 10 });
    // "Deus, que é rico em misericórdia" (Ef 2:4) and "agora alcançastes misericórdia" (1 Pe 2:10).
    expect(refs(themed)).toEqual(expect.arrayContaining(["EPH 2:4", "1PE 2:10"]));
    expect(refs(plain)).not.toContain("EPH 2:4");
    expect(refs(plain)).not.toContain("1PE 2:10");
    expect(themed.results.some((r) => r.via.includes("theme"))).toBe(true);
  });

  it("does not change how a quotation or a speech frame is answered", async () => {
    for (const query of ["o que Jesus disse sobre amar os inimigos?", "pai nosso que estás nos céus"]) {
      expect(refs(await withTheme.engine.search(query, { k: 6 }))).toEqual(refs(await withoutTheme.engine.search(query, { k: 6 })));
    }
  });
});
