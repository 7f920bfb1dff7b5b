// flashAttention (tiled, online softmax) and attentionRows against torch (every sdpa.json case) and SDPA.
import { strict as assert } from 'node:assert';
import { attentionRows, flashAttention, getKernel, scaledDotProductAttention, setKernel, type AnyTensor, type Kernel } from '../../../src/engine';
import { assertClose, loadFixture, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';
import { randn } from './util';

interface SdpaCase {
  name: string;
  params: { L: number; S: number; scale: number | null; is_causal: boolean; enable_gqa: boolean; effective_scale: number };
  inputs: { q: JsonTensor; k: JsonTensor; v: JsonTensor; attn_mask?: JsonTensor };
  expected: { out: JsonTensor; probs: JsonTensor };
}

const fixture = loadFixture<{ cases: SdpaCase[] }>('sdpa');

function inputs(c: SdpaCase) {
  return {
    q: toFloat(c.inputs.q),
    k: toFloat(c.inputs.k),
    v: toFloat(c.inputs.v),
    options: {
      attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
      isCausal: c.params.is_causal,
      scale: c.params.scale ?? undefined,
      enableGqa: c.params.enable_gqa,
    },
  };
}

/** Runs fn with a kernel that records every gemm's output size. */
function withGemmSpy<T>(fn: () => T): { result: T; calls: Array<{ m: number; n: number }> } {
  const inner = getKernel();
  const calls: Array<{ m: number; n: number }> = [];
  const spy: Kernel = { ...inner, name: inner.name, gemm: (a) => (calls.push({ m: a.m, n: a.n }), inner.gemm(a)), softmaxRows: (a) => inner.softmaxRows(a) };
  setKernel(spy);
  try {
    return { result: fn(), calls };
  } finally {
    setKernel(inner);
  }
}

describe('flashAttention vs torch (every sdpa.json case)', () => {
  for (const c of fixture.cases) {
    it(`${c.name}: out for block sizes 1, 2, 3 and 64`, () => {
      const { q, k, v, options } = inputs(c);
      for (const blockSize of [1, 2, 3, 64]) {
        const { out } = flashAttention(q, k, v, { ...options, blockSize });
        assertClose(out, c.expected.out, { label: `${c.name} blockSize ${blockSize}` });
      }
    });
  }

  it('logsumexp is the softmax normaliser: exp(score - lse) reproduces the probabilities', () => {
    const c = fixture.cases.find((x) => x.name === 'custom_scale_float_mask')!;
    const { q, k, v, options } = inputs(c);
    const { logsumexp } = flashAttention(q, k, v, { ...options, blockSize: 2 });
    const probs = toFloat(c.expected.probs);
    const mask = options.attnMask!;
    const [B, H, L, E] = q.shape;
    const S = k.shape[2];
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++)
        for (let i = 0; i < L; i++) {
          const lse = logsumexp.data[(b * H + h) * L + i];
          for (let j = 0; j < S; j++) {
            let s = 0;
            for (let e = 0; e < E; e++) s += q.data[((b * H + h) * L + i) * E + e] * k.data[((b * H + h) * S + j) * E + e];
            const score = s * c.params.effective_scale + mask.data[i * S + j]; // mask [L, S]
            assert.ok(Math.abs(Math.exp(score - lse) - probs.data[((b * H + h) * L + i) * S + j]) < 1e-5);
          }
        }
  });

  it('fully masked rows give 0 and logsumexp -inf', () => {
    const c = fixture.cases.find((x) => x.name === 'fully_masked_row_bool')!;
    const { q, k, v, options } = inputs(c);
    const { out, logsumexp } = flashAttention(q, k, v, { ...options, blockSize: 2 });
    assertClose(out, c.expected.out);
    assert.ok(Array.from(logsumexp.data).some((x) => x === -Infinity));
  });

  it('never asks gemm for more than a blockSize × blockSize tile, and skips tiles above the causal diagonal', () => {
    const [L, E] = [96, 16];
    const q = randn([2, L, E], 1);
    const k = randn([2, L, E], 2);
    const v = randn([2, L, E], 3);
    const blockSize = 16;
    const full = withGemmSpy(() => flashAttention(q, k, v, { blockSize }));
    assert.ok(
      full.calls.every(({ m, n }) => m <= blockSize && n <= blockSize),
      'tiles only',
    );
    const causal = withGemmSpy(() => flashAttention(q, k, v, { blockSize, isCausal: true }));
    const tiles = L / blockSize;
    // 2 gemms (scores, ·V) per tile; causal visits only the tiles on or below the diagonal.
    assert.equal(full.calls.length, 2 * 2 * tiles * tiles);
    assert.equal(causal.calls.length, 2 * 2 * ((tiles * (tiles + 1)) / 2));
    assertClose(causal.result.out, scaledDotProductAttention(q, k, v, { isCausal: true }).out);
    assertClose(full.result.out, scaledDotProductAttention(q, k, v).out);
  });

  it('matches SDPA on a longer sequence with large score magnitudes (L = 300, S = 517)', () => {
    const q = randn([1, 2, 300, 32], 7);
    const k = randn([1, 2, 517, 32], 8);
    const v = randn([1, 2, 517, 24], 9);
    // scale 1 on d_k=32: scores of std ~5.7, so the running max is rescaled many times
    const ref = scaledDotProductAttention(q, k, v, { scale: 1 });
    assertClose(flashAttention(q, k, v, { scale: 1, blockSize: 37 }).out, ref.out);
    assertClose(flashAttention(q, k, v, { scale: 1, isCausal: true, blockSize: 64 }).out, scaledDotProductAttention(q, k, v, { scale: 1, isCausal: true }).out);
  });
});

describe('attentionRows', () => {
  for (const c of fixture.cases) {
    it(`${c.name}: chosen rows equal torch's probabilities`, () => {
      const { q, k, options } = inputs(c);
      const L = c.params.L;
      const rows = [L - 1, 0, Math.floor(L / 2)];
      const got = attentionRows(q, k, { ...options, rows });
      const probs = toFloat(c.expected.probs); // (B, H, L, S)
      const S = c.params.S;
      const heads = probs.data.length / (L * S);
      assert.deepEqual(got.shape, [...probs.shape.slice(0, -2), rows.length, S]);
      for (let h = 0; h < heads; h++)
        rows.forEach((i, r) => {
          assertClose(got.data.subarray((h * rows.length + r) * S, (h * rows.length + r + 1) * S), probs.data.subarray((h * L + i) * S, (h * L + i + 1) * S), {
            label: `${c.name} head ${h} row ${i}`,
          });
        });
    });
  }

  it('rejects rows outside 0..L-1', () => {
    const q = randn([4, 8], 1);
    assert.throws(() => attentionRows(q, q, { rows: [4] }), /attentionRows: row 4 is outside 0\.\.3 \(q has L = 4\)/);
  });
});
