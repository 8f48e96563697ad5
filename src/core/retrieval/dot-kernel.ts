import { WASM_BASE64 } from "./kernels/dot-rows.wasm.js";

/**
 * Dot products of a query with every row of a fixed matrix: the inner loop of exact vector
 * search. The WebAssembly SIMD kernel (kernels/dot-rows.wat) does four multiply-adds per
 * instruction; where WebAssembly SIMD is unavailable, the same contract is met in plain
 * JavaScript. Both return the scores in a buffer reused by the next call.
 */
export interface DotKernel {
  readonly kind: "wasm-simd" | "js";
  readonly rows: number;
  readonly dimensions: number;
  /** scores[r] = matrix row r · query (the returned array is overwritten by the next call). */
  scores(query: Float32Array): Float32Array;
  /** out[i] = matrix row rows[i] · query, for i < count: the same bits as `scores` gives those rows. */
  scoresOf(query: Float32Array, rows: Int32Array, count: number): Float32Array;
}

/** The kernel wants rows of a multiple of 8 floats (two f32x4 accumulators). */
const LANES = 8;
const PAGE_BYTES = 65_536;

/** The slice of the WebAssembly JS API used here (the project's TypeScript libs carry no DOM types). */
interface WasmModule {
  readonly __wasmModule?: never;
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule) => { exports: Record<string, unknown> };
}
const wasmApi = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const compiled = new Map<string, WasmModule | null>();

/** A kernel module compiled once, or null where WebAssembly SIMD is unavailable. */
function simdModule(base64: string): WasmModule | null {
  let module = compiled.get(base64);
  if (module === undefined) {
    try {
      const bytes = Buffer.from(base64, "base64");
      module = wasmApi?.validate(bytes) ? new wasmApi.Module(bytes) : null;
    } catch {
      module = null;
    }
    compiled.set(base64, module);
  }
  return module;
}

/** A new instance of a kernel module, its memory grown to at least `bytes`. */
export function instantiateKernel(base64: string, bytes: number): { exports: Record<string, unknown>; memory: WasmMemory } | null {
  const module = simdModule(base64);
  if (!module) return null;
  const instance = new wasmApi!.Instance(module);
  const memory = instance.exports.memory as WasmMemory;
  const pages = Math.ceil(bytes / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES;
  if (pages > 0) memory.grow(pages);
  return { exports: instance.exports, memory };
}

export function createDotKernel(matrix: Float32Array, dimensions: number, options: { prefer?: "wasm-simd" | "js" } = {}): DotKernel {
  const wasm = options.prefer !== "js" && simdModule(WASM_BASE64) !== null;
  return wasm ? new WasmDotKernel(matrix, dimensions) : new JsDotKernel(matrix, dimensions);
}

class WasmDotKernel implements DotKernel {
  readonly kind = "wasm-simd";
  readonly rows: number;
  private readonly dotRows: (matrix: number, query: number, rows: number, dims: number, out: number) => void;
  private readonly dotSelected: (matrix: number, query: number, indices: number, count: number, dims: number, out: number) => void;
  private readonly stride: number;
  private readonly memory: WasmMemory;
  private readonly query: Float32Array;
  private readonly out: Float32Array;
  private readonly queryOffset: number;
  private readonly outOffset: number;
  /** Where `scoresOf` puts its row list and then its scores (room for every row: memory never grows after construction, which would detach the views). */
  private readonly selectedOffset: number;

  constructor(
    matrix: Float32Array,
    readonly dimensions: number,
  ) {
    this.rows = matrix.length / dimensions;
    this.stride = Math.ceil(dimensions / LANES) * LANES;
    const matrixBytes = this.rows * this.stride * 4;
    this.queryOffset = matrixBytes;
    this.outOffset = align16(this.queryOffset + this.stride * 4);
    this.selectedOffset = align16(this.outOffset + this.rows * 4);
    const { exports, memory } = instantiateKernel(WASM_BASE64, this.selectedOffset + this.rows * 8)!;
    this.memory = memory;
    this.dotRows = exports.dotRows as WasmDotKernel["dotRows"];
    this.dotSelected = exports.dotSelected as WasmDotKernel["dotSelected"];
    const heap = new Float32Array(memory.buffer);
    if (this.stride === dimensions) heap.set(matrix, 0);
    else for (let row = 0; row < this.rows; row++) heap.set(matrix.subarray(row * dimensions, (row + 1) * dimensions), row * this.stride);
    this.query = new Float32Array(memory.buffer, this.queryOffset, this.stride);
    this.out = new Float32Array(memory.buffer, this.outOffset, this.rows);
  }

  scores(query: Float32Array): Float32Array {
    this.query.set(query.subarray(0, this.dimensions));
    this.dotRows(0, this.queryOffset, this.rows, this.stride, this.outOffset);
    return this.out;
  }

  scoresOf(query: Float32Array, rows: Int32Array, count: number): Float32Array {
    const buffer = this.memory.buffer;
    this.query.set(query.subarray(0, this.dimensions));
    new Int32Array(buffer, this.selectedOffset, count).set(rows.subarray(0, count));
    const out = this.selectedOffset + count * 4;
    this.dotSelected(0, this.queryOffset, this.selectedOffset, count, this.stride, out);
    return new Float32Array(buffer, out, count);
  }
}

class JsDotKernel implements DotKernel {
  readonly kind = "js";
  readonly rows: number;
  private readonly out: Float32Array;

  constructor(
    private readonly matrix: Float32Array,
    readonly dimensions: number,
  ) {
    this.rows = matrix.length / dimensions;
    this.out = new Float32Array(this.rows);
  }

  scores(query: Float32Array): Float32Array {
    for (let row = 0; row < this.rows; row++) this.out[row] = dotAt(this.matrix, row * this.dimensions, query, this.dimensions);
    return this.out;
  }

  scoresOf(query: Float32Array, rows: Int32Array, count: number): Float32Array {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = dotAt(this.matrix, rows[i]! * this.dimensions, query, this.dimensions);
    return out;
  }
}

/**
 * Dot product of the row at `offset` with the query, four lanes at a time: independent
 * accumulators let the JIT keep the multiply-adds in flight (about twice the plain loop).
 */
function dotAt(matrix: Float32Array, offset: number, query: Float32Array, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let e = 0;
  let d = 0;
  const end4 = dimensions - (dimensions % 4);
  for (; d < end4; d += 4) {
    a += matrix[offset + d]! * query[d]!;
    b += matrix[offset + d + 1]! * query[d + 1]!;
    c += matrix[offset + d + 2]! * query[d + 2]!;
    e += matrix[offset + d + 3]! * query[d + 3]!;
  }
  for (; d < dimensions; d++) a += matrix[offset + d]! * query[d]!;
  return a + b + c + e;
}

/** The next 16-byte boundary (SIMD loads and stores want aligned offsets). */
export function align16(offset: number): number {
  return Math.ceil(offset / 16) * 16;
}
