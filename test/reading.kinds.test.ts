import { describe, expect, it } from "vitest";
import { messageKind, quotationOf } from "../src/core/reading/kinds.js";
import { readText, typedFrom, wordAt } from "../src/core/reading/message-text.js";

/**
 * What kind of message it is (issue 42), read from its words: each kind on messages written the
 * ways people write them, and the messages that must stay plain questions (a theme, a quotation
 * searched as it is, a story).
 */
const kindOf = (message: string) => messageKind(message).kind;

describe("the one normaliser", () => {
  it("folds, spells the chat shorthand out and keeps each word's place in the message as typed", () => {
    const text = readText("Vc sabe oq é a Páscoa?");
    expect(text.spelled).toBe(" voce sabe o que e a pascoa ");
    expect(text.words.map((word) => word.text)).toEqual(["Vc", "sabe", "oq", "é", "a", "Páscoa"]);
    const at = text.spelled.indexOf("pascoa");
    expect(text.words[wordAt(text, at)]!.text).toBe("Páscoa");
    expect(typedFrom(text, text.spelled.indexOf(" e a") + 1)).toBe("é a Páscoa");
  });
});

describe("questions about the assistant", () => {
  it.each([
    ["Você é uma pessoa de verdade?", "identity"],
    ["vc é um robô ou tem alguém aí do outro lado digitando?", "identity"],
    ["com quem estou falando?", "identity"],
    ["Você pode orar por mim?", "prayer"],
    ["ore por mim, por favor", "prayer"],
    ["Você acredita em Deus?", "belief"],
    ["vc é crente?", "belief"],
    ["Você pode ser meu líder de estudo bíblico?", "role"],
    ["quer ser meu pastor?", "role"],
    ["Eu não preciso de igreja, eu tenho você.", "church"],
    ["prefiro conversar com você do que com o pastor", "church"],
    ["só você me entende", "only_you"],
    ["Preciso de uma história da sua própria vida para abrir minha palestra", "own_life"],
    ["dá pra confiar nas suas respostas?", "trust"],
    ["você às vezes inventa versículo?", "trust"],
    ["devo acreditar em tudo que você diz?", "trust"],
    ["é Deus falando comigo através de você?", "trust"],
    ["quero me confessar com você", "confession"],
    ["você pode perdoar os meus pecados?", "confession"],
  ])("%s → %s", (message, topic) => {
    expect(messageKind(message)).toEqual({ kind: "about_assistant", topic });
  });

  it("never reads the Lord of a quotation or a prayer to God as the assistant", () => {
    expect(kindOf("onde está escrito 'o Senhor é o meu pastor, nada me faltará'?")).toBe("quotation_check");
    expect(kindOf("como orar por meu filho doente?")).not.toBe("about_assistant");
    expect(kindOf("o que a Bíblia diz sobre orar uns pelos outros?")).toBe("question");
    expect(kindOf("como confessar meus pecados a Deus?")).not.toBe("about_assistant");
    expect(kindOf("posso confiar em Deus quando tudo dá errado?")).not.toBe("about_assistant");
    expect(kindOf("Deus perdoa todos os pecados?")).not.toBe("about_assistant");
    expect(kindOf("o que fazer quando um amigo mente pra mim?")).not.toBe("about_assistant");
  });
});

describe("a saying checked against the Bible", () => {
  it.each([
    ["Onde na Bíblia diz 'Deus ajuda quem se ajuda'?", "Deus ajuda quem se ajuda"],
    ["onde diz que Deus ajuda quem cedo madruga?", "Deus ajuda quem cedo madruga"],
    ["o dinheiro é a raiz de todos os males, isso está na bíblia?", "o dinheiro é a raiz de todos os males"],
    ["a biblia diz mesmo que Deus não dá um fardo maior do que podemos carregar?", "Deus não dá um fardo maior do que podemos carregar"],
    ["tudo posso naquele que me fortalece onde ta na biblia", "tudo posso naquele que me fortalece"],
    ["Deus é o mesmo ontem, hoje e sempre — versículo?", "Deus é o mesmo ontem, hoje e sempre"],
    ["pelas suas pisaduras fomos sarados, é de Isaías?", "pelas suas pisaduras fomos sarados"],
    ["“A alegria do Senhor é a nossa força” está em Neemias?", "A alegria do Senhor é a nossa força"],
    ["versículo que diz que Deus escreve certo por linhas tortas", "Deus escreve certo por linhas tortas"],
    ["o amor cobre multidão de pecados, em que livro fala isso?", "o amor cobre multidão de pecados"],
  ])("%s → “%s”", (message, quote) => {
    expect(messageKind(message)).toEqual({ kind: "quotation_check", quote });
  });

  it("leaves themes and quotations without a frame to the search", () => {
    expect(quotationOf("onde a Bíblia fala sobre o perdão?")).toBeUndefined();
    expect(quotationOf("qual versículo fala sobre ansiedade")).toBeUndefined();
    expect(quotationOf("versículo que fala de esperança")).toBeUndefined();
    expect(kindOf("amai os vossos inimigos")).toBe("question");
    expect(kindOf("o que Jesus disse sobre amar os inimigos?")).toBe("question");
  });
});

describe("a passage to explain or to quote", () => {
  it("explains when asked what it means, quotes when asked for its text or given alone", () => {
    expect(kindOf("O que significa Filipenses 4:13?")).toBe("explain_passage");
    expect(kindOf("me explica Romanos 8:28")).toBe("explain_passage");
    expect(kindOf("Cite Jeremias 29:11 pra mim")).toBe("quote_passage");
    expect(kindOf("o que diz Salmos 23?")).toBe("quote_passage");
    expect(kindOf("João 3:16")).toBe("quote_passage");
  });

  it("searches a reference asked with a subject of its own", () => {
    expect(kindOf("Jo 3:16 e o amor de Deus pelos pecadores")).toBe("question");
    expect(kindOf("Romanos 8 e a ansiedade do dia a dia no trabalho")).toBe("question");
  });

  it("explains a passage asked what it means in the asker's own words, or what it says of something", () => {
    for (const message of [
      "Romanos 12:2 significa que não posso ouvir nenhuma música do mundo?",
      "o que quer dizer Eclesiastes 3:1, tudo tem seu tempo debaixo do céu",
      "Apocalipse 3:20 está falando de salvação ou de comunhão?",
      "Gálatas 5:22 fala do fruto ou dos frutos?",
    ]) {
      expect(kindOf(message), message).toBe("explain_passage");
    }
  });
});

describe("sermons, studies and notes", () => {
  it("reads the form, the subject without its occasion, and a push for a finished text", () => {
    expect(messageKind("Escreva um sermão sobre a graça para este domingo. Vinte e cinco minutos.")).toEqual({ kind: "study_prep", subject: "a graça", form: "sermon", push: false });
    expect(messageKind("preciso preparar um estudo sobre perdão pra célula de quinta, me ajuda?")).toEqual({ kind: "study_prep", subject: "perdão", form: "study", push: false });
    expect(messageKind("Escreva um devocional sobre confiar em Deus quando a vida parece seca.")).toMatchObject({ form: "devotional", subject: "confiar em Deus quando a vida parece seca" });
    expect(messageKind("Escreva um recado para alguém da minha igreja que acabou de perder o cônjuge.")).toMatchObject({ kind: "study_prep", form: "note" });
    expect(messageKind("Só me dá a versão final. Não tenho tempo de estudar esta semana.")).toMatchObject({ kind: "study_prep", push: true });
  });
});

describe("questions of knowledge", () => {
  it.each([
    ["Quem foi Moisés?", "who", "Moisés"],
    ["qm foi jezabel", "who", "jezabel"],
    ["O que são os Nefilins?", "what", "os Nefilins"],
    ["O que significa Jeová, Javé ou Yahweh?", "what", "Jeová, Javé ou Yahweh"],
    ["Fazer tatuagem é pecado?", "conduct", "Fazer tatuagem"],
    ["é pecado tatuagem na bíblia", "conduct", "tatuagem"],
    ["cristão pode beber vinho?", "conduct", "beber vinho"],
    ["onde fica Betel?", "where", "Betel"],
    ["o que aconteceu no Pentecostes?", "happened", "Pentecostes"],
    // The book a subject is placed in is not the subject; a subject that is a book's name stays.
    ["quem foi Barnabé no livro de Atos?", "who", "Barnabé"],
    ["como foi a ceia segundo os evangelhos?", "happened", "ceia"],
    ["o que é a graça em Romanos", "what", "a graça"],
    ["o que aconteceu no Êxodo?", "happened", "Êxodo"],
    // Who asks may be named ("mulher crente", "jovem cristão"); the Bible may "apoiar" or be "a favor".
    ["mulher crente pode usar saia curta?", "conduct", "usar saia curta"],
    ["jovem cristão pode namorar?", "conduct", "namorar"],
    ["a Bíblia apoia a escravidão?", "conduct", "escravidão"],
    // A quality asked of a subject: the subject's entry lends its verses to the question.
    ["A Bíblia é confiável?", "property", "Bíblia"],
    ["o batismo é necessário para a salvação?", "property", "batismo"],
  ])("%s → %s: %s", (message, frame, subject) => {
    expect(messageKind(message)).toEqual({ kind: "knowledge", frame, subject });
  });

  it("asks a quality only with a question mark, and never of a pronoun", () => {
    expect(kindOf("a vida é bela.")).toBe("question");
    expect(kindOf("isso é verdade?")).toBe("question");
    expect(kindOf("ele é fiel?")).toBe("question");
  });

  it("leaves feelings, themes and stories to their own profiles", () => {
    expect(kindOf("estou com medo do futuro")).toBe("question");
    expect(kindOf("O que a Bíblia diz sobre a homossexualidade?")).toBe("question");
    expect(kindOf("a história de Jonas")).toBe("question");
  });
});
