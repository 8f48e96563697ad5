/**
 * The knowledge of resources/knowledge/ on the real data: the Portuguese names learned from the
 * Bíblia Livre's verses (recomputed here from the committed mentions and the corpus, and moved
 * when the corpus spells a name otherwise), the spellings people type, the English headings'
 * bridge into Portuguese and their verses, the family facts, ordinary words kept apart from
 * names, and every verse of every file present in the corpus.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { KNOWLEDGE_DIR, KNOWLEDGE_FILES, loadKnowledge } from "../src/adapters/sources/knowledge-files.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { alignNames, type AlignEntity } from "../src/core/knowledge/alignment.js";
import { cleanPortuguese } from "../src/core/knowledge/bridge.js";
import { formatKeyRows } from "../src/core/knowledge/key-rows.js";
import type { KnowledgeIndex, PersonMatch, TermMatch } from "../src/core/knowledge/knowledge-index.js";
import { expandVerseRun, parseKnowledgeRecords, type DetailRecord, type PersonRecord, type PlaceRecord } from "../src/core/knowledge/records.js";
import { ROOT } from "./support/bible-index.js";

const DIR = path.join(ROOT, KNOWLEDGE_DIR);
const text = (file: string) => gunzipSync(readFileSync(path.join(DIR, file))).toString("utf8");

let knowledge: KnowledgeIndex;
let refs: string[];
let texts: string[];
let people: PersonRecord[];
let places: PlaceRecord[];
let details: DetailRecord[];

beforeAll(async () => {
  const corpus = (await loadUsfxFile(path.join(ROOT, "corpus", "por-blivre.usfx.xml"))).filter((verse) => verse.canonical);
  refs = corpus.map((verse) => `${verse.book} ${verse.chapter}:${verse.verse}`);
  texts = corpus.map((verse) => verse.text);
  knowledge = await loadKnowledge();
  people = parseKnowledgeRecords("person", text(KNOWLEDGE_FILES.people), "people.jsonl");
  places = parseKnowledgeRecords("place", text(KNOWLEDGE_FILES.places), "places.jsonl");
  details = parseKnowledgeRecords("detail", text(KNOWLEDGE_FILES.details), "details.jsonl");
});

const textOf = (ref: string) => texts[refs.indexOf(ref)] ?? "";
const firstPerson = (name: string) => knowledge.person(name)[0];
const termVerses = (matches: TermMatch[], count: number) => matches.slice(0, count).flatMap((match) => match.verses);

describe("the Portuguese names, learned from the verses", () => {
  /** The alignment over the committed mentions: every person and place, named by its English names. */
  function entities(): AlignEntity[] {
    const index = new Map(refs.map((ref, i) => [ref, i]));
    const mentions = new Map(details.map((detail) => [detail.id, detail.mentions ?? []]));
    return [...people, ...places].map((entity) => ({
      id: entity.id,
      names: [...new Set([entity.en.replace(/\s*\(.*\)$/, ""), ...entity.names.map((name) => name.en)])],
      verses: (mentions.get(entity.id) ?? []).flatMap((run) => expandVerseRun(run)).map((ref) => index.get(ref)!),
    }));
  }

  it("finds Moisés, Arão, Melquisedeque, Ester, Miriã and the family of Exodus 6:20 as the corpus prints them", () => {
    const aligned = alignNames(entities(), texts);
    const nameOf = (id: string) => aligned.get(id)?.[0]?.form;
    expect(nameOf("moses_2108")).toBe("Moisés");
    expect(nameOf("aaron_1")).toBe("Arão");
    expect(nameOf("melchisedec_1991")).toBe("Melquisedeque");
    expect(nameOf("esther_1343")).toBe("Ester");
    expect(nameOf("miriam_2087")).toBe("Miriã");
    expect(nameOf("amram_242")).toBe("Anrão");
    expect(nameOf("jochebed_1645")).toBe("Joquebede");
    expect(nameOf("bethel_202")).toBe("Betel");
    // What the build committed is what the verses give.
    for (const id of ["moses_2108", "aaron_1", "melchisedec_1991", "esther_1343", "david_994", "jerusalem_636"]) {
      const committed = [...people, ...places].find((entity) => entity.id === id)!;
      expect(committed.names[0]?.pt, id).toBe(nameOf(id));
    }
    // Each name is printed in its person's key verses: Exodus 6:20 names Anrão, Joquebede, Arão and Moisés.
    expect(textOf("EXO 6:20")).toMatch(/Anrão.*Joquebede.*Arão.*Moisés/);
  });

  it("follows the corpus: spell Moses and Aaron otherwise in the verses and their names move with it", () => {
    const respelled = texts.map((verse) => verse.replaceAll("Moisés", "Mosheh").replaceAll("Arão", "Aharon"));
    const aligned = alignNames(entities(), respelled);
    expect(aligned.get("moses_2108")?.[0]?.form).toBe("Mosheh");
    expect(aligned.get("aaron_1")?.[0]?.form).toBe("Aharon");
    // Others are untouched.
    expect(aligned.get("miriam_2087")?.[0]?.form).toBe("Miriã");
  });

  it("keeps a person's several names (Paulo and Saulo; Simão, Pedro and Cefas) and drops the ones too weak to trust", () => {
    const names = (id: string) => people.find((person) => person.id === id)!.names.map((name) => name.pt);
    expect(names("paul_2479")).toEqual(expect.arrayContaining(["Paulo", "Saulo"]));
    expect(names("peter_2745")).toEqual(expect.arrayContaining(["Simão", "Pedro", "Cefas"]));
    for (const entity of [...people, ...places]) for (const name of entity.names) expect(name.c, `${entity.id} ${name.pt}`).toBeGreaterThanOrEqual(0.3);
    const aligned = people.filter((person) => person.names.length > 0).length;
    expect(aligned).toBeGreaterThan(0.9 * people.length);
    expect(aligned).toBeLessThan(people.length);
  });
});

describe("the spellings people type", () => {
  it("meets Melquisedec, Esther, Miriam and a lowercase moises, by the analysis", () => {
    expect(firstPerson("Melquisedec")).toMatchObject({ id: "melchisedec_1991", label: "Melquisedeque", how: "spelling" });
    expect(firstPerson("Melquisedeque")).toMatchObject({ id: "melchisedec_1991", how: "name" });
    expect(firstPerson("Esther")).toMatchObject({ id: "esther_1343", label: "Ester" });
    expect(firstPerson("Miriam")).toMatchObject({ id: "miriam_2087", label: "Miriã" });
    expect(firstPerson("moises")).toMatchObject({ id: "moses_2108", label: "Moisés" });
    // A typo of a long name, within the edits its length allows.
    expect(firstPerson("Melquisedek")?.id).toBe("melchisedec_1991");
    expect(firstPerson("Nabucodonozor")?.label).toBe(firstPerson("Nabucodonosor")?.label);
  });

  it("meets Nefilins and nefilim through the English heading, Javé, Jeová and Yahweh through WordNet's Jehovah", () => {
    for (const typed of ["Nefilins", "nefilim", "Nephilim"]) {
      const [match] = knowledge.term(typed);
      expect(match?.english, typed).toBe("Nephilim");
      expect(match?.verses, typed).toContain("GEN 6:4");
    }
    for (const typed of ["Javé", "Jeová", "Yahweh", "jeova"]) {
      const [match] = knowledge.term(typed);
      expect(match?.id, typed).toBe("jeova");
      expect(match?.verses, typed).toContain("EXO 6:3");
    }
  });

  it("finds the names of a whole question, the longest name first, and says how each was met", () => {
    const found = knowledge.lookup("Quem era Melquisedec, rei de Salém?");
    expect(found.find((match) => match.kind === "person")).toMatchObject({ id: "melchisedec_1991", matched: "Melquisedec", how: "spelling" });
    // The name the corpus prints ranks above the one met by its spelling.
    expect(found[0]).toMatchObject({ kind: "place", label: "Salém", how: "name" });
    expect(knowledge.lookup("onde fica Betel?")[0]).toMatchObject({ kind: "place", id: "bethel_202", how: "name" });
  });
});

describe("ordinary words are not names", () => {
  it("leaves lowercase words of the dictionary and function words alone", () => {
    expect(knowledge.person("pedra")).toEqual([]);
    expect(knowledge.person("pai")).toEqual([]);
    const kinds = (question: string) => knowledge.lookup(question).map((match) => match.kind);
    expect(kinds("a pedra angular")).not.toContain("person");
    expect(kinds("o sal da terra e a luz do mundo")).not.toContain("person");
    expect(kinds("o sal da terra e a luz do mundo")).not.toContain("place");
    expect(kinds("ai de mim, que dor")).not.toContain("place");
  });

  it("takes the same words as names when they are capitalised in mid-sentence", () => {
    expect(knowledge.person("Pedro")[0]?.id).toBe("peter_2745");
    expect(knowledge.lookup("o que houve na cidade de Ai?").some((match) => match.kind === "place" && match.label === "Ai")).toBe(true);
    // A name the corpus mostly prints in lowercase ("Pai") stays a word at a sentence's start.
    expect(knowledge.lookup("Pai nosso que estás nos céus").filter((match) => match.kind === "person")).toEqual([]);
  });
});

describe("the English headings, bridged into Portuguese", () => {
  it("tattoo → tatuagem → Leviticus 19:28, with the sub-heading that forbids it", async () => {
    const [tattoo] = knowledge.term("tatuagens");
    expect(tattoo).toMatchObject({ id: "tatuagem", how: "lemma" });
    expect(tattoo?.verses[0]).toBe("LEV 19:28");
    expect(tattoo?.cited[0]?.[1]).toBe("nt");
    const more = await knowledge.details("tatuagem");
    expect(more?.headings.some((heading) => /forbidden/i.test(heading.sub) && heading.gloss === "proibido" && heading.verses.includes("LEV 19:28"))).toBe(true);
  });

  it("cremação → 1 Samuel 31:12; aborto → Exodus 21:22; páscoa → Exodus 12", () => {
    expect(knowledge.term("cremação")[0]?.verses.slice(0, 5)).toContain("1SA 31:12");
    expect(knowledge.term("cremacao")[0]?.id).toBe("cremacao");
    expect(knowledge.term("aborto")[0]?.verses.slice(0, 3)).toContain("EXO 21:22");
    expect(knowledge.term("a Páscoa")[0]?.verses.slice(0, 5).some((verse) => verse.startsWith("EXO 12:"))).toBe(true);
    expect(knowledge.term("o Reino de Deus")[0]).toMatchObject({ id: "reino de deus", matched: "reino deus" });
  });

  it("necromancia, or a description of it, → 1 Samuel 28 and Deuteronomy 18:11", () => {
    const named = knowledge.term("necromancia")[0]!.verses;
    expect(named).toContain("DEU 18:11");
    expect(named.some((verse) => verse.startsWith("1SA 28:"))).toBe(true);
    const described = knowledge.term("consultar os mortos");
    expect(described[0]?.how).toBe("salient");
    expect(termVerses(described, 3)).toContain("DEU 18:11");
    expect(termVerses(described, 3).some((verse) => verse.startsWith("1SA 28:"))).toBe(true);
  });

  it("keeps only Portuguese words from OpenWordNet-PT: the pig is \"suíno\", never the Polish \"świnia\" that sits among its lemmas", () => {
    expect(knowledge.term("porco")[0]).toMatchObject({ label: "suíno" });
    for (const word of ["świnia", "furăo", "Ārya", "ångström"]) expect(cleanPortuguese(word), word).toBeUndefined();
    for (const word of ["tatuagem", "Páscoa", "pé-de-meia", "olho d'água", "São João"]) expect(cleanPortuguese(word), word).toBe(word);
    const terms = parseKnowledgeRecords("term", text(KNOWLEDGE_FILES.terms), "terms.jsonl");
    expect(terms.length).toBeGreaterThan(3000);
    expect(terms.flatMap((term) => term.pt.map(([lemma]) => lemma)).filter((lemma) => cleanPortuguese(lemma) === undefined)).toEqual([]);
  });

  it("ranks a verse several sources cite above one a single source cites", async () => {
    const ranked = (await knowledge.details("pascoa"))!.verses;
    const first = ranked.slice(0, 10);
    const last = ranked.slice(-10);
    const mean = (list: typeof ranked) => list.reduce((sum, [, sources]) => sum + sources.length, 0) / list.length;
    expect(mean(first)).toBeGreaterThan(mean(last));
  });
});

describe("the facts a person's answer may open with", () => {
  it("Aaron: son of Anrão and Joquebede, brother of Moisés and Miriã, as the corpus spells them", () => {
    const aaron = firstPerson("Arão") as PersonMatch;
    expect(aaron.id).toBe("aaron_1");
    expect(aaron.family.father.map((member) => member.name)).toEqual(["Anrão"]);
    expect(aaron.family.mother.map((member) => member.name)).toEqual(["Joquebede"]);
    expect(aaron.family.siblings.map((member) => member.name).sort()).toEqual(["Miriã", "Moisés"]);
    expect(aaron.family.siblings.find((member) => member.name === "Miriã")?.gender).toBe("f");
    // Key verses: where he enters the story (Exodus 4:14, sent to meet Moses) and his lineage (6:20), in canonical order.
    expect(aaron.verses).toEqual(expect.arrayContaining(["EXO 4:14", "EXO 6:20"]));
    expect(aaron.verses.length).toBeLessThanOrEqual(8);
    expect(aaron.verses.map((verse) => refs.indexOf(verse))).toEqual([...aaron.verses.map((verse) => refs.indexOf(verse))].sort((a, b) => a - b));
    for (const verse of aaron.verses) expect(textOf(verse), verse).toContain("Arão");
  });

  it("an event by its Portuguese label: a morte de Moisés", () => {
    const [death] = knowledge.event("a morte de Moisés");
    expect(death).toMatchObject({ english: "Death of Moses", label: "morte de Moisés" });
    expect(death?.verses).toContain("DEU 34:5");
    // A name alone is no event.
    expect(knowledge.event("Moisés")).toEqual([]);
  });
});

describe("the files", () => {
  it("hold every person, place and event of the data, and every verse they name is in the corpus", () => {
    expect(knowledge.size).toMatchObject({ people: 3069, places: 1274, events: 395 });
    expect(knowledge.size.terms).toBeGreaterThan(2500);
    const known = new Set(refs);
    const missing: string[] = [];
    let read = 0;
    const check = (runs: readonly string[], where: string) => {
      for (const run of runs) {
        const verses = expandVerseRun(run);
        if (verses.length === 0) missing.push(`${where}: ${run}`);
        for (const verse of verses) if (!known.has(verse)) missing.push(`${where}: ${verse}`);
        read += verses.length;
      }
    };
    for (const entity of [...people, ...places]) check(entity.key, entity.id);
    for (const event of parseKnowledgeRecords("event", text(KNOWLEDGE_FILES.events), "events.jsonl")) check(event.verses, event.id);
    for (const term of parseKnowledgeRecords("term", text(KNOWLEDGE_FILES.terms), "terms.jsonl")) check(term.verses.map(([verse]) => verse), term.id);
    for (const detail of details) {
      check(detail.mentions ?? [], detail.id);
      check((detail.verses ?? []).map(([verse]) => verse), detail.id);
      for (const heading of detail.headings ?? []) check(heading.verses, `${detail.id} ${heading.title}`);
    }
    expect(missing).toEqual([]);
    expect(read).toBeGreaterThan(100_000);
  });

  it("keep the lookup keys the records and today's analysis give (a change to either means a rebuild)", () => {
    const records = {
      people,
      places,
      events: parseKnowledgeRecords("event", text(KNOWLEDGE_FILES.events), "events.jsonl"),
      terms: parseKnowledgeRecords("term", text(KNOWLEDGE_FILES.terms), "terms.jsonl"),
    };
    expect(formatKeyRows(records) === text(KNOWLEDGE_FILES.keys)).toBe(true);
  });

  it("name the ids of family, events and cross-links that exist", () => {
    const ids = new Set([...people, ...places].map((entity) => entity.id));
    for (const person of people) {
      for (const id of [...person.father, ...person.mother, ...person.partners, ...person.children, ...person.siblings]) expect(ids.has(id), `${person.id} → ${id}`).toBe(true);
    }
    for (const event of parseKnowledgeRecords("event", text(KNOWLEDGE_FILES.events), "events.jsonl")) {
      for (const id of [...event.people, ...event.places]) expect(ids.has(id), `${event.id} → ${id}`).toBe(true);
    }
    const terms = parseKnowledgeRecords("term", text(KNOWLEDGE_FILES.terms), "terms.jsonl");
    const termIds = new Set(terms.map((term) => term.id));
    for (const term of terms) for (const id of term.see ?? []) expect(termIds.has(id), `${term.id} → ${id}`).toBe(true);
  });
});
