// The trace's element loop over the L×S scores: scale, soft-cap, mask (a kernel file for the strict index check).
import { softcapInPlace } from '../ops/softcap';

/**
 * scaled = scores · s (then cap·tanh(scaled / cap) when capped), masked = scaled + bias, allowed = bias ≠ -inf
 * (plain loops: typed-array map/from with callbacks are slow).
 */
export function scaleAndMask(scores: Float32Array, s: number, bias: Float32Array, cap?: number) {
  const n = scores.length;
  const scaled = new Float32Array(n);
  const masked = new Float32Array(n);
  const allowed = new Uint8Array(n);
  for (let i = 0; i < n; i++) scaled[i] = scores[i] * s;
  let beforeCap: Float32Array | undefined;
  if (cap !== undefined) {
    beforeCap = scaled.slice();
    softcapInPlace(scaled, cap);
  }
  for (let i = 0; i < n; i++) {
    masked[i] = scaled[i] + bias[i];
    allowed[i] = bias[i] === -Infinity ? 0 : 1;
  }
  return { scaled, masked, allowed, beforeCap };
}
