/**
 * The corpus LSA's inner loops in WebAssembly SIMD (kernels/lsa-f64.wat): the sparse × dense
 * products, the Gram–Schmidt pass, the dense product and the fold-in's weighted sums, with the
 * same arithmetic in the same order as the plain loops of linalg.ts and lsa.ts, so the trained
 * model and the vectors are the same to the bit (test/lsa.test.ts compares both). Where
 * WebAssembly SIMD is unavailable, or `LSA_KERNEL.use` is "js" (a benchmark's "before"),
 * callers keep their plain loops.
 */
import { WASM_BASE64 } from "./kernels/lsa-f64.wasm.js";

/** Which loops train and fold in: the WebAssembly kernel where it runs ("auto"), or the plain loops. */
export const LSA_KERNEL: { use: "auto" | "js" } = { use: "auto" };

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasmApi = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
let compiled: object | null | undefined;

function lsaModule(): object | null {
  if (compiled === undefined) {
    try {
      const bytes = Buffer.from(WASM_BASE64, "base64");
      compiled = wasmApi?.validate(bytes) ? new wasmApi.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const PAGE = 65_536;
/** wasm32 addresses: at most 4 GiB, and the kernels count bytes in signed 32-bit offsets. */
const MAX_BYTES = 2 ** 31 - PAGE;

type Exports = {
  axpy(a: number, x: number, y: number, n: number): void;
  axpyF32(a: number, x: number, y: number, n: number): void;
  foldIn(columns: number, weights: number, count: number, projection: number, dims: number, acc: number): void;
  dot(a: number, b: number, n: number): number;
  csrTimesDense(indptr: number, indices: number, values: number, rows: number, b: number, cols: number, out: number): void;
  csrTransposeTimesDense(indptr: number, indices: number, values: number, rows: number, b: number, cols: number, out: number): void;
  matMul(a: number, rows: number, inner: number, b: number, cols: number, out: number): void;
  orthonormalize(t: number, rows: number, cols: number, norms: number): void;
};

/**
 * One instance with its memory laid out up front (regions of bytes, 16-aligned): memory never
 * grows after `create`, so the views stay valid.
 */
export class LsaKernel {
  private constructor(
    readonly run: Exports,
    private readonly memory: WasmMemory,
  ) {}

  /** An instance holding regions of these sizes (bytes), or undefined where the kernel cannot run (or `LSA_KERNEL.use` is "js"). */
  static create(regions: readonly number[]): { kernel: LsaKernel; at: number[] } | undefined {
    if (LSA_KERNEL.use === "js") return undefined;
    const module = lsaModule();
    if (!module) return undefined;
    const at: number[] = [];
    let top = 16;
    for (const bytes of regions) {
      at.push(top);
      top += Math.ceil(bytes / 16) * 16;
    }
    if (top > MAX_BYTES) return undefined;
    const instance = new wasmApi!.Instance(module);
    const memory = instance.exports.memory as WasmMemory;
    const pages = Math.ceil(top / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    return { kernel: new LsaKernel(instance.exports as unknown as Exports, memory), at };
  }

  f64(at: number, length: number): Float64Array {
    return new Float64Array(this.memory.buffer, at, length);
  }

  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.memory.buffer, at, length);
  }

  i32(at: number, length: number): Int32Array {
    return new Int32Array(this.memory.buffer, at, length);
  }
}
