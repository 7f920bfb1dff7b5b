// The contract every model family fulfils (seeded layer, bare attention layer, GPT-2, BERT), so the
// session, the worker and the CLI treat them alike.
import type { Tensor } from '../engine/tensor';
import type { ModelInfo, TokenInfo } from '../protocol/engine';

/** Which tokenizer a model wants (see src/tokenize). */
export type TokenizerChoice = { kind: 'words' } | { kind: 'gpt2' } | { kind: 'tokenizer-json'; json: string };

export interface ForwardOptions {
  /** 1 = real token, 0 = padding; one per token. */
  attentionMask?: number[];
  /** Add a causal mask (ignored by families that are causal by construction, like GPT-2). */
  causal?: boolean;
  /** Awaited between layers (and heads): yields to the worker's event loop and throws when cancelled. */
  checkpoint?: () => Promise<void>;
  /** Reports progress in [0, 1]. */
  progress?: (fraction: number, message: string) => void;
}

export interface ForwardResult {
  /** Every layer's per-head attention probabilities, (nLayer, nHead, T, T), row = query. */
  attentions: Float32Array;
  /**
   * The inputs of one head's attention at one layer, for the step-through debugger:
   * q (T, hd), k (T, hd), v (T, hd) after the projections (before the 1/sqrt(hd) scale), and the
   * mask the model applied there, as an SDPA-convention boolean (T, T) (True = may attend), if any.
   */
  headInputs(layer: number, head: number): { q: Tensor; k: Tensor; v: Tensor; allowed?: Uint8Array };
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
