import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../index/snapshot.js";
import { TermDictionary } from "./term-dictionary.js";

/** The names of a `StringRuns`' three parts in a snapshot (kept as each table first wrote them). */
export interface RunParts {
  keys: string;
  offsets: string;
  values: string;
  /** What the table is, for the error when its parts do not fit. */
  label: string;
}

/**
 * A frozen map from a string to a run of strings: the keys as a sorted dictionary, the runs
 * one after another in one list with an offset table (no Map of arrays per key), read from and
 * written to a snapshot as those three parts. Serves the word families and the gate's words by
 * stem alike.
 */
export class StringRuns {
  private constructor(
    private readonly keys: TermDictionary,
    private readonly offsets: Int32Array,
    private readonly values: readonly string[],
  ) {}

  /** The map frozen, each key's values in their iteration order. */
  static of(map: ReadonlyMap<string, Iterable<string>>): StringRuns {
    const { dictionary, sorted } = TermDictionary.fromTerms(map.keys());
    const offsets = new Int32Array(sorted.length + 1);
    const values: string[] = [];
    sorted.forEach((key, id) => {
      values.push(...map.get(key)!);
      offsets[id + 1] = values.length;
    });
    return new StringRuns(dictionary, offsets, values);
  }

  static read(snapshot: SnapshotReader, parts: RunParts): StringRuns {
    const keys = TermDictionary.read(snapshot, parts.keys);
    const offsets = snapshot.i32(parts.offsets);
    const values = snapshot.strings(parts.values);
    if (offsets.length !== keys.size + 1 || offsets[keys.size] !== values.length) throw new SnapshotError(`bad ${parts.label}`);
    return new StringRuns(keys, offsets, values);
  }

  write(snapshot: SnapshotWriter, parts: RunParts): void {
    this.keys.write(snapshot, parts.keys);
    snapshot.put(parts.offsets, this.offsets);
    snapshot.putStrings(parts.values, this.values);
  }

  /** The key's run; undefined for a key the map did not hold. */
  get(key: string): readonly string[] | undefined {
    const id = this.keys.idOf(key);
    return id < 0 ? undefined : this.values.slice(this.offsets[id]!, this.offsets[id + 1]!);
  }
}
