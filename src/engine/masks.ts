// Mask builders and conversions. Every boolean mask returned here uses SDPA's convention
// (True = this query may attend this key) unless its name says otherwise.
import { type BoolTensor, type Tensor, formatShape, numel } from './tensor';

function checkLengths(fn: string, L: number, S: number): void {
  for (const [name, n] of [
    ['L', L],
    ['S', S],
  ] as const) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`${fn}: ${name} must be a non-negative integer, got ${n}`);
  }
}

/** Top-left aligned causal mask [L, S]: query i may attend key j iff j ≤ i (torch.ones(L, S).tril()). */
export function causalMask(L: number, S: number): BoolTensor {
  checkLengths('causalMask', L, S);
  return lowerTriangle(L, S, 0);
}

/**
 * Bottom-right aligned causal mask [L, S] (torch.nn.attention.bias.causal_lower_right): query i may
 * attend key j iff j ≤ i + (S - L); the KV-cache alignment, where the L queries are the last L positions.
 */
export function causalLowerRight(L: number, S: number): BoolTensor {
  checkLengths('causalLowerRight', L, S);
  return lowerTriangle(L, S, S - L);
}

/** [L, S] with True where j ≤ i + diagonal. */
function lowerTriangle(L: number, S: number, diagonal: number): BoolTensor {
  const data = new Uint8Array(L * S);
  for (let i = 0; i < L; i++) {
    const last = Math.min(S - 1, i + diagonal);
    for (let j = 0; j <= last; j++) data[i * S + j] = 1;
  }
  return { data, shape: [L, S], dtype: 'bool' };
}

/** ~mask. */
export function invertMask(mask: BoolTensor): BoolTensor {
  const data = new Uint8Array(mask.data.length);
  for (let i = 0; i < data.length; i++) data[i] = mask.data[i] ? 0 : 1;
  return { data, shape: [...mask.shape], dtype: 'bool' };
}

/**
 * A boolean mask as an additive float mask: 0 where attention is allowed, -inf where it is not.
 * `trueMeans` says how to read the mask: 'attend' (SDPA attn_mask) or 'ignore' (nn.MultiheadAttention's
 * attn_mask and key_padding_mask).
 */
export function boolMaskToAdditive(mask: BoolTensor, trueMeans: 'attend' | 'ignore'): Tensor {
  const data = new Float32Array(mask.data.length);
  const blocked = trueMeans === 'attend' ? 0 : 1;
  for (let i = 0; i < data.length; i++) data[i] = (mask.data[i] ? 1 : 0) === blocked ? -Infinity : 0;
  return { data, shape: [...mask.shape] };
}

/**
 * key_padding_mask [B, S] from valid lengths (True = padding, nn.MultiheadAttention's convention):
 * mask[b, j] = j ≥ validLengths[b].
 */
export function keyPaddingMask(validLengths: readonly number[], S: number): BoolTensor {
  checkLengths('keyPaddingMask', 0, S);
  const data = new Uint8Array(validLengths.length * S);
  validLengths.forEach((n, b) => {
    if (!Number.isInteger(n) || n < 0 || n > S) throw new Error(`keyPaddingMask: validLengths[${b}] = ${n} is outside 0..${S}`);
    for (let j = n; j < S; j++) data[b * S + j] = 1;
  });
  return { data, shape: [validLengths.length, S], dtype: 'bool' };
}

/** Throws unless `mask` has exactly `shape`. */
export function assertMaskShape(fn: string, what: string, mask: { shape: readonly number[] }, shape: readonly number[]): void {
  if (mask.shape.length !== shape.length || mask.shape.some((d, i) => d !== shape[i]) || numel(mask.shape) !== numel(shape)) {
    throw new Error(`${fn}: ${what} of shape ${formatShape(mask.shape)} should be ${formatShape(shape)}`);
  }
}
