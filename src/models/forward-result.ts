// Collects what every family's forward returns: each layer's q, k, v (and scale), the O(T) mask, and —
// when the run is small enough to materialise — all layers' per-head probabilities in one
// (nLayer, nHead, T, T) array. Any head's weights can be recomputed a block of rows at a time.
import { type Tensor, contiguous, formatShape, select } from '../engine';
import { NOT_IN_VOCABULARY, type TokenInfo } from '../protocol/engine';
import { allowedRows, headRows } from './lazy-attention';
import { type RopeTables, unrotateRope } from '../engine/ops/rope';
import type { ForwardResult, HeadInputs, MaskSpec } from './types';
import { MessageError, msg, type MessageParts } from '../protocol/message';
import { MODEL_ERRORS, modelError } from './errors';

/**
 * One layer's attention inputs and result: q, k, v (H, T, hd) after the projections, the scale applied
 * to q·kᵀ, and probs (H, T, T) when the layer ran materialised.
 */
export interface LayerAttention {
  /** (H, T, hd) */
  q: Tensor;
  /** (H_kv, T, hd): H_kv = H unless the layer groups its queries (see kvHeads). */
  k: Tensor;
  v: Tensor;
  scale: number;
  probs?: Tensor;
  /** (H,): the kv head of each query head (grouped-query attention); absent = head h reads kv head h. */
  kvHeads?: readonly number[];
  /** The attention soft-cap of the layer (Gemma 2). */
  softcap?: number;
  /** This layer's mask when it differs from the model's (sliding-window layers). */
  mask?: MaskSpec;
  /** The RoPE the layer applied to q and k (q, k above are rotated); the debugger undoes it to show the step. */
  rope?: { tables: RopeTables; invFreq: Float32Array };
}

/**
 * The ForwardResult of a run: `layers[l]` per layer, `mask` what the model applied in every layer.
 * `attentions` is present when every layer kept its probabilities. `label` names the model in errors.
 */
export function forwardResult(layers: readonly LayerAttention[], nHead: number, T: number, mask: MaskSpec, label: string): ForwardResult {
  const block = nHead * T * T;
  let attentions: Float32Array | undefined;
  if (layers.length > 0 && layers.every((l) => l.probs)) {
    layers.forEach((l, i) => {
      if (l.probs!.data.length !== block) throw new Error(`${label}: layer ${i} has ${l.probs!.data.length} weights, expected ${block}`);
    });
    // One layer: its (H, T, T) array is already (1, H, T, T). Several: one copy into (nLayer, H, T, T).
    const [only] = layers;
    if (layers.length === 1 && only !== undefined) attentions = only.probs!.data;
    else {
      attentions = new Float32Array(layers.length * block);
      layers.forEach((l, i) => attentions!.set(l.probs!.data, i * block));
    }
  }
  /** The layer of a (layer, head) pair; throws unless both exist. */
  const layerOf = (layer: number, head: number): LayerAttention => {
    const l = layers[layer];
    if (l === undefined || !Number.isInteger(layer) || !Number.isInteger(head) || layer < 0 || head < 0 || head >= nHead) {
      throw new Error(`${label}: there is no layer ${layer} head ${head} (${layers.length} layers × ${nHead} heads)`);
    }
    return l;
  };
  return {
    seqLen: T,
    causal: mask.causal,
    attentions,
    headInputs(layer, head): HeadInputs {
      const l = layerOf(layer, head);
      const kv = l.kvHeads?.[head] ?? head;
      const layerMask = l.mask ?? mask;
      const pick = (t: Tensor, i: number) => contiguous(select(t, 0, i)); // (H, T, hd) → (T, hd)
      return {
        q: pick(l.q, head),
        k: pick(l.k, kv),
        v: pick(l.v, kv),
        scale: l.scale,
        ...(l.softcap !== undefined ? { softcap: l.softcap } : {}),
        kvHead: kv,
        ...(l.rope ? { unrotated: unrotated(pick(l.q, head), pick(l.k, kv), l.rope.tables), ropeInvFreq: Array.from(l.rope.invFreq) } : {}),
        mask: layerMask,
        get allowed() {
          return allowedRows(layerMask, T, 0, T);
        },
      };
    },
    headAttentionRows(layer, head, rowStart, rowEnd, out) {
      const l = layerOf(layer, head);
      checkRowRange(rowStart, rowEnd, T, label);
      const kv = l.kvHeads?.[head] ?? head;
      return headRows(select(l.q, 0, head), select(l.k, 0, kv), l.mask ?? mask, l.scale, rowStart, rowEnd, out, l.softcap); // (R, T)
    },
  };
}

/** q and k (T, hd) of one head with the layer's rotation undone. */
function unrotated(q: Tensor, k: Tensor, tables: RopeTables): { q: Tensor; k: Tensor } {
  const [T, hd] = q.shape;
  if (T === undefined || hd === undefined) throw new Error(`RoPE undo: expected one head's q (T, hd), got ${formatShape(q.shape)}`);
  return { q: { data: unrotateRope(q.data, T, hd, tables), shape: [T, hd] }, k: { data: unrotateRope(k.data, T, hd, tables), shape: [T, hd] } };
}

/** Throws unless 0 ≤ rowStart < rowEnd ≤ T are integers. */
export function checkRowRange(rowStart: number, rowEnd: number, T: number, label: string): void {
  if (!Number.isInteger(rowStart) || !Number.isInteger(rowEnd) || rowStart < 0 || rowEnd > T || rowStart >= rowEnd) {
    throw new Error(`${label}: query rows ${rowStart}..${rowEnd} are not a non-empty range within 0..${T} (rowStart inclusive, rowEnd exclusive)`);
  }
}

/** The vocabulary ids of `tokens`; throws naming the first token without an id or with an id outside [0, vocab). */
export function tokenIds(tokens: readonly TokenInfo[], vocabSize: number, label: string, noIdHint: MessageParts): number[] {
  return tokens.map((t, i) => {
    const id = t.id;
    if (id === undefined) throw vocabularyError(msg(MODEL_ERRORS.withHint, msg(MODEL_ERRORS.noTokenId, label, i, JSON.stringify(t.text)), noIdHint));
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
      throw vocabularyError(msg(MODEL_ERRORS.idOutOfRange, label, id, i, vocabSize - 1));
    }
    return id;
  });
}

function vocabularyError(parts: MessageParts): Error {
  const e = new MessageError(parts);
  e.name = NOT_IN_VOCABULARY;
  return e;
}

/** Checks the sequence length against the position table; throws with both numbers. */
export function checkLength(T: number, maxPositions: number, label: string): void {
  if (T === 0) throw modelError(MODEL_ERRORS.noTokensToRun, label);
  if (T > maxPositions) throw modelError(MODEL_ERRORS.tooManyPositions, label, T, maxPositions);
}
