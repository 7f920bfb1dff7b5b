// The debugger's steps for today's models, in traceAttention: rotate q and k (RoPE, switchable off), soft-cap
// the scaled scores, the sliding-window mask, and the model's own scale.
import { strict as assert } from 'node:assert';
import { applyRopeInPlace, ropeInverseFrequencies, ropeTables, traceAttention, TorchGenerator } from '../../../src/engine';

describe('traceAttention: RoPE, soft-cap, sliding window, model scale', () => {
  const L = 6,
    dk = 8;
  const g = new TorchGenerator(5);
  const q = g.randn(L, dk),
    k = g.randn(L, dk),
    v = g.randn(L, 4);
  const invFreq = Array.from(ropeInverseFrequencies({ theta: 10000, rotaryDim: dk, scaling: { type: 'default' } }));

  it('rotates q and k by their positions before the scores, and shows both sides of the step', () => {
    const t = traceAttention(q, k, v, { rope: { apply: true, invFreq } });
    const qr = new Float32Array(q.data),
      kr = new Float32Array(k.data);
    const tables = ropeTables(Float32Array.from(invFreq), [0, 1, 2, 3, 4, 5]);
    applyRopeInPlace(qr, 1, L, dk, tables);
    applyRopeInPlace(kr, 1, L, dk, tables);
    assert.deepEqual(t.rope!.q.data, qr);
    assert.deepEqual(t.rope!.k.data, kr);
    assert.deepEqual(t.rope!.qBefore.data, q.data);
    const plain = traceAttention({ data: qr, shape: [L, dk] }, { data: kr, shape: [L, dk] }, v);
    assert.deepEqual(t.scores.data, plain.scores.data);
    // switched off: the scores of the un-rotated q and k, which differ
    const off = traceAttention(q, k, v, { rope: { apply: false, invFreq } });
    assert.equal(off.rope!.applied, false);
    assert.deepEqual(off.scores.data, traceAttention(q, k, v).scores.data);
    assert.notDeepEqual(off.scores.data, t.scores.data);
    // RoPE makes q·k depend on the offset only: shifting every position by 3 leaves the scores unchanged
    const shifted = traceAttention(q, k, v, { rope: { apply: true, invFreq, qPositions: [3, 4, 5, 6, 7, 8], kPositions: [3, 4, 5, 6, 7, 8] } });
    shifted.scores.data.forEach((s, i) => assert.ok(Math.abs(s - t.scores.data[i]) < 1e-4));
    assert.throws(() => traceAttention(q, k, v, { rope: { apply: true } }), /rope\.invFreq must hold 1\.\.4 finite numbers/);
  });

  it('soft-caps the scaled scores (cap·tanh(x/cap)) before the mask, keeping the uncapped ones', () => {
    const t = traceAttention(q, k, v, { scale: { kind: 'none' }, softcap: 1.5 });
    t.softcap!.before.data.forEach((x, i) => assert.ok(Math.abs(t.scaled.data[i] - 1.5 * Math.tanh(x / 1.5)) < 1e-6));
    assert.ok(t.scaled.data.every((x) => Math.abs(x) <= 1.5));
    assert.equal(traceAttention(q, k, v, { softcap: null }).softcap, undefined);
    assert.throws(() => traceAttention(q, k, v, { softcap: -1 }), /softcap must be a positive finite number or null/);
  });

  it('masks outside the sliding window, and resolves the model scale', () => {
    const t = traceAttention(q, k, v, { mask: { kind: 'sliding-window', size: 2 }, scale: { kind: 'model', value: 0.125 } });
    for (let i = 0; i < L; i++) for (let j = 0; j < L; j++) assert.equal(t.allowed.data[i * L + j], j <= i && j > i - 2 ? 1 : 0);
    assert.equal(t.scale, 0.125);
    assert.throws(() => traceAttention(q, k, v, { mask: { kind: 'sliding-window', size: 0 } }), /size must be a positive integer/);
    assert.throws(() => traceAttention(q, k, v, { scale: { kind: 'model' } }), /a model scale must be a finite number/);
  });
});
