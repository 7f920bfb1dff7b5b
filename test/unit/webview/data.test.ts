// What arrives from the host, made dependable: typed arrays in any serialised form, NaN restored where JSON
// turned it into null, one head sliced out of a run, causal runs recognised, and a bounded head cache.
// Runs come from the real InspectSession with seeded weights.
import { strict as assert } from 'node:assert';
import { InspectSession } from '../../../src/models/session';
import { HeadCache, headFromRun, looksCausal, normaliseAttention, normaliseRun, normaliseTrace, thumbnailOf, toF32 } from '../../../webview/data';

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
    assert.throws(() => normaliseAttention({ data: new Float32Array(4), seqLen: 3 }, 3), /holds 4 values, expected 3²/);
  });

  it('recognises a causal run from its thumbnails', async () => {
    assert.equal(looksCausal((await seededRun(true)).run), true);
    assert.equal(looksCausal((await seededRun(false)).run), false);
    assert.equal(looksCausal((await seededRun(true, 'one')).run), false, 'one token says nothing');
  });

  it('restores NaN in a trace that went through JSON, keeping the tensors', async () => {
    const { session, run } = await seededRun(false);
    const trace = session.trace({ runId: run.runId, layer: 0, head: 0, options: { mask: { kind: 'padding', padLast: run.seqLen, builtAs: 'true-means-pad', passedTo: 'mha' } } });
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
