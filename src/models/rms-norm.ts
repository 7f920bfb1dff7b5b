// RMSNorm as the decoder families apply it, row by row over the last dim:
//   y = x / sqrt(mean(x²) + eps) · w          Llama, Mistral, Qwen, Phi-3   (LlamaRMSNorm)
//   y = x / sqrt(mean(x²) + eps) · (1 + w)    Gemma 2 / 3                   (GemmaRMSNorm: weights stored as offsets from 1)
// Pure; the mean is accumulated in float64, the result rounded once to float32.

export type RmsNormKind = 'weight' | 'one-plus-weight';

/** x (rows, w) → a fresh (rows, w): each row normalised by its root mean square, then scaled. */
export function rmsNorm(x: Float32Array, width: number, weight: Float32Array, eps: number, kind: RmsNormKind = 'weight'): Float32Array {
  if (weight.length !== width) throw new Error(`RMSNorm: weight has ${weight.length} values for rows of ${width}`);
  if (x.length % width !== 0) throw new Error(`RMSNorm: ${x.length} values are not whole rows of ${width}`);
  const out = new Float32Array(x.length);
  const scale = new Float32Array(width);
  for (let j = 0; j < width; j++) scale[j] = kind === 'one-plus-weight' ? 1 + weight[j] : weight[j];
  for (let o = 0; o < x.length; o += width) {
    let ss = 0;
    for (let j = 0; j < width; j++) ss += x[o + j] * x[o + j];
    const r = 1 / Math.sqrt(Math.fround(ss / width) + eps);
    for (let j = 0; j < width; j++) out[o + j] = Math.fround(x[o + j] * r) * scale[j];
  }
  return out;
}

/** Normalises each head's rows in place: x (H, T, hd) with a (hd,) weight (Qwen3 / Gemma 3 q_norm, k_norm). */
export function rmsNormInPlace(x: Float32Array, width: number, weight: Float32Array, eps: number, kind: RmsNormKind = 'weight'): void {
  x.set(rmsNorm(x, width, weight, eps, kind));
}
