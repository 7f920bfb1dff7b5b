// The kernel boundary: the only two hot loops of attention (matrix products and the softmax row pass)
// sit behind this interface so a faster implementation (WebAssembly SIMD) can replace the pure-TS one
// without touching the attention code. Kernels are synchronous; any async set-up (instantiating a
// WebAssembly module) happens once in `initKernels()` (see ./index.ts).
//
// All matrices are dense row-major *views* into Float32Arrays: an offset and a leading dimension
// (the distance between consecutive rows), exactly like BLAS's sgemm with row-major storage. This lets
// callers address one head's slice of a [L, H*hd] projection without copying it.

export type KernelName = 'ts' | 'wasm-simd';

export interface GemmArgs {
  /** Rows of C and of op(A). */
  m: number;
  /** Columns of C and of op(B). */
  n: number;
  /** The shared (contracted) dimension. */
  k: number;
  /** A is [m, k] at a[aOff + i*lda + p]. */
  a: Float32Array;
  aOff: number;
  lda: number;
  /** B is [k, n] at b[bOff + p*ldb + j], or, when transB, [n, k] at b[bOff + j*ldb + p]. */
  b: Float32Array;
  bOff: number;
  ldb: number;
  transB: boolean;
  /** C is [m, n] at c[cOff + i*ldc + j]. It must not overlap A or B (kernels may read them after writing C). */
  c: Float32Array;
  cOff: number;
  ldc: number;
  /** C = alpha·A·op(B) + beta·C. alpha defaults to 1, beta to 0 (C is overwritten, its old values ignored, NaN included). */
  alpha?: number;
  beta?: 0 | 1;
}

export interface SoftmaxRowsArgs {
  /** x is [rows, cols] at x[off + r*ld + j]; the softmax is taken over each row in place. */
  x: Float32Array;
  off: number;
  rows: number;
  cols: number;
  ld: number;
  /**
   * What a row whose every entry is -inf becomes: 'nan' (what a plain softmax gives, as
   * nn.MultiheadAttention's slow path returns) or 'zero' (SDPA's safe softmax).
   */
  fullyMasked: 'nan' | 'zero';
}

export interface Kernel {
  readonly name: KernelName;
  /**
   * Threads the kernel computes on (1 when absent). The WebAssembly SIMD kernel started with two threads
   * reports 2, and 1 once its helper thread is gone; its results are the same bit for bit either way.
   */
  readonly threads?: number;
  /**
   * True when the kernel's gemm uses fused multiply-add (relaxed SIMD's f32x4.relaxed_madd): results may
   * differ from the exact kernels in the last bits, and between machines. Absent or false: exact.
   */
  readonly fma?: boolean;
  /**
   * C = alpha·A·op(B) + beta·C with IEEE semantics (NaN and ±Inf in A or B reach exactly the elements of C they
   * contribute to; 0·Inf is NaN). Throws an Error naming the argument for a view outside its array.
   */
  gemm(args: GemmArgs): void;
  /** Numerically stable softmax (subtract the row max) over each row, in place. */
  softmaxRows(args: SoftmaxRowsArgs): void;
}
