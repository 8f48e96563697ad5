import type { SnapshotReader, SnapshotWriter } from "../index/snapshot.js";
import { SnapshotError } from "../index/snapshot.js";

/**
 * A frozen string → id dictionary for large vocabularies (the BM25 indexes' terms, up to
 * ~400k phrase bigrams): the terms sorted by UTF-16 code unit and concatenated into one
 * string with an offset table, looked up by binary search. Term i is the i-th in sorted
 * order. A Map holds one string and one hash entry per term (≈ 100 bytes a bigram); this
 * holds ≈ its characters plus 4 bytes.
 */
export class TermDictionary {
  private readonly chars: string;
  private readonly starts: Int32Array;

  /** The terms are sorted here, duplicates dropped (the ids follow the sorted order). */
  static fromTerms(terms: Iterable<string>): { dictionary: TermDictionary; sorted: string[] } {
    // The default sort orders strings by UTF-16 code unit, as `<` and `compareAt` do.
    const sorted = [...terms].sort().filter((term, i, all) => i === 0 || term !== all[i - 1]);
    return { dictionary: new TermDictionary(sorted), sorted };
  }

  /** Terms already sorted and distinct (checked, in one pass: a list that is not is sorted as `fromTerms` does). */
  static fromSorted(terms: readonly string[]): TermDictionary {
    for (let i = 1; i < terms.length; i++) if (!(terms[i - 1]! < terms[i]!)) return TermDictionary.fromTerms(terms).dictionary;
    return new TermDictionary(terms);
  }

  has(term: string): boolean {
    return this.idOf(term) >= 0;
  }

  /** The dictionary of a snapshot (`write`): its characters and offsets, checked for shape. */
  static read(snapshot: SnapshotReader, name: string): TermDictionary {
    const chars = snapshot.string(`${name}.chars`);
    const starts = snapshot.i32(`${name}.starts`);
    if (starts.length === 0 || starts[0] !== 0 || starts[starts.length - 1] !== chars.length) throw new SnapshotError(`bad dictionary ${name}`);
    return new TermDictionary(chars, starts);
  }

  write(snapshot: SnapshotWriter, name: string): void {
    snapshot.put(`${name}.chars`, this.chars);
    snapshot.put(`${name}.starts`, this.starts);
  }

  private constructor(sorted: readonly string[]);
  private constructor(chars: string, starts: Int32Array);
  private constructor(sortedOrChars: readonly string[] | string, starts?: Int32Array) {
    if (typeof sortedOrChars === "string") {
      this.chars = sortedOrChars;
      this.starts = starts!;
      return;
    }
    const sorted = sortedOrChars;
    this.starts = new Int32Array(sorted.length + 1);
    let at = 0;
    sorted.forEach((term, i) => {
      this.starts[i] = at;
      at += term.length;
    });
    this.starts[sorted.length] = at;
    this.chars = sorted.join("");
  }

  /** The term of id `id` (a new string each call). */
  termAt(id: number): string {
    return this.chars.slice(this.starts[id]!, this.starts[id + 1]!);
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** The id of `term`, or -1 when the dictionary does not hold it. */
  idOf(term: string): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.compareAt(mid, term);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Sign of (term `id`) − `term` in UTF-16 code unit order, without slicing. */
  private compareAt(id: number, term: string): number {
    const start = this.starts[id]!;
    const length = this.starts[id + 1]! - start;
    const shared = Math.min(length, term.length);
    for (let i = 0; i < shared; i++) {
      const diff = this.chars.charCodeAt(start + i) - term.charCodeAt(i);
      if (diff !== 0) return diff;
    }
    return length - term.length;
  }
}
