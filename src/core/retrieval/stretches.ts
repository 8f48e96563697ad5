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
}

export interface StretchMasses {
  /** Per unit (centre of its stretch): the weight of the words its stretch holds; valid at `touched` (0 elsewhere). */
  mass: Float64Array;
  /** The units whose stretch holds at least one word, in the order first reached. */
  touched: number[];
}

export function stretchScratch(units: number): StretchScratch {
  return { mass: new Float64Array(units), lastWord: new Int32Array(units) };
}

/** The mass of every stretch of a corpus of `units` units that holds at least one of `words`. */
export function stretchMasses(words: readonly StretchWord[], units: number, options: StretchOptions): StretchMasses {
  const { radius, runs } = options;
  const { mass, lastWord } = options.scratch ?? stretchScratch(units);
  mass.fill(0);
  lastWord.fill(-1);
  const touched: number[] = [];
  words.forEach(({ docs, weight }, word) => {
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const run = runs?.[doc];
      const to = Math.min(units - 1, doc + radius);
      for (let at = Math.max(0, doc - radius); at <= to; at++) {
        if (lastWord[at] === word || (runs !== undefined && runs[at] !== run)) continue;
        if (lastWord[at] === -1) touched.push(at);
        lastWord[at] = word;
        mass[at]! += weight;
      }
    }
  });
  return { mass, touched };
}
