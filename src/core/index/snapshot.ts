/**
 * A snapshot: named typed arrays and strings in one byte buffer, what the index saves of the
 * structures the search builds (term dictionaries, postings, the vector matrix…) so that a
 * process starting later reads them instead of building them again. Pure: bytes in, parts out.
 *
 * Layout: "PSNP", uint32 LE format version, uint32 LE header length, the header JSON (the
 * caller's `meta` and, per part, its name, type, byte offset and element count), then each
 * part's bytes, little-endian, at an offset that is a multiple of 8 (so a part is read as a
 * typed array over the buffer without a copy when the buffer itself is aligned). Strings are
 * UTF-8. `decode` checks every part's bounds and type; a buffer that is not a snapshot of this
 * version throws `SnapshotError`, never anything else, so a damaged snapshot is rebuilt.
 */

const MAGIC = "PSNP";
const FORMAT = 1;
const ALIGN = 8;

export type TypedPart = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
export type Part = TypedPart | string;

const TYPES = {
  i8: Int8Array,
  u8: Uint8Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;
type TypeName = keyof typeof TYPES | "str";
type TypedName = keyof typeof TYPES;

interface PartEntry {
  name: string;
  type: TypeName;
  offset: number;
  /** Elements (bytes for a string). */
  length: number;
}

/** A snapshot that cannot be read: not one, another version, truncated, or a part missing or of the wrong type. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SnapshotError";
  }
}

/** The longest list read as one string (V8's limit is ≈ 2²⁹ characters). */
const MAX_ONE_STRING = 2 ** 28;

/** Whether every character is Latin-1 (U+0000–U+00FF): one byte each. */
function latin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function typeOf(part: Part): TypeName {
  if (typeof part === "string") return "str";
  for (const [name, type] of Object.entries(TYPES)) if (part instanceof type) return name as TypeName;
  throw new SnapshotError("unsupported part type");
}

/** Collects parts, then encodes them into one buffer. */
export class SnapshotWriter {
  private readonly parts = new Map<string, Part>();

  put(name: string, part: Part): void {
    if (this.parts.has(name)) throw new Error(`snapshot part written twice: ${name}`);
    this.parts.set(name, part);
  }

  /**
   * Strings as one list: their bytes one after another and where each ends, each in Latin-1
   * when it fits (one byte a character: the list is read as one string and sliced) or else in
   * UTF-8 (read on its own), with a byte per string saying which.
   */
  putStrings(name: string, strings: readonly string[]): void {
    const utf8 = new Uint8Array(strings.length);
    const bytes = strings.map((s, i) => {
      if (latin1(s)) return Buffer.from(s, "latin1");
      utf8[i] = 1;
      return Buffer.from(s, "utf8");
    });
    const ends = new Float64Array(strings.length);
    let at = 0;
    bytes.forEach((b, i) => (ends[i] = at += b.length));
    this.put(`${name}.ends`, ends);
    this.put(`${name}.utf8`, utf8);
    this.put(`${name}.bytes`, new Uint8Array(Buffer.concat(bytes)));
  }

  encode(meta: Record<string, unknown> = {}): Uint8Array {
    const entries: PartEntry[] = [];
    const bodies: Uint8Array[] = [];
    let offset = 0;
    for (const [name, part] of this.parts) {
      const body = typeof part === "string" ? Buffer.from(part, "utf8") : bytesOf(part);
      entries.push({ name, type: typeOf(part), offset, length: typeof part === "string" ? body.length : part.length });
      bodies.push(body);
      offset = align(offset + body.length);
    }
    const header = Buffer.from(JSON.stringify({ meta, parts: entries }), "utf8");
    const start = align(12 + header.length);
    const out = new Uint8Array(start + offset);
    out.set(Buffer.from(MAGIC, "latin1"), 0);
    const view = new DataView(out.buffer);
    view.setUint32(4, FORMAT, true);
    view.setUint32(8, header.length, true);
    out.set(header, 12);
    entries.forEach((entry, i) => out.set(bodies[i]!, start + entry.offset));
    return out;
  }
}

/** The parts of an encoded snapshot, read by name and type (typed arrays are copies: the buffer can go). */
export class SnapshotReader {
  private readonly entries: Map<string, PartEntry>;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
    entries: readonly PartEntry[],
    readonly meta: Readonly<Record<string, unknown>>,
  ) {
    this.entries = new Map(entries.map((entry) => [entry.name, entry]));
  }

  static decode(bytes: Uint8Array): SnapshotReader {
    if (!LITTLE_ENDIAN) throw new SnapshotError("snapshots are read on little-endian machines only");
    if (bytes.length < 12 || Buffer.from(bytes.buffer, bytes.byteOffset, 4).toString("latin1") !== MAGIC) throw new SnapshotError("not a snapshot");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const format = view.getUint32(4, true);
    if (format !== FORMAT) throw new SnapshotError(`snapshot format ${format}, expected ${FORMAT}`);
    const headerLength = view.getUint32(8, true);
    if (12 + headerLength > bytes.length) throw new SnapshotError("truncated snapshot header");
    let header: { meta?: unknown; parts?: unknown };
    try {
      header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 12, headerLength).toString("utf8")) as typeof header;
    } catch {
      throw new SnapshotError("unreadable snapshot header");
    }
    if (!Array.isArray(header.parts) || typeof header.meta !== "object" || header.meta === null) throw new SnapshotError("bad snapshot header");
    const start = align(12 + headerLength);
    const parts = header.parts as PartEntry[];
    for (const entry of parts) {
      const width = entry.type === "str" ? 1 : TYPES[entry.type as TypedName]?.BYTES_PER_ELEMENT;
      const valid =
        typeof entry.name === "string" &&
        width !== undefined &&
        Number.isSafeInteger(entry.offset) &&
        Number.isSafeInteger(entry.length) &&
        entry.offset >= 0 &&
        entry.length >= 0 &&
        entry.offset % ALIGN === 0 &&
        start + entry.offset + entry.length * width <= bytes.length;
      if (!valid) throw new SnapshotError(`bad snapshot part ${String(entry.name)}`);
    }
    return new SnapshotReader(bytes, start, parts, header.meta as Record<string, unknown>);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every part's name, in the order written. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** A part as written (a copy of a typed part, a string part decoded), whatever its type. */
  part(name: string): Part {
    const entry = this.entries.get(name);
    if (!entry) throw new SnapshotError(`snapshot part missing: ${name}`);
    return entry.type === "str" ? this.string(name) : this.typed(name, entry.type);
  }

  private entry(name: string, type: TypeName): PartEntry {
    const entry = this.entries.get(name);
    if (!entry) throw new SnapshotError(`snapshot part missing: ${name}`);
    if (entry.type !== type) throw new SnapshotError(`snapshot part ${name} is ${entry.type}, expected ${type}`);
    return entry;
  }

  private typed<T extends TypedPart>(name: string, type: TypedName): T {
    const entry = this.entry(name, type);
    const Type = TYPES[type];
    const out = new Type(entry.length);
    new Uint8Array(out.buffer).set(this.bytes.subarray(this.start + entry.offset, this.start + entry.offset + out.byteLength));
    return out as T;
  }

  i8(name: string): Int8Array {
    return this.typed(name, "i8");
  }
  u8(name: string): Uint8Array {
    return this.typed(name, "u8");
  }
  u16(name: string): Uint16Array {
    return this.typed(name, "u16");
  }
  i32(name: string): Int32Array {
    return this.typed(name, "i32");
  }
  u32(name: string): Uint32Array {
    return this.typed(name, "u32");
  }
  f32(name: string): Float32Array {
    return this.typed(name, "f32");
  }
  f64(name: string): Float64Array {
    return this.typed(name, "f64");
  }

  string(name: string): string {
    const entry = this.entry(name, "str");
    const at = this.bytes.byteOffset + this.start + entry.offset;
    return Buffer.from(this.bytes.buffer, at, entry.length).toString("utf8");
  }

  /**
   * A list written by `putStrings`. The bytes are read once as one Latin-1 string, and each
   * Latin-1 item is a slice of it (V8 keeps a slice as a view of the one string: no copy, one
   * byte a character); a UTF-8 item is decoded on its own.
   */
  strings(name: string): string[] {
    const ends = this.f64(`${name}.ends`);
    const utf8 = this.u8(`${name}.utf8`);
    const entry = this.entry(`${name}.bytes`, "u8");
    if (utf8.length !== ends.length) throw new SnapshotError(`bad snapshot string list ${name}`);
    const base = this.bytes.byteOffset + this.start + entry.offset;
    const buffer = Buffer.from(this.bytes.buffer, base, entry.length);
    // One string of the whole list, unless longer than V8's longest string allows (then item by item).
    const all = entry.length <= MAX_ONE_STRING ? buffer.toString("latin1") : undefined;
    const out = new Array<string>(ends.length);
    let from = 0;
    for (let i = 0; i < ends.length; i++) {
      const to = ends[i]!;
      if (!(to >= from && to <= entry.length)) throw new SnapshotError(`bad snapshot string list ${name}`);
      out[i] = from === to ? "" : utf8[i] === 1 ? buffer.toString("utf8", from, to) : all ? all.slice(from, to) : buffer.toString("latin1", from, to);
      from = to;
    }
    return out;
  }

  /** A float part as a view of the snapshot's bytes when they are aligned for it (a copy otherwise): for parts copied elsewhere at once, like a vector matrix into WebAssembly memory. */
  f32View(name: string): Float32Array {
    const entry = this.entry(name, "f32");
    const at = this.bytes.byteOffset + this.start + entry.offset;
    return at % 4 === 0 ? new Float32Array(this.bytes.buffer, at, entry.length) : this.f32(name);
  }

  /** The raw bytes of a typed part, without a copy (for parts copied elsewhere at once, like a vector matrix into WebAssembly memory). */
  view(name: string, type: TypedName): Uint8Array {
    const entry = this.entry(name, type);
    const at = this.start + entry.offset;
    return this.bytes.subarray(at, at + entry.length * TYPES[type].BYTES_PER_ELEMENT);
  }
}

function bytesOf(part: TypedPart): Uint8Array {
  return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
