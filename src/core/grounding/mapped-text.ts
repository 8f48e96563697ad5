/**
 * A text derived from an original string, with, for every UTF-16 unit, the range of the
 * original it stands for. Rewrites (`replace`) keep the map, so an offset found in the derived
 * text maps back to the original (`originalStart`, `originalEnd`, `originalBoundary`).
 * Pure string code: used by the normalising shadow (./shadow.ts).
 */
export class MappedText {
  constructor(
    readonly text: string,
    /** Original start of each unit. */
    private readonly from: readonly number[],
    /** Original end of each unit (equal to the start for an inserted unit). */
    private readonly to: readonly number[],
    /** Length of the original. */
    readonly originalLength: number,
  ) {}

  private foldedText: string | undefined;

  /** `fold(text)`, computed once per text (a length-preserving folding such as books.ts `foldText`). */
  folded(fold: (text: string) => string): string {
    this.foldedText ??= fold(this.text);
    return this.foldedText;
  }

  static builder(originalLength: number): MappedTextBuilder {
    return new MappedTextBuilder(originalLength);
  }

  /** Original offset where the unit at i starts (the original's end for i = length). */
  originalStart(i: number): number {
    return i < this.text.length ? (this.from[i] as number) : this.originalLength;
  }

  /** Original offset where the unit before i ends (0 for i = 0). */
  originalEnd(i: number): number {
    return i > 0 ? (this.to[i - 1] as number) : 0;
  }

  /**
   * The original offset of the boundary before unit i, counting units dropped from the
   * original between i - 1 and i as after it (they belong to what starts at i).
   */
  originalBoundary(i: number): number {
    return Math.min(this.originalEnd(i), this.originalStart(i));
  }

  /**
   * Rewrites every match of the global regex `re` with `replacement(match)` (undefined keeps
   * the match). Every unit of a replacement maps to the whole original range of its match; an
   * empty match's replacement maps to the empty range at its position.
   */
  replace(re: RegExp, replacement: (m: RegExpExecArray) => string | undefined): MappedText {
    const spans: Array<readonly [number, number, string]> = [];
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(this.text)) !== null) {
      if (m[0].length === 0) re.lastIndex++;
      const r = replacement(m);
      if (r !== undefined) spans.push([m.index, m.index + m[0].length, r]);
      if (!re.global) break;
    }
    return this.replaceSpans(spans);
  }

  /** Rewrites the given ranges [start, end) of the text (in order, not overlapping); see `replace`. */
  replaceSpans(spans: ReadonlyArray<readonly [number, number, string]>): MappedText {
    if (spans.length === 0) return this;
    const b = new MappedTextBuilder(this.originalLength);
    let last = 0;
    for (const [start, end, r] of spans) {
      this.copy(b, last, start);
      const s = start < end ? (this.from[start] as number) : this.originalBoundary(start);
      const e = start < end ? (this.to[end - 1] as number) : s;
      b.push(r, s, e);
      last = end;
    }
    this.copy(b, last, this.text.length);
    return b.build();
  }

  private copy(b: MappedTextBuilder, start: number, end: number): void {
    for (let i = start; i < end; i++) b.pushUnit(this.text[i] as string, this.from[i] as number, this.to[i] as number);
  }
}

export class MappedTextBuilder {
  private text = "";
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  constructor(private readonly originalLength: number) {}

  /** Appends `s`, every unit of it standing for original [start, end). */
  push(s: string, start: number, end: number): void {
    for (let i = 0; i < s.length; i++) this.pushUnit(s[i] as string, start, end);
  }

  pushUnit(unit: string, start: number, end: number): void {
    this.text += unit;
    this.from.push(start);
    this.to.push(end);
  }

  build(): MappedText {
    return new MappedText(this.text, this.from, this.to, this.originalLength);
  }
}
