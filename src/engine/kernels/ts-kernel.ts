// Pure-TypeScript kernel: the portable fallback and the reference the faster kernels are tested against.
//
// gemm: operands are packed into float64 panels (A: 4 rows side by side per p; B: 4 columns side by side per p,
// zero-padded past the edges), then each 4x4 tile of C is accumulated in 16 local float64 variables over the
// whole k (one rounding to float32 per element of C, at the store). Packing converts each float32 once and
// makes both inner-loop streams contiguous, which is what lets V8 keep the 16 accumulators in registers.
import type { GemmArgs, Kernel, SoftmaxRowsArgs } from './kernel';
import { checkGemmArgs, checkSoftmaxRowsArgs } from './check-args';

/** Register tile: rows of A per panel and columns of B per panel. */
const MR = 4;
const NR = 4;
/** Scratch bounds (in float64s) for the packed A block and B block; the blocks shrink as k grows. */
const PACKED_A_FLOATS = 1 << 15;
const PACKED_B_FLOATS = 1 << 18;

let scratchA: Float64Array = new Float64Array(0);
let scratchB: Float64Array = new Float64Array(0);

function scratch(current: Float64Array, length: number): Float64Array {
  return current.length >= length ? current : new Float64Array(length);
}

/** Packs A[i0:i0+rows, 0:k] into panels of MR rows: panel q holds A[i0+MR*q+ii, p] at q*k*MR + p*MR + ii. */
function packA(a: Float32Array, aOff: number, lda: number, i0: number, rows: number, k: number, dst: Float64Array): void {
  let d = 0;
  for (let i = 0; i < rows; i += MR) {
    const live = Math.min(MR, rows - i);
    const r0 = aOff + (i0 + i) * lda;
    if (live === MR) {
      const r1 = r0 + lda;
      const r2 = r1 + lda;
      const r3 = r2 + lda;
      for (let p = 0; p < k; p++) {
        dst[d] = a[r0 + p];
        dst[d + 1] = a[r1 + p];
        dst[d + 2] = a[r2 + p];
        dst[d + 3] = a[r3 + p];
        d += MR;
      }
    } else {
      for (let p = 0; p < k; p++) {
        for (let ii = 0; ii < MR; ii++) dst[d + ii] = ii < live ? a[r0 + ii * lda + p] : 0;
        d += MR;
      }
    }
  }
}

/**
 * Packs columns j0:j0+cols of op(B) (k rows) into panels of NR columns: panel q holds op(B)[p, j0+NR*q+jj]
 * at q*k*NR + p*NR + jj. op(B)[p, j] is b[bOff + p*ldb + j], or b[bOff + j*ldb + p] when transB.
 */
function packB(b: Float32Array, bOff: number, ldb: number, transB: boolean, j0: number, cols: number, k: number, dst: Float64Array): void {
  let d = 0;
  for (let j = 0; j < cols; j += NR) {
    const live = Math.min(NR, cols - j);
    if (transB && live === NR) {
      // four rows of the stored B, read side by side
      const r0 = bOff + (j0 + j) * ldb;
      const r1 = r0 + ldb;
      const r2 = r1 + ldb;
      const r3 = r2 + ldb;
      for (let p = 0; p < k; p++) {
        dst[d] = b[r0 + p];
        dst[d + 1] = b[r1 + p];
        dst[d + 2] = b[r2 + p];
        dst[d + 3] = b[r3 + p];
        d += NR;
      }
    } else if (transB) {
      const r0 = bOff + (j0 + j) * ldb;
      for (let p = 0; p < k; p++) {
        for (let jj = 0; jj < NR; jj++) dst[d + jj] = jj < live ? b[r0 + jj * ldb + p] : 0;
        d += NR;
      }
    } else {
      let src = bOff + j0 + j;
      for (let p = 0; p < k; p++) {
        for (let jj = 0; jj < NR; jj++) dst[d + jj] = jj < live ? b[src + jj] : 0;
        src += ldb;
        d += NR;
      }
    }
  }
}

/**
 * One full MR x NR tile: C[i, j] = alpha * sum_p A[i, p] * B[p, j] (+ C[i, j] when accumulate).
 * pa, pb: starts of the packed panels.
 */
function microTile(
  k: number,
  ap: Float64Array,
  pa: number,
  bp: Float64Array,
  pb: number,
  c: Float32Array,
  ci: number,
  ldc: number,
  alpha: number,
  accumulate: boolean,
): void {
  let c00 = 0,
    c01 = 0,
    c02 = 0,
    c03 = 0;
  let c10 = 0,
    c11 = 0,
    c12 = 0,
    c13 = 0;
  let c20 = 0,
    c21 = 0,
    c22 = 0,
    c23 = 0;
  let c30 = 0,
    c31 = 0,
    c32 = 0,
    c33 = 0;
  for (let p = 0; p < k; p++) {
    const b0 = bp[pb];
    const b1 = bp[pb + 1];
    const b2 = bp[pb + 2];
    const b3 = bp[pb + 3];
    let x = ap[pa];
    c00 += x * b0;
    c01 += x * b1;
    c02 += x * b2;
    c03 += x * b3;
    x = ap[pa + 1];
    c10 += x * b0;
    c11 += x * b1;
    c12 += x * b2;
    c13 += x * b3;
    x = ap[pa + 2];
    c20 += x * b0;
    c21 += x * b1;
    c22 += x * b2;
    c23 += x * b3;
    x = ap[pa + 3];
    c30 += x * b0;
    c31 += x * b1;
    c32 += x * b2;
    c33 += x * b3;
    pa += MR;
    pb += NR;
  }
  let o = ci;
  if (accumulate) {
    c[o] += alpha * c00;
    c[o + 1] += alpha * c01;
    c[o + 2] += alpha * c02;
    c[o + 3] += alpha * c03;
    o += ldc;
    c[o] += alpha * c10;
    c[o + 1] += alpha * c11;
    c[o + 2] += alpha * c12;
    c[o + 3] += alpha * c13;
    o += ldc;
    c[o] += alpha * c20;
    c[o + 1] += alpha * c21;
    c[o + 2] += alpha * c22;
    c[o + 3] += alpha * c23;
    o += ldc;
    c[o] += alpha * c30;
    c[o + 1] += alpha * c31;
    c[o + 2] += alpha * c32;
    c[o + 3] += alpha * c33;
  } else {
    c[o] = alpha * c00;
    c[o + 1] = alpha * c01;
    c[o + 2] = alpha * c02;
    c[o + 3] = alpha * c03;
    o += ldc;
    c[o] = alpha * c10;
    c[o + 1] = alpha * c11;
    c[o + 2] = alpha * c12;
    c[o + 3] = alpha * c13;
    o += ldc;
    c[o] = alpha * c20;
    c[o + 1] = alpha * c21;
    c[o + 2] = alpha * c22;
    c[o + 3] = alpha * c23;
    o += ldc;
    c[o] = alpha * c30;
    c[o + 1] = alpha * c31;
    c[o + 2] = alpha * c32;
    c[o + 3] = alpha * c33;
  }
}

/** An edge tile (rows < MR or cols < NR live): the same sums, element by element, stored for the live part. */
function edgeTile(
  k: number,
  ap: Float64Array,
  pa: number,
  bp: Float64Array,
  pb: number,
  c: Float32Array,
  ci: number,
  ldc: number,
  rows: number,
  cols: number,
  alpha: number,
  accumulate: boolean,
): void {
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += ap[pa + p * MR + i] * bp[pb + p * NR + j];
      const at = ci + i * ldc + j;
      if (accumulate) c[at] += alpha * s;
      else c[at] = alpha * s;
    }
  }
}

function gemm(args: GemmArgs): void {
  checkGemmArgs(args);
  const { m, n, k, a, aOff, lda, b, bOff, ldb, transB, c, cOff, ldc, alpha = 1, beta = 0 } = args;
  if (m === 0 || n === 0) return;
  if (k === 0) {
    if (beta === 0) for (let i = 0; i < m; i++) c.fill(0, cOff + i * ldc, cOff + i * ldc + n);
    return;
  }
  const accumulate = beta === 1;
  // column blocks of B and row blocks of A sized so their packed panels stay within the scratch bounds
  const nc = Math.max(NR, Math.floor(PACKED_B_FLOATS / k / NR) * NR);
  const mc = Math.max(MR, Math.floor(PACKED_A_FLOATS / k / MR) * MR);
  scratchB = scratch(scratchB, Math.min(nc, Math.ceil(n / NR) * NR) * k);
  scratchA = scratch(scratchA, Math.min(mc, Math.ceil(m / MR) * MR) * k);
  const bp = scratchB;
  const ap = scratchA;
  for (let jc = 0; jc < n; jc += nc) {
    const cols = Math.min(nc, n - jc);
    packB(b, bOff, ldb, transB, jc, cols, k, bp);
    for (let ic = 0; ic < m; ic += mc) {
      const rows = Math.min(mc, m - ic);
      packA(a, aOff, lda, ic, rows, k, ap);
      for (let jr = 0; jr < cols; jr += NR) {
        const pb = (jr / NR) * k * NR;
        const tileCols = Math.min(NR, cols - jr);
        for (let ir = 0; ir < rows; ir += MR) {
          const ci = cOff + (ic + ir) * ldc + jc + jr;
          const pa = (ir / MR) * k * MR;
          if (tileCols === NR && rows - ir >= MR) microTile(k, ap, pa, bp, pb, c, ci, ldc, alpha, accumulate);
          else edgeTile(k, ap, pa, bp, pb, c, ci, ldc, Math.min(MR, rows - ir), tileCols, alpha, accumulate);
        }
      }
    }
  }
}

function softmaxRows(args: SoftmaxRowsArgs): void {
  checkSoftmaxRowsArgs(args);
  const { x, off, rows, cols, ld, fullyMasked } = args;
  for (let r = 0; r < rows; r++) {
    const start = off + r * ld;
    const end = start + cols;
    let max = -Infinity;
    // Math.max propagates NaN, so a row holding a NaN becomes all NaN, as in torch.
    for (let j = start; j < end; j++) max = Math.max(max, x[j]);
    if (max === -Infinity) {
      x.fill(fullyMasked === 'zero' ? 0 : NaN, start, end);
      continue;
    }
    let sum = 0;
    for (let j = start; j < end; j++) {
      const e = Math.exp(x[j] - max);
      x[j] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let j = start; j < end; j++) x[j] *= inv;
  }
}

export const tsKernel: Kernel = { name: 'ts', gemm, softmaxRows };
