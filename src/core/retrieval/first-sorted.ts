/**
 * The first `limit` items of a sort, without sorting them all: for a long list of which a
 * ranking keeps the head (a common word's thousands of candidate verses, of which ten are
 * wanted). For a comparator that is a total order (every tie broken, as the rankings here end
 * with the document), the result is exactly `[...items].sort(compare).slice(0, limit)`. Pure.
 */
export function firstSorted<T>(items: readonly T[], limit: number, compare: (a: T, b: T) => number): T[] {
  if (limit <= 0) return [];
  if (limit * 4 >= items.length) return [...items].sort(compare).slice(0, limit);
  return bestPositions(items.length, limit, (a, b) => compare(items[a]!, items[b]!) > 0)
    .sort((a, b) => compare(items[a]!, items[b]!))
    .map((at) => items[at]!);
}

/**
 * The positions 0..count-1 of the best `limit` (in no order) by `worse`, a strict total order
 * ("a ranks after b"): a bounded heap whose root is the worst kept, so a long list is never
 * sorted whole. Sorting the result by the same order gives the head of a full sort.
 */
export function bestPositions(count: number, limit: number, worse: (a: number, b: number) => boolean): number[] {
  const heap: number[] = [];
  if (limit <= 0) return heap;
  // A swap through a local: a destructuring swap makes an array each time (a third of a search's garbage here).
  const swap = (i: number, j: number) => {
    const kept = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = kept;
  };
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const child = right < heap.length && worse(heap[right]!, heap[left]!) ? right : left;
      if (!worse(heap[child]!, heap[at]!)) return;
      swap(at, child);
      at = child;
    }
  };
  for (let i = 0; i < count; i++) {
    if (heap.length < limit) {
      heap.push(i);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        swap(at, parent);
        at = parent;
      }
    } else if (worse(heap[0]!, i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap;
}
