// The small pure pieces the RoPE decoders share, each against an independent float64 computation or a
// property that must hold: RoPE (and Llama 3's frequency scaling), RMSNorm, GQA head mapping, sliding
// windows, soft-capping, and grouped attention against a plain per-head reference.
import { strict as assert } from 'node:assert';
import { kvHeadMap, kvHeadOf } from '../../../src/models/gqa';
import { groupedAttention } from '../../../src/models/grouped-attention';
import { allowedRows, headRows } from '../../../src/models/lazy-attention';
import { rmsNorm } from '../../../src/models/rms-norm';
import { applyRopeInPlace, ropeInverseFrequencies, ropeTables, unrotateRope } from '../../../src/engine/ops/rope';
import { inSlidingWindow, slidingWindowStart } from '../../../src/models/sliding-window';
import { softcapInPlace } from '../../../src/engine/ops/softcap';
import { TorchGenerator } from '../../../src/engine';
import { referenceProbs } from './helpers';
import { namedWithFamily } from '../../../src/models/decoder-config';

describe('RoPE', () => {
  it('inverse frequencies are 1/θ^(2i/d) without scaling', () => {
    const inv = ropeInverseFrequencies({ theta: 10000, rotaryDim: 8, scaling: { type: 'default' } });
    assert.equal(inv.length, 4);
    for (let i = 0; i < 4; i++) assert.ok(Math.abs(inv[i] - 1 / 10000 ** ((2 * i) / 8)) < 1e-7 * (1 / 10000 ** ((2 * i) / 8)) + 1e-12);
  });

  it('llama3 scaling keeps high frequencies, divides low ones by factor and blends the middle', () => {
    const base = ropeInverseFrequencies({ theta: 500000, rotaryDim: 64, scaling: { type: 'default' } });
    const s = { type: 'llama3' as const, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 };
    const inv = ropeInverseFrequencies({ theta: 500000, rotaryDim: 64, scaling: s });
    let high = 0,
      low = 0,
      mid = 0;
    for (let i = 0; i < 32; i++) {
      const wavelen = (2 * Math.PI) / base[i];
      if (wavelen < 8192 / 4) {
        assert.equal(inv[i], base[i]);
        high++;
      } else if (wavelen > 8192 / 1) {
        assert.ok(Math.abs(inv[i] - base[i] / 8) <= 1e-6 * base[i]);
        low++;
      } else {
        const smooth = (8192 / wavelen - 1) / (4 - 1);
        const expected = ((1 - smooth) * base[i]) / 8 + smooth * base[i];
        assert.ok(Math.abs(inv[i] - expected) <= 1e-6 * expected, `medium frequency ${i}`);
        mid++;
      }
    }
    assert.ok(high > 0 && low > 0 && mid > 0, `all three bands are exercised (${high}, ${mid}, ${low})`);
  });

  it('rotates pairs (i, i + d/2) by position·θ_i, keeps norms, leaves position 0 and the non-rotary dims alone, and unrotates', () => {
    const H = 2,
      T = 5,
      hd = 6,
      D = 4;
    const g = new TorchGenerator(3);
    const x = g.randn(H, T, hd).data;
    const orig = new Float32Array(x);
    const inv = ropeInverseFrequencies({ theta: 100, rotaryDim: D, scaling: { type: 'default' } });
    const tables = ropeTables(inv, [0, 1, 2, 3, 4]);
    applyRopeInPlace(x, H, T, hd, tables);
    for (let h = 0; h < H; h++)
      for (let t = 0; t < T; t++) {
        const o = (h * T + t) * hd;
        for (let i = 0; i < D / 2; i++) {
          const a = t * inv[i];
          const x1 = orig[o + i],
            x2 = orig[o + i + D / 2];
          assert.ok(Math.abs(x[o + i] - (x1 * Math.cos(a) - x2 * Math.sin(a))) < 1e-5);
          assert.ok(Math.abs(x[o + i + D / 2] - (x2 * Math.cos(a) + x1 * Math.sin(a))) < 1e-5);
        }
        for (let c = D; c < hd; c++) assert.equal(x[o + c], orig[o + c], 'dims past rotaryDim pass through');
        if (t === 0) for (let c = 0; c < hd; c++) assert.ok(Math.abs(x[o + c] - orig[o + c]) < 1e-7);
      }
    const back = unrotateRope(x.subarray(0, T * hd), T, hd, tables);
    for (let i = 0; i < T * hd; i++) assert.ok(Math.abs(back[i] - orig[i]) < 1e-5);
  });

  it('refuses odd rotary dims and a non-positive θ', () => {
    assert.throws(() => ropeInverseFrequencies({ theta: 1e4, rotaryDim: 7, scaling: { type: 'default' } }), /even number/);
    assert.throws(() => ropeInverseFrequencies({ theta: 0, rotaryDim: 8, scaling: { type: 'default' } }), /rope_theta must be a positive number/);
  });
});

describe('RMSNorm', () => {
  it('divides by the root mean square and scales by w (Llama) or 1 + w (Gemma)', () => {
    const x = Float32Array.from([1, 2, 3, 4, -1, 0, 0, 1]);
    const w = Float32Array.from([1, 0.5, 2, 0]);
    const eps = 1e-6;
    for (const kind of ['weight', 'one-plus-weight'] as const) {
      const y = rmsNorm(x, 4, w, eps, kind);
      for (let r = 0; r < 2; r++) {
        let ms = 0;
        for (let j = 0; j < 4; j++) ms += x[r * 4 + j] ** 2 / 4;
        for (let j = 0; j < 4; j++) {
          const scale = kind === 'weight' ? w[j] : 1 + w[j];
          assert.ok(Math.abs(y[r * 4 + j] - (x[r * 4 + j] / Math.sqrt(ms + eps)) * scale) < 1e-6);
        }
      }
    }
    assert.throws(() => rmsNorm(x, 4, Float32Array.from([1, 2]), eps), /weight has 2 values for rows of 4/);
  });
});

describe('GQA head mapping', () => {
  it('maps runs of H/H_kv query heads to one kv head (repeat_interleave), MQA to head 0', () => {
    assert.deepEqual(kvHeadMap(4, 2), [0, 0, 1, 1]);
    assert.deepEqual(kvHeadMap(14, 2), [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
    assert.deepEqual(kvHeadMap(4, 1), [0, 0, 0, 0]);
    assert.deepEqual(kvHeadMap(3, 3), [0, 1, 2]);
    assert.equal(kvHeadOf(5, 8, 2), 1);
    assert.throws(() => kvHeadMap(4, 3), /3 key\/value heads must divide 4 query heads/);
    assert.throws(() => kvHeadOf(4, 4, 2), /query head 4 is outside 0..3/);
  });
});

describe('sliding window', () => {
  it('lets query i see keys i − window < j ≤ i, in the (T, T) mask too', () => {
    assert.equal(slidingWindowStart(0, 3), 0);
    assert.equal(slidingWindowStart(5, 3), 3);
    const T = 7,
      window = 3;
    const allowed = allowedRows({ causal: true, window }, T, 0, T)!;
    for (let i = 0; i < T; i++)
      for (let j = 0; j < T; j++) {
        assert.equal(allowed[i * T + j], inSlidingWindow(i, j, window) ? 1 : 0, `(${i}, ${j})`);
        assert.equal(inSlidingWindow(i, j, window), j <= i && i - j < window);
      }
  });
});

describe('soft-cap', () => {
  it('is cap·tanh(x/cap): near identity for small x, bounded by cap', () => {
    const x = Float32Array.from([0, 0.5, -3, 50, 1e6, -1e6]);
    softcapInPlace(x, 30);
    const expected = [0, 0.5, -3, 50, 1e6, -1e6].map((v) => 30 * Math.tanh(v / 30));
    x.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-5 * Math.max(1, Math.abs(expected[i]))));
    assert.ok(Math.abs(x[4]) <= 30);
    assert.throws(() => softcapInPlace(x, 0), /soft-cap must be a positive number/);
  });
});

describe('groupedAttention', () => {
  const H = 4,
    Hkv = 2,
    T = 9,
    hd = 4;
  const g = new TorchGenerator(11);
  const q = g.randn(H, T, hd),
    k = g.randn(Hkv, T, hd),
    v = g.randn(Hkv, T, hd);
  const kvHeads = kvHeadMap(H, Hkv);
  const mask = { causal: true, keyPadding: Uint8Array.from([1, 1, 1, 1, 1, 1, 1, 0, 0]), window: 3 };
  const head = (t: { data: Float32Array }, i: number) => ({ data: t.data.slice(i * T * hd, (i + 1) * T * hd), shape: [T, hd] });

  it('equals a float64 per-head reference with the kv head of each query head, the mask and the soft-cap; tiled = materialised', async () => {
    const softcap = 2;
    const full = await groupedAttention(q, k, v, { mask, scale: 0.7, softcap, kvHeads, materialise: true });
    const tiled = await groupedAttention(q, k, v, { mask, scale: 0.7, softcap, kvHeads, materialise: false });
    const allowed = allowedRows(mask, T, 0, T)!;
    for (let h = 0; h < H; h++) {
      const qh = head(q, h),
        kh = head(k, kvHeads[h]),
        vh = head(v, kvHeads[h]);
      // soft-capped scores: reference with q scaled so that q·k·scale goes through tanh
      const probs = new Float64Array(T * T);
      for (let i = 0; i < T; i++) {
        const row = new Float64Array(T).fill(-Infinity);
        for (let j = 0; j < T; j++) {
          if (!allowed[i * T + j]) continue;
          let s = 0;
          for (let c = 0; c < hd; c++) s += qh.data[i * hd + c] * kh.data[j * hd + c];
          row[j] = softcap * Math.tanh((s * 0.7) / softcap);
        }
        const m = Math.max(...row);
        let z = 0;
        for (let j = 0; j < T; j++) z += row[j] === -Infinity ? 0 : Math.exp(row[j] - m);
        for (let j = 0; j < T; j++) probs[i * T + j] = row[j] === -Infinity ? 0 : Math.exp(row[j] - m) / z;
      }
      for (let i = 0; i < T * T; i++) assert.ok(Math.abs(full.probs!.data[h * T * T + i] - probs[i]) < 1e-6, `head ${h} weight ${i}`);
      for (let i = 0; i < T; i++)
        for (let c = 0; c < hd; c++) {
          let o = 0;
          for (let j = 0; j < T; j++) o += probs[i * T + j] * vh.data[j * hd + c];
          assert.ok(Math.abs(full.context.data[(h * T + i) * hd + c] - o) < 1e-5);
        }
    }
    assert.equal(tiled.probs, undefined);
    tiled.context.data.forEach((x, i) => assert.ok(Math.abs(x - full.context.data[i]) < 1e-6));
  });

  it('without soft-cap and window matches the plain reference (headRows)', () => {
    const p = headRows(head(q, 1), head(k, 0), { causal: true }, 0.5, 0, T);
    const ref = referenceProbs(head(q, 1), head(k, 0), 0.5, allowedRows({ causal: true }, T, 0, T));
    p.forEach((x, i) => assert.ok(Math.abs(x - ref[i]) < 1e-6));
  });

  it("gives a query that sees no key HF eager's flat 1/T row when the mask asks for it, zeros otherwise", () => {
    // window 1 on a padded query: its only key (itself) is padding
    const m = { causal: true, window: 1, keyPadding: Uint8Array.from([1, 1, 1, 1, 1, 1, 1, 1, 0]) };
    const zero = headRows(head(q, 0), head(k, 0), m, 1, T - 1, T);
    assert.ok(zero.every((x) => x === 0));
    const flat = headRows(head(q, 0), head(k, 0), { ...m, fullyMasked: 'uniform' }, 1, T - 1, T);
    assert.ok(flat.every((x) => x === Math.fround(1 / T)));
  });
});

describe('namedWithFamily (the model name the panel title shows)', () => {
  it('puts the family before a label that does not name it', () => {
    assert.equal(namedWithFamily('llama', 'my-checkpoint'), 'Llama my-checkpoint');
    assert.equal(namedWithFamily('qwen3', 'tiny'), 'Qwen3 tiny');
  });
  it('does not repeat a family the label already names, however it is spelt', () => {
    assert.equal(namedWithFamily('llama', 'llama'), 'llama');
    assert.equal(namedWithFamily('gemma2', 'gemma-2-2b'), 'gemma-2-2b');
    assert.equal(namedWithFamily('phi3', 'Phi3-mini'), 'Phi3-mini');
    assert.equal(namedWithFamily('qwen2', 'Qwen2.5-0.5B'), 'Qwen2.5-0.5B');
  });
  it('keeps the family when the label names another generation', () => {
    assert.equal(namedWithFamily('gemma3', 'gemma-2-2b'), 'Gemma 3 gemma-2-2b');
  });
});
