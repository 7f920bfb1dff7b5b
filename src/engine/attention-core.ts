// What scaledDotProductAttention, flashAttention and attentionRows share: validating q/k/v and the
// mask against torch's rules, walking the broadcast batch (with the GQA head mapping), and applying
// the causal / boolean / additive mask to a block of scores.
import { getKernel } from './kernels';
import { type MatrixLayout, matrixLayout } from './ops/matmul';
import {
  type AnyTensor,
  type TensorLike,
  type TensorView,
  broadcastStrides,
  contiguous,
  forEachIndex,
  formatShape,
  isBoolTensor,
  numel,
  tryBroadcastShapes,
  view,
} from './tensor';
import { checkFloat, checkMaskTensor, checkNonEmpty, checkScale } from './validate';

/** A mask as SDPA takes it: bool (True = attend) or float (added to the scaled scores). */
export type AttnMask = AnyTensor;

export interface AttentionInputOptions {
  /** Bool (True = attend) or float (added after scaling); broadcasts to [...batch, L, S]. */
  attnMask?: AttnMask | null;
  /** Top-left aligned causal mask (j ≤ i). Must not be combined with attnMask. */
  isCausal?: boolean;
  /** Multiplies q·kᵀ; default 1/sqrt(E). */
  scale?: number | null;
  /** Grouped-query attention: query head h reads kv head floor(h / (H / H_kv)). */
  enableGqa?: boolean;
}

/** The mask as read for the whole [...batch, L, S] problem (stride 0 along broadcast dims). */
export interface PreparedMask {
  kind: 'bool' | 'float';
  data: Uint8Array | Float32Array;
  batchStrides: number[];
  rowStride: number;
  colStride: number;
}

/** One operand as gemm reads it: a strided view with row- or column-major matrices. */
export interface PreparedOperand {
  view: TensorView;
  layout: MatrixLayout;
  /** Strides of the batch dims, aligned to the broadcast batch shape (0 along broadcast dims). */
  batchStrides: number[];
  /** GQA: the head index (last batch dim) is divided by this before use (1 = no grouping). */
  headGroup: number;
}

export interface PreparedAttention {
  fn: string;
  batch: number[];
  L: number;
  S: number;
  E: number;
  Ev: number;
  q: PreparedOperand;
  k: PreparedOperand;
  v: PreparedOperand | null;
  mask: PreparedMask | null;
  /** null: no causal mask; else query i may see key j iff j ≤ i + causalShift (0 = top-left). */
  causalShift: number | null;
  scale: number;
}

/** Offsets of q, k, v and the mask for one batch element. */
export interface BatchOffsets {
  q: number;
  k: number;
  v: number;
  mask: number;
}

/**
 * Validates q [..., L, E], k [..., S, E], v [..., S, Ev] (v optional) and the options with
 * torch's rules, and resolves the broadcast batch shape, the GQA mapping and the mask strides.
 */
export function prepareAttention(fn: string, q: TensorLike, k: TensorLike, v: TensorLike | null, options: AttentionInputOptions): PreparedAttention {
  checkFloat(fn, 'q', q);
  checkFloat(fn, 'k', k);
  if (v) checkFloat(fn, 'v', v);
  const qv = view(q);
  const kv = view(k);
  const vv = v ? view(v) : null;
  for (const [name, t] of [
    ['q', qv],
    ['k', kv],
    ['v', vv],
  ] as const) {
    if (t && t.shape.length < 2) throw new Error(`${fn}: ${name} must have rank ≥ 2 ([..., seq, dim]), got ${formatShape(t.shape)}`);
  }
  checkNonEmpty(fn, 'q', qv.shape, dimNames(qv.shape.length, 'L', 'E'));
  checkNonEmpty(fn, 'k', kv.shape, dimNames(kv.shape.length, 'S', 'E'));
  if (vv) checkNonEmpty(fn, 'v', vv.shape, dimNames(vv.shape.length, 'S', 'Ev'));

  const [L, E] = qv.shape.slice(-2);
  const [S, Ek] = kv.shape.slice(-2);
  if (Ek !== E) {
    throw new Error(`${fn}: q of shape ${formatShape(qv.shape)} and k of shape ${formatShape(kv.shape)} must share the last dim E (${E} vs ${Ek})`);
  }
  if (vv && vv.shape[vv.shape.length - 2] !== S) {
    throw new Error(
      `${fn}: k of shape ${formatShape(kv.shape)} and v of shape ${formatShape(vv.shape)} must have the same sequence length S (${S} vs ${vv.shape[vv.shape.length - 2]})`,
    );
  }
  const Ev = vv ? vv.shape[vv.shape.length - 1] : 0;

  const group = gqaGroups(fn, qv, kv, vv, options.enableGqa ?? false);
  const qBatch = qv.shape.slice(0, -2);
  const kvBatch = (t: TensorView): number[] => {
    const b = t.shape.slice(0, -2);
    if (group > 1) b[b.length - 1] = qBatch[qBatch.length - 1]; // kv heads stand for all H query heads
    return b;
  };
  const batch = tryBroadcastShapes(qBatch, kvBatch(kv), ...(vv ? [kvBatch(vv)] : []));
  if (!batch) {
    const shapes = `q ${formatShape(qv.shape)}, k ${formatShape(kv.shape)}${vv ? `, v ${formatShape(vv.shape)}` : ''}`;
    throw new Error(`${fn}: the batch dims of ${shapes} do not broadcast (for grouped-query attention pass enableGqa: true)`);
  }

  if (options.isCausal && options.attnMask) {
    throw new Error(
      `${fn}: attnMask must not be set when isCausal is true (torch 2.14 raises "Explicit attn_mask should not be set when is_causal=True"); fold the causal mask into attnMask instead`,
    );
  }
  checkScale(fn, 'scale', options.scale ?? undefined);
  const scale = options.scale ?? 1 / Math.sqrt(E);

  return {
    fn,
    batch,
    L,
    S,
    E,
    Ev,
    q: prepareOperand(qv, batch, 1, true),
    k: prepareOperand(kv, batch, group, false),
    v: vv ? prepareOperand(vv, batch, group, false) : null,
    mask: options.attnMask ? prepareMask(fn, options.attnMask, [...batch, L, S]) : null,
    causalShift: options.isCausal ? 0 : null,
    scale,
  };
}

function dimNames(rank: number, seq: string, dim: string): string[] {
  return [...Array.from({ length: rank - 2 }, (_, i) => `batch dim ${i}`), seq, dim];
}

/** H / H_kv when GQA applies (enableGqa and different head counts), else 1. */
function gqaGroups(fn: string, q: TensorView, k: TensorView, v: TensorView | null, enableGqa: boolean): number {
  if (!enableGqa) return 1;
  if (q.shape.length < 3 || k.shape.length < 3 || (v && v.shape.length < 3)) {
    throw new Error(`${fn}: enableGqa needs q, k and v with a head dim ([..., H, seq, dim]), got q ${formatShape(q.shape)} and k ${formatShape(k.shape)}`);
  }
  const H = q.shape[q.shape.length - 3];
  const Hk = k.shape[k.shape.length - 3];
  const Hv = v ? v.shape[v.shape.length - 3] : Hk;
  if (Hk !== Hv) throw new Error(`${fn}: with enableGqa, k and v must have the same number of heads (${Hk} vs ${Hv})`);
  if (H % Hk !== 0) {
    throw new Error(
      `${fn}: with enableGqa, the query heads (${H}, q ${formatShape(q.shape)}) must be a multiple of the key/value heads (${Hk}, k ${formatShape(k.shape)})`,
    );
  }
  return H / Hk;
}

function prepareOperand(t: TensorView, batch: readonly number[], headGroup: number, needRowMajor: boolean): PreparedOperand {
  let v = t;
  let layout = matrixLayout(v);
  if (!layout || (needRowMajor && !layout.rowMajor)) {
    v = view(contiguous(t));
    layout = matrixLayout(v)!;
  }
  const own = v.shape.length - 2;
  const lead = batch.length - own;
  const batchStrides = batch.map((_, d) => {
    if (d < lead) return 0;
    const size = v.shape[d - lead];
    // A GQA head dim keeps its stride (indices are divided by headGroup first); size-1 dims broadcast.
    if (headGroup > 1 && d === batch.length - 1) return v.strides[d - lead];
    return size === 1 ? 0 : v.strides[d - lead];
  });
  return { view: v, layout, batchStrides, headGroup };
}

function prepareMask(fn: string, mask: AttnMask, full: readonly number[]): PreparedMask {
  checkMaskTensor(fn, 'attnMask', mask);
  const strides = broadcastStrides(mask.shape, full, `${fn}: attnMask`);
  const n = full.length;
  return {
    kind: isBoolTensor(mask) ? 'bool' : 'float',
    data: mask.data,
    batchStrides: strides.slice(0, n - 2),
    rowStride: strides[n - 2],
    colStride: strides[n - 1],
  };
}

/** Offset of one batch element in an operand (applying the GQA head division). */
function operandOffset(op: PreparedOperand, index: readonly number[]): number {
  let off = op.view.offset;
  const last = index.length - 1;
  for (let d = 0; d < index.length; d++) {
    const i = d === last && op.headGroup > 1 ? Math.floor(index[d] / op.headGroup) : index[d];
    off += i * op.batchStrides[d];
  }
  return off;
}

/** Calls fn(b, offsets) for every element b of the broadcast batch, in row-major order. */
export function forEachBatch(p: PreparedAttention, fn: (b: number, offsets: BatchOffsets) => void): void {
  const maskStrides = p.mask?.batchStrides ?? p.batch.map(() => 0);
  forEachIndex(p.batch, [maskStrides], [0], (b, [maskOff], index) => {
    fn(b, {
      q: operandOffset(p.q, index),
      k: operandOffset(p.k, index),
      v: p.v ? operandOffset(p.v, index) : 0,
      mask: maskOff,
    });
  });
}

/**
 * scores[r, c] = scale · q[rowStart + r] · k[colStart + c] for r < rows, c < cols, written at
 * scores[sOff + r*ldS + c]. q's rows must be consecutive.
 */
export function scoreBlock(
  p: PreparedAttention,
  offs: BatchOffsets,
  rowStart: number,
  rows: number,
  colStart: number,
  cols: number,
  scores: Float32Array,
  sOff: number,
  ldS: number,
): void {
  const { q, k } = p;
  // A: q rows [rows, E] (row-major). B: kᵀ [E, cols]: a row-major k [S, E] is B with transB.
  getKernel().gemm({
    m: rows,
    n: cols,
    k: p.E,
    a: q.view.data,
    aOff: offs.q + rowStart * q.layout.ld,
    lda: q.layout.ld,
    b: k.view.data,
    bOff: offs.k + colStart * rowStep(k),
    ldb: k.layout.ld,
    transB: k.layout.rowMajor,
    c: scores,
    cOff: sOff,
    ldc: ldS,
    alpha: p.scale,
  });
}

/** Distance between consecutive sequence rows of an operand. */
function rowStep(op: PreparedOperand): number {
  return op.layout.rowMajor ? op.layout.ld : 1;
}

/**
 * acc[r, :] (+)= probs[r, 0..cols) · v[colStart .. colStart+cols) for r < rows; `accumulate` adds to acc.
 */
export function weightedValues(
  p: PreparedAttention,
  offs: BatchOffsets,
  probs: Float32Array,
  pOff: number,
  ldP: number,
  rows: number,
  colStart: number,
  cols: number,
  acc: Float32Array,
  accOff: number,
  accumulate: boolean,
): void {
  const v = p.v!;
  // A: probs [rows, cols]. B: v [cols, Ev], row-major or (transB) column-major.
  getKernel().gemm({
    m: rows,
    n: p.Ev,
    k: cols,
    a: probs,
    aOff: pOff,
    lda: ldP,
    b: v.view.data,
    bOff: offs.v + colStart * rowStep(v),
    ldb: v.layout.ld,
    transB: !v.layout.rowMajor,
    c: acc,
    cOff: accOff,
    ldc: p.Ev,
    beta: accumulate ? 1 : 0,
  });
}

/**
 * Applies the causal rule and the attn mask to a block of scaled scores: local row r is query
 * rowIds[r], local column c is key colStart + c. Disallowed cells become -inf; float masks are added.
 */
export function maskScoreBlock(
  p: PreparedAttention,
  maskOff: number,
  rowIds: ArrayLike<number>,
  colStart: number,
  cols: number,
  scores: Float32Array,
  sOff: number,
  ldS: number,
): void {
  const { mask, causalShift } = p;
  if (!mask && causalShift === null) return;
  for (let r = 0; r < rowIds.length; r++) {
    const i = rowIds[r];
    const row = sOff + r * ldS;
    if (causalShift !== null) {
      // keys j > i + shift are in the future: local c from max(0, i + shift + 1 - colStart)
      const firstHidden = Math.max(0, i + causalShift + 1 - colStart);
      for (let c = firstHidden; c < cols; c++) scores[row + c] = -Infinity;
    }
    if (!mask) continue;
    const mrow = maskOff + i * mask.rowStride + colStart * mask.colStride;
    if (mask.kind === 'bool') {
      for (let c = 0; c < cols; c++) if (!mask.data[mrow + c * mask.colStride]) scores[row + c] = -Infinity;
    } else {
      for (let c = 0; c < cols; c++) scores[row + c] += mask.data[mrow + c * mask.colStride];
    }
  }
}

/** 0, 1, ..., n-1. */
export function iota(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

export function batchCount(p: PreparedAttention): number {
  return numel(p.batch);
}
