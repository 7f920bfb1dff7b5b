// Collects what every family's forward returns: all layers' per-head probabilities in one (nLayer, nHead,
// T, T) array, and each layer's q, k, v kept for the step-through debugger.
import { type Tensor, contiguous, select } from '../engine';
import type { TokenInfo } from '../protocol/engine';
import type { ForwardResult } from './types';

/** One layer's attention inputs and result: q, k, v (H, T, hd) after the projections, probs (H, T, T). */
export interface LayerAttention {
  q: Tensor;
  k: Tensor;
  v: Tensor;
  probs: Tensor;
}

/**
 * The ForwardResult of a run: `layers[l]` per layer, `allowed` the (T, T) SDPA-convention mask the model
 * applied (True = may attend), or undefined for none. `label` names the model in errors.
 */
export function forwardResult(layers: readonly LayerAttention[], nHead: number, T: number, allowed: Uint8Array | undefined, label: string): ForwardResult {
  const block = nHead * T * T;
  const attentions = new Float32Array(layers.length * block); // (nLayer, nHead, T, T)
  layers.forEach((l, i) => {
    if (l.probs.data.length !== block) throw new Error(`${label}: layer ${i} has ${l.probs.data.length} weights, expected ${block}`);
    attentions.set(l.probs.data, i * block);
  });
  return {
    attentions,
    headInputs(layer, head) {
      if (!Number.isInteger(layer) || !Number.isInteger(head) || layer < 0 || layer >= layers.length || head < 0 || head >= nHead) {
        throw new Error(`${label}: there is no layer ${layer} head ${head} (${layers.length} layers × ${nHead} heads)`);
      }
      const l = layers[layer];
      const pick = (t: Tensor) => contiguous(select(t, 0, head)); // (H, T, hd) → (T, hd)
      return { q: pick(l.q), k: pick(l.k), v: pick(l.v), allowed };
    },
  };
}

/** The vocabulary ids of `tokens`; throws naming the first token without an id or with an id outside [0, vocab). */
export function tokenIds(tokens: readonly TokenInfo[], vocabSize: number, label: string, noIdHint: string): number[] {
  return tokens.map((t, i) => {
    const id = t.id;
    if (id === undefined) throw new Error(`${label}: token ${i} (${JSON.stringify(t.text)}) has no vocabulary id; ${noIdHint}`);
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
      throw new Error(`${label}: token id ${id} at position ${i} is out of range (the vocabulary has ids 0..${vocabSize - 1})`);
    }
    return id;
  });
}

/** Checks the sequence length against the position table; throws with both numbers. */
export function checkLength(T: number, maxPositions: number, label: string): void {
  if (T === 0) throw new Error(`${label}: there are no tokens to run`);
  if (T > maxPositions) throw new Error(`${label}: ${T} tokens but the model has only ${maxPositions} positions`);
}
