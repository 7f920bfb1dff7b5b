// Warnings for flat and peaked attention: scale 1/d_k and a high temperature make the rows almost uniform
// (entropy close to ln n, the scaled scores spread far below 1), no scale or a low temperature makes them
// one-hot; the correct 1/sqrt(d_k) stays silent. Checked on the seeded model the debugger opens by default
// and on independent random q, k; the numbers in the messages are the trace's own statistics.
import { strict as assert } from 'node:assert';
import { numberRange, rowSpread, traceAttention, type AttentionTrace, type TraceOptions, type TraceWarningId } from '../../../src/engine';
import { InspectSession } from '../../../src/models/session';
import { randn } from './util';

const ids = (t: AttentionTrace) => t.warnings.map((w) => w.id).sort();
const find = (t: AttentionTrace, id: TraceWarningId) => t.warnings.find((w) => w.id === id);
const ratios = (t: AttentionTrace, rows: readonly number[]) => rows.map((i) => t.stats.entropy[i] / t.stats.lnVisible[i]);

describe('trace warnings: flat and one-hot rows', () => {
  describe('on the default example (seeded, 4 heads, d_model 64: d_k = 16)', () => {
    const session = new InspectSession();
    let runId = 0;
    let nHead = 0;
    before(async () => {
      await session.configure({ kind: 'seeded', seed: 0, heads: 4, dModel: 64 });
      const run = await session.run({ text: 'The cat sat on the mat because it was tired.', maxTokens: 512 });
      runId = run.runId;
      nHead = run.nHead;
    });
    const trace = (head: number, options: TraceOptions) => session.trace({ runId, layer: 0, head, options });

    it('1/sqrt(d_k) (the default): no warning on any head', () => {
      for (let h = 0; h < nHead; h++) assert.deepEqual(ids(trace(h, {})), [], `head ${h}`);
    });

    for (const [name, options] of [
      ['scale 1/d_k', { scale: { kind: 'inv-dk' } }],
      ['temperature 10', { temperature: 10 }],
    ] as const) {
      it(`${name}: every head warns that the rows are almost uniform, with the entropy against ln n and the spread against √d_k`, () => {
        for (let h = 0; h < nHead; h++) {
          const t = trace(h, options);
          const w = find(t, 'near-uniform-rows');
          assert.ok(w, `head ${h}: ${ids(t).join() || 'no warning'}`);
          assert.ok(w.rows.length * 2 >= t.L, `head ${h}: ${w.rows.length} of ${t.L} rows`);
          for (const r of ratios(t, w.rows)) assert.ok(r >= 0.95, `head ${h}: a listed row has entropy ${r} × ln n`);
          const m = rowSpread(t.stats, w.rows);
          assert.ok(m.scaledStd < 0.5, `head ${h}: scaled spread ${m.scaledStd}`);
          assert.ok(Math.abs(m.lnMax - Math.log(11)) < 1e-9, 'all 11 keys visible: ln n = ln 11');
          assert.ok(w.message.includes(`entropy ${numberRange(m.entropyMin, m.entropyMax)} nats against ln n = 2.4`), w.message);
          assert.ok(w.message.includes(`about √d_k = 4)`), w.message);
          assert.match(w.message, /multiplied by 0\.0(625|25), while 1\/sqrt\(d_k\) = 0\.25/);
        }
      });
    }

    it('temperature 0.1: one-hot rows, with their entropy against ln n', () => {
      const t = trace(0, { temperature: 0.1 });
      const w = find(t, 'saturated-rows');
      assert.ok(w, ids(t).join());
      const m = rowSpread(t.stats, w.rows);
      assert.ok(m.entropyMax < 0.1 * m.lnMin, `entropy up to ${m.entropyMax}`);
      assert.ok(w.message.includes(`entropy ${numberRange(m.entropyMin, m.entropyMax)} nats against ln n = 2.4`), w.message);
      assert.ok(!find(t, 'near-uniform-rows'));
    });
  });

  describe('on independent random q and k', () => {
    const [L, dk] = [10, 64];
    const q = randn([L, dk], 41);
    const k = randn([L, dk], 42);

    it('1/d_k with d_k = 64 flattens every row; 1/sqrt(d_k) does not', () => {
      const flat = traceAttention(q, k, k, { scale: { kind: 'inv-dk' } });
      assert.deepEqual(ids(flat), ['near-uniform-rows']);
      assert.equal(find(flat, 'near-uniform-rows')!.rows.length, L);
      assert.deepEqual(ids(traceAttention(q, k, k, {})), []);
    });

    it('rows with a single visible key count neither way, and a causal mask is allowed for', () => {
      const t = traceAttention(q, k, k, { scale: { kind: 'inv-dk' }, mask: { kind: 'causal', align: 'top-left' } });
      const w = find(t, 'near-uniform-rows');
      assert.ok(w, ids(t).join());
      assert.ok(!w.rows.includes(0), 'row 0 sees one key: its entropy is 0 = ln 1, not "uniform"');
      const m = rowSpread(t.stats, w.rows);
      assert.ok(m.lnMin < m.lnMax, 'rows see different numbers of keys');
      assert.match(w.message, /against ln n = [\d.]+–[\d.]+/);
    });

    it('the thresholds are options', () => {
      const never = traceAttention(q, k, k, { scale: { kind: 'inv-dk' }, scoreVarianceLowThreshold: 0 });
      assert.ok(!find(never, 'near-uniform-rows'));
      const strict = traceAttention(q, k, k, { scale: { kind: 'inv-dk' }, uniformEntropyRatio: 1 });
      assert.ok(!find(strict, 'near-uniform-rows'));
      assert.throws(() => traceAttention(q, k, k, { uniformEntropyRatio: -1 }), /uniformEntropyRatio must be a finite number/);
    });
  });

  it('numberRange gives one number when both ends agree to 3 digits', () => {
    assert.equal(numberRange(2.3512, 2.3891), '2.35–2.39');
    assert.equal(numberRange(2.39789, 2.39791), '2.4');
  });
});
