import { strict as assert } from 'node:assert';
import { blockMeans, compareOwnStep } from '../../../src/record/own-steps';
import { buildRecordedRun, forwardPassOf, parseTrace, readCallTensors, recordedTrace, type TraceIndex } from '../../../src/record';
import type { RecordedAttentionTrace } from '../../../src/protocol/engine';
import { randoms, TraceBuilder, type Json } from './builders';

// A hand-written attention over [B, H, T, S] computed here in float64 the way a user's chain computes it, and
// captured the way the recorder writes it: the raw matmul output (step_raw), the output of the scale op
// (step_scaled), the softmax input (scores), the weights (probs, and weights_used when changed after the
// softmax) and the output (out).
const [B, H, T, d] = [1, 2, 4, 8];
const S = T;

interface Chain {
  /** The scale op's factor; null = the chain has no scale op. */
  scale?: number | null;
  /** Multiplier of q before the matmul (q * d ** -0.5): recorded as the matmul's operandScale. */
  operandScale?: number;
  /** Causal fill value before the softmax; null = no mask op. */
  fill?: number | null;
  /** Zeroes the weights of keys s > t after the softmax (a post-softmax mask). */
  maskAfterSoftmax?: boolean;
  /** The values product is an einsum (its output is not in the weights' layout). */
  einsumValues?: boolean;
}

function chainTrace(c: Chain): { b: TraceBuilder; trace: TraceIndex } {
  const b = new TraceBuilder();
  const scale = c.scale === undefined ? 1 / Math.sqrt(d) : c.scale;
  const fill = c.fill === undefined ? -Infinity : c.fill;
  const pre = c.operandScale ?? 1;
  const q = randoms(B * H * T * d, 3).map((x) => x * pre);
  const k = randoms(B * H * S * d, 4);
  const v = randoms(B * H * S * d, 5);
  const n = B * H * T * S;
  const [raw, scaled, input, probs, used] = [0, 0, 0, 0, 0].map(() => new Float32Array(n));
  const masked = new Uint8Array(n);
  for (let bh = 0; bh < B * H; bh++)
    for (let t = 0; t < T; t++) {
      const row = (bh * T + t) * S;
      for (let s = 0; s < S; s++) {
        let dot = 0;
        for (let e = 0; e < d; e++) dot += q[(bh * T + t) * d + e] * k[(bh * S + s) * d + e];
        raw[row + s] = dot;
        scaled[row + s] = scale === null ? dot : dot * scale;
        const m = fill !== null && s > t;
        masked[row + s] = m ? 1 : 0;
        input[row + s] = m ? fill : scaled[row + s];
      }
      let mx = -Infinity;
      for (let s = 0; s < S; s++) mx = Math.max(mx, input[row + s]);
      let sum = 0;
      for (let s = 0; s < S; s++) sum += Math.exp(input[row + s] - mx);
      for (let s = 0; s < S; s++) {
        probs[row + s] = Math.exp(input[row + s] - mx) / sum;
        used[row + s] = c.maskAfterSoftmax && s > t ? 0 : probs[row + s];
      }
    }
  const weights = c.maskAfterSoftmax ? used : probs;
  const out = new Float32Array(B * H * T * d);
  for (let bh = 0; bh < B * H; bh++)
    for (let t = 0; t < T; t++)
      for (let e = 0; e < d; e++) {
        let acc = 0;
        for (let s = 0; s < S; s++) acc += weights[(bh * T + t) * S + s] * v[(bh * S + s) * d + e];
        out[(bh * T + t) * d + e] = acc;
      }
  const path = '/ws/prog.py';
  const ops: Json[] = [{ op: 'matmul', kind: 'scores', path, line: 10, column: 5, ...(pre !== 1 ? { operandScale: pre } : {}) }];
  if (scale !== null) ops.push({ op: 'mul', kind: 'scale', path, line: 11, column: 5, value: scale });
  if (fill !== null) ops.push({ op: 'masked_fill', kind: 'fill', path, line: 12, column: 5, value: fill === -Infinity ? '-inf' : fill });
  ops.push({ op: 'softmax', kind: 'softmax', path, line: 13, column: 5, dim: 3, role: 'col' });
  ops.push({ op: c.einsumValues ? 'einsum' : 'matmul', kind: 'values', path, line: 15, column: 5 });
  const shape = [B, H, T, S];
  const tensors: Json = {
    rows_operand: b.tensor(0, 'rows_operand', 'float32', [B, H, T, d], q),
    cols_operand: b.tensor(0, 'cols_operand', 'float32', [B, H, S, d], k),
    step_raw: b.tensor(0, 'step_raw', 'float32', shape, raw),
    scores: b.tensor(0, 'scores', 'float32', shape, input),
    probs: b.tensor(0, 'probs', 'float32', shape, probs),
    v: b.tensor(0, 'v', 'float32', [B, H, S, d], v),
    out: b.tensor(0, 'out', 'float32', [B, H, T, d], out),
  };
  const hasMaskOp = fill !== null;
  if (scale !== null && hasMaskOp) tensors.step_scaled = b.tensor(0, 'step_scaled', 'float32', shape, scaled);
  if (hasMaskOp) tensors.masked = b.tensor(0, 'masked', 'bool', shape, masked);
  if (c.maskAfterSoftmax) tensors.weights_used = b.tensor(0, 'weights_used', 'float32', shape, used);
  // As the recorder names them: the scale op's output is the softmax input when no mask op follows it, and the
  // raw scores stand for the scaled ones when the chain has no scale op.
  const scaledName = scale === null ? 'step_raw' : hasMaskOp ? 'step_scaled' : 'scores';
  b.add({
    kind: 'manual',
    dtype: 'float32',
    shapes: { scores: shape },
    params: { otherOps: false },
    ops,
    ...(c.maskAfterSoftmax ? { afterSoftmax: [{ op: 'masked_fill', kind: 'after-softmax', path, line: 14, column: 5 }] } : {}),
    softmax: { dim: 3, role: 'col' },
    contracted: { role: 'col' },
    layout: { roles: ['b', 'b', 'row', 'col'], perm: [0, 1, 2, 3] },
    stepTensors: { raw: 'step_raw', scaled: scaledName },
    tensors,
  });
  return { b, trace: parseTrace(b.text(), 'trace.json') };
}

function stepped(c: Chain, head = 1): RecordedAttentionTrace {
  const { b, trace } = chainTrace(c);
  const rec = buildRecordedRun(trace, forwardPassOf(trace, 0), (call) => readCallTensors(call, b.reader(), true), { runId: 1, batch: 0 });
  return recordedTrace(rec, { runId: 1, layer: 0, head, options: {} });
}

const byStep = (tr: RecordedAttentionTrace) => new Map((tr.own ?? []).map((o) => [o.step, o]));

describe('record: the user’s own tensors beside the reference at each debugger step', () => {
  it('a correct chain (q·kᵀ, × 1/√d, causal -inf fill, softmax, · v) agrees with the reference at all five steps', () => {
    const tr = stepped({});
    const own = byStep(tr);
    assert.deepEqual(
      [...own.values()].map((o) => o.name),
      ['step_raw', 'step_scaled', 'scores', 'probs', 'out'],
    );
    for (const o of own.values()) {
      assert.equal(o.differing, 0, `step ${o.step} (${o.name}) differs`);
      assert.equal(o.first, null);
      assert.ok(o.maxAbsDiff < 1e-5, `step ${o.step}: max |Δ| ${o.maxAbsDiff}`);
    }
    // The head's own values, not another head's: the raw scores are this head's q·kᵀ.
    assert.deepEqual(own.get(0)!.own.shape, [T, S]);
    assert.deepEqual(own.get(4)!.own.shape, [T, d]);
    for (let i = 0; i < T * S; i++) assert.ok(Math.abs(own.get(0)!.own.data[i] - tr.scores.data[i]) < 1e-5);
  });

  it('a missing scale shows at the × scale step: the user’s tensor is the raw scores, off by (1 − 1/√d)·|score|', () => {
    const tr = stepped({ scale: null });
    const s1 = byStep(tr).get(1)!;
    assert.equal(s1.name, 'step_raw');
    assert.equal(byStep(tr).get(0)!.differing, 0);
    let worst = 0;
    for (let i = 0; i < T * S; i++) worst = Math.max(worst, Math.abs(tr.scores.data[i] - tr.scaled.data[i]));
    assert.ok(Math.abs(s1.maxAbsDiff - worst) < 1e-5, `${s1.maxAbsDiff} vs ${worst}`);
    assert.deepEqual({ row: s1.first!.row, col: s1.first!.col }, { row: 0, col: 0 });
    assert.ok(Math.abs(s1.first!.own - tr.scores.data[0]) < 1e-6 && Math.abs(s1.first!.reference - tr.scaled.data[0]) < 1e-6);
    // The masked cells agree (both -inf); the others differ.
    assert.equal(byStep(tr).get(2)!.differing, (T * (T + 1)) / 2);
  });

  it('a mask applied after the softmax shows at the softmax step: zeros where the reference has weight', () => {
    const tr = stepped({ fill: null, maskAfterSoftmax: true });
    const own = byStep(tr);
    for (const step of [0, 1, 2]) assert.equal(own.get(step)!.differing, 0, `step ${step}`);
    const w = own.get(3)!;
    assert.equal(w.name, 'weights_used');
    assert.equal(w.differing, (T * (T - 1)) / 2);
    assert.deepEqual({ row: w.first!.row, col: w.first!.col, own: w.first!.own }, { row: 0, col: 1, own: 0 });
    assert.ok(w.first!.reference > 0);
    assert.ok(own.get(4)!.differing > 0);
  });

  it('a fill of -1e9 is masked like the reference’s -inf; a q scaled before the matmul starts the reference unscaled', () => {
    const filled = byStep(stepped({ fill: -1e9 }));
    for (const o of filled.values()) assert.equal(o.differing, 0, `step ${o.step}`);
    // q * d ** -0.5 before q @ kᵀ and no scale op: the raw scores are already scaled (step 1 differs from the
    // reference's raw q·kᵀ), and the user's tensor at the × scale step agrees with the reference's scaled one.
    const pre = byStep(stepped({ scale: null, operandScale: 1 / Math.sqrt(d) }));
    assert.ok(pre.get(0)!.differing > 0);
    for (const step of [1, 2, 3, 4]) assert.equal(pre.get(step)!.differing, 0, `step ${step}`);
  });

  it('leaves out the output of an einsum (not in the weights’ layout)', () => {
    assert.deepEqual([...byStep(stepped({ einsumValues: true })).keys()], [0, 1, 2, 3]);
  });

  it('compares block averages with the reference’s block means, in blocks', () => {
    const reference = { data: Float32Array.from({ length: 12 }, (_, i) => i), shape: [3, 4] };
    assert.deepEqual(Array.from(blockMeans(reference, 2, 2)), [2.5, 4.5, 8.5, 10.5]);
    const own = { name: 'step_raw', data: Float32Array.from([2.5, 4.5, 8.5, 11]), rows: 2, cols: 2, block: { rows: 2, cols: 2 }, dtype: 'float32' };
    const c = compareOwnStep(0, own, reference)!;
    assert.equal(c.differing, 1);
    assert.deepEqual(c.first, { row: 1, col: 1, own: 11, reference: 10.5 });
    assert.equal(c.maxAbsDiff, 0.5);
    assert.equal(compareOwnStep(0, { ...own, rows: 3 }, reference), null);
  });

  it('NaN agrees only with NaN; half-precision tensors get a wider tolerance', () => {
    const reference = { data: Float32Array.from([NaN, 1, 2, 3]), shape: [2, 2] };
    const own = { name: 'probs', data: Float32Array.from([NaN, 1.004, 2, NaN]), rows: 2, cols: 2, block: null, dtype: 'float32' };
    const c = compareOwnStep(3, own, reference)!;
    assert.equal(c.differing, 2);
    assert.deepEqual(c.first, { row: 0, col: 1, own: own.data[1], reference: 1 });
    assert.equal(compareOwnStep(3, { ...own, dtype: 'float16' }, reference)!.differing, 1);
  });

  it('rejects a trace whose stepTensors name a tensor the call does not have', () => {
    const { b } = chainTrace({});
    const doc = b.doc();
    ((doc.calls as Json[])[0].stepTensors as Json).scaled = 'step_other';
    assert.throws(() => parseTrace(JSON.stringify(doc), 'trace.json'), /stepTensors\.scaled names "step_other", which is not one of the call's tensors/);
  });
});
