import { describe, expect, it } from "vitest";
import { embedInBatches, vectorMatrix } from "../src/app/index/dense.js";
import { startPoller } from "../src/app/index/poller.js";

const rows = Array.from({ length: 7 }, (_, i) => ({ id: 10 + i }));

describe("embedInBatches (the dense loop of the Bible and of every collection)", () => {
  it("embeds in order, saves each batch before the next is embedded, and reports progress", async () => {
    const log: string[] = [];
    const done: number[] = [];
    const count = await embedInBatches(rows, {
      batchSize: 3,
      embed: (batch) => {
        log.push(`embed ${batch.map((row) => row.id).join(",")}`);
        return batch.map((row) => Float32Array.of(row.id));
      },
      save: (saved) => {
        log.push(`save ${saved.map((row) => `${row.id}=${row.vector[0]}`).join(",")}`);
      },
      onBatch: (n) => done.push(n),
    });
    expect(count).toBe(7);
    expect(log).toEqual(["embed 10,11,12", "save 10=10,11=11,12=12", "embed 13,14,15", "save 13=13,14=14,15=15", "embed 16", "save 16=16"]);
    expect(done).toEqual([3, 6, 7]);
  });

  it("stops at the next batch when aborted, keeping what it saved", async () => {
    const controller = new AbortController();
    const saved: number[] = [];
    const run = embedInBatches(rows, {
      batchSize: 2,
      embed: (batch) => batch.map(() => new Float32Array(1)),
      save: (batch) => {
        saved.push(...batch.map((row) => row.id));
        if (saved.length === 4) controller.abort(new Error("parou"));
      },
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow("parou");
    expect(saved).toEqual([10, 11, 12, 13]);
  });
});

describe("vectorMatrix", () => {
  it("puts each unit's vector on its row, and a zero row for a unit without one (or with another size)", () => {
    const vectors = new Map([
      [1, Float32Array.of(1, 2)],
      [3, Float32Array.of(5, 6)],
      [4, Float32Array.of(7, 8, 9)],
    ]);
    expect([...vectorMatrix([{ id: 3 }, { id: 2 }, { id: 1 }, { id: 4 }], vectors, 2)]).toEqual([5, 6, 0, 0, 1, 2, 0, 0]);
  });
});

describe("startPoller (the shared store's periodic look)", () => {
  it("never runs two looks at once, and stop waits for the running one", async () => {
    let running = 0;
    let most = 0;
    let looks = 0;
    let finish: () => void = () => undefined;
    const poller = startPoller(async () => {
      looks += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => (finish = resolve));
      running -= 1;
    }, 5);
    await expect.poll(() => looks).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40)); // several ticks while the look runs
    expect(looks).toBe(1);
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(most).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(looks).toBe(1); // no look after stop
  });
});
