// A recorded hand-written call's own tensors at the debugger's five steps (scores = q·kᵀ, × scale, + mask,
// softmax, · v), per head, paired with the engine's reference steps recomputed from the captured q, k, v and mask:
// the largest difference and the first cell where they part. This is what shows a wrong scale (the user's
// "× scale" step is the raw scores, or scores / d_k) or a mask applied after the softmax (the user's weights hold
// zeros the reference renormalised over). Pure.
import type { Tensor } from '../engine/tensor';
import { formatShape, isBoolTensor } from '../engine/tensor';
import type { AttentionTrace } from '../engine/trace';
import type { OwnStep } from '../protocol/engine';
import { blockMeansOfRows, compareCells } from './row-loops';
import type { CapturedTensor } from './tensors';
import type { TraceCall } from './trace';
import { MASK_THRESHOLD } from './view';

/** The five steps' own tensors of one head: [T, S] (the output [T, dv]), block-averaged when the recorder kept
 * averages; null where the chain has no tensor for the step or it was not kept. */
export type OwnStepTensors = (OwnTensor | null)[];

export interface OwnTensor {
  /** The captured tensor it comes from (scores, step_raw, step_scaled, probs, weights_used, out). */
  name: string;
  /** (rows, cols) row-major; rows = queries (or blocks of them), cols = keys or the output's dimensions. */
  data: Float32Array;
  rows: number;
  cols: number;
  /** Block sizes when the recorder kept block averages of a large tensor; null for the values themselves. */
  block: { rows: number; cols: number } | null;
  dtype: string;
}

/** The captured tensor of each step of a hand-written call (before any check of its shape). */
export function ownStepNames(call: TraceCall, tensors: ReadonlyMap<string, CapturedTensor>): (string | null)[] {
  if (call.kind !== 'manual') return [null, null, null, null, null];
  const has = (n: string | null | undefined): string | null => (n && tensors.has(n) ? n : null);
  const values = call.ops.find((o) => o.kind === 'values');
  // The output is in the weights' layout only for weights @ v with the keys last (not an einsum, not v @ weights).
  const output = values && values.op !== 'einsum' && call.contracted?.role === 'col' ? has('out') : null;
  return [has(call.stepTensors?.raw), has(call.stepTensors?.scaled), has('scores'), has('weights_used') ?? has('probs'), output];
}

/**
 * Slicer of a call's own step tensors for (batch element, head), given the call's B batch elements, H heads
 * (the product of the batch axes after the first), T queries, S keys and dv value dimensions. A tensor whose
 * shape does not fit [...lead, T, S] with B·H lead elements (block-averaged: ⌈T/br⌉ × ⌈S/bc⌉) is left out.
 */
export function ownStepsOfCall(
  call: TraceCall,
  tensors: ReadonlyMap<string, CapturedTensor>,
  dims: { B: number; H: number; T: number; S: number; dv: number | null },
): (batch: number, head: number) => OwnStepTensors {
  const names = ownStepNames(call, tensors);
  const slicers = names.map((name, step) => {
    if (name === null) return null;
    const captured = tensors.get(name);
    if (!captured || isBoolTensor(captured.tensor)) return null;
    const t = captured.tensor;
    const summary = call.tensors[name]?.summary ?? null;
    const cols = step === 4 ? dims.dv : dims.S;
    if (cols === null) return null;
    const block = captured.summarised && summary ? { rows: summary.blockRows, cols: summary.blockCols } : null;
    if (captured.summarised && !block) return null;
    const r = block ? Math.ceil(dims.T / block.rows) : dims.T;
    const c = block ? Math.ceil(cols / block.cols) : cols;
    const rank = t.shape.length;
    if (rank < 2 || t.shape[rank - 2] !== r || t.shape[rank - 1] !== c) return null;
    const lead = t.shape.slice(0, rank - 2).reduce((a, b) => a * b, 1);
    if (lead !== dims.B * dims.H) return null;
    return (b: number, h: number): OwnTensor => {
      const off = (b * dims.H + h) * r * c;
      return { name, data: t.data.slice(off, off + r * c), rows: r, cols: c, block, dtype: captured.dtype };
    };
  });
  return (b, h) => slicers.map((s) => (s ? s(b, h) : null));
}

/** The reference tensor the debugger shows at each step. */
export function referenceSteps(trace: AttentionTrace): Tensor[] {
  return [trace.scores, trace.scaled, trace.masked, trace.probs, trace.output];
}

/** Tolerances for "the same value": the engine computes in float32 from the captured inputs. */
function tolerance(dtype: string): { atol: number; rtol: number } {
  if (dtype === 'float16') return { atol: 1e-2, rtol: 1e-2 };
  if (dtype === 'bfloat16') return { atol: 5e-2, rtol: 3e-2 };
  return { atol: 1e-4, rtol: 1e-3 };
}

/** The (rows, cols) of a 2-D tensor, or a clear error naming it. */
function rowsCols(what: string, t: Tensor): [number, number] {
  const [rows, cols] = t.shape;
  if (rows === undefined || cols === undefined) throw new Error(`${what} must be (rows, cols), got ${formatShape(t.shape)}`);
  return [rows, cols];
}

/** Block means of a (rows, cols) tensor in (br, bc) blocks, the last ones partial (as the recorder averages). */
export function blockMeans(t: Tensor, br: number, bc: number): Float32Array {
  const [rows, cols] = rowsCols('blockMeans: the tensor', t);
  return blockMeansOfRows(t.data, 0, rows, cols, br, bc);
}

/**
 * Compares the user's tensor with the reference, cell by cell: cells agree when both are NaN, both are masked
 * (-inf or a fill ≤ -1e4), or both are finite and within the dtype's tolerance. `maxAbsDiff` is over the cells
 * where both are finite and not masked; `first` is the first disagreeing cell in row-major order (in blocks when
 * the user's tensor was kept as block averages).
 */
export function compareOwnStep(step: number, own: OwnTensor, reference: Tensor): OwnStep | null {
  const [rows, cols] = rowsCols(`own steps: the reference of step ${step}`, reference);
  const ref = own.block ? blockMeans(reference, own.block.rows, own.block.cols) : reference.data;
  const R = own.block ? Math.ceil(rows / own.block.rows) : rows;
  const C = own.block ? Math.ceil(cols / own.block.cols) : cols;
  if (R !== own.rows || C !== own.cols) return null; // not the same cells (cannot happen for a head of the call)
  const { atol, rtol } = tolerance(own.dtype);
  // A masked score is -inf, or a fill at or below MASK_THRESHOLD (-1e4, -1e9, finfo.min).
  const { maxAbsDiff, differing, first: at } = compareCells(own.data, ref, atol, rtol, MASK_THRESHOLD);
  const first: OwnStep['first'] = at && { row: Math.floor(at.index / C), col: at.index % C, own: at.own, reference: at.reference };
  return {
    step,
    name: own.name,
    own: { data: own.data, shape: [own.rows, own.cols] },
    block: own.block,
    maxAbsDiff,
    differing,
    cells: ref.length,
    first,
  };
}

/** Every step the head has an own tensor for, compared with the trace's reference steps. */
export function compareOwnSteps(own: OwnStepTensors, trace: AttentionTrace): OwnStep[] {
  const refs = referenceSteps(trace);
  const out: OwnStep[] = [];
  own.forEach((o, step) => {
    const ref = refs[step];
    const compared = o && ref ? compareOwnStep(step, o, ref) : null;
    if (compared) out.push(compared);
  });
  return out;
}
