// Without weights requested, scaledDotProductAttention and multiheadAttention take the tiled
// (online-softmax) path by themselves once the weights would pass TILED_ABOVE_WEIGHTS, as PyTorch's fused
// path does, instead of materialising (or refusing) B·H·L·S weights. The outputs equal the materialised
// path's; with weights requested nothing changes.
import { strict as assert } from 'node:assert';
import { boolTensor, multiheadAttention, scaledDotProductAttention, TILED_ABOVE_WEIGHTS, TorchGenerator, type Tensor } from '../../../src/engine';

function maxDiff(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('attention without weights: automatic tiling', function () {
  this.timeout(120_000);
  // One head of 4200 × 4200 weights: just past the 2^24 threshold.
  const L = 4200;
  const g = new TorchGenerator(7);
  const q = g.randn(1, L, 8),
    k = g.randn(1, L, 8),
    v = g.randn(1, L, 8);

  it('the threshold sits where the test expects it', () => {
    assert.ok(L * L > TILED_ABOVE_WEIGHTS && 4000 * 4000 < TILED_ABOVE_WEIGHTS);
  });

  it('SDPA: needWeights false past the threshold returns the output only, equal to the materialised output', () => {
    const tiled = scaledDotProductAttention(q, k, v, { isCausal: true, needWeights: false });
    assert.equal(tiled.probs, undefined);
    const full = scaledDotProductAttention(q, k, v, { isCausal: true });
    assert.ok(full.probs.data.length === L * L);
    assert.ok(maxDiff(tiled.out.data, full.out.data) < 1e-5);
    // below the threshold the weights still come back
    const small = scaledDotProductAttention(g.randn(1, 50, 8), g.randn(1, 50, 8), g.randn(1, 50, 8), { needWeights: false });
    assert.ok(small.probs && small.probs.data.length === 2500);
  });

  it('MHA: needWeights false at a size past the threshold runs tiled (key padding and fully masked rows as before)', () => {
    const E = 8,
      H = 2,
      T = 3000; // 2 × 3000² = 18M weights
    const x: Tensor = g.randn(1, T, E);
    const params = { numHeads: H, inProjWeight: g.randn(3 * E, E), inProjBias: g.randn(3 * E), outProjWeight: g.randn(E, E), outProjBias: g.randn(E) };
    const pad = new Uint8Array(T);
    pad.fill(1, T - 100); // the last 100 keys are padding (True = ignore)
    const kpm = boolTensor(pad, [1, T]);
    const tiled = multiheadAttention(x, x, x, params, { keyPaddingMask: kpm, needWeights: false });
    assert.equal(tiled.weights, undefined);
    const full = multiheadAttention(x, x, x, params, { keyPaddingMask: kpm, needWeights: true });
    assert.ok(maxDiff(tiled.out.data, full.out.data) < 1e-4, `max diff ${maxDiff(tiled.out.data, full.out.data)}`);
    // every key masked: torch's fast path gives out_proj.bias on every row, and so does the tiled path
    const all = boolTensor(new Uint8Array(T).fill(1), [1, T]);
    const masked = multiheadAttention(x, x, x, params, { keyPaddingMask: all, needWeights: false });
    for (let i = 0; i < T; i += 500) for (let c = 0; c < E; c++) assert.ok(Math.abs(masked.out.data[i * E + c] - params.outProjBias.data[c]) < 1e-6);
  });

  it('MHA with weights requested still refuses past what it materialises (the tiled path is for outputs only)', () => {
    const E = 10,
      H = 5,
      T = 8192; // 5 · 8192² weights > 2^28
    const gen = new TorchGenerator(3);
    const x: Tensor = gen.randn(1, T, E);
    const params = { numHeads: H, inProjWeight: gen.randn(3 * E, E), outProjWeight: gen.randn(E, E) };
    assert.throws(() => multiheadAttention(x, x, x, params, { needWeights: true }), /more than the 268435456 this function materialises/);
  });
});
