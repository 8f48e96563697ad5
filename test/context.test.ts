/**
 * Context windows, on the real Bíblia Livre verses and on small hand-made lists.
 */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildContextWindows, type VerseWithContext } from "../src/core/sources/context.js";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import type { Verse } from "../src/core/types.js";

const FILE = fileURLToPath(new URL("../corpus/por-blivre.usfx.xml", import.meta.url));

function v(book: string, chapter: number, verse: number, text: string, source = "test.xml"): Verse {
  return { source, book, bookName: book, canonical: true, chapter, verse, verseEnd: verse, text };
}

let verses: Verse[] = [];
let windows: VerseWithContext[] = [];
const index = new Map<string, number>();

function at(ref: string): VerseWithContext {
  const i = index.get(ref);
  if (i === undefined) throw new Error(`verse not found: ${ref}`);
  return windows[i]!;
}

function textOf(ref: string): string {
  return verses[index.get(ref)!]!.text;
}

beforeAll(async () => {
  verses = await loadUsfxFile(FILE);
  windows = buildContextWindows(verses, 2);
  verses.forEach((verse, i) => index.set(`${verse.book} ${verse.chapter}:${verse.verse}`, i));
});

describe("buildContextWindows on the Bíblia Livre", () => {
  it("returns one entry per verse, in order, keeping the verse fields", () => {
    expect(windows).toHaveLength(verses.length);
    windows.forEach((w, i) => {
      if (w.book !== verses[i]!.book || w.verse !== verses[i]!.verse || w.text !== verses[i]!.text) {
        throw new Error(`entry ${i} does not match its verse`);
      }
    });
  });

  it("keeps the verse text apart from the window", () => {
    const jhn = at("JHN 3:16");
    expect(jhn.text).toBe(textOf("JHN 3:16"));
    expect(jhn.contextBefore).toBe(`${textOf("JHN 3:14")} ${textOf("JHN 3:15")}`);
    expect(jhn.contextAfter).toBe(`${textOf("JHN 3:17")} ${textOf("JHN 3:18")}`);
    expect(jhn.window).toBe(`${jhn.contextBefore} ${jhn.text} ${jhn.contextAfter}`);
    expect(jhn.contextBefore).not.toContain(jhn.text);
    expect(jhn.contextAfter).not.toContain(jhn.text);
  });

  it("crosses chapter boundaries (GEN 1:31 ↔ GEN 2:1)", () => {
    expect(at("GEN 1:31").contextAfter).toBe(`${textOf("GEN 2:1")} ${textOf("GEN 2:2")}`);
    expect(at("GEN 2:1").contextBefore).toBe(`${textOf("GEN 1:30")} ${textOf("GEN 1:31")}`);
  });

  it("has no context before the first verse of a book, nor after its last", () => {
    const gen = at("GEN 1:1");
    expect(gen.contextBefore).toBe("");
    expect(gen.contextAfter).toBe(`${textOf("GEN 1:2")} ${textOf("GEN 1:3")}`);
    expect(gen.window).toBe(`${gen.text} ${gen.contextAfter}`);

    const last = at("GEN 50:26");
    expect(last.contextAfter).toBe("");
    expect(last.contextBefore).toBe(`${textOf("GEN 50:24")} ${textOf("GEN 50:25")}`);
    expect(last.window).toBe(`${last.contextBefore} ${last.text}`);
  });

  it("never crosses into another book", () => {
    // EXO 1:1 follows GEN 50:26 in the file.
    expect(at("EXO 1:1").contextBefore).toBe("");
    expect(at("GEN 50:26").contextAfter).not.toContain(textOf("EXO 1:1"));
    // Single-chapter book between two others: OBA 1:1 and OBA 1:21.
    expect(at("OBA 1:1").contextBefore).toBe("");
    expect(at("OBA 1:21").contextAfter).toBe("");
  });

  it("skips the empty verse ACT 28:29 as a neighbour, but still gives it a window", () => {
    expect(at("ACT 28:28").contextAfter).toBe(`${textOf("ACT 28:30")} ${textOf("ACT 28:31")}`);
    expect(at("ACT 28:30").contextBefore).toBe(`${textOf("ACT 28:27")} ${textOf("ACT 28:28")}`);
    const empty = at("ACT 28:29");
    expect(empty.text).toBe("");
    expect(empty.contextBefore).toBe(`${textOf("ACT 28:27")} ${textOf("ACT 28:28")}`);
    expect(empty.contextAfter).toBe(`${textOf("ACT 28:30")} ${textOf("ACT 28:31")}`);
    expect(empty.window).toBe(`${empty.contextBefore} ${empty.contextAfter}`);
  });

  it("with window size 0 the window is the verse alone", () => {
    const zero = buildContextWindows(verses, 0);
    expect(zero).toHaveLength(verses.length);
    const bad = zero.filter((w) => w.contextBefore !== "" || w.contextAfter !== "" || w.window !== w.text);
    expect(bad).toEqual([]);
  });
});

describe("buildContextWindows on small lists", () => {
  it("separates sources even with the same book", () => {
    const list = [v("GEN", 1, 1, "a1", "a.xml"), v("GEN", 1, 2, "a2", "a.xml"), v("GEN", 1, 1, "b1", "b.xml")];
    const out = buildContextWindows(list, 3);
    expect(out.map((w) => w.window)).toEqual(["a1 a2", "a1 a2", "b1"]);
  });

  it("uses up to windowSize neighbours, fewer near the edges", () => {
    const list = ["1", "2", "3", "4", "5"].map((t, i) => v("RUT", 1, i + 1, `v${t}`));
    const out = buildContextWindows(list, 1);
    expect(out.map((w) => [w.contextBefore, w.text, w.contextAfter])).toEqual([
      ["", "v1", "v2"],
      ["v1", "v2", "v3"],
      ["v2", "v3", "v4"],
      ["v3", "v4", "v5"],
      ["v4", "v5", ""],
    ]);
    expect(buildContextWindows(list, 10)[2]!.window).toBe("v1 v2 v3 v4 v5");
  });

  it("skips runs of empty verses to find non-empty neighbours", () => {
    const list = [v("JOB", 1, 1, "x"), v("JOB", 1, 2, ""), v("JOB", 1, 3, ""), v("JOB", 1, 4, "y")];
    const out = buildContextWindows(list, 1);
    expect(out.map((w) => [w.contextBefore, w.contextAfter])).toEqual([
      ["", "y"],
      ["x", "y"],
      ["x", "y"],
      ["x", ""],
    ]);
  });

  it("does not modify its input and handles an empty list", () => {
    const list = [v("GEN", 1, 1, "a"), v("GEN", 1, 2, "b")];
    const copy = structuredClone(list);
    buildContextWindows(list, 1);
    expect(list).toEqual(copy);
    expect(buildContextWindows([], 2)).toEqual([]);
  });

  it("rejects a negative or fractional window size", () => {
    expect(() => buildContextWindows([], -1)).toThrow(RangeError);
    expect(() => buildContextWindows([], 1.5)).toThrow(/janela/);
  });
});
