// F.scaled_dot_product_attention (torch 2.14 semantics), returning the probabilities too.
//   scores = scale · q·kᵀ          (B..., L, S)
//   scores += mask                  bool False → -inf, float added (after scaling, never scaled)
//   probs  = softmax(scores, -1)    a fully masked row gives 0 (torch's "safe softmax")
//   out    = probs · v              (B..., L, Ev)
import {
  type AttentionInputOptions,
  type PreparedAttention,
  forEachBatch,
  iota,
  maskScoreBlock,
  prepareAttention,
  scoreBlock,
  weightedValues,
  batchCount,
} from './attention-core';
import { getKernel } from './kernels';
import type { Tensor, TensorLike } from './tensor';
import { checkMaterialisable } from './validate';

/** Most attention weights SDPA / MHA materialise at once: 2^28 float32 values = 1 GiB. */
export const MAX_MATERIALISED_WEIGHTS = 2 ** 28;

export type SdpaOptions = AttentionInputOptions;

export interface SdpaResult {
  /** [...batch, L, Ev] */
  out: Tensor;
  /** [...batch, L, S]: the softmax probabilities (0 on fully masked rows, or NaN when asked). */
  probs: Tensor;
}

/** Former name of SdpaResult. */
export type AttentionResult = SdpaResult;

/**
 * F.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale, enable_gqa) with dropout 0.
 * q [..., L, E], k [..., S, E], v [..., S, Ev]; batch dims broadcast (GQA: the head dim of k/v may divide q's).
 */
export function scaledDotProductAttention(q: TensorLike, k: TensorLike, v: TensorLike, options: SdpaOptions = {}): SdpaResult {
  const p = prepareAttention('scaledDotProductAttention', q, k, v, options);
  return computeAttention(p, 'zero');
}

/**
 * The materialised attention for a prepared problem. `fullyMasked` picks what a row with no visible key
 * becomes: 'zero' (SDPA) or 'nan' (the plain softmax of nn.MultiheadAttention's need_weights path).
 */
export function computeAttention(p: PreparedAttention, fullyMasked: 'zero' | 'nan'): SdpaResult {
  const { L, S, Ev } = p;
  checkMaterialisable(p.fn, 'the attention weights', [...p.batch, L, S], MAX_MATERIALISED_WEIGHTS, 'use flashAttention for the output and attentionRows for the rows you need');
  const nb = batchCount(p);
  const probs = new Float32Array(nb * L * S);
  const out = new Float32Array(nb * L * Ev);
  const rowIds = iota(L);
  const kernel = getKernel();
  forEachBatch(p, (b, offs) => {
    const pOff = b * L * S;
    scoreBlock(p, offs, 0, L, 0, S, probs, pOff, S); // (L, S) = scale · q·kᵀ
    maskScoreBlock(p, offs.mask, rowIds, 0, S, probs, pOff, S);
    kernel.softmaxRows({ x: probs, off: pOff, rows: L, cols: S, ld: S, fullyMasked });
    weightedValues(p, offs, probs, pOff, S, L, 0, S, out, b * L * Ev, false); // (L, Ev) = probs · v
  });
  return {
    out: { data: out, shape: [...p.batch, L, Ev] },
    probs: { data: probs, shape: [...p.batch, L, S] },
  };
}
