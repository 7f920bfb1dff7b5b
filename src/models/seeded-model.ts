// The seeded single-layer model: embeddings and W_q, W_k, W_v, W_o drawn by the PyTorch-compatible
// generator (see src/engine/random/seeded-attention.ts for the exact recipe and its Python twin), so a
// given seed always shows the same attention, and PyTorch reproduces it.
import type { BoolTensor, Tensor } from '../engine';
import { seededAttentionWeights } from '../engine/random';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import { forwardResult } from './forward-result';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg } from '../protocol/message';
import { describedAs, MODEL_TEXT } from './model-text';
import { linearToHeads } from './layers';
import { allowedMatrix, attendLayer, maskSpec, shouldMaterialise } from './lazy-attention';
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
    ...describedAs(msg(MODEL_TEXT.seededName, seed, heads, dModel), msg(MODEL_TEXT.seededDetail, seed, dModel / heads)),
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
      // q, k, v = x·W_{q,k,v}ᵀ split into heads, each (H, T, hd): nn.MultiheadAttention's in-projection (no bias).
      const part = (i: number): Tensor => ({
        data: weights.inProjWeight.data.subarray(i * dModel * dModel, (i + 1) * dModel * dModel),
        shape: [dModel, dModel],
      });
      const q = linearToHeads(weights.embeddings, part(0), undefined, heads, 'seeded model q');
      const k = linearToHeads(weights.embeddings, part(1), undefined, heads, 'seeded model k');
      const v = linearToHeads(weights.embeddings, part(2), undefined, heads, 'seeded model v');
      const mask = maskSpec(T, options);
      const scale = 1 / Math.sqrt(dModel / heads);
      // One layer whose output nobody reads: the tiled path has nothing to compute until weights are asked for.
      const materialise = shouldMaterialise(1, heads, T, options.materialiseBytes);
      const { probs } = await attendLayer(q, k, v, { mask, scale, materialise, needContext: false, checkpoint: options.checkpoint }); // probs (H, T, T)
      options.progress?.(1, msg(ENGINE_PROGRESS.attentionComputed));
      return forwardResult([{ q, k, v, scale, probs }], heads, T, mask, 'seeded model');
    },
  };
}

/** SDPA-convention (True = attend) mask of shape (T, T) from causal and padding choices, or undefined when none. */
export function attendMask(T: number, options: Pick<ForwardOptions, 'causal' | 'attentionMask'>): BoolTensor | undefined {
  return allowedMatrix(maskSpec(T, options), T);
}
