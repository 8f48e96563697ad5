/**
 * The first `limit` items of a sort, without sorting them all: for a long list of which a
 * ranking keeps the head (a common word's thousands of candidate verses, of which ten are
 * wanted). For a comparator that is a total order (every tie broken, as the rankings here end
 * with the document), the result is exactly `[...items].sort(compare).slice(0, limit)`. Pure.
 */
export function firstSorted<T>(items: readonly T[], limit: number, compare: (a: T, b: T) => number): T[] {
  if (limit <= 0) return [];
  if (limit * 4 >= items.length) return [...items].sort(compare).slice(0, limit);
  // A heap of the best `limit` so far whose root is the worst of them.
  const heap: T[] = [];
  const worse = (a: T, b: T) => compare(a, b) > 0;
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const child = right < heap.length && worse(heap[right]!, heap[left]!) ? right : left;
      if (!worse(heap[child]!, heap[at]!)) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  for (const item of items) {
    if (heap.length < limit) {
      heap.push(item);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}
