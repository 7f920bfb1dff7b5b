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
import { tiledAttention } from './flash';
import { getKernel } from './kernels';
import type { Tensor, TensorLike } from './tensor';
import { checkMaterialisable } from './validate';

/** Most attention weights SDPA / MHA materialise at once: 2^28 float32 values = 1 GiB. */
export const MAX_MATERIALISED_WEIGHTS = 2 ** 28;

/**
 * Without weights requested, SDPA and MHA take the tiled (online-softmax) path by themselves above this many
 * weights (2^24 float32 = 64 MiB), as PyTorch's fused kernels do: the output without ever holding L×S.
 */
export const TILED_ABOVE_WEIGHTS = 2 ** 24;

export interface SdpaOptions extends AttentionInputOptions {
  /**
   * Return the probabilities (default true). With false, problems of more than TILED_ABOVE_WEIGHTS weights
   * run tiled and `probs` is absent (smaller ones still return it).
   */
  needWeights?: boolean;
}

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
export function scaledDotProductAttention(q: TensorLike, k: TensorLike, v: TensorLike, options: SdpaOptions & { needWeights: false }): SdpaOutput;
export function scaledDotProductAttention(q: TensorLike, k: TensorLike, v: TensorLike, options?: SdpaOptions): SdpaResult;
export function scaledDotProductAttention(q: TensorLike, k: TensorLike, v: TensorLike, options: SdpaOptions = {}): SdpaOutput {
  const p = prepareAttention('scaledDotProductAttention', q, k, v, options);
  if (options.needWeights === false && shouldTile(p)) return { out: tiledAttention(p).out };
  return computeAttention(p, 'zero');
}

/** SDPA's result when weights were not requested: the output, and the probabilities only when they were small. */
export interface SdpaOutput {
  out: Tensor;
  probs?: Tensor;
}

/** Whether a problem without requested weights runs tiled: more than TILED_ABOVE_WEIGHTS weights. */
export function shouldTile(p: PreparedAttention): boolean {
  return batchCount(p) * p.L * p.S > TILED_ABOVE_WEIGHTS;
}

/**
 * The materialised attention for a prepared problem. `fullyMasked` picks what a row with no visible key
 * becomes: 'zero' (SDPA) or 'nan' (the plain softmax of nn.MultiheadAttention's need_weights path).
 */
export function computeAttention(p: PreparedAttention, fullyMasked: 'zero' | 'nan'): SdpaResult {
  const { L, S, Ev } = p;
  checkMaterialisable(
    p.fn,
    'the attention weights',
    [...p.batch, L, S],
    MAX_MATERIALISED_WEIGHTS,
    'use flashAttention for the output and attentionRows for the rows you need',
  );
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
