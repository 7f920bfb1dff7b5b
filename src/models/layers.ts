// Building blocks the model forwards share, on the engine's kernels: GPT-2's Conv1D (weight [in, out]),
// head split/merge, one self-attention step over all heads, residual adds.
import { type BoolTensor, type Tensor, contiguous, formatShape, permute, reshape, scaledDotProductAttention } from '../engine';
import { getKernel } from '../engine/kernels';
import { addRowVectorInPlace, scatterToHeads } from './row-loops';

/**
 * HF's Conv1D (GPT-2): x (T, in) · weight (in, out) + bias (out) → (T, out). The weight is stored
 * transposed relative to nn.Linear, so it is read as is (no transpose).
 */
export function conv1d(x: Tensor, weight: Tensor, bias: Tensor | undefined, what: string): Tensor {
  const [T, inF] = x.shape;
  const [wIn, outF] = weight.shape;
  if (T === undefined || inF === undefined || outF === undefined || x.shape.length !== 2 || weight.shape.length !== 2 || wIn !== inF) {
    throw new Error(`${what}: input ${formatShape(x.shape)} does not match Conv1D weight ${formatShape(weight.shape)} ([in, out])`);
  }
  if (bias && (bias.shape.length !== 1 || bias.shape[0] !== outF)) {
    throw new Error(`${what}: bias ${formatShape(bias.shape)} should be [${outF}]`);
  }
  const out = new Float32Array(T * outF);
  if (T > 0 && outF > 0) {
    // (T, in) · (in, out) → (T, out)
    getKernel().gemm({
      m: T,
      n: outF,
      k: inF,
      a: x.data,
      aOff: 0,
      lda: inF,
      b: weight.data,
      bOff: 0,
      ldb: outF,
      transB: false,
      c: out,
      cOff: 0,
      ldc: outF,
    });
  }
  if (bias) addRowVectorInPlace(out, bias.data);
  return { data: out, shape: [T, outF] };
}

/** Query rows per product in linearToHeads: bounds its scratch and what a kernel stages at once. */
const HEAD_PROJECTION_ROWS = 512;

/**
 * nn.Linear straight into the head layout: x (T, E) · weight (D, E)ᵀ + bias (D) → (H, T, D/H), head h
 * taking output features h·hd .. (h+1)·hd − 1 — splitHeads(linear(x, weight, bias)) with the same numbers,
 * computed a block of rows at a time, so a long input never holds a (T, D) intermediate besides the result.
 */
export function linearToHeads(x: Tensor, weight: Tensor, bias: Tensor | undefined, nHead: number, what: string): Tensor {
  const [T, E] = x.shape;
  const [D, inF] = weight.shape;
  if (T === undefined || E === undefined || D === undefined || x.shape.length !== 2 || weight.shape.length !== 2 || inF !== E) {
    throw new Error(`${what}: input ${formatShape(x.shape)} does not match weight ${formatShape(weight.shape)} ([out, in])`);
  }
  if (bias && (bias.shape.length !== 1 || bias.shape[0] !== D)) throw new Error(`${what}: bias ${formatShape(bias.shape)} should be [${D}]`);
  if (!Number.isInteger(nHead) || nHead < 1 || D % nHead !== 0) throw new Error(`${what}: ${nHead} heads do not divide ${D} output features`);
  const hd = D / nHead;
  const out = new Float32Array(T * D); // (H, T, hd)
  const chunkRows = Math.min(T, HEAD_PROJECTION_ROWS);
  const chunk = new Float32Array(chunkRows * D); // (rows, D), reused
  const b = bias?.data;
  for (let r0 = 0; r0 < T; r0 += chunkRows) {
    const R = Math.min(chunkRows, T - r0);
    // (R, E) · (D, E)ᵀ → (R, D)
    getKernel().gemm({ m: R, n: D, k: E, a: x.data, aOff: r0 * E, lda: E, b: weight.data, bOff: 0, ldb: E, transB: true, c: chunk, cOff: 0, ldc: D });
    scatterToHeads(chunk, b, out, R, r0, T, nHead, hd); // (R, D) → out (H, T, hd) rows r0 ..
  }
  return { data: out, shape: [nHead, T, hd] };
}

/** (T, H·hd) → (H, T, hd), contiguous. Head h takes features h·hd .. (h+1)·hd-1. */
export function splitHeads(x: Tensor, nHead: number): Tensor {
  const [T, width] = x.shape;
  if (T === undefined || width === undefined) throw new Error(`splitHeads: expected a (T, H·hd) matrix, got ${formatShape(x.shape)}`);
  const hd = width / nHead;
  return contiguous(permute(reshape(x, [T, nHead, hd]), [1, 0, 2])); // (T, H, hd) → (H, T, hd)
}

/** (H, T, hd) → (T, H·hd), contiguous: the inverse of splitHeads. */
export function mergeHeads(x: Tensor): Tensor {
  const [H, T, hd] = x.shape;
  if (H === undefined || T === undefined || hd === undefined) throw new Error(`mergeHeads: expected (H, T, hd), got ${formatShape(x.shape)}`);
  return reshape(permute(x, [1, 0, 2]), [T, H * hd]); // (H, T, hd) → (T, H, hd) → (T, H·hd)
}

/** The columns [start, start+width) of a (T, n) matrix, as a dense (T, width) tensor. */
export function sliceColumns(x: Tensor, start: number, width: number): Tensor {
  const [T, n] = x.shape;
  if (T === undefined || n === undefined) throw new Error(`sliceColumns: expected a (T, n) matrix, got ${formatShape(x.shape)}`);
  const out = new Float32Array(T * width);
  for (let t = 0; t < T; t++) out.set(x.data.subarray(t * n + start, t * n + start + width), t * width);
  return { data: out, shape: [T, width] };
}

export interface HeadsAttention {
  /** (H, T, hd): the weighted values of every head. */
  context: Tensor;
  /** (H, T, T): the attention probabilities, row = query. */
  probs: Tensor;
}

/**
 * softmax(scale · q·kᵀ + mask)·v for every head at once: q, k, v (H, T, hd); `allowed` (T, T) in SDPA's
 * convention (True = may attend), shared by the heads. Fully masked rows give 0.
 */
export function attendAllHeads(q: Tensor, k: Tensor, v: Tensor, allowed: BoolTensor | undefined, scale: number): HeadsAttention {
  const { out, probs } = scaledDotProductAttention(q, k, v, allowed ? { attnMask: allowed, scale } : { scale }); // (H, T, hd), (H, T, T)
  return { context: out, probs };
}
