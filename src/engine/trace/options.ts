// The debugger's switches, as plain data (they cross the worker boundary).
import type { BoolTensor, Tensor } from '../tensor';

/** What multiplies q·kᵀ. */
export type ScaleChoice =
  | { kind: 'inv-sqrt-dk' }
  | { kind: 'inv-dk' }
  | { kind: 'none' }
  | { kind: 'custom'; value: number }
  /** The model's own scale (e.g. Gemma's query_pre_attn_scalar^−½); the session fills in the value. */
  | { kind: 'model'; value?: number };

export type CausalAlign = 'top-left' | 'bottom-right';

/** One mask; several are combined (a key must be allowed by all of them). */
export type MaskChoice =
  | { kind: 'none' }
  /** top-left: key j ≤ i (SDPA is_causal); bottom-right: j ≤ i + (S - L) (KV cache, causal_lower_right). */
  | { kind: 'causal'; align: CausalAlign }
  /**
   * The last `padLast` keys are padding. The boolean mask is *built* in one convention and *read* by an
   * API in its own: SDPA's attn_mask reads True = attend, nn.MultiheadAttention's key_padding_mask reads
   * True = ignore. When the two disagree the mask is inverted and queries see only the padding.
   */
  | { kind: 'padding'; padLast: number; builtAs: 'true-means-pad' | 'true-means-keep'; passedTo: 'sdpa' | 'mha' }
  /**
   * A mask tensor broadcastable to [L, S]: bool read with `trueMeans` ('attend' = SDPA, default;
   * 'ignore' = nn.MultiheadAttention), or float added to the scaled scores.
   */
  | { kind: 'explicit'; mask: BoolTensor | Tensor; trueMeans?: 'attend' | 'ignore' }
  /** Sliding window of `size` keys (Mistral, Gemma local layers): query i sees only keys i − size < j ≤ i. */
  | { kind: 'sliding-window'; size: number };

/**
 * Rotary position embeddings as a step: q and k given to the trace are the un-rotated ones, and the trace
 * rotates them (query i and key j by their positions, pairs (c, c + rotaryDim/2) by angle position·invFreq[c])
 * before the scores — unless `apply` is false, which shows the scores without position information.
 */
export interface RopeStep {
  apply: boolean;
  /** (rotaryDim/2,) the model's inverse frequencies (after its scaling, e.g. Llama 3's); the session fills them in. */
  invFreq?: readonly number[];
  /** Positions of the queries and keys (default 0..L−1 and 0..S−1). */
  qPositions?: readonly number[];
  kPositions?: readonly number[];
}

export interface TraceOptions {
  /** Default {kind: 'inv-sqrt-dk'}. */
  scale?: ScaleChoice;
  /** Rotate q and k first (RoPE models); absent = q and k are used as given. */
  rope?: RopeStep;
  /** Soft-cap the scaled scores: cap·tanh(scaled / cap) (Gemma 2); absent or null = none. */
  softcap?: number | null;
  /** The scaled scores are divided by this (default 1); must be a positive finite number. */
  temperature?: number;
  /** Default none. An array combines masks. */
  mask?: MaskChoice | readonly MaskChoice[];
  /** -1: normalise over keys (right); -2: over queries (the classic bug). Default -1. */
  softmaxDim?: -1 | -2;
  /** What a row with no visible key becomes: 'nan' (plain softmax, nn.MultiheadAttention; default) or 'zero' (SDPA). */
  fullyMaskedRows?: 'nan' | 'zero';
  /** A row is saturated when its max weight is at least this (default 0.99). */
  saturationThreshold?: number;
  /**
   * Whether the computation is meant to be causal, and how aligned: 'future-visible' fires for rows that
   * give weight to keys after their own position. Default: the align of a causal mask among `mask`, else none.
   */
  causalIntent?: CausalAlign | 'none';
  /** Keys that are padding (for 'attends-only-padding'); default: the padding mask's last `padLast` keys. */
  paddedKeys?: readonly number[];
  /** 'score-variance-high' fires when the scaled scores' variance exceeds this (default 4, i.e. std 2). */
  scoreVarianceThreshold?: number;
  /** 'rows-not-normalized' fires when a row sum is off 1 by more than this (default 1e-3). */
  normalizationTolerance?: number;
  /**
   * 'near-uniform-rows' fires when at least half the rows with two or more visible keys have an entropy of at
   * least this fraction of ln(n) (default 0.95) and the scaled scores' variance is below
   * `scoreVarianceLowThreshold` (default 0.25, i.e. std 0.5): the scale (or temperature) flattened them.
   */
  uniformEntropyRatio?: number;
  scoreVarianceLowThreshold?: number;
}

export const TRACE_DEFAULTS = {
  saturationThreshold: 0.99,
  scoreVarianceThreshold: 4,
  normalizationTolerance: 1e-3,
  uniformEntropyRatio: 0.95,
  scoreVarianceLowThreshold: 0.25,
  /** Weight below this counts as none (for padding-only and future-visible rows). */
  negligibleWeight: 1e-6,
} as const;
