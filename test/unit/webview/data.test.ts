// What arrives from the host, made dependable: typed arrays in any serialised form, NaN restored where JSON
// turned it into null, one head sliced out of a run, the run's causal flag, whole and block-averaged head
// answers checked against the run, and a bounded head cache.
// Runs come from the real InspectSession with seeded weights.
import { strict as assert } from 'node:assert';
import { InspectSession } from '../../../src/models/session';
import { HeadCache, headFromRun, normaliseAttention, normaliseRun, normaliseTrace, thumbnailOf, toF32 } from '../../../webview/data';

async function seededRun(causal: boolean, text = 'the cat sat on the mat because it was tired') {
  const session = new InspectSession();
  await session.configure({ kind: 'seeded', seed: 3, heads: 2, dModel: 16 });
  const run = await session.run({ text, maxTokens: 64, causal });
  return { session, run };
}

describe('webview data', () => {
  it('reads typed arrays, buffers, arrays with nulls, and JSON-serialised typed arrays', () => {
    const f = new Float32Array([1, -Infinity, NaN]);
    assert.equal(toF32(f, 'x'), f);
    assert.deepEqual(Array.from(toF32(f.buffer, 'x')), [1, -Infinity, NaN]);
    assert.deepEqual(Array.from(toF32([1, null, 2], 'x')), [1, NaN, 2]);
    assert.deepEqual(Array.from(toF32(JSON.parse(JSON.stringify(new Float32Array([0.5, 2]))), 'x')), [0.5, 2]);
    assert.deepEqual(Array.from(toF32(new Float64Array([0.25]), 'x')), [0.25]);
    assert.throws(() => toF32('no', 'run.thumbnails.data'), /run.thumbnails.data: expected numbers, got string/);
  });

  it('checks a run’s sizes and slices heads and thumbnails out of it', async () => {
    const { run } = await seededRun(false);
    const n = normaliseRun(run);
    const T = n.seqLen;
    const head1 = headFromRun(n, 0, 1)!;
    assert.equal(head1.length, T * T);
    assert.deepEqual(Array.from(head1), Array.from(run.attentions!.subarray(T * T, 2 * T * T)));
    assert.equal(thumbnailOf(n, 0, 1).length, n.thumbnails.size ** 2);
    assert.equal(headFromRun({ ...n, attentions: undefined }, 0, 0), undefined);
    assert.throws(() => normaliseRun({ ...run, seqLen: T + 1 }), /tokens but seqLen/);
    assert.throws(() => normaliseRun({ ...run, attentions: new Float32Array(3) }), /run.attentions holds 3 values/);
    assert.throws(() => normaliseRun({ ...run, thumbnails: { size: 0, data: new Float32Array() } }), /thumbnails.size/);
    const whole = { data: new Float32Array(4), seqLen: 3, rowStart: 0, rowEnd: 3, rows: 3, cols: 3, block: 1 };
    assert.throws(() => normaliseAttention(whole, 3), /holds 4 values, expected 3²/);
  });

  it('takes the causal flag from the run (and from the model for a run without one)', async () => {
    assert.equal(normaliseRun((await seededRun(true)).run).causal, true);
    assert.equal(normaliseRun((await seededRun(false)).run).causal, false);
    assert.equal(normaliseRun((await seededRun(true, 'one')).run).causal, true, 'one token is still a causal run');
    const { run } = await seededRun(false);
    const old = { ...run, causal: undefined as unknown as boolean };
    assert.equal(normaliseRun(old).causal, false);
    assert.equal(normaliseRun({ ...old, model: { ...run.model, causal: true } }).causal, true);
  });

  it('reads whole, partial and block-averaged head answers and refuses ones that do not fit the run', async () => {
    const { session, run } = await seededRun(false, Array.from({ length: 23 }, (_, i) => `w${i}`).join(' '));
    const T = run.seqLen;
    const whole = normaliseAttention(session.attention({ runId: run.runId, layer: 0, head: 1 }), T);
    assert.deepEqual([whole.rows, whole.cols, whole.block, whole.rowStart, whole.rowEnd], [T, T, 1, 0, T]);
    const rows = normaliseAttention(session.attention({ runId: run.runId, layer: 0, head: 1, rowStart: 5, rowEnd: 9 }), T);
    assert.deepEqual([rows.rows, rows.cols, rows.rowStart], [4, T, 5]);
    assert.deepEqual(Array.from(rows.values), Array.from(whole.values.subarray(5 * T, 9 * T)));
    const blocks = normaliseAttention(session.attention({ runId: run.runId, layer: 0, head: 1, downsample: 5 }), T);
    assert.deepEqual([blocks.rows, blocks.cols, blocks.block], [5, 5, 5], '23 tokens in blocks of ceil(23 / 5) = 5');
    const raw = session.attention({ runId: run.runId, layer: 0, head: 1, downsample: 5 });
    assert.throws(() => normaliseAttention({ ...raw, rows: 4 }, T), /attention is 4×5, expected 5×5/);
    assert.throws(() => normaliseAttention({ ...raw, data: new Float32Array(24) }, T), /holds 24 values, expected 5×5/);
    assert.throws(() => normaliseAttention({ ...raw, rowEnd: T + 1 }, T), /does not fit 23 tokens/);
    assert.throws(() => normaliseAttention({ ...raw, block: 0 }, T), /does not fit/);
    assert.throws(() => normaliseAttention({ ...raw, rowStart: -1 }, T), /rowStart must be a non-negative integer/);
  });

  it('restores NaN in a trace that went through JSON, keeping the tensors', async () => {
    const { session, run } = await seededRun(false);
    const trace = session.trace({
      runId: run.runId,
      layer: 0,
      head: 0,
      options: { mask: { kind: 'padding', padLast: run.seqLen, builtAs: 'true-means-pad', passedTo: 'mha' } },
    });
    assert.ok(trace.stats.nanRows.length > 0, 'every key masked gives NaN rows');
    // What JSON does to the plain number arrays (the tensors travel as buffers and keep their NaN).
    const stats = JSON.parse(JSON.stringify(trace.stats));
    assert.equal(stats.entropy[0], null);
    const n = normaliseTrace({ ...trace, stats });
    assert.ok(Number.isNaN(n.stats.entropy[0]) && Number.isNaN(n.stats.maxWeight[0]) && Number.isNaN(n.stats.lnVisible[0]));
    assert.equal(n.probs.data, trace.probs.data);
    assert.throws(() => normaliseTrace({ ...trace, probs: { data: new Float32Array(2), shape: [3, 3] } }), /trace.probs holds 2 values for shape \(3, 3\)/);
  });

  it('keeps the most recently used heads within its byte budget', () => {
    const c = new HeadCache(3 * 400);
    for (const k of ['a', 'b', 'c']) c.set(k, new Float32Array(100));
    assert.ok(c.get('a'));
    c.set('d', new Float32Array(100));
    assert.equal(c.get('b'), undefined, 'the least recently used head went first');
    assert.ok(c.get('a') && c.get('c') && c.get('d'));
    c.set('big', new Float32Array(1000));
    assert.ok(c.get('big'), 'the newest entry stays even when it alone is over budget');
    assert.equal(c.size, 1);
  });
});
