// Bad input gets an Error that names the function, the argument and the shapes or values involved.
import { strict as assert } from 'node:assert';
import {
  attentionRows,
  causalMask,
  flashAttention,
  multiheadAttention,
  projectHeads,
  scaledDotProductAttention,
  traceAttention,
  type BoolTensor,
  type Tensor,
} from '../../../src/engine';
import { randn } from './util';

const bool = (shape: number[]): BoolTensor => ({ data: new Uint8Array(shape.reduce((p, d) => p * d, 1)).fill(1), shape, dtype: 'bool' });
const zerosT = (shape: number[]): Tensor => ({ data: new Float32Array(shape.reduce((p, d) => p * d, 1)), shape });

describe('errors for bad input', () => {
  const q = randn([2, 4, 3, 8], 1); // (B, H, L, E)
  const k = randn([2, 4, 6, 8], 2); // (B, H, S, E)
  const v = randn([2, 4, 6, 5], 3); // (B, H, S, Ev)

  describe('scaledDotProductAttention', () => {
    it('a mask that does not broadcast to [B, H, L, S]', () => {
      assert.throws(() => scaledDotProductAttention(q, k, v, { attnMask: bool([3, 5]) }), {
        message: 'scaledDotProductAttention: attnMask of shape [3, 5] does not broadcast to [2, 4, 3, 6]',
      });
      assert.throws(
        () => scaledDotProductAttention(q, k, v, { attnMask: zerosT([3, 2, 1, 6]) }),
        /attnMask of shape \[3, 2, 1, 6\] does not broadcast to \[2, 4, 3, 6\]/,
      );
    });

    it('mismatched E, S and batch dims', () => {
      assert.throws(
        () => scaledDotProductAttention(q, randn([2, 4, 6, 7], 4), v),
        /q of shape \[2, 4, 3, 8\] and k of shape \[2, 4, 6, 7\] must share the last dim E \(8 vs 7\)/,
      );
      assert.throws(
        () => scaledDotProductAttention(q, k, randn([2, 4, 5, 5], 4)),
        /k of shape \[2, 4, 6, 8\] and v of shape \[2, 4, 5, 5\] must have the same sequence length S \(6 vs 5\)/,
      );
      assert.throws(
        () => scaledDotProductAttention(q, randn([2, 3, 6, 8], 5), randn([2, 3, 6, 5], 6)),
        /batch dims of q \[2, 4, 3, 8\], k \[2, 3, 6, 8\], v \[2, 3, 6, 5\] do not broadcast \(for grouped-query attention pass enableGqa: true\)/,
      );
    });

    it('GQA head counts that do not divide', () => {
      assert.throws(
        () => scaledDotProductAttention(q, randn([2, 3, 6, 8], 5), randn([2, 3, 6, 5], 6), { enableGqa: true }),
        /query heads \(4, q \[2, 4, 3, 8\]\) must be a multiple of the key\/value heads \(3, k \[2, 3, 6, 8\]\)/,
      );
    });

    it('non-finite scales', () => {
      for (const scale of [NaN, Infinity, -Infinity]) {
        assert.throws(
          () => scaledDotProductAttention(q, k, v, { scale }),
          new RegExp(`scaledDotProductAttention: scale must be a finite number, got ${scale}`),
        );
      }
    });

    it('zero-length sequences and dims', () => {
      assert.throws(() => scaledDotProductAttention(zerosT([2, 4, 0, 8]), k, v), /q of shape \[2, 4, 0, 8\] has a zero-size dim \(L = 0\)/);
      assert.throws(() => scaledDotProductAttention(q, zerosT([2, 4, 0, 8]), zerosT([2, 4, 0, 5])), /k of shape \[2, 4, 0, 8\] has a zero-size dim \(S = 0\)/);
    });

    it('attnMask together with isCausal (torch 2.14 raises)', () => {
      assert.throws(() => scaledDotProductAttention(q, k, v, { attnMask: causalMask(3, 6), isCausal: true }), /attnMask must not be set when isCausal is true/);
    });

    it('problems too large to materialise point to flashAttention / attentionRows', () => {
      const long = zerosT([1, 1, 16385, 1]); // L = S = 16385: L·S > 2^28
      assert.throws(
        () => scaledDotProductAttention(long, long, long),
        /scaledDotProductAttention: the attention weights of shape \[1, 1, 16385, 16385\] would hold 268468225 values \(1\.0 GiB\).*use flashAttention/,
      );
    });

    it('rank < 2, wrong data length and non-tensors', () => {
      assert.throws(() => scaledDotProductAttention(zerosT([8]), k, v), /q must have rank ≥ 2/);
      assert.throws(() => scaledDotProductAttention({ data: new Float32Array(5), shape: [2, 4] }, k, v), /q has 5 elements but its shape \[2, 4\] needs 8/);
      assert.throws(() => scaledDotProductAttention(q, { data: [1, 2] as unknown as Float32Array, shape: [1, 2] }, v), /k must be a float32 tensor/);
      assert.throws(
        () => scaledDotProductAttention(q, k, v, { attnMask: { data: new Uint8Array(3), shape: [3, 6], dtype: 'bool' } }),
        /attnMask has 3 elements but its shape \[3, 6\] needs 18/,
      );
    });
  });

  describe('multiheadAttention', () => {
    const E = 8;
    const x = randn([2, 5, E], 7);
    const params = (numHeads: number) => ({
      numHeads,
      inProjWeight: randn([3 * E, E], 8),
      inProjBias: randn([3 * E], 9),
      outProjWeight: randn([E, E], 10),
      outProjBias: randn([E], 11),
    });

    it('numHeads that does not divide embed_dim', () => {
      assert.throws(() => multiheadAttention(x, x, x, params(3)), { message: 'multiheadAttention: numHeads 3 does not divide embed_dim 8' });
      assert.throws(() => multiheadAttention(x, x, x, params(0)), /numHeads must be a positive integer, got 0/);
    });

    it('wrongly shaped weights and inputs', () => {
      assert.throws(
        () => multiheadAttention(x, x, x, { ...params(2), inProjWeight: randn([3 * E, E + 1], 1) }),
        /inProjWeight of shape \[24, 9\] should be \[24, 8\] for embed_dim 8/,
      );
      assert.throws(
        () => multiheadAttention(x, randn([2, 5, 6], 1), x, params(2)),
        /key \[2, 5, 6\] and value \[2, 5, 8\] must both be \[B, S, E\] = \[2, S, 8\]/,
      );
      assert.throws(() => multiheadAttention(randn([5], 1), x, x, params(2)), /query must be \[B, L, E\] \(or unbatched \[L, E\]\), got \[5\]/);
    });

    it('masks of the wrong shape', () => {
      assert.throws(
        () => multiheadAttention(x, x, x, params(2), { attnMask: bool([5, 4]) }),
        /the 2-D attnMask has shape \[5, 4\] but should be \[L, S\] = \[5, 5\]/,
      );
      assert.throws(
        () => multiheadAttention(x, x, x, params(2), { attnMask: bool([2, 5, 5]) }),
        /the 3-D attnMask has shape \[2, 5, 5\] but should be \[B\*numHeads, L, S\] = \[4, 5, 5\]/,
      );
      assert.throws(() => multiheadAttention(x, x, x, params(2), { keyPaddingMask: bool([5]) }), /keyPaddingMask of shape \[5\] should be \[B, S\] = \[2, 5\]/);
    });

    it('projectHeads: numHeads not dividing E', () => {
      assert.throws(() => projectHeads(randn([5, E], 1), randn([3 * E, E], 2), null, 3), /projectHeads: numHeads 3 does not divide E 8 \(x \[5, 8\]\)/);
    });
  });

  describe('traceAttention, flashAttention, attentionRows', () => {
    const hq = randn([4, 8], 1);
    const hk = randn([6, 8], 2);
    const hv = randn([6, 3], 3);

    it('trace: shapes, scale, temperature, masks and options', () => {
      assert.throws(() => traceAttention(q, k, v), /traceAttention: q must be 2-D \[L, dk\] \(one head\), got \[2, 4, 3, 8\]/);
      assert.throws(() => traceAttention(hq, randn([6, 7], 1), hv), /q of shape \[4, 8\] and k of shape \[6, 7\] must have the same dk \(8 vs 7\)/);
      assert.throws(() => traceAttention(hq, hk, randn([5, 3], 1)), /must have the same number of keys S \(6 vs 5\)/);
      assert.throws(() => traceAttention(hq, hk, hv, { scale: { kind: 'custom', value: NaN } }), /a custom scale must be a finite number, got NaN/);
      assert.throws(() => traceAttention(hq, hk, hv, { temperature: 0 }), /temperature must be a positive finite number, got 0/);
      assert.throws(
        () => traceAttention(hq, hk, hv, { mask: { kind: 'padding', padLast: 7, builtAs: 'true-means-pad', passedTo: 'sdpa' } }),
        /padLast must be an integer in 0\.\.6/,
      );
      assert.throws(
        () => traceAttention(hq, hk, hv, { mask: { kind: 'explicit', mask: bool([4, 5]) } }),
        /traceAttention: mask of shape \[4, 5\] does not broadcast to \[4, 6\]/,
      );
      assert.throws(() => traceAttention(hq, hk, hv, { softmaxDim: 0 as -1 }), /softmaxDim must be -1 or -2, got 0/);
      assert.throws(() => traceAttention(zerosT([0, 8]), hk, hv), /q of shape \[0, 8\] has a zero-size dim \(L = 0\)/);
      assert.throws(() => traceAttention(hq, hk, hv, { paddedKeys: [6] }), /paddedKeys holds 6, outside 0\.\.5/);
      assert.throws(() => traceAttention(hq, hk, hv, { mask: [null as unknown as { kind: 'none' }] }), /each mask must be an object with a kind, got null/);
      assert.throws(
        () => traceAttention(hq, hk, hv, { mask: { kind: 'explicit' } as never }),
        /traceAttention: mask must be a bool or float32 tensor, got undefined/,
      );
      assert.throws(() => traceAttention(hq, hk, hv, { mask: { kind: 'sideways' } as never }), /unknown mask kind sideways/);
      const wide = zerosT([4097, 1]);
      assert.throws(() => traceAttention(wide, wide, wide), /traceAttention: a trace of shape \[4097, 4097\] would hold 16785409 values/);
    });

    it('flash: block size and the SDPA checks', () => {
      assert.throws(() => flashAttention(hq, hk, hv, { blockSize: 0 }), /flashAttention: blockSize must be a positive integer, got 0/);
      assert.throws(() => flashAttention(hq, hk, hv, { attnMask: bool([3, 6]) }), /flashAttention: attnMask of shape \[3, 6\] does not broadcast to \[4, 6\]/);
      assert.throws(() => attentionRows(hq, hk, { rows: [0], scale: Infinity }), /attentionRows: scale must be a finite number, got Infinity/);
    });
  });
});
