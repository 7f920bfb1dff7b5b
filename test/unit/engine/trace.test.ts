// The debugger's step trace: agreement with SDPA/torch, statistics against float64 recomputation,
// and warnings that fire for the bug they name and stay silent for correct settings.
import { strict as assert } from 'node:assert';
import {
  causalLowerRight,
  select,
  contiguous,
  traceAttention,
  type MaskChoice,
  type TraceOptions,
  type TraceWarningId,
  type Tensor,
  type AnyTensor,
} from '../../../src/engine';
import { assertClose, loadFixture, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';
import { randn, row } from './util';

const ids = (t: { warnings: { id: TraceWarningId }[] }) => t.warnings.map((w) => w.id).sort();
const warning = (t: { warnings: { id: TraceWarningId; rows: number[]; message: string }[] }, id: TraceWarningId) => t.warnings.find((w) => w.id === id);

/** Head (b, h) of a [B, H, T, D] tensor as (T, D). */
function head(t: Tensor, b: number, h: number): Tensor {
  return contiguous(select(select(t, 0, b), 0, h));
}

describe('traceAttention', () => {
  describe('agrees with torch SDPA head by head (sdpa.json)', () => {
    const fixture = loadFixture<{
      cases: Array<{ name: string; params: Record<string, any>; inputs: Record<string, JsonTensor>; expected: Record<string, JsonTensor> }>;
    }>('sdpa');
    for (const c of fixture.cases) {
      it(c.name, () => {
        const [q, k, v] = [c.inputs.q, c.inputs.k, c.inputs.v].map(toFloat);
        const [out, probs] = [c.expected.out, c.expected.probs].map(toFloat);
        const { B, H, H_kv, L, S } = c.params;
        const mask: MaskChoice[] = [];
        if (c.params.is_causal) mask.push({ kind: 'causal', align: 'top-left' });
        const attnMask = c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : null;
        const scale: TraceOptions['scale'] = c.params.scale === null ? { kind: 'inv-sqrt-dk' } : { kind: 'custom', value: c.params.scale };
        for (let b = 0; b < B; b++)
          for (let h = 0; h < H; h++) {
            const hk = Math.floor(h / (H / H_kv));
            const headMask = [...mask];
            if (attnMask) {
              // The mask as seen by head (b, h): index its leading dims (size 1 broadcasts).
              const lead = attnMask.shape.length - 2;
              const idx = [b, h].slice(2 - lead);
              let off = 0;
              attnMask.shape.slice(0, lead).forEach((d, i) => {
                off = off * d + (d === 1 ? 0 : idx[i]);
              });
              const data = attnMask.data.subarray(off * L * S, (off + 1) * L * S);
              headMask.push({ kind: 'explicit', mask: { ...attnMask, data, shape: [L, S] } as AnyTensor });
            }
            const t = traceAttention(head(q, b, h), head(k, b, hk), head(v, b, hk), { scale, mask: headMask, fullyMaskedRows: 'zero' });
            assertClose(t.probs, head(probs, b, h), { label: `${c.name} probs[${b},${h}]` });
            assertClose(t.output, head(out, b, h), { label: `${c.name} out[${b},${h}]` });
          }
      });
    }
  });

  it('the bottom-right causal switch equals torch causal_lower_right, and top-left equals tril', () => {
    const q = randn([3, 8], 1);
    const k = randn([6, 8], 2);
    const br = traceAttention(q, k, k, { mask: { kind: 'causal', align: 'bottom-right' } });
    assert.deepEqual(Array.from(br.allowed.data), Array.from(causalLowerRight(3, 6).data));
    const tl = traceAttention(q, k, k, { mask: { kind: 'causal', align: 'top-left' } });
    for (let i = 0; i < 3; i++) for (let j = 0; j < 6; j++) assert.equal(tl.allowed.data[i * 6 + j], j <= i ? 1 : 0);
  });

  it('every step and statistic matches a float64 recomputation', () => {
    const [L, S, dk, dv] = [5, 7, 16, 3];
    const q = randn([L, dk], 11);
    const k = randn([S, dk], 12);
    const v = randn([S, dv], 13);
    const t = traceAttention(q, k, v, {
      scale: { kind: 'custom', value: 0.4 },
      temperature: 2,
      mask: { kind: 'padding', padLast: 2, builtAs: 'true-means-pad', passedTo: 'mha' },
    });
    assert.equal(t.scale, 0.4);
    assert.equal(t.effectiveScale, 0.2);
    for (let i = 0; i < L; i++) {
      const raw = Array.from({ length: S }, (_, j) => {
        let s = 0;
        for (let p = 0; p < dk; p++) s += q.data[i * dk + p] * k.data[j * dk + p];
        return s;
      });
      const scaled = raw.map((s) => s * 0.2);
      const masked = scaled.map((s, j) => (j >= S - 2 ? -Infinity : s));
      const m = Math.max(...masked);
      const e = masked.map((s) => Math.exp(s - m));
      const z = e.reduce((a, b) => a + b, 0);
      const p = e.map((x) => x / z);
      assertClose(row(t.scores, i), raw, { atol: 1e-5, label: `scores row ${i}` });
      assertClose(row(t.masked, i), masked, { atol: 1e-5, label: `masked row ${i}` });
      assertClose(row(t.probs, i), p, { atol: 1e-6, label: `probs row ${i}` });
      const out = Array.from({ length: dv }, (_, c) => p.reduce((s, pj, j) => s + pj * v.data[j * dv + c], 0));
      assertClose(row(t.output, i), out, { atol: 1e-6, label: `output row ${i}` });
      const entropy = -p.reduce((s, x) => s + (x > 0 ? x * Math.log(x) : 0), 0);
      assert.ok(Math.abs(t.stats.entropy[i] - entropy) < 1e-6);
      assert.equal(t.stats.visibleKeys[i], S - 2);
      assert.equal(t.stats.lnVisible[i], Math.log(S - 2));
      assert.ok(Math.abs(t.stats.rowSums[i] - 1) < 1e-6);
      assert.equal(t.stats.argmax[i], p.indexOf(Math.max(...p)));
      const mean = raw.reduce((a, b) => a + b, 0) / S;
      const variance = raw.reduce((a, b) => a + (b - mean) ** 2, 0) / (S - 1);
      assert.ok(Math.abs(t.stats.rawMean[i] - mean) < 1e-5);
      assert.ok(Math.abs(t.stats.rawVariance[i] - variance) < 1e-4 * variance);
      assert.ok(Math.abs(t.stats.scaledVariance[i] - variance * 0.04) < 1e-4 * variance * 0.04);
    }
    for (let j = 0; j < S; j++) {
      const col = Array.from({ length: L }, (_, i) => t.probs.data[i * S + j]).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(t.stats.colSums[j] - col) < 1e-6);
    }
    assert.deepEqual(t.paddedKeys, [5, 6]);
    assert.deepEqual(ids(t), []);
  });

  describe('warnings', () => {
    const [L, dk] = [8, 16];
    const q = randn([L, dk], 21);
    const k = randn([L, dk], 22);
    const v = randn([L, dk], 23);

    it('stay silent for a correct causal self-attention', () => {
      const t = traceAttention(q, k, v, { mask: { kind: 'causal', align: 'top-left' } });
      assert.deepEqual(ids(t), []);
      assert.equal(t.causalIntent, 'top-left');
    });

    it("'rows-not-normalized' fires for softmax over dim -2 and names the cause", () => {
      const t = traceAttention(q, k, v, { softmaxDim: -2 });
      const w = warning(t, 'rows-not-normalized');
      assert.ok(w, ids(t).join());
      assert.match(w.message, /dim -2/);
      assert.ok(w.rows.length > 0);
      // columns are the ones that sum to 1 now
      t.stats.colSums.forEach((c) => assert.ok(Math.abs(c - 1) < 1e-5));
    });

    it("'attends-only-padding' fires when the padding mask is built in one convention and read in the other", () => {
      const pad = (builtAs: 'true-means-pad' | 'true-means-keep', passedTo: 'sdpa' | 'mha') =>
        traceAttention(q, k, v, { mask: { kind: 'padding', padLast: 3, builtAs, passedTo } });
      for (const [builtAs, passedTo, bug] of [
        ['true-means-pad', 'sdpa', true],
        ['true-means-keep', 'mha', true],
        ['true-means-keep', 'sdpa', false],
        ['true-means-pad', 'mha', false],
      ] as const) {
        const t = pad(builtAs, passedTo);
        assert.equal(t.padding[0].inverted, bug, `${builtAs} → ${passedTo}`);
        if (bug) {
          const w = warning(t, 'attends-only-padding');
          assert.ok(w, `${builtAs} → ${passedTo}: ${ids(t).join()}`);
          assert.equal(w.rows.length, L);
          assert.match(w.message, /invert it/);
          t.stats.paddingWeight.forEach((pw) => assert.ok(Math.abs(pw - 1) < 1e-6));
        } else {
          assert.deepEqual(ids(t), [], `${builtAs} → ${passedTo}`);
          t.stats.paddingWeight.forEach((pw) => assert.equal(pw, 0));
        }
      }
    });

    it('an inverted mask without padding masks every row: NaN rows with a plain softmax, silent zeros with SDPA', () => {
      const opts = { mask: { kind: 'padding', padLast: 0, builtAs: 'true-means-pad', passedTo: 'sdpa' } as MaskChoice };
      const nan = traceAttention(q, k, v, { ...opts, fullyMaskedRows: 'nan' });
      assert.deepEqual(ids(nan), ['nan-rows']);
      assert.equal(warning(nan, 'nan-rows')!.rows.length, L);
      assert.ok(nan.output.data.every(Number.isNaN));
      const zero = traceAttention(q, k, v, { ...opts, fullyMaskedRows: 'zero' });
      assert.deepEqual(ids(zero), ['fully-masked-zero-rows']);
      assert.ok(zero.output.data.every((x) => x === 0));
      assert.deepEqual(
        zero.stats.fullyMaskedRows,
        Array.from({ length: L }, (_, i) => i),
      );
    });

    it("'saturated-rows' and 'score-variance-high' fire without the scale (d_k = 64), not with 1/sqrt(d_k); 1/d_k gives near-uniform rows", () => {
      const q64 = randn([L, 64], 31);
      const k64 = randn([L, 64], 32);
      const none = traceAttention(q64, k64, k64, { scale: { kind: 'none' } });
      assert.ok(warning(none, 'saturated-rows'), ids(none).join());
      assert.ok(warning(none, 'score-variance-high'));
      assert.ok(none.stats.overall.rawVarianceOverDk > 0.5 && none.stats.overall.rawVarianceOverDk < 2);
      assert.deepEqual(ids(traceAttention(q64, k64, k64, { scale: { kind: 'inv-sqrt-dk' } })), []);
      const invDk = traceAttention(q64, k64, k64, { scale: { kind: 'inv-dk' } });
      assert.deepEqual(ids(invDk), ['near-uniform-rows']);
      assert.ok(
        invDk.stats.entropy.every((h, i) => h > 0.95 * invDk.stats.lnVisible[i]),
        '1/d_k flattens towards uniform',
      );
    });

    it('a low temperature saturates the softmax; the threshold is an option', () => {
      const cold = traceAttention(q, k, v, { temperature: 0.05 });
      assert.ok(warning(cold, 'saturated-rows'));
      const t = traceAttention(q, k, v, {});
      const lower = Math.min(...t.stats.maxWeight) - 1e-6;
      const all = traceAttention(q, k, v, { saturationThreshold: lower });
      assert.equal(warning(all, 'saturated-rows')!.rows.length, L);
    });

    it('a row with a single visible key is not called saturated', () => {
      const t = traceAttention(q, k, v, { mask: { kind: 'causal', align: 'top-left' }, temperature: 0.05 });
      assert.ok(!warning(t, 'saturated-rows')!.rows.includes(0));
    });

    it("'future-visible' fires when causal intent meets a missing or misaligned mask", () => {
      const none = traceAttention(q, k, v, { causalIntent: 'top-left' });
      const w = warning(none, 'future-visible');
      assert.ok(w);
      assert.deepEqual(w.rows, [0, 1, 2, 3, 4, 5, 6]); // the last row has no future
      assert.match(w.message, /no causal mask/);
      // KV cache: 3 new queries over 8 keys. Top-left hides more than intended (no leak, no warning);
      // bottom-right intent with bottom-right mask is right; top-left intent with bottom-right mask leaks.
      const q3 = randn([3, dk], 41);
      assert.deepEqual(ids(traceAttention(q3, k, v, { mask: { kind: 'causal', align: 'top-left' }, causalIntent: 'bottom-right' })), []);
      assert.deepEqual(ids(traceAttention(q3, k, v, { mask: { kind: 'causal', align: 'bottom-right' } })), []);
      const leak = traceAttention(q3, k, v, { mask: { kind: 'causal', align: 'bottom-right' }, causalIntent: 'top-left' });
      assert.deepEqual(warning(leak, 'future-visible')?.rows, [0, 1, 2]);
      assert.match(warning(leak, 'future-visible')!.message, /bottom-right aligned/);
    });

    it('masks combine, and an explicit MHA-convention bool mask is read as True = ignore', () => {
      const ignoreLast = { data: Uint8Array.from({ length: L }, (_, j) => (j === L - 1 ? 1 : 0)), shape: [1, L], dtype: 'bool' as const };
      const t = traceAttention(q, k, v, {
        mask: [
          { kind: 'causal', align: 'top-left' },
          { kind: 'explicit', mask: ignoreLast, trueMeans: 'ignore' },
        ],
      });
      for (let i = 0; i < L; i++) for (let j = 0; j < L; j++) assert.equal(t.allowed.data[i * L + j], j <= i && j !== L - 1 ? 1 : 0);
      const floatMask = { data: Float32Array.from({ length: L }, (_, j) => -j), shape: [L] };
      const f = traceAttention(q, k, v, { mask: { kind: 'explicit', mask: floatMask } });
      for (let j = 0; j < L; j++) assert.ok(Math.abs(f.bias.data[3 * L + j] + j) === 0);
    });

    it('the trace is plain data: structuredClone keeps it intact', () => {
      const t = traceAttention(q, k, v, { mask: { kind: 'causal', align: 'top-left' } });
      assert.deepEqual(structuredClone(t), t);
    });
  });
});
