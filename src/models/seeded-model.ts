// The seeded single-layer model: embeddings and W_q, W_k, W_v, W_o drawn by the PyTorch-compatible
// generator (see src/engine/random/seeded-attention.ts for the exact recipe and its Python twin), so a
// given seed always shows the same attention, and PyTorch reproduces it.
import { boolTensor, contiguous, projectHeads, scaledDotProductAttention, select, type BoolTensor, type Tensor } from '../engine';
import { seededAttentionWeights } from '../engine/random';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import type { AttentionModel, ForwardOptions, ForwardResult } from './types';

export interface SeededModelConfig {
  seed: number;
  heads: number;
  dModel: number;
}

export function createSeededModel({ seed, heads, dModel }: SeededModelConfig): AttentionModel {
  if (!Number.isInteger(heads) || heads < 1) throw new Error(`seeded model: heads must be a positive integer, got ${heads}`);
  if (!Number.isInteger(dModel) || dModel < 1) throw new Error(`seeded model: d_model must be a positive integer, got ${dModel}`);
  if (dModel % heads !== 0) {
    throw new Error(`seeded model: ${heads} heads do not divide d_model ${dModel} (each head needs d_model / heads dimensions)`);
  }
  const info: ModelInfo = {
    family: 'seeded',
    name: `Seeded (seed ${seed}, ${heads} heads, d_model ${dModel})`,
    detail: `One self-attention layer with weights drawn by torch.manual_seed(${seed}); head dim ${dModel / heads}.`,
    nLayer: 1,
    nHead: heads,
    dModel,
    headDim: dModel / heads,
    causal: false,
    tokenizer: 'words',
  };
  return {
    info,
    tokenizer: { kind: 'words' },
    async forward(tokens: TokenInfo[], options: ForwardOptions = {}): Promise<ForwardResult> {
      const T = tokens.length;
      if (T === 0) throw new Error('seeded model: there are no tokens to inspect');
      const weights = seededAttentionWeights({ seed, dModel, numHeads: heads, tokens: tokens.map((t) => t.text) });
      info.pythonSnippet = weights.pythonSnippet;
      await options.checkpoint?.();
      const { q, k, v } = projectHeads(weights.embeddings, weights.inProjWeight, null, heads); // each (H, T, hd)
      const allowed = attendMask(T, options);
      const { probs } = scaledDotProductAttention(q, k, v, allowed ? { attnMask: allowed } : {}); // probs (H, T, T)
      options.progress?.(1, 'attention computed');
      return {
        attentions: probs.data, // (1, H, T, T) once the layer axis is added: same bytes
        headInputs(layer, head) {
          if (layer !== 0 || head < 0 || head >= heads) throw new Error(`seeded model: no layer ${layer} head ${head} (1 layer × ${heads} heads)`);
          const pick = (t: Tensor) => contiguous(select(t, 0, head)); // (T, hd)
          return { q: pick(q), k: pick(k), v: pick(v), allowed: allowed?.data };
        },
      };
    },
  };
}

/** SDPA-convention (True = attend) mask of shape (T, T) from causal and padding choices, or undefined when none. */
export function attendMask(T: number, { causal, attentionMask }: Pick<ForwardOptions, 'causal' | 'attentionMask'>): BoolTensor | undefined {
  if (!causal && !attentionMask) return undefined;
  if (attentionMask && attentionMask.length !== T) {
    throw new Error(`attention mask has ${attentionMask.length} entries but there are ${T} tokens`);
  }
  const data = new Uint8Array(T * T);
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) {
      const keyReal = !attentionMask || attentionMask[j] !== 0;
      data[i * T + j] = keyReal && (!causal || j <= i) ? 1 : 0;
    }
  }
  return boolTensor(data, [T, T]);
}
