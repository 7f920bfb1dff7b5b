// One attention layer over all heads, two ways, and one head's weights on demand:
//   materialised  softmax(scale·q·kᵀ + mask) as (H, T, T), then ·v  (scaledDotProductAttention; exact
//                 with the PyTorch fixtures, used while the weights are small)
//   tiled         flashAttention per head: the output without the (T, T) weights (long inputs)
//   rows          the probabilities of query rows [r0, r1) of one head: (r1 − r0, T), recomputed from q, k
// The mask stays in O(T) form (MaskSpec) on the tiled and rows paths. Tiled: a causal mask goes to the
// engine as isCausal, padded keys as a (1, T) mask broadcast over the rows, both together as (R, T) masks
// built one block of rows at a time. Rows: the block's scores get −inf where the mask hides a key.
import {
  type BoolTensor,
  type Tensor,
  type TensorLike,
  boolTensor,
  contiguous,
  flashAttention,
  formatShape,
  getKernel,
  narrow,
  scaledDotProductAttention,
  select,
  view,
} from '../engine';
import { slidingWindowStart } from './sliding-window';
import { softcapInPlace } from '../engine/ops/softcap';
import type { ForwardOptions, MaskSpec } from './types';
import { MATERIALISED_ATTENTION_BYTES } from './types';

/** Query rows per block when causal and padding masks are combined on the tiled path. */
const MASK_BLOCK_ROWS = 256;

/** The O(T) mask of causal and padding choices; throws when the padding mask's length is not T. */
export function maskSpec(T: number, { causal, attentionMask }: Pick<ForwardOptions, 'causal' | 'attentionMask'>): MaskSpec {
  if (attentionMask && attentionMask.length !== T) {
    throw new Error(`attention mask has ${attentionMask.length} entries but there are ${T} tokens`);
  }
  const spec: MaskSpec = { causal: !!causal };
  if (attentionMask) spec.keyPadding = Uint8Array.from(attentionMask, (m) => (m !== 0 ? 1 : 0));
  return spec;
}

/** Whether the spec masks anything. */
export function hasMask(spec: MaskSpec): boolean {
  return spec.causal || spec.keyPadding !== undefined || spec.window !== undefined;
}

/**
 * SDPA-convention rows [r0, r1) of the (T, T) mask (True = may attend): (r1 − r0, T), or undefined when
 * the spec masks nothing.
 */
export function allowedRows(spec: MaskSpec, T: number, r0: number, r1: number): Uint8Array | undefined {
  if (!hasMask(spec)) return undefined;
  const R = r1 - r0;
  const data = new Uint8Array(R * T);
  const pad = spec.keyPadding;
  for (let r = 0; r < R; r++) {
    const i = r0 + r;
    const end = spec.causal || spec.window !== undefined ? Math.min(T, i + 1) : T; // keys j ≤ i under the causal mask
    const start = spec.window !== undefined ? slidingWindowStart(i, spec.window) : 0; // keys i − window < j
    const row = r * T;
    if (pad) for (let j = start; j < end; j++) data[row + j] = pad[j];
    else data.fill(1, row + start, row + end);
  }
  return data;
}

/** The whole (T, T) mask as a BoolTensor, or undefined for none (the materialised path's attnMask). */
export function allowedMatrix(spec: MaskSpec, T: number): BoolTensor | undefined {
  const data = allowedRows(spec, T, 0, T);
  return data && boolTensor(data, [T, T]);
}

/** Whether a run keeps every weight: nLayer·nHead·T²·4 bytes within the limit. */
export function shouldMaterialise(nLayer: number, nHead: number, T: number, limitBytes = MATERIALISED_ATTENTION_BYTES): boolean {
  return nLayer * nHead * T * T * 4 <= limitBytes;
}

export interface LayerAttentionOutput {
  /** (H, T, hd): the weighted values of every head (absent when not asked for). */
  context?: Tensor;
  /** (H, T, T): the probabilities, on the materialised path only. */
  probs?: Tensor;
}

export interface AttendOptions {
  mask: MaskSpec;
  scale: number;
  /** Keep the (H, T, T) probabilities (scaledDotProductAttention) or run tiled (flashAttention). */
  materialise: boolean;
  /** Whether the caller uses the weighted values (a single-layer model showing weights does not). */
  needContext: boolean;
  /** Awaited between heads on the tiled path. */
  checkpoint?: () => Promise<void>;
}

/**
 * softmax(scale · q·kᵀ + mask)·v for every head: q, k, v (H, T, hd). Materialised: exactly
 * scaledDotProductAttention with the (T, T) mask. Tiled: flashAttention head by head, nothing (T, T).
 */
export async function attendLayer(q: Tensor, k: Tensor, v: Tensor, opts: AttendOptions): Promise<LayerAttentionOutput> {
  const [H, T, hd] = q.shape;
  if (opts.materialise) {
    const allowed = allowedMatrix(opts.mask, T);
    const { out, probs } = scaledDotProductAttention(q, k, v, allowed ? { attnMask: allowed, scale: opts.scale } : { scale: opts.scale }); // (H, T, hd), (H, T, T)
    return { context: out, probs };
  }
  if (!opts.needContext) return {};
  const context = new Float32Array(H * T * hd); // (H, T, hd)
  for (let h = 0; h < H; h++) {
    await opts.checkpoint?.();
    const qh = select(q, 0, h); // (T, hd) views
    const kh = select(k, 0, h);
    const vh = select(v, 0, h);
    const base = h * T * hd;
    const { causal, keyPadding, window } = opts.mask;
    if ((causal && keyPadding) || window !== undefined) {
      // Both masks: (R, T) blocks of the mask for R query rows at a time.
      for (let r0 = 0; r0 < T; r0 += MASK_BLOCK_ROWS) {
        const r1 = Math.min(T, r0 + MASK_BLOCK_ROWS);
        const attnMask = boolTensor(allowedRows(opts.mask, T, r0, r1)!, [r1 - r0, T]);
        const { out } = flashAttention(narrow(qh, 0, r0, r1 - r0), kh, vh, { attnMask, scale: opts.scale }); // (R, hd)
        context.set(out.data, base + r0 * hd);
      }
    } else {
      const { out } = flashAttention(qh, kh, vh, { ...singleMaskOptions(opts.mask, T), scale: opts.scale }); // (T, hd)
      context.set(out.data, base);
    }
  }
  return { context: { data: context, shape: [H, T, hd] } };
}

/** The engine options for a causal-only or padding-only mask (no (T, T) matrix). */
function singleMaskOptions(mask: MaskSpec, T: number): { isCausal?: boolean; attnMask?: BoolTensor } {
  if (mask.causal) return { isCausal: true };
  if (mask.keyPadding) return { attnMask: boolTensor(mask.keyPadding, [1, T]) }; // broadcast over the rows
  return {};
}

/**
 * The probabilities of query rows [r0, r1) of one head: q, k (T, hd) (views are fine) → (r1 − r0, T),
 * the model's mask and scale (and soft-cap, when given) applied; a row that sees no key is 0 (SDPA's safe softmax). Written into
 * `out` when given (its first (r1 − r0)·T floats, returned as a view), so a caller streaming block after
 * block reuses one buffer.
 *
 * The rows are consecutive, so they are one R × T score product on the kernel — the steps of
 * scaledDotProductAttention (scale · q·kᵀ, −inf where masked, softmax over the keys) and the same numbers,
 * without its ·v — rather than attentionRows' one product per row, which stages k again for every row.
 */
export function headRows(
  q: TensorLike,
  k: TensorLike,
  mask: MaskSpec,
  scale: number,
  r0: number,
  r1: number,
  out?: Float32Array,
  softcap?: number,
): Float32Array {
  const qm = denseMatrix(q);
  const km = denseMatrix(k);
  const [T, hd] = k.shape;
  const R = r1 - r0;
  if (q.shape[1] !== hd || r0 < 0 || r1 > q.shape[0] || R < 1)
    throw new Error(`headRows: rows ${r0}..${r1} of q ${formatShape(q.shape)} against k ${formatShape(k.shape)}`);
  if (out && out.length < R * T) throw new Error(`headRows: out holds ${out.length} floats, ${R}×${T} are needed`);
  const probs = out ? out.subarray(0, R * T) : new Float32Array(R * T); // (R, T)
  const kernel = getKernel();
  kernel.gemm({
    m: R,
    n: T,
    k: hd,
    a: qm.data,
    aOff: qm.offset + r0 * hd,
    lda: hd,
    b: km.data,
    bOff: km.offset,
    ldb: hd,
    transB: true,
    c: probs,
    cOff: 0,
    ldc: T,
    alpha: scale,
  }); // scale · q[r0:r1]·kᵀ
  if (softcap !== undefined) softcapInPlace(probs, softcap); // cap · tanh(scores / cap), before the mask
  const pad = mask.keyPadding;
  const { window } = mask;
  if (mask.causal || pad || window !== undefined) {
    for (let r = 0; r < R; r++) {
      const row = r * T;
      if (mask.causal || window !== undefined) probs.fill(-Infinity, row + Math.min(T, r0 + r + 1), row + T); // keys after the query
      if (window !== undefined) probs.fill(-Infinity, row, row + slidingWindowStart(r0 + r, window)); // keys before the window
      if (pad) for (let j = 0; j < T; j++) if (!pad[j]) probs[row + j] = -Infinity;
    }
  }
  // Rows that see no key: HF eager's flat row when the model asks for it, else zeros.
  const flat: number[] = [];
  if (mask.fullyMasked === 'uniform') {
    for (let r = 0; r < R; r++) {
      let j = r * T;
      const end = j + T;
      while (j < end && probs[j] === -Infinity) j++;
      if (j === end) flat.push(r);
    }
  }
  kernel.softmaxRows({ x: probs, off: 0, rows: R, cols: T, ld: T, fullyMasked: 'zero' });
  for (const r of flat) probs.fill(1 / T, r * T, (r + 1) * T);
  return probs;
}

/** A 2-D tensor or view as dense row-major data from `offset` (copied only when its rows are not). */
function denseMatrix(t: TensorLike): { data: Float32Array; offset: number } {
  const v = view(t);
  const [, cols] = v.shape;
  if (v.strides[1] === 1 && v.strides[0] === cols) return { data: v.data, offset: v.offset };
  return { data: contiguous(t).data, offset: 0 };
}
