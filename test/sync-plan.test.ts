import { describe, expect, it } from "vitest";
import { planSync, type IndexedVersion } from "../src/core/index/sync-plan.js";

/** The one diff by SHA-256 of every index run (the Bible's files, a collection's documents, the CLI's freshness check). */
describe("planSync", () => {
  const indexed: IndexedVersion[] = [
    { id: "a", sha256: "1", complete: true },
    { id: "b", sha256: "2", complete: true },
    { id: "c", sha256: "3", complete: false },
    { id: "gone", sha256: "4", complete: true },
  ];
  const offered = [
    { id: "c", sha256: "3" },
    { id: "a", sha256: "1" },
    { id: "b", sha256: "2-new" },
    { id: "new", sha256: "5" },
  ];

  it("keeps what is indexed whole with the same content, replaces what changed, adds what is new, removes what left", () => {
    const plan = planSync(indexed, offered);
    expect(plan.steps.map((step) => [step.id, step.action])).toEqual([
      ["c", "replace"],
      ["a", "keep"],
      ["b", "replace"],
      ["new", "add"],
    ]);
    expect(plan.removed).toEqual(["gone"]);
    expect(plan.steps[1]!.indexed).toBe(indexed[0]);
    expect(plan.steps[3]!.indexed).toBeUndefined();
  });

  it("resumes a partial source with the same content only when asked, and never one whose content changed", () => {
    const plan = planSync(indexed, [...offered, { id: "c2", sha256: "x" }], { resume: true });
    expect(plan.steps.find((step) => step.id === "c")!.action).toBe("resume");
    const changed = planSync([{ id: "c", sha256: "3", complete: false }], [{ id: "c", sha256: "other" }], { resume: true });
    expect(changed.steps[0]!.action).toBe("replace");
  });

  it("rewrites every indexed source on a rebuild (new chunk settings or analyzer), still adding and removing", () => {
    const plan = planSync(indexed, offered, { rebuild: true, resume: true });
    expect(plan.steps.map((step) => step.action)).toEqual(["replace", "replace", "replace", "add"]);
    expect(plan.removed).toEqual(["gone"]);
  });

  it("gives every offered source one step in order, and removes exactly the indexed ones not offered (every case over three sources)", () => {
    const ids = ["a", "b", "c"];
    const indexedStates = [undefined, ...["1", "2"].flatMap((sha256) => [true, false].map((complete) => ({ sha256, complete })))];
    const offeredStates = [undefined, "1", "2"];
    const combos = <T>(states: readonly T[]): T[][] =>
      ids.reduce<T[][]>((acc) => acc.flatMap((prefix) => states.map((state) => [...prefix, state])), [[]]);
    let cases = 0;
    for (const indexedCombo of combos(indexedStates)) {
      const indexedVersions = indexedCombo.flatMap((state, i) => (state ? [{ id: ids[i]!, ...state }] : []));
      for (const offeredCombo of combos(offeredStates)) {
        // Offered in reverse order, to see that steps follow the offer, not the index.
        const offeredVersions = offeredCombo.flatMap((sha256, i) => (sha256 ? [{ id: ids[i]!, sha256 }] : [])).reverse();
        for (const rebuild of [false, true]) {
          for (const resume of [false, true]) {
            cases++;
            const plan = planSync(indexedVersions, offeredVersions, { rebuild, resume });
            expect(plan.steps.map((step) => step.id)).toEqual(offeredVersions.map((v) => v.id));
            const offeredIds = new Set(offeredVersions.map((v) => v.id));
            expect(plan.removed).toEqual(indexedVersions.filter((v) => !offeredIds.has(v.id)).map((v) => v.id));
            for (const step of plan.steps) {
              const before = indexedVersions.find((v) => v.id === step.id);
              const same = before?.sha256 === offeredVersions.find((v) => v.id === step.id)!.sha256;
              const expected = !before ? "add" : rebuild || !same ? "replace" : before.complete ? "keep" : resume ? "resume" : "replace";
              expect(step.action).toBe(expected);
            }
          }
        }
      }
    }
    expect(cases).toBe(125 * 27 * 4);
  });
});
