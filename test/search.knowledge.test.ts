/**
 * Questions of knowledge on the real index: the subject read apart from the book it is placed in,
 * a name asked about in lowercase, a proper name preferred to a common word of the same subject,
 * and no theme or feeling lent to a question about a named place.
 */
import { describe, expect, it } from "vitest";
import type { SearchResponse } from "../src/core/retrieval/engine.js";
import { useBibleEngine } from "./support/bible-index.js";

const refs = (response: SearchResponse) => response.results.map((result) => result.ref.replace(/-\d+$/u, ""));
const knowledgeOf = (response: SearchResponse) => response.explain?.find((entry) => entry.stage === "knowledge") as Record<string, unknown> | undefined;

describe("questions of knowledge on the real index", () => {
  const bible = useBibleEngine();

  it("asks of the person, not of the book the asker places them in", async () => {
    const response = await bible().engine.search("quem foi tabita em atos dos apóstolos?", { k: 5, explain: true });
    expect(response.reading?.kind).toBe("knowledge");
    expect(knowledgeOf(response)).toMatchObject({ subject: "tabita", found: "person: Tabita" });
    expect(refs(response)).toContain("ACT 9:36");
  });

  it("takes a lowercase word asked about as a place for the name it spells otherwise (armagedon → Armagedom)", async () => {
    const response = await bible().engine.search("onde é o armagedon?", { k: 5, explain: true });
    expect(knowledgeOf(response)).toMatchObject({ found: "place: Armagedom", how: "spelling" });
    expect(refs(response)[0]).toBe("REV 16:16");
  });

  it("prefers the place Sinai to the common word 'monte', and lends the question no theme", async () => {
    const response = await bible().engine.search("o que houve no monte Sinai?", { k: 5, explain: true });
    expect(knowledgeOf(response)).toMatchObject({ found: "place: Sinai" });
    expect(response.explain?.find((entry) => entry.stage === "topic")).toMatchObject({ added: 0 });
    expect(refs(response).every((ref) => ref.startsWith("EXO ") || ref.startsWith("LEV "))).toBe(true);
  });

  it("still lets the topical index answer a question about a person ('Quem é Jesus?' → João 1:1)", async () => {
    const response = await bible().engine.search("Quem é Jesus?", { k: 6, explain: true });
    expect(knowledgeOf(response)).toMatchObject({ found: "person: Jesus" });
    const topic = response.explain?.find((entry) => entry.stage === "topic") as { added?: number } | undefined;
    expect(topic?.added).toBeGreaterThan(0);
    expect(refs(response).slice(0, 3)).toContain("JHN 1:1");
  });
});

describe("a quality asked of a subject, on the real index", () => {
  const bible = useBibleEngine();
  const without = useBibleEngine({}, { off: ["knowledge"] });

  it("lends the subject's entry to the question, answered as a question: 'A Bíblia é confiável?' reaches 2 Timóteo 3:16", async () => {
    const question = "A Bíblia é confiável?";
    const response = await bible().engine.search(question, { k: 6, explain: true });
    expect(response.reading).toMatchObject({ kind: "question" });
    expect(response.reading?.knowledge).toBeUndefined();
    expect(knowledgeOf(response)).toMatchObject({ frame: "property", subject: "Bíblia", found: "term: Bíblia" });
    expect(refs(response).slice(0, 3)).toContain("2TI 3:16");
    // Without the entry, the word "confiável" brings the vine of Jeremias 2:21 instead.
    expect(refs(await without().engine.search(question, { k: 6 }))).not.toContain("2TI 3:16");
  });

  it("keeps the question's own words first: the entry is one list among the others", async () => {
    const question = "o dízimo é obrigatório?";
    expect(refs(await bible().engine.search(question, { k: 6 })).slice(0, 3)).toEqual(refs(await without().engine.search(question, { k: 6 })).slice(0, 3));
  });
});
