/**
 * Stretches of text: a unit with `radius` neighbours on each side. A story or an argument is
 * told over several units, so words that no one unit holds together meet in a stretch. Each
 * word's weight is added once to every stretch that holds it, wherever in the stretch it
 * stands. Read by the search (a story recalled in the asker's words) and by the out-of-scope
 * gate (how much of a question one stretch of the collection holds). Pure.
 */

/** A word of the question: the units holding it (ascending) and what it weighs. */
export interface StretchWord {
  docs: ArrayLike<number>;
  weight: number;
}

export interface StretchOptions {
  /** Units on each side of a unit. */
  radius: number;
  /** Per unit, the number of its run (one source's book): a stretch never crosses a run. Omitted: the corpus is one run. */
  runs?: Int32Array;
  /** Arrays of the corpus's length to reuse (their contents are overwritten). */
  scratch?: StretchScratch;
}

export interface StretchScratch {
  mass: Float64Array;
  lastWord: Int32Array;
  touched: Int32Array;
}

/**
 * What {@link stretchMasses} gives: views of its scratch, valid until the next call on that
 * scratch (a search reads them at once; nothing is allocated per question).
 */
export interface StretchMasses {
  /** Per unit (centre of its stretch): the weight of the words its stretch holds; valid at `touched` (0 elsewhere). */
  mass: Float64Array;
  /** The units whose stretch holds at least one word, in the order first reached. */
  touched: Int32Array;
}

export function stretchScratch(units: number): StretchScratch {
  return { mass: new Float64Array(units), lastWord: new Int32Array(units), touched: new Int32Array(units) };
}

/**
 * The mass of every stretch of a corpus of `units` units that holds at least one of `words`.
 * A word's units are read in order and each unit it can reach is credited once: the stretch of
 * a unit is cut at its run's ends (runs are contiguous: a source's book), and the part an
 * earlier unit of the word already reached is skipped, so a common word costs its units, not
 * its units times the stretch. The masses are summed word by word, in the words' order.
 */
export function stretchMasses(words: readonly StretchWord[], units: number, options: StretchOptions): StretchMasses {
  const scratch = options.scratch;
  const last = scratch && lastCalls.get(scratch);
  // The same words as the last call on this scratch (a search asks twice): its masses are still there.
  if (scratch && last && sameCall(last, words, units, options)) return last.result;
  const result = computeStretchMasses(words, units, options);
  if (scratch) lastCalls.set(scratch, { words: words.map(({ docs, weight }) => ({ docs, weight })), units, radius: options.radius, runs: options.runs, result });
  return result;
}

/** The last call on each scratch: its words (the very arrays of units, or views of the same memory) and what it gave (views of the scratch). */
interface LastCall {
  words: StretchWord[];
  units: number;
  radius: number;
  runs: Int32Array | undefined;
  result: StretchMasses;
}
const lastCalls = new WeakMap<StretchScratch, LastCall>();

function sameCall(last: LastCall, words: readonly StretchWord[], units: number, options: StretchOptions): boolean {
  return (
    last.units === units &&
    last.radius === options.radius &&
    last.runs === options.runs &&
    last.words.length === words.length &&
    words.every((word, i) => word.weight === last.words[i]!.weight && sameUnits(word.docs, last.words[i]!.docs))
  );
}

/** The same array, or two views of the same memory (`subarray` makes a new view each time). */
function sameUnits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return false;
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.byteLength === b.byteLength && a.constructor === b.constructor;
}

function computeStretchMasses(words: readonly StretchWord[], units: number, options: StretchOptions): StretchMasses {
  const { radius, runs } = options;
  if ((runs && !contiguous(runs)) || !words.every(({ docs }) => ascending(docs))) return stretchMassesByUnit(words, units, options);
  const { mass, lastWord, touched } = options.scratch ?? stretchScratch(units);
  mass.fill(0);
  lastWord.fill(-1);
  let count = 0;
  words.forEach(({ docs, weight }, word) => {
    let reached = -1;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      let from = Math.max(0, doc - radius);
      let to = Math.min(units - 1, doc + radius);
      if (runs) {
        const run = runs[doc];
        while (runs[from] !== run) from++;
        while (runs[to] !== run) to--;
      }
      for (let at = Math.max(from, reached + 1); at <= to; at++) {
        if (lastWord[at] === -1) touched[count++] = at;
        lastWord[at] = word;
        mass[at]! += weight;
      }
      if (to > reached) reached = to;
    }
  });
  return { mass, touched: touched.subarray(0, count) };
}

function ascending(docs: ArrayLike<number>): boolean {
  for (let i = 1; i < docs.length; i++) if (!(docs[i]! > docs[i - 1]!)) return false;
  return true;
}

/** Whether every run is one stretch of consecutive units (checked once per array). */
const contiguousRuns = new WeakMap<Int32Array, boolean>();
function contiguous(runs: Int32Array): boolean {
  let known = contiguousRuns.get(runs);
  if (known === undefined) {
    const seen = new Set<number>();
    known = true;
    for (let i = 0; i < runs.length && known; i++) {
      if (i > 0 && runs[i] === runs[i - 1]) continue;
      if (seen.has(runs[i]!)) known = false;
      seen.add(runs[i]!);
    }
    contiguousRuns.set(runs, known);
  }
  return known;
}

/** The same masses, unit by unit of each word's units (for runs that are not contiguous). */
function stretchMassesByUnit(words: readonly StretchWord[], units: number, options: StretchOptions): StretchMasses {
  const { radius, runs } = options;
  const { mass, lastWord, touched } = options.scratch ?? stretchScratch(units);
  mass.fill(0);
  lastWord.fill(-1);
  let count = 0;
  words.forEach(({ docs, weight }, word) => {
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const run = runs?.[doc];
      const to = Math.min(units - 1, doc + radius);
      for (let at = Math.max(0, doc - radius); at <= to; at++) {
        if (lastWord[at] === word || (runs !== undefined && runs[at] !== run)) continue;
        if (lastWord[at] === -1) touched[count++] = at;
        lastWord[at] = word;
        mass[at]! += weight;
      }
    }
  });
  return { mass, touched: touched.subarray(0, count) };
}
