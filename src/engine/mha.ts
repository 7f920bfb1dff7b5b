// nn.MultiheadAttention(batch_first=True) forward, the slow path (F.multi_head_attention_forward):
//   q, k, v = query·W_qᵀ + b_q, key·W_kᵀ + b_k, value·W_vᵀ + b_v      (B, L|S, E)
//   split heads: head h uses features h*hd .. (h+1)*hd-1              (B, H, L|S, hd)
//   scores = q_h·k_hᵀ / sqrt(hd) + attn_mask + key_padding_mask       bool True = NOT allowed → -inf
//   P = softmax(scores); ctx = P·v_h; out = concat(ctx)·W_oᵀ + b_o
// With needWeights a fully masked row is NaN (plain softmax); without, torch routes to SDPA and the row
// is 0, so the layer outputs exactly out_proj.bias there. Without weights, problems of more than
// TILED_ABOVE_WEIGHTS weights take the tiled (online-softmax) path instead of materialising B·H·L·S.
import { type AttnMask, prepareAttention } from './attention-core';
import { boolMaskToAdditive } from './masks';
import { add, mean } from './ops/elementwise';
import { linear } from './ops/linear';
import { tiledAttention } from './flash';
import { computeAttention, shouldTile } from './sdpa';
import { type Tensor, type TensorLike, contiguous, formatShape, isBoolTensor, permute, reshape, sameShape } from './tensor';
import { checkFloat, checkMaskTensor, checkNonEmpty } from './validate';

const FN = 'multiheadAttention';

export interface MhaParams {
  numHeads: number;
  /** [3E, E], rows packed [W_q; W_k; W_v]. */
  inProjWeight: Tensor;
  /** [3E], packed like the weight. */
  inProjBias?: Tensor | null;
  /** [E, E] */
  outProjWeight: Tensor;
  /** [E] */
  outProjBias?: Tensor | null;
}

export interface MhaOptions {
  /** [B, S] (or [S] unbatched): bool True = ignore this key, or float added to the scores. */
  keyPaddingMask?: AttnMask | null;
  /** [L, S] or [B*numHeads, L, S] (index b*numHeads + h): bool True = NOT allowed, or float added. */
  attnMask?: AttnMask | null;
  /** Return the attention weights (default true). */
  needWeights?: boolean;
  /** Average the weights over heads → [B, L, S] (default true); false → [B, H, L, S]. */
  averageAttnWeights?: boolean;
}

export interface MhaResult {
  /** [B, L, E] ([L, E] for unbatched input) */
  out: Tensor;
  /** [B, L, S] averaged or [B, H, L, S] per head (no B for unbatched input); absent unless needWeights. */
  weights?: Tensor;
}

/** nn.MultiheadAttention(embed_dim=E, num_heads, batch_first=True)(query, key, value, ...), dropout 0. */
export function multiheadAttention(query: Tensor, key: Tensor, value: Tensor, params: MhaParams, options: MhaOptions = {}): MhaResult {
  checkFloat(FN, 'query', query);
  checkFloat(FN, 'key', key);
  checkFloat(FN, 'value', value);
  const unbatched = query.shape.length === 2;
  if (query.shape.length !== 2 && query.shape.length !== 3) {
    throw new Error(`${FN}: query must be [B, L, E] (or unbatched [L, E]), got ${formatShape(query.shape)}`);
  }
  // Unbatched [L, E] → [1, L, E] (masks gain the batch dim too).
  const batched = (t: Tensor): Tensor => (unbatched ? { data: t.data, shape: [1, ...t.shape] } : t);
  const [q3, k3, v3] = [batched(query), batched(key), batched(value)];
  for (const [name, t] of [
    ['key', k3],
    ['value', v3],
  ] as const) {
    if (t.shape.length !== 3) {
      throw new Error(`${FN}: ${name} of shape ${formatShape(t.shape.slice(unbatched ? 1 : 0))} must have the same rank as query ${formatShape(query.shape)}`);
    }
  }
  const [B, L, E] = q3.shape; // (rank 3, checked above)
  const [, S] = k3.shape;
  if (B === undefined || L === undefined || E === undefined) throw new Error(`${FN}: query must be [B, L, E], got ${formatShape(query.shape)}`);
  if (S === undefined) throw new Error(`${FN}: key must be [B, S, E], got ${formatShape(key.shape)}`);
  checkNonEmpty(FN, 'query', q3.shape, ['B', 'L', 'E']);
  checkNonEmpty(FN, 'key', k3.shape, ['B', 'S', 'E']);
  if (!sameShape(k3.shape, [B, S, E]) || !sameShape(v3.shape, [B, S, E])) {
    throw new Error(
      `${FN}: key ${formatShape(key.shape)} and value ${formatShape(value.shape)} must both be [B, S, E] = [${B}, S, ${E}] to match query ${formatShape(query.shape)}`,
    );
  }
  const H = checkParams(params, E);
  const hd = E / H;

  const kpm = options.keyPaddingMask ? batchMask(options.keyPaddingMask, unbatched) : null;
  const mask = mergedMask(kpm, options.attnMask ?? null, B, H, L, S);

  const { q, k, v } = projectQkv(q3, k3, v3, params, { B, L, S, E, H }); // each (B, H, L|S, hd), views
  const needWeights = options.needWeights ?? true;
  const prepared = prepareAttention(FN, q, k, v, { attnMask: mask, scale: 1 / Math.sqrt(hd) });
  // Without weights, a large problem runs tiled (fully masked rows give 0 either way, as torch's fast path).
  const { out: ctx, probs } =
    !needWeights && shouldTile(prepared) ? { out: tiledAttention(prepared).out, probs: undefined } : computeAttention(prepared, needWeights ? 'nan' : 'zero'); // (B, H, L, hd), (B, H, L, S)

  const merged = reshape(permute(ctx, [0, 2, 1, 3]), [B, L, E]); // (B, H, L, hd) → (B, L, H, hd) → (B, L, E)
  const out = linear(merged, params.outProjWeight, params.outProjBias ?? undefined, `${FN}: out_proj`);
  const result: MhaResult = { out: unbatched ? { data: out.data, shape: [L, E] } : out };
  if (needWeights) {
    if (!probs) throw new Error(`${FN}: the attention weights were not computed`); // computeAttention returns them when asked
    const w = (options.averageAttnWeights ?? true) ? mean(probs, 1) : probs; // (B, L, S) or (B, H, L, S)
    result.weights = unbatched ? { data: w.data, shape: w.shape.slice(1) } : w;
  }
  return result;
}

/** Validates the projection parameters against E; returns numHeads. */
function checkParams(params: MhaParams, E: number): number {
  const H = params.numHeads;
  if (!Number.isInteger(H) || H <= 0) throw new Error(`${FN}: numHeads must be a positive integer, got ${String(H)}`);
  if (E % H !== 0) throw new Error(`${FN}: numHeads ${H} does not divide embed_dim ${E}`);
  checkFloat(FN, 'inProjWeight', params.inProjWeight);
  checkFloat(FN, 'outProjWeight', params.outProjWeight);
  const expect = (name: string, t: Tensor | null | undefined, shape: number[]) => {
    if (!t) return;
    checkFloat(FN, name, t);
    if (!sameShape(t.shape, shape)) throw new Error(`${FN}: ${name} of shape ${formatShape(t.shape)} should be ${formatShape(shape)} for embed_dim ${E}`);
  };
  expect('inProjWeight', params.inProjWeight, [3 * E, E]);
  expect('inProjBias', params.inProjBias, [3 * E]);
  expect('outProjWeight', params.outProjWeight, [E, E]);
  expect('outProjBias', params.outProjBias, [E]);
  return H;
}

/** Rows [part*E, (part+1)*E) of the packed in-projection: part 0 = q, 1 = k, 2 = v. */
function inProjPart(params: Pick<MhaParams, 'inProjWeight' | 'inProjBias'>, part: 0 | 1 | 2, E: number): { w: Tensor; b?: Tensor } {
  const w = { data: params.inProjWeight.data.subarray(part * E * E, (part + 1) * E * E), shape: [E, E] }; // (E, E)
  const b = params.inProjBias ? { data: params.inProjBias.data.subarray(part * E, (part + 1) * E), shape: [E] } : undefined;
  return { w, b };
}

/** Projects and splits heads: (B, T, E) → (B, T, H, hd) → (B, H, T, hd) as views of the projections (T = L for
 * the query, S for the key and value). */
function projectQkv(query: Tensor, key: Tensor, value: Tensor, params: MhaParams, dims: { B: number; L: number; S: number; E: number; H: number }) {
  const { B, L, S, E, H } = dims;
  const hd = E / H;
  const split = (x: Tensor, part: 0 | 1 | 2, T: number) => {
    const { w, b } = inProjPart(params, part, E);
    const y = linear(x, w, b, `${FN}: in_proj`); // (B, T, E)
    return permute(reshape(y, [B, T, H, hd]), [0, 2, 1, 3]); // (B, H, T, hd)
  };
  return { q: split(query, 0, L), k: split(key, 1, S), v: split(value, 2, S) };
}

/** A key_padding_mask with its batch dim (unbatched [S] → [1, S]). */
function batchMask(m: AttnMask, unbatched: boolean): AttnMask {
  checkMaskTensor(FN, 'keyPaddingMask', m);
  if (!unbatched) return m;
  return { ...m, shape: [1, ...m.shape] };
}

/** A bool mask in MHA's convention (True = not allowed) or a float mask, as an additive float tensor. */
function additive(m: AttnMask): Tensor {
  return isBoolTensor(m) ? boolMaskToAdditive(m, 'ignore') : contiguous(m);
}

/**
 * key_padding_mask [B, S] and attn_mask [L, S] | [B*H, L, S] merged into one additive mask that
 * broadcasts to (B, H, L, S), or null when neither is given.
 */
function mergedMask(kpm: AttnMask | null, attnMask: AttnMask | null, B: number, H: number, L: number, S: number): Tensor | null {
  let am: Tensor | null = null;
  if (attnMask) {
    checkMaskTensor(FN, 'attnMask', attnMask);
    const s = attnMask.shape;
    if (s.length === 2) {
      if (!sameShape(s, [L, S])) throw new Error(`${FN}: the 2-D attnMask has shape ${formatShape(s)} but should be [L, S] = [${L}, ${S}]`);
      am = additive(attnMask); // (L, S)
    } else if (s.length === 3) {
      if (!sameShape(s, [B * H, L, S])) {
        throw new Error(`${FN}: the 3-D attnMask has shape ${formatShape(s)} but should be [B*numHeads, L, S] = [${B * H}, ${L}, ${S}]`);
      }
      am = reshape(additive(attnMask), [B, H, L, S]); // (B*H, L, S) → (B, H, L, S): index b*H + h
    } else {
      throw new Error(`${FN}: attnMask must be 2-D [L, S] or 3-D [B*numHeads, L, S], got ${formatShape(s)}`);
    }
  }
  let pm: Tensor | null = null;
  if (kpm) {
    if (!sameShape(kpm.shape, [B, S])) {
      throw new Error(`${FN}: keyPaddingMask of shape ${formatShape(kpm.shape)} should be [B, S] = [${B}, ${S}]`);
    }
    pm = reshape(additive(kpm), [B, 1, 1, S]); // (B, S) → (B, 1, 1, S)
  }
  if (am && pm) return add(am, pm); // (B, H|1, L, S)
  return am ?? pm;
}

/**
 * One layer's q, k, v for every head from a single sequence: x [T, E] through the packed in-projection
 * [3E, E] (+ bias [3E]) → each (H, T, hd), contiguous, ready for traceAttention one head at a time.
 */
export function projectHeads(
  x: TensorLike,
  inProjWeight: Tensor,
  inProjBias: Tensor | null | undefined,
  numHeads: number,
): { q: Tensor; k: Tensor; v: Tensor } {
  const fn = 'projectHeads';
  checkFloat(fn, 'x', x);
  const [T, E] = x.shape;
  if (x.shape.length !== 2 || T === undefined || E === undefined) throw new Error(`${fn}: x must be [T, E], got ${formatShape(x.shape)}`);
  checkNonEmpty(fn, 'x', x.shape, ['T', 'E']);
  if (!Number.isInteger(numHeads) || numHeads <= 0) throw new Error(`${fn}: numHeads must be a positive integer, got ${String(numHeads)}`);
  if (E % numHeads !== 0) throw new Error(`${fn}: numHeads ${numHeads} does not divide E ${E} (x ${formatShape(x.shape)})`);
  checkFloat(fn, 'inProjWeight', inProjWeight);
  if (!sameShape(inProjWeight.shape, [3 * E, E])) {
    throw new Error(`${fn}: inProjWeight of shape ${formatShape(inProjWeight.shape)} should be [3E, E] = [${3 * E}, ${E}] for x ${formatShape(x.shape)}`);
  }
  if (inProjBias) {
    checkFloat(fn, 'inProjBias', inProjBias);
    if (!sameShape(inProjBias.shape, [3 * E])) throw new Error(`${fn}: inProjBias of shape ${formatShape(inProjBias.shape)} should be [${3 * E}]`);
  }
  const hd = E / numHeads;
  const xs = contiguous(x);
  const head = (part: 0 | 1 | 2) => {
    const { w, b } = inProjPart({ inProjWeight, inProjBias }, part, E);
    const y = linear(xs, w, b, fn); // (T, E)
    return contiguous(permute(reshape(y, [T, numHeads, hd]), [1, 0, 2])); // (T, H, hd) → (H, T, hd)
  };
  return { q: head(0), k: head(1), v: head(2) };
}
