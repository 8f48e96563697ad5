import { describe, expect, it } from "vitest";
import { stretchMasses, stretchScratch } from "../src/core/retrieval/stretches.js";

// Ten units; "a" stands at 2, "b" at 4 and 9, "c" at 5 (weights 1, 2, 4).
const words = [
  { docs: [2], weight: 1 },
  { docs: [4, 9], weight: 2 },
  { docs: [5], weight: 4 },
];
const massAt = (result: ReturnType<typeof stretchMasses>) => Array.from(result.mass, (mass) => Number(mass.toFixed(6)));

describe("stretches of text (a unit and its neighbours)", () => {
  it("adds each word's weight to every stretch that holds it, once", () => {
    const result = stretchMasses(words, 10, { radius: 1 });
    expect(massAt(result)).toEqual([0, 1, 1, 3, 6, 6, 4, 0, 2, 2]);
    // Unit 3's stretch holds "a" (at 2) and "b" (at 4): words that no unit holds together meet.
    expect(new Set(result.touched)).toEqual(new Set([1, 2, 3, 4, 5, 6, 8, 9]));
  });

  it("counts a word once in a stretch that holds it twice", () => {
    const twice = stretchMasses([{ docs: [3, 4], weight: 1 }], 8, { radius: 2 });
    expect(Math.max(...twice.mass)).toBe(1);
  });

  it("never crosses a run (one book): the neighbours across it add nothing", () => {
    const runs = Int32Array.from([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    const result = stretchMasses(words, 10, { radius: 1, runs });
    expect(massAt(result)).toEqual([0, 1, 1, 3, 2, 4, 4, 0, 2, 2]);
  });

  it("reuses the scratch it is given, starting from nothing each time", () => {
    const scratch = stretchScratch(10);
    stretchMasses(words, 10, { radius: 3, scratch });
    const again = stretchMasses([{ docs: [0], weight: 1 }], 10, { radius: 0, scratch });
    expect(again.mass).toBe(scratch.mass);
    expect(massAt(again)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(again.touched)).toEqual([0]);
  });

  it("gives the same masses to the same words asked twice, and new ones once other words were asked between", () => {
    const scratch = stretchScratch(10);
    const first = massAt(stretchMasses(words, 10, { radius: 1, scratch }));
    expect(massAt(stretchMasses(words.map((word) => ({ ...word })), 10, { radius: 1, scratch }))).toEqual(first);
    expect(massAt(stretchMasses([{ docs: [7], weight: 3 }], 10, { radius: 1, scratch }))).toEqual([0, 0, 0, 0, 0, 0, 3, 3, 3, 0]);
    const back = stretchMasses(words, 10, { radius: 1, scratch });
    expect(massAt(back)).toEqual(first);
    expect(new Set(back.touched)).toEqual(new Set([1, 2, 3, 4, 5, 6, 8, 9]));
  });
});
