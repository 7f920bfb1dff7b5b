// Independent float64 references and comparison helpers for the kernel tests.
import type { GemmArgs } from '../../../src/engine/kernels';

export interface GemmReference {
  /** Expected C (float64), same layout as args.c. */
  c: Float64Array;
  /** Per element: |alpha|·Σ_p |A[i,p]·B[p,j]| + |beta·C_old|, the scale of the float32 rounding error. */
  scale: Float64Array;
}

/** C = alpha·A·op(B) + beta·C in float64, with IEEE NaN/Inf rules; the result has args.c's layout. */
export function referenceGemm(args: GemmArgs): GemmReference {
  const { m, n, k, a, aOff, lda, b, bOff, ldb, transB, c, cOff, ldc, alpha = 1, beta = 0 } = args;
  const out = Float64Array.from(c);
  const scale = new Float64Array(c.length);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      let abs = 0;
      for (let p = 0; p < k; p++) {
        const t = a[aOff + i * lda + p] * (transB ? b[bOff + j * ldb + p] : b[bOff + p * ldb + j]);
        s += t;
        abs += Math.abs(t);
      }
      const at = cOff + i * ldc + j;
      const old = beta === 1 ? c[at] : 0;
      out[at] = alpha * s + old;
      scale[at] = Math.abs(alpha) * abs + Math.abs(old);
    }
  }
  return { c: out, scale };
}

/**
 * Checks a float32 gemm result against the float64 reference: identical NaN/±Inf pattern, finite values within
 * the float32 summation error bound (k+2)·2^-23·scale, and untouched elements outside the C view unchanged.
 */
export function expectGemmClose(got: Float32Array, ref: GemmReference, args: GemmArgs, label: string): void {
  const { m, n, k, cOff, ldc } = args;
  const inView = new Uint8Array(got.length);
  for (let i = 0; i < m; i++) inView.fill(1, cOff + i * ldc, cOff + i * ldc + n);
  const bound = (k + 2) * 2 ** -23;
  for (let at = 0; at < got.length; at++) {
    const want = ref.c[at];
    const g = got[at];
    if (!inView[at]) {
      if (!Object.is(g, Math.fround(want))) throw new Error(`${label}: element ${at} outside C changed: ${g}`);
      continue;
    }
    const where = `${label}: C[${Math.floor((at - cOff) / ldc)}, ${(at - cOff) % ldc}]`;
    if (Number.isNaN(want) || !Number.isFinite(want)) {
      if (!Object.is(g, want)) throw new Error(`${where} = ${g}, want ${want}`);
      continue;
    }
    const tol = bound * ref.scale[at] + 1e-30;
    if (!(Math.abs(g - want) <= tol)) throw new Error(`${where} = ${g}, want ${want} (tolerance ${tol})`);
  }
}

/** Softmax of each row in float64 (NaN row if any NaN; fully -inf row -> fill). */
export function referenceSoftmax(x: Float32Array, off: number, rows: number, cols: number, ld: number, fill: number): Float64Array {
  const out = Float64Array.from(x);
  for (let r = 0; r < rows; r++) {
    const s = off + r * ld;
    let max = -Infinity;
    let nan = false;
    for (let j = 0; j < cols; j++) {
      if (Number.isNaN(x[s + j])) nan = true;
      else if (x[s + j] > max) max = x[s + j];
    }
    if (nan) {
      out.fill(NaN, s, s + cols);
      continue;
    }
    if (max === -Infinity) {
      out.fill(fill, s, s + cols);
      continue;
    }
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += Math.exp(x[s + j] - max);
    for (let j = 0; j < cols; j++) out[s + j] = Math.exp(x[s + j] - max) / sum;
  }
  return out;
}

/** Relative 1e-6 (plus an absolute 2^-148 for subnormal results), NaN where NaN, elsewhere unchanged. */
export function expectSoftmaxClose(got: Float32Array, want: Float64Array, label: string): void {
  for (let i = 0; i < got.length; i++) {
    const w = want[i];
    if (Number.isNaN(w)) {
      if (!Number.isNaN(got[i])) throw new Error(`${label}: x[${i}] = ${got[i]}, want NaN`);
      continue;
    }
    if (!Object.is(got[i], w) && !(Math.abs(got[i] - w) <= 1e-6 * Math.abs(w) + 2 ** -148)) {
      throw new Error(`${label}: x[${i}] = ${got[i]}, want ${w}`);
    }
  }
}

/** Deterministic uniform floats in [lo, hi) from a 32-bit LCG. */
export function randomArray(len: number, seed: number, lo = -1, hi = 1): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(len);
  for (let i = 0; i < len; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + (hi - lo) * (s / 2 ** 32);
  }
  return out;
}
