// Soft-capping (Gemma 2): x ↦ cap · tanh(x / cap), a smooth clamp to (−cap, cap) applied to the attention
// logits after the scale (attn_logit_softcapping) and to the final logits (final_logit_softcapping). Pure.

/** Soft-caps data[start, end) in place (float32 steps as torch: divide, tanh, multiply). */
export function softcapInPlace(data: Float32Array, cap: number, start = 0, end = data.length): void {
  if (!(cap > 0) || !Number.isFinite(cap)) throw new Error(`soft-cap must be a positive number, got ${cap}`);
  for (let i = start; i < end; i++) data[i] = Math.fround(Math.tanh(Math.fround(data[i] / cap))) * cap;
}
