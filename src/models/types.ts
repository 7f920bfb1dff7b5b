// The contract every model family fulfils (seeded layer, bare attention layer, GPT-2, BERT), so the
// session, the worker and the CLI treat them alike.
//
// Long inputs: a forward keeps every layer's per-head weights, (nLayer, nHead, T, T), only when they are
// small (ForwardOptions.materialiseBytes, default MATERIALISED_ATTENTION_BYTES). Beyond that the layers
// run tiled (flashAttention: outputs without the weights) and the weights of any head are recomputed on
// demand, a block of query rows at a time, by headAttentionRows: memory stays O(T·d) per layer.
import type { Tensor } from '../engine/tensor';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import type { MessageParts } from '../protocol/message';

/** Which tokenizer a model wants (see src/tokenize). */
export type TokenizerChoice = { kind: 'words' } | { kind: 'gpt2' } | { kind: 'tokenizer-json'; json: string };

/** A forward keeps `attentions` while nLayer·nHead·T²·4 bytes stay within this (64 MiB). */
export const MATERIALISED_ATTENTION_BYTES = 64 * 1024 * 1024;

export interface ForwardOptions {
  /** 1 = real token, 0 = padding; one per token. */
  attentionMask?: number[];
  /** Add a causal mask (ignored by families that are causal by construction, like GPT-2). */
  causal?: boolean;
  /** Awaited between layers (and heads): yields to the worker's event loop and throws when cancelled. */
  checkpoint?: () => Promise<void>;
  /** Reports progress in [0, 1], with what it is doing (src/protocol/engine-progress.ts). */
  progress?: (fraction: number, message: MessageParts) => void;
  /**
   * Largest size in bytes of all weights, (nLayer, nHead, T, T) float32, that the forward materialises
   * (and returns as `attentions`); larger runs take the tiled path. Default MATERIALISED_ATTENTION_BYTES;
   * 0 always takes the tiled path.
   */
  materialiseBytes?: number;
}

/**
 * The mask a model applies, kept in O(T): a top-left causal mask and/or padded keys. Never a (T, T)
 * matrix, so a long run does not hold T² bytes for it.
 */
export interface MaskSpec {
  /** Query i may see key j only when j ≤ i. */
  causal: boolean;
  /** (T,): 1 = a real key, 0 = a padded key nobody may attend to; undefined = no padding. */
  keyPadding?: Uint8Array;
  /** Sliding window (with causal): query i sees only keys i − window < j ≤ i; undefined = no window. */
  window?: number;
  /**
   * What a query that may see no key gets (a padded query whose window holds only padding): 'uniform' = 1/T
   * on every key, as HF's eager attention gives (it adds the dtype's minimum to every masked score, so the
   * row is flat); absent = zero weights (SDPA's safe softmax).
   */
  fullyMasked?: 'uniform';
}

/** One head's attention inputs at one layer (for the step-through debugger and on-demand weights). */
export interface HeadInputs {
  /** (T, hd) after the projections, before any scale. */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** The scale the model multiplies q·kᵀ by (1/√hd, or GPT-2's variants, or Gemma's query_pre_attn_scalar^−½). */
  scale: number;
  /** Gemma 2's attention soft-cap: scores become cap·tanh(scores / cap) after the scale; undefined = none. */
  softcap?: number;
  /** The key/value head this query head reads (grouped-query attention); absent = the head itself. */
  kvHead?: number;
  /**
   * q and k before the rotary position embedding (RoPE families only), so the debugger can show the
   * rotation as a step and switch it off; q and k above are the rotated ones the model uses.
   */
  unrotated?: { q: Tensor; k: Tensor };
  /** (rotaryDim/2,) the inverse frequencies of that rotation (positions 0..T−1). */
  ropeInvFreq?: number[];
  /** The model's mask in O(T) form. */
  mask: MaskSpec;
  /**
   * The same mask as an SDPA-convention boolean (T, T) (True = may attend), or undefined for none.
   * Built when read (T² bytes): read it only for short runs.
   */
  readonly allowed: Uint8Array | undefined;
}

export interface ForwardResult {
  /** Number of tokens T. */
  seqLen: number;
  /** Whether the model masked the future (by construction, like GPT-2, or because it was asked to). */
  causal: boolean;
  /**
   * Every layer's per-head attention probabilities, (nLayer, nHead, T, T), row = query — present only
   * when they fit in ForwardOptions.materialiseBytes; otherwise ask headAttentionRows.
   */
  attentions?: Float32Array;
  /** The inputs of one head's attention at one layer (q, k, v, scale, mask). */
  headInputs(layer: number, head: number): HeadInputs;
  /**
   * The probabilities of query rows [rowStart, rowEnd) of one head: (rowEnd − rowStart, T), row-major,
   * recomputed from headInputs with the model's own mask and scale (equal to `attentions` within 1e-6
   * where both exist). Memory: the rows asked for, whatever T is. With `out` (at least that many floats) the
   * rows are written there and a view of it is returned, so a caller streaming blocks reuses one buffer.
   */
  headAttentionRows(layer: number, head: number, rowStart: number, rowEnd: number, out?: Float32Array): Float32Array;
}

export interface AttentionModel {
  readonly info: ModelInfo;
  readonly tokenizer: TokenizerChoice;
  /**
   * Runs the model on tokens (ids set by the tokenizer; models without a vocabulary, like the
   * seeded layer, assign their own). Throws an Error naming the problem for ids out of range or
   * sequences longer than the model's positions.
   */
  forward(tokens: TokenInfo[], options?: ForwardOptions): Promise<ForwardResult>;
}
