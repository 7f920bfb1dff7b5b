// One recorded call seen the same way whatever its kind: weights laid out [...batch, T queries, S keys], which
// (query, key) pairs the mask allowed as the API that received it reads it, and the token ids of the keys.
import { scaledDotProductAttention } from '../engine/sdpa';
import type { AnyTensor } from '../engine/tensor';
import { formatShape, isBoolTensor } from '../engine/tensor';
import { broadcastsTo, broadcastTo, transposeLast } from './broadcast';
import { allowedFromBools, allowedFromFloats, andMasks, notMask, zeroAboveDiagonal } from './row-loops';
import type { CapturedTensor } from './tensors';
import type { TraceCall } from './trace';

/** An added value at or below this masks the position (HF fills with finfo.min; -1e4 and -1e9 are common). */
export const MASK_THRESHOLD = -1e4;
/** Views larger than this many (query, key) pairs are not built (no diagnostics from values then). */
export const MAX_VIEW_PAIRS = 2 ** 26;

export interface AttentionView {
  /** Batch axes (e.g. [B, H]) of the weights. */
  batch: number[];
  T: number;
  S: number;
  /** [...batch, T, S], 1 = the query may attend the key; null when nothing was masked. */
  allowed: Uint8Array | null;
  /** [...batch, T, S] attention weights as the call computed them (captured, or recomputed for SDPA). */
  probs: Float32Array | null;
  /** Token ids of the keys [B, S] and the embedding's padding_idx, when the batch axis 0 is B. */
  ids: { data: Float32Array; B: number; paddingIdx: number | null } | null;
  /** The query axis is the key axis's sequence too (self-attention over the same T = S positions). */
  selfAttention: boolean;
  /**
   * The key position of query 0 when the queries are positions of the keys' own sequence: 0 for self-attention,
   * S − T for a KV-cache step whose key ids are the prefill's and the steps' (the queries are the last T keys);
   * null otherwise (cross-attention, or keys of unknown origin).
   */
  queryOffset: number | null;
}

function queryOffset(call: TraceCall, T: number, S: number): number | null {
  if (T === S) return 0;
  return call.tokens?.fromCache === true && T < S ? S - T : null;
}

type Tensors = Map<string, CapturedTensor>;

function values(t: Tensors, name: string): CapturedTensor | undefined {
  const c = t.get(name);
  return c && !c.summarised ? c : undefined;
}

function numel(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** The view of one call, or null when its tensors are missing, summarised or too large to judge. */
export function attentionView(call: TraceCall, tensors: Tensors): AttentionView | null {
  switch (call.kind) {
    case 'sdpa':
      return sdpaView(call, tensors);
    case 'mha':
      return mhaView(call, tensors);
    case 'manual':
      return manualView(call, tensors);
  }
}

function idsFor(call: TraceCall, tensors: Tensors, batch: number[], S: number): AttentionView['ids'] {
  const ids = values(tensors, 'token_ids');
  if (!ids || !call.tokens || isBoolTensor(ids.tensor)) return null;
  const [B, L] = ids.tensor.shape;
  if (B === undefined || ids.tensor.shape.length !== 2 || L !== S) return null;
  if (batch.length === 0 ? B !== 1 : batch[0] !== B) return null;
  return { data: ids.tensor.data, B, paddingIdx: call.tokens.paddingIdx };
}

function sdpaView(call: TraceCall, tensors: Tensors): AttentionView | null {
  const q = values(tensors, 'q');
  const k = values(tensors, 'k');
  const v = values(tensors, 'v');
  if (!q || !k || !v || isBoolTensor(q.tensor) || isBoolTensor(k.tensor) || isBoolTensor(v.tensor)) return null;
  const maskEntry = call.tensors.attn_mask;
  const mask = values(tensors, 'attn_mask');
  if (maskEntry && !mask) return null; // a mask we could not read: no judgement
  const T = q.tensor.shape.at(-2); // q [..., T, dk], k [..., S, dk]
  const S = k.tensor.shape.at(-2);
  if (T === undefined || S === undefined) return null; // not attention over a sequence: nothing to judge
  const batch = q.tensor.shape.slice(0, -2);
  const target = [...batch, T, S];
  if (numel(target) > MAX_VIEW_PAIRS) return null;
  let allowed: Uint8Array | null = null;
  if (mask) {
    if (!broadcastsTo(mask.tensor.shape, target)) return null;
    allowed = allowedFromMask(mask.tensor, target, 'attend');
  }
  if (call.params.isCausal === true) allowed = andCausal(allowed, target, 0);
  const isCausal = call.params.isCausal === true;
  const scale = typeof call.params.scale === 'number' ? call.params.scale : null;
  let probs: Float32Array | null = null;
  try {
    const r = scaledDotProductAttention(q.tensor, k.tensor, v.tensor, {
      attnMask: mask ? mask.tensor : null,
      isCausal,
      scale,
      enableGqa: call.params.enableGqa === true,
    });
    probs = r.probs.data;
  } catch {
    probs = null; // shapes the engine does not take: judge from the mask alone
  }
  return { batch, T, S, allowed, probs, ids: idsFor(call, tensors, batch, S), selfAttention: T === S, queryOffset: queryOffset(call, T, S) };
}

function mhaView(call: TraceCall, tensors: Tensors): AttentionView | null {
  const w = values(tensors, 'weights');
  if (!w || isBoolTensor(w.tensor)) return null;
  const shape = w.tensor.shape; // [N, H, L, S] or [H, L, S]
  const batched = shape.length === 4;
  if (shape.length !== 3 && shape.length !== 4) return null;
  const [N, H, L, S] = batched ? shape : [1, ...shape];
  if (N === undefined || H === undefined || L === undefined || S === undefined) return null; // (rank 3 or 4, checked above)
  const batch = shape.slice(0, -2);
  if (numel(shape) > MAX_VIEW_PAIRS) return null;
  const target = [N, H, L, S];
  let allowed: Uint8Array | null = null;
  for (const name of ['key_padding_mask', 'attn_mask'] as const) {
    if (!call.tensors[name]) continue;
    const m = values(tensors, name);
    if (!m) return null;
    let t = m.tensor;
    let mshape = t.shape;
    if (name === 'key_padding_mask') mshape = batched ? [N, 1, 1, S] : [1, 1, 1, S];
    else if (t.shape.length === 3) mshape = [N, H, L, S]; // [N*H, L, S], index n*H + h
    if (numel(mshape) !== t.data.length) return null;
    t = { ...t, shape: mshape };
    if (!broadcastsTo(mshape, target)) return null;
    const a = allowedFromMask(t, target, 'ignore');
    allowed = allowed ? andMasks(allowed, a) : a;
  }
  const ids = idsFor(call, tensors, batched ? batch : [1, ...batch], S);
  return { batch: batched ? batch : [1, ...batch], T: L, S, allowed, probs: w.tensor.data, ids, selfAttention: L === S, queryOffset: queryOffset(call, L, S) };
}

function manualView(call: TraceCall, tensors: Tensors): AttentionView | null {
  const probs = values(tensors, 'probs');
  if (!probs || isBoolTensor(probs.tensor) || !call.contracted) return null;
  const keyIsRow = call.contracted.role === 'row';
  const shape = probs.tensor.shape;
  if (numel(shape) > MAX_VIEW_PAIRS || shape.length < 2) return null;
  let p = probs.tensor.data;
  let allowed: Uint8Array | null = null;
  if (call.tensors.masked) {
    const m = values(tensors, 'masked');
    if (!m || !isBoolTensor(m.tensor) || m.tensor.shape.join() !== shape.join()) return null;
    allowed = notMask(m.tensor.data);
  }
  if (keyIsRow) {
    p = transposeLast(p, shape);
    if (allowed) allowed = transposeLast(allowed, shape);
  }
  const [rows, cols] = shape.slice(-2); // (rank ≥ 2, checked above)
  if (rows === undefined || cols === undefined) return null;
  const [T, S] = keyIsRow ? [cols, rows] : [rows, cols];
  const batch = shape.slice(0, -2);
  return { batch, T, S, allowed, probs: p, ids: idsFor(call, tensors, batch, S), selfAttention: T === S, queryOffset: queryOffset(call, T, S) };
}

/** Allowed pairs from a mask. 'attend': bool True = attend (SDPA); 'ignore': bool True = masked (MHA). */
export function allowedFromMask(mask: AnyTensor, target: number[], boolMeans: 'attend' | 'ignore'): Uint8Array {
  if (isBoolTensor(mask)) return allowedFromBools(broadcastTo(mask.data, mask.shape, target), boolMeans === 'attend');
  return allowedFromFloats(broadcastTo(mask.data, mask.shape, target), MASK_THRESHOLD); // NaN masks nothing here; ATT007 sees it
}

/** ANDs a causal mask (query i sees key j iff j ≤ i + shift) into `allowed` (null = all allowed). */
export function andCausal(allowed: Uint8Array | null, target: number[], shift: number): Uint8Array {
  const [T, S] = target.slice(-2);
  if (T === undefined || S === undefined) throw new Error(`andCausal: the target ${formatShape(target)} has no (T, S) axes`);
  const out = allowed ?? new Uint8Array(numel(target)).fill(1);
  zeroAboveDiagonal(out, T, S, shift);
  return out;
}
