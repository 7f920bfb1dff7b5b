import { strict as assert } from 'node:assert';
import { scaledDotProductAttention } from '../../../src/engine';
import { buildRecordedRun, forwardPassOf, parseTrace, readCallTensors, recordedAttention, recordedTrace } from '../../../src/record';
import { randoms, TraceBuilder } from './builders';

const [B, H, T, d] = [2, 2, 4, 8];

function gpt2LikeTrace(passes: number): TraceBuilder {
  const b = new TraceBuilder();
  for (let p = 0; p < passes; p++) {
    for (let layer = 0; layer < 3; layer++) {
      const i = b.calls.length;
      const shape = [B, H, T, d];
      b.add({
        kind: 'sdpa', dtype: 'float32', module: `model.h.${layer}.attn`, moduleClass: 'Attention',
        shapes: { q: shape, k: shape, v: shape }, params: { isCausal: true, scale: null },
        tensors: {
          q: b.tensor(i, 'q', 'float32', shape, randoms(B * H * T * d, 10 * i + 1)),
          k: b.tensor(i, 'k', 'float32', shape, randoms(B * H * T * d, 10 * i + 2)),
          v: b.tensor(i, 'v', 'float32', shape, randoms(B * H * T * d, 10 * i + 3)),
          token_ids: b.tensor(i, 'token_ids', 'int64', [B, T], [5, 6, 7, 8, 9, 10, 0, 0]),
        },
        tokens: { paddingIdx: 0, numEmbeddings: 50, module: 'model.wte' },
      });
    }
  }
  return b;
}

describe('record: recorded calls in the panel', () => {
  it('groups the calls of one forward pass as layers', () => {
    const trace = parseTrace(gpt2LikeTrace(2).text(), 'trace.json');
    assert.deepEqual(forwardPassOf(trace, 1).map((c) => c.id), [0, 1, 2]);
    assert.deepEqual(forwardPassOf(trace, 4).map((c) => c.id), [3, 4, 5]);
  });

  it('builds a layers × heads run whose weights are the engine’s SDPA on the captured tensors', () => {
    const b = gpt2LikeTrace(1);
    const trace = parseTrace(b.text(), 'trace.json');
    const calls = forwardPassOf(trace, 0);
    const tensorsOf = (c: (typeof calls)[number]) => readCallTensors(c, b.reader());
    const ids = tensorsOf(calls[0]).get('token_ids')!.tensor.data as Float32Array;
    const rec = buildRecordedRun(trace, calls, tensorsOf, { runId: 7, batch: 1, tokenIds: ids, paddingIdx: 0 });
    assert.equal(rec.run.nLayer, 3);
    assert.equal(rec.run.nHead, H);
    assert.equal(rec.run.seqLen, T);
    assert.deepEqual(rec.run.tokens.map((t) => t.display), ['9', '10', '[pad 0]', '[pad 0]']);
    const t1 = tensorsOf(calls[1]);
    const q = t1.get('q')!.tensor;
    const ref = scaledDotProductAttention(q as never, t1.get('k')!.tensor as never, t1.get('v')!.tensor as never, { isCausal: true }).probs;
    const head = recordedAttention(rec, { runId: 7, layer: 1, head: 1 });
    const off = (1 * H + 1) * T * T; // batch 1, head 1
    assert.deepEqual(Array.from(head.data), Array.from(ref.data.subarray(off, off + T * T)));
    const down = recordedAttention(rec, { runId: 7, layer: 1, head: 1, downsample: 2 });
    assert.equal(down.block, 2);
    assert.equal(down.rows, 2);
    const trace1 = recordedTrace(rec, { runId: 7, layer: 1, head: 1, options: {} });
    // The call's own causal mask is part of the trace: nothing above the diagonal.
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) assert.equal(trace1.probs.data[i * T + j], 0);
    for (let i = 0; i < T * T; i++) assert.ok(Math.abs(trace1.probs.data[i] - ref.data[off + i]) < 1e-6);
  });

  it('refuses calls it cannot show, with a reason', () => {
    const b = new TraceBuilder();
    b.add({ kind: 'sdpa', dtype: 'float32', shapes: {}, params: { isCausal: true }, tensors: {
      q: b.tensor(0, 'q', 'float32', [1, 1, 1, 2], [1, 2]), k: b.tensor(0, 'k', 'float32', [1, 1, 3, 2], [1, 2, 3, 4, 5, 6]), v: b.tensor(0, 'v', 'float32', [1, 1, 3, 2], [1, 2, 3, 4, 5, 6]),
    } });
    const trace = parseTrace(b.text(), 'trace.json');
    assert.throws(() => buildRecordedRun(trace, trace.calls, (c) => readCallTensors(c, b.reader()), { runId: 1, batch: 0 }), /has 1 queries and 3 keys: the panel shows square/);
  });
});
