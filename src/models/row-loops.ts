// The element loops the model forwards share, kept apart from the shape checks around them (a kernel file for
// the strict index check: see KERNELS in scripts/typecheck-strict-index.mjs). Callers pass matching lengths.

/** rows (n, w) += vector (w), in place. */
export function addRowVectorInPlace(rows: Float32Array, vector: Float32Array): void {
  const w = vector.length;
  for (let o = 0; o < rows.length; o += w) for (let j = 0; j < w; j++) rows[o + j] += vector[j];
}

/** a += b element-wise (same length), in place: the residual add. */
export function addInPlace(a: Float32Array, b: Float32Array): void {
  if (a.length !== b.length) throw new Error(`residual add: ${a.length} vs ${b.length} elements`);
  for (let i = 0; i < a.length; i++) a[i] += b[i];
}

/** a *= b element-wise over a's length, in place: the gated product of a GLU MLP, gate (T, I) · up (T, I). */
export function multiplyInPlace(a: Float32Array, b: Float32Array): void {
  for (let i = 0; i < a.length; i++) a[i] *= b[i];
}

/** data *= s, in place (one float32 rounding per element). */
export function scaleInPlace(data: Float32Array, s: number): void {
  for (let i = 0; i < data.length; i++) data[i] *= s;
}

/**
 * R projected rows chunk (R, D) (+ bias (D)) into the head layout out (H, T, hd) at rows r0 .. r0 + R − 1,
 * head h taking features h·hd .. (h+1)·hd − 1.
 */
export function scatterToHeads(
  chunk: Float32Array,
  bias: Float32Array | undefined,
  out: Float32Array,
  R: number,
  r0: number,
  T: number,
  nHead: number,
  hd: number,
): void {
  const D = nHead * hd;
  for (let r = 0; r < R; r++) {
    for (let h = 0; h < nHead; h++) {
      const src = r * D + h * hd;
      const dst = (h * T + r0 + r) * hd;
      if (bias) for (let c = 0; c < hd; c++) out[dst + c] = chunk[src + c] + bias[h * hd + c];
      else out.set(chunk.subarray(src, src + hd), dst);
    }
  }
}
