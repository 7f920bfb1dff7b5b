// WebAssembly SIMD kernel: the module assembled from ./wasm/simd-kernel.wat does the arithmetic (packing,
// 4x8 register-tiled micro-kernels, softmax rows); this file owns its memory and the cache blocking loops.
//
// A gemm call copies its operands into the module's memory (row by row, TypedArray.set = memcpy), multiplies
// them there block by block, and copies C back out. Copies are O(mk + kn + mn) against the O(mnk) product
// (about 1-4% of a 512x768x768 product; bench/kernels.ts measures them). The memory grows as needed and is
// kept for the next call; a product whose operands would need more than 64 MiB is split.
import type { GemmArgs, Kernel, SoftmaxRowsArgs } from './kernel';
import { checkGemmArgs, checkSoftmaxRowsArgs } from './check-args';
import { decodeBase64 } from './base64';
import { simdKernelBase64 } from './generated/simd-kernel-wasm';

/** Register tile of the micro-kernel (fixed by simd-kernel.wat): rows of A per panel, columns of B per panel. */
const MR = 4;
const NR = 8;

/**
 * Cache blocking. A B panel (KC x 8 floats, 8 KiB) stays in L1 while the A block (MC x KC, 128 KiB) streams
 * from L2; the packed B block (KC x NC, 1 MiB) is reused by every A block. MC is a multiple of MR, NC of NR.
 * (Measured on a Zen 3 EPYC: KC 128..256 and MC 64..128 are within noise of each other; KC 384+ is slower.)
 */
export const BLOCKING = { kc: 256, mc: 128, nc: 1024 } as const;

/**
 * From this many columns of C on, each block of A is packed in 4-row panels first (a pass over A that the
 * micro-kernel's shorter inner loop repays when every A element is used n times); below, it is read in place.
 */
export const PACK_A_MIN_N = 256;

/**
 * Default for the largest number of floats (A + B + padded C) one gemm call stages in the module's memory
 * (64 MiB); bigger products are split into products that fit.
 */
const MAX_STAGED_FLOATS = 1 << 24;

export interface WasmSimdKernelOptions {
  /** Overrides MAX_STAGED_FLOATS (tests use a small value to exercise the splitting). */
  maxStagedFloats?: number;
  /** Overrides PACK_A_MIN_N (tests use 0 and Infinity to exercise both ways of reading A). */
  packAMinN?: number;
}

/** Rows per softmax call (the rows are staged in the module's memory). */
const SOFTMAX_STAGED_FLOATS = 1 << 20;

interface SimdExports {
  memory: WebAssembly.Memory;
  packA(src: number, lda: number, mc: number, kc: number, dst: number): void;
  packB(src: number, ldb: number, kc: number, nc: number, dst: number): void;
  packBT(src: number, ldb: number, kc: number, nc: number, dst: number): void;
  macro(
    mc: number, nc: number, kc: number, a: number, lda: number, packedA: number, pb: number,
    c: number, ldc: number, alpha: number, accumulate: number,
  ): void;
  softmaxRows(x: number, rows: number, cols: number, ld: number, maskedNaN: number): void;
  expInto(x: number, count: number): void;
}

let moduleBytes: Uint8Array<ArrayBuffer> | undefined;

/** The assembled SIMD module. */
export function simdKernelBytes(): Uint8Array<ArrayBuffer> {
  moduleBytes ??= decodeBase64(simdKernelBase64);
  return moduleBytes;
}

/** True when this JavaScript engine's WebAssembly accepts the SIMD module. */
export function wasmSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(simdKernelBytes());
  } catch {
    return false;
  }
}

/** The Error for a JavaScript engine without WebAssembly SIMD. */
export function wasmSimdUnavailable(): Error {
  return new Error(
    "kernel 'wasm-simd' is not available: this JavaScript engine does not support WebAssembly SIMD " +
      '(WebAssembly.validate rejected the kernel module); use the setting value "auto" or "ts"',
  );
}

/** Instantiates the SIMD module; rejects with a clear Error where WebAssembly SIMD is unavailable. */
export async function createWasmSimdKernel(options: WasmSimdKernelOptions = {}): Promise<WasmSimdKernel> {
  if (!wasmSimdSupported()) throw wasmSimdUnavailable();
  const { instance } = await WebAssembly.instantiate(simdKernelBytes());
  return new WasmSimdKernel(instance.exports as unknown as SimdExports, options);
}

const roundUp = (x: number, multiple: number): number => Math.ceil(x / multiple) * multiple;
/** Byte offsets are kept 64-byte aligned (one cache line). */
const align64 = (bytes: number): number => roundUp(bytes, 64);

/**
 * Leading dimension of the staged C for nPad columns. When rows would be a multiple of 1 KiB apart, the
 * micro-kernel's column strips of tiles (one row every 1 KiB) would all map to a few cache sets; 8 extra
 * floats (32 bytes) per row spread them over all sets.
 */
function stagedLd(nPad: number): number {
  return nPad % 256 === 0 ? nPad + 8 : nPad;
}

/** Copies a rows x cols block between row-major views (memcpy per row, or one memcpy when both are dense). */
function copyRows(
  src: Float32Array,
  srcOff: number,
  srcLd: number,
  dst: Float32Array,
  dstOff: number,
  dstLd: number,
  rows: number,
  cols: number,
): void {
  if (rows === 0 || cols === 0) return;
  if ((srcLd === cols && dstLd === cols) || rows === 1) {
    dst.set(src.subarray(srcOff, srcOff + (rows - 1) * srcLd + cols), dstOff);
    return;
  }
  if (cols >= 32) {
    for (let r = 0; r < rows; r++) {
      const s = srcOff + r * srcLd;
      dst.set(src.subarray(s, s + cols), dstOff + r * dstLd);
    }
    return;
  }
  // short rows: a plain loop beats creating a subarray per row
  for (let r = 0; r < rows; r++) {
    const s = srcOff + r * srcLd;
    const d = dstOff + r * dstLd;
    for (let j = 0; j < cols; j++) dst[d + j] = src[s + j];
  }
}

export class WasmSimdKernel implements Kernel {
  readonly name = 'wasm-simd' as const;
  private view: Float32Array;
  private readonly maxStagedFloats: number;
  private readonly packAMinN: number;

  constructor(
    private readonly wasm: SimdExports,
    options: WasmSimdKernelOptions = {},
  ) {
    this.view = new Float32Array(wasm.memory.buffer);
    this.maxStagedFloats = options.maxStagedFloats ?? MAX_STAGED_FLOATS;
    this.packAMinN = options.packAMinN ?? PACK_A_MIN_N;
  }

  /** Bytes of linear memory the module holds now. */
  get memoryBytes(): number {
    return this.wasm.memory.buffer.byteLength;
  }

  /** A float view of the module's memory holding at least `bytes` bytes (grows the memory if needed). */
  private memory(bytes: number): Float32Array {
    const memory = this.wasm.memory;
    const have = memory.buffer.byteLength;
    if (have < bytes) {
      try {
        memory.grow(Math.ceil((bytes - have) / 65536));
      } catch (e) {
        throw new Error(
          `wasm-simd kernel: cannot grow WebAssembly memory to ${Math.ceil(bytes / 2 ** 20)} MiB (${String(e)})`,
        );
      }
    }
    if (this.view.buffer !== memory.buffer) this.view = new Float32Array(memory.buffer);
    return this.view;
  }

  readonly gemm = (args: GemmArgs): void => {
    checkGemmArgs(args);
    this.gemmChecked(args);
  };

  private gemmChecked(args: GemmArgs): void {
    const { m, n, k, transB } = args;
    const beta = args.beta ?? 0;
    if (m === 0 || n === 0) return;
    if (k === 0) {
      // C = alpha * (empty sum) + beta * C
      if (beta === 0) for (let i = 0; i < m; i++) args.c.fill(0, args.cOff + i * args.ldc, args.cOff + i * args.ldc + n);
      return;
    }
    const mPad = roundUp(m, MR);
    const nPad = roundUp(n, NR);
    if (m * k + k * n + mPad * nPad > this.maxStagedFloats && (m > MR || n > NR || k > 1)) {
      this.gemmSplit(args);
      return;
    }
    const { kc: KC, mc: MC, nc: NC } = BLOCKING;
    // memory layout (bytes): packed B block | packed A block | A (mPad x k) | B (k x n) | C (mPad x ldcW)
    const pb = 0;
    const pa = align64(pb + NC * KC * 4);
    const aAt = align64(pa + MC * KC * 4);
    const bAt = align64(aAt + mPad * k * 4);
    const cAt = align64(bAt + k * n * 4);
    const ldcW = stagedLd(nPad);
    const mem = this.memory(cAt + mPad * ldcW * 4);

    // A, and B when transB, are staged k-block by k-block: for each block of KC columns, all rows of that block,
    // kc floats apart, so a block of A the micro-kernel reads (and a block of B to pack) is one contiguous range.
    // The block of columns pc..pc+kc of A starts at float aAt/4 + pc*mPad. Padding (A's rows past m; C's rows
    // and columns past the matrix when C is read) only ever reaches C's padding, but is zeroed so that no stale
    // subnormal float slows the arithmetic down.
    for (let pc = 0; pc < k; pc += KC) {
      const kc = Math.min(KC, k - pc);
      const block = aAt / 4 + pc * mPad;
      copyRows(args.a, args.aOff + pc, args.lda, mem, block, kc, m, kc);
      mem.fill(0, block + m * kc, block + mPad * kc);
      if (transB) copyRows(args.b, args.bOff + pc, args.ldb, mem, bAt / 4 + pc * n, kc, n, kc);
    }
    if (!transB) copyRows(args.b, args.bOff, args.ldb, mem, bAt / 4, n, k, n);
    if (beta === 1) {
      copyRows(args.c, args.cOff, args.ldc, mem, cAt / 4, ldcW, m, n);
      if (ldcW > n) for (let i = 0; i < m; i++) mem.fill(0, cAt / 4 + i * ldcW + n, cAt / 4 + (i + 1) * ldcW);
      mem.fill(0, cAt / 4 + m * ldcW, cAt / 4 + mPad * ldcW);
    }

    const alpha = args.alpha ?? 1;
    const packA = n >= this.packAMinN;
    const w = this.wasm;
    for (let jc = 0; jc < n; jc += NC) {
      const nc = Math.min(NC, n - jc);
      for (let pc = 0; pc < k; pc += KC) {
        const kc = Math.min(KC, k - pc);
        if (transB) w.packBT(bAt + 4 * (pc * n + jc * kc), kc, kc, nc, pb);
        else w.packB(bAt + 4 * (pc * n + jc), n, kc, nc, pb);
        const accumulate = beta === 1 || pc > 0 ? 1 : 0;
        for (let ic = 0; ic < m; ic += MC) {
          const mc = Math.min(MC, m - ic);
          const aBlock = aAt + 4 * (pc * mPad + ic * kc);
          const cBlock = cAt + 4 * (ic * ldcW + jc);
          if (packA) {
            w.packA(aBlock, kc, mc, kc, pa);
            w.macro(mc, nc, kc, pa, kc, 1, pb, cBlock, ldcW, alpha, accumulate);
          } else {
            w.macro(mc, nc, kc, aBlock, kc, 0, pb, cBlock, ldcW, alpha, accumulate);
          }
        }
      }
    }
    copyRows(this.view, cAt / 4, ldcW, args.c, args.cOff, args.ldc, m, n);
  }

  /**
   * Splits a product too big to stage at once along the dimension that dominates its footprint
   * (called only when m > MR, n > NR or k > 1, so each half is smaller).
   */
  private gemmSplit(args: GemmArgs): void {
    const { m, n, k, transB } = args;
    const byM = m > MR ? m * k + m * n : 0;
    const byN = n > NR ? k * n + m * n : 0;
    const byK = k > 1 ? m * k + k * n : 0;
    if (byM >= byN && byM >= byK && byM > 0) {
      const m1 = roundUp(Math.ceil(m / 2), MR);
      this.gemmChecked({ ...args, m: m1 });
      this.gemmChecked({ ...args, m: m - m1, aOff: args.aOff + m1 * args.lda, cOff: args.cOff + m1 * args.ldc });
    } else if (byN >= byK && byN > 0) {
      const n1 = roundUp(Math.ceil(n / 2), NR);
      this.gemmChecked({ ...args, n: n1 });
      this.gemmChecked({
        ...args,
        n: n - n1,
        bOff: args.bOff + (transB ? n1 * args.ldb : n1),
        cOff: args.cOff + n1,
      });
    } else {
      // byK > 0 here. C = alpha*A[:, :k1]*B[:k1] + beta*C, then C += alpha*A[:, k1:]*B[k1:]
      const k1 = Math.ceil(k / 2);
      this.gemmChecked({ ...args, k: k1 });
      this.gemmChecked({
        ...args,
        k: k - k1,
        aOff: args.aOff + k1,
        bOff: args.bOff + (transB ? k1 : k1 * args.ldb),
        beta: 1,
      });
    }
  }

  readonly softmaxRows = (args: SoftmaxRowsArgs): void => {
    checkSoftmaxRowsArgs(args);
    const { x, off, rows, cols, ld } = args;
    if (rows === 0 || cols === 0) return;
    const maskedNaN = args.fullyMasked === 'nan' ? 1 : 0;
    // rows are staged 4-float aligned, padded with -inf (which changes neither a row's max nor its sum)
    const colsPad = roundUp(cols, 4);
    const chunk = Math.max(1, Math.floor(SOFTMAX_STAGED_FLOATS / colsPad));
    const mem = this.memory(Math.min(chunk, rows) * colsPad * 4);
    for (let r0 = 0; r0 < rows; r0 += chunk) {
      const nr = Math.min(chunk, rows - r0);
      copyRows(x, off + r0 * ld, ld, mem, 0, colsPad, nr, cols);
      // (again for every chunk: the module overwrites the padding with the row's results)
      if (colsPad > cols) for (let r = 0; r < nr; r++) mem.fill(-Infinity, r * colsPad + cols, (r + 1) * colsPad);
      this.wasm.softmaxRows(0, nr, colsPad, colsPad, maskedNaN);
      copyRows(mem, 0, colsPad, x, off + r0 * ld, ld, nr, cols);
    }
  };

  /** e^x by the module's polynomial, for each x <= 0 (for tests of its accuracy against Math.exp). */
  expPolynomial(x: Float32Array): Float32Array {
    const count = roundUp(x.length, 4);
    const mem = this.memory(count * 4);
    mem.set(x, 0);
    mem.fill(0, x.length, count);
    this.wasm.expInto(0, count);
    return mem.slice(0, x.length);
  }
}
