// WebAssembly SIMD kernel: the module assembled from ./wasm/simd-kernel.wat does the arithmetic (packing,
// 4x8 register-tiled micro-kernels, softmax rows); this file owns its memory and stages the operands, and
// ./staged-gemm.ts runs the cache blocking loops.
//
// A gemm call copies its operands into the module's memory (row by row, TypedArray.set = memcpy), multiplies
// them there block by block, and copies C back out. Copies are O(mk + kn + mn) against the O(mnk) product
// (about 1-4% of a 512x768x768 product; bench/kernels.ts measures them). The memory grows as needed and is
// kept for the next call; a product whose operands would need more than 64 MiB is split.
//
// The two-thread kernel (./parallel-kernel.ts) is this class on a shared memory, overriding the hooks that
// run a staged product or a staged block of softmax rows.
import type { GemmArgs, Kernel, SoftmaxRowsArgs } from './kernel';
import { checkGemmArgs, checkSoftmaxRowsArgs } from './check-args';
import {
  BLOCKING,
  MR,
  NR,
  simdKernelBytes,
  wasmFmaSupported,
  wasmFmaUnavailable,
  wasmSimdSupported,
  wasmSimdUnavailable,
  type SimdFunctions,
} from './simd-module';
import { multiplyStaged, scratchRegion, SCRATCH_BYTES, stagedGemmLayout, type StagedGemm } from './staged-gemm';

/**
 * From this many columns of C on, each block of A is packed in 4-row panels first (a pass over A that the
 * micro-kernel's shorter inner loop repays when every A element is used n times); below, it is read in place.
 */
export const PACK_A_MIN_N = 256;

/**
 * Default for the largest number of floats (A + B + padded C) one gemm call stages in the module's memory
 * (16 MiB: a 512×768×768 or a 256-token GPT-2 MLP product fits whole); bigger products are split into
 * products that fit, which keeps the module's memory small on long inputs.
 */
const MAX_STAGED_FLOATS = 1 << 22;

export interface WasmSimdKernelOptions {
  /** Overrides MAX_STAGED_FLOATS (tests use a small value to exercise the splitting). */
  maxStagedFloats?: number;
  /** Overrides PACK_A_MIN_N (tests use 0 and Infinity to exercise both ways of reading A). */
  packAMinN?: number;
  /**
   * Use the relaxed-SIMD fused multiply-add module (default false: the exact one). Rejects where the runtime
   * lacks relaxed SIMD (see wasmFmaSupported).
   */
  fma?: boolean;
}

/** Rows per softmax call (the rows are staged in the module's memory). */
const SOFTMAX_STAGED_FLOATS = 1 << 20;

/** Instantiates the SIMD module; rejects with a clear Error where WebAssembly SIMD is unavailable. */
export async function createWasmSimdKernel(options: WasmSimdKernelOptions = {}): Promise<WasmSimdKernel> {
  if (!wasmSimdSupported()) throw wasmSimdUnavailable();
  const fma = options.fma ?? false;
  if (fma && !wasmFmaSupported()) throw wasmFmaUnavailable();
  const { instance } = await WebAssembly.instantiate(simdKernelBytes(fma));
  const exports = instance.exports as unknown as SimdFunctions & { memory: WebAssembly.Memory };
  return new WasmSimdKernel(exports, exports.memory, options);
}

const roundUp = (x: number, multiple: number): number => Math.ceil(x / multiple) * multiple;

/** Copies a rows x cols block between row-major views (memcpy per row, or one memcpy when both are dense). */
export function copyRows(src: Float32Array, srcOff: number, srcLd: number, dst: Float32Array, dstOff: number, dstLd: number, rows: number, cols: number): void {
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

/** A block of softmax rows staged at byte 0 of the module's memory, rows colsPad floats apart. */
export interface StagedSoftmax {
  /** Index of the block's first row in the caller's view. */
  r0: number;
  rows: number;
  /** Row length in floats, a multiple of 4, padded past the real columns with -inf. */
  colsPad: number;
  maskedNaN: 0 | 1;
}

export class WasmSimdKernel implements Kernel {
  readonly name = 'wasm-simd' as const;
  /** True when this instance runs the relaxed-SIMD fused multiply-add module (set from options.fma). */
  readonly fma: boolean;
  protected view: Float32Array;
  private readonly maxStagedFloats: number;
  private readonly packAMinN: number;

  /**
   * @param wasm the module's functions; @param wasmMemory the memory they work on;
   * @param scratchRegions packing buffers to reserve at the start of the memory (one per thread).
   */
  constructor(
    protected readonly wasm: SimdFunctions,
    protected readonly wasmMemory: WebAssembly.Memory,
    options: WasmSimdKernelOptions = {},
    private readonly scratchRegions = 1,
  ) {
    this.view = new Float32Array(wasmMemory.buffer);
    this.maxStagedFloats = options.maxStagedFloats ?? MAX_STAGED_FLOATS;
    this.packAMinN = options.packAMinN ?? PACK_A_MIN_N;
    this.fma = options.fma ?? false;
  }

  /** Threads this kernel computes on. */
  get threads(): number {
    return 1;
  }

  /** Bytes of linear memory the module holds now. */
  get memoryBytes(): number {
    return this.wasmMemory.buffer.byteLength;
  }

  /** A float view of the module's memory holding at least `bytes` bytes (grows the memory if needed). */
  protected memory(bytes: number): Float32Array {
    const memory = this.wasmMemory;
    const have = memory.buffer.byteLength;
    if (have < bytes) {
      try {
        memory.grow(Math.ceil((bytes - have) / 65536));
      } catch (e) {
        throw new Error(`wasm-simd kernel: cannot grow WebAssembly memory to ${Math.ceil(bytes / 2 ** 20)} MiB (${String(e)})`);
      }
    }
    if (this.view.buffer !== memory.buffer) this.view = new Float32Array(memory.buffer);
    return this.view;
  }

  readonly gemm = (args: GemmArgs): void => {
    checkGemmArgs(args);
    this.gemmChecked(args);
  };

  /** A product whose arguments have been checked: staged (split first when too big), multiplied, copied out. */
  protected gemmChecked(args: GemmArgs): void {
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
    const layout = stagedGemmLayout(m, n, k, this.scratchRegions * SCRATCH_BYTES);
    this.memory(layout.end);
    const staged: StagedGemm = {
      m,
      n,
      k,
      transB,
      alpha: args.alpha ?? 1,
      accumulate: beta === 1,
      packA: n >= this.packAMinN,
      aAt: layout.aAt,
      bAt: layout.bAt,
      cAt: layout.cAt,
      mPad: layout.mPad,
      ldc: layout.ldc,
    };
    this.stageAndMultiply(args, staged);
  }

  /**
   * Stages the operands of a product laid out as `g` (the memory already holds it), multiplies, and copies
   * all of C out to args.c. The two-thread kernel overrides this to stage and compute chunk by chunk.
   */
  protected stageAndMultiply(args: GemmArgs, g: StagedGemm): void {
    this.stageA(args, g, 0, g.m);
    this.stageB(args, g, 0, g.n);
    if (g.accumulate) this.stageC(args, g, 0, g.m, 0, g.n);
    multiplyStaged(this.wasm, g, scratchRegion(0), 0, g.m, 0, g.n);
    this.copyOut(args, g, 0, g.m, 0, g.n);
  }

  // A, and B when transB, are staged k-block by k-block: for each block of KC columns, all rows of that block,
  // kc floats apart, so a block of A the micro-kernel reads (and a block of B to pack) is one contiguous range.
  // The block of columns pc..pc+kc of A starts at float aAt/4 + pc*mPad. Padding (A's rows past m; C's rows
  // and columns past the matrix when C is read) only ever reaches C's padding, but is zeroed so that no stale
  // subnormal float slows the arithmetic down.

  /** Stages rows i0..i1 of A (and, when i1 = m, zeroes the padding rows up to mPad). */
  protected stageA(args: GemmArgs, g: StagedGemm, i0: number, i1: number): void {
    const mem = this.view;
    const KC = BLOCKING.kc;
    for (let pc = 0; pc < g.k; pc += KC) {
      const kc = Math.min(KC, g.k - pc);
      const block = g.aAt / 4 + pc * g.mPad;
      copyRows(args.a, args.aOff + i0 * args.lda + pc, args.lda, mem, block + i0 * kc, kc, i1 - i0, kc);
      if (i1 === g.m) mem.fill(0, block + g.m * kc, block + g.mPad * kc);
    }
  }

  /** Stages columns j0..j1 of op(B). */
  protected stageB(args: GemmArgs, g: StagedGemm, j0: number, j1: number): void {
    const mem = this.view;
    const KC = BLOCKING.kc;
    if (g.transB) {
      for (let pc = 0; pc < g.k; pc += KC) {
        const kc = Math.min(KC, g.k - pc);
        copyRows(args.b, args.bOff + j0 * args.ldb + pc, args.ldb, mem, g.bAt / 4 + pc * g.n + j0 * kc, kc, j1 - j0, kc);
      }
    } else {
      copyRows(args.b, args.bOff + j0, args.ldb, mem, g.bAt / 4 + j0, g.n, g.k, j1 - j0);
    }
  }

  /** Stages C[i0:i1, j0:j1] (beta = 1), zeroing the padding columns (when j1 = n) and rows (when i1 = m). */
  protected stageC(args: GemmArgs, g: StagedGemm, i0: number, i1: number, j0: number, j1: number): void {
    const mem = this.view;
    const c0 = g.cAt / 4;
    copyRows(args.c, args.cOff + i0 * args.ldc + j0, args.ldc, mem, c0 + i0 * g.ldc + j0, g.ldc, i1 - i0, j1 - j0);
    if (j1 === g.n && g.ldc > g.n) for (let i = i0; i < i1; i++) mem.fill(0, c0 + i * g.ldc + g.n, c0 + (i + 1) * g.ldc);
    if (i1 === g.m) mem.fill(0, c0 + g.m * g.ldc, c0 + g.mPad * g.ldc);
  }

  /** Copies C[i0:i1, j0:j1] of a staged product out to args.c. */
  protected copyOut(args: GemmArgs, g: StagedGemm, i0: number, i1: number, j0: number, j1: number): void {
    copyRows(this.view, g.cAt / 4 + i0 * g.ldc + j0, g.ldc, args.c, args.cOff + i0 * args.ldc + j0, args.ldc, i1 - i0, j1 - j0);
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
    this.softmaxChecked(args);
  };

  /** Softmax rows whose arguments have been checked: staged chunk by chunk, computed, copied back. */
  protected softmaxChecked(args: SoftmaxRowsArgs): void {
    const { rows, cols } = args;
    if (rows === 0 || cols === 0) return;
    const maskedNaN = args.fullyMasked === 'nan' ? 1 : 0;
    // rows are staged 4-float aligned, padded with -inf (which changes neither a row's max nor its sum)
    const colsPad = roundUp(cols, 4);
    const chunk = Math.max(1, Math.floor(SOFTMAX_STAGED_FLOATS / colsPad));
    for (let r0 = 0; r0 < rows; r0 += chunk) {
      this.softmaxBlock(args, { r0, rows: Math.min(chunk, rows - r0), colsPad, maskedNaN });
    }
  }

  /**
   * Stages one block of rows at byte 0, computes it and copies it back (the two-thread kernel overrides this
   * to stage and compute the block chunk by chunk).
   */
  protected softmaxBlock(args: SoftmaxRowsArgs, s: StagedSoftmax): void {
    this.memory(s.rows * s.colsPad * 4);
    this.stageSoftmaxRows(args, s, 0, s.rows);
    this.wasm.softmaxRows(0, s.rows, s.colsPad, s.colsPad, s.maskedNaN);
    this.copySoftmaxOut(args, s, 0, s.rows);
  }

  /** Stages rows from..to of a block (the memory already holds the block), padded with -inf. */
  protected stageSoftmaxRows(args: SoftmaxRowsArgs, s: StagedSoftmax, from: number, to: number): void {
    const { x, off, cols, ld } = args;
    const mem = this.view;
    const { colsPad } = s;
    copyRows(x, off + (s.r0 + from) * ld, ld, mem, from * colsPad, colsPad, to - from, cols);
    // (again for every block: the module overwrites the padding with the row's results)
    if (colsPad > cols) for (let r = from; r < to; r++) mem.fill(-Infinity, r * colsPad + cols, (r + 1) * colsPad);
  }

  /** Copies rows from..to of a staged softmax block back into args.x. */
  protected copySoftmaxOut(args: SoftmaxRowsArgs, s: StagedSoftmax, from: number, to: number): void {
    copyRows(this.view, from * s.colsPad, s.colsPad, args.x, args.off + (s.r0 + from) * args.ld, args.ld, to - from, args.cols);
  }

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
