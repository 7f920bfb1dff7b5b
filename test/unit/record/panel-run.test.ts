import { strict as assert } from 'node:assert';
import { scaledDotProductAttention } from '../../../src/engine';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRecordedRun, forwardPassOf, parseTrace, readCallTensors, recordedAttention, recordedLabels, recordedTrace } from '../../../src/record';
import { tokenizerFromJson } from '../../../src/tokenize';
import { randoms, TraceBuilder } from './builders';

const LLAMA_TOKENIZER = readFileSync(join(__dirname, '..', '..', 'fixtures', 'modern', 'llama', 'tokenizer.json'));

const [B, H, T, d] = [2, 2, 4, 8];

function gpt2LikeTrace(passes: number): TraceBuilder {
  const b = new TraceBuilder();
  for (let p = 0; p < passes; p++) {
    for (let layer = 0; layer < 3; layer++) {
      const i = b.calls.length;
      const shape = [B, H, T, d];
      b.add({
        kind: 'sdpa',
        dtype: 'float32',
        module: `model.h.${layer}.attn`,
        moduleClass: 'Attention',
        shapes: { q: shape, k: shape, v: shape },
        params: { isCausal: true, scale: null },
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
    assert.deepEqual(
      forwardPassOf(trace, 1).map((c) => c.id),
      [0, 1, 2],
    );
    assert.deepEqual(
      forwardPassOf(trace, 4).map((c) => c.id),
      [3, 4, 5],
    );
  });

  it('builds a layers × heads run whose weights are the engine’s SDPA on the captured tensors', () => {
    const b = gpt2LikeTrace(1);
    const trace = parseTrace(b.text(), 'trace.json');
    const calls = forwardPassOf(trace, 0);
    const tensorsOf = (c: (typeof calls)[number]) => readCallTensors(c, b.reader());
    const labels = recordedLabels(calls[0], tensorsOf(calls[0]), b.reader(), 1);
    const rec = buildRecordedRun(trace, calls, tensorsOf, { runId: 7, batch: 1, labels });
    assert.equal(rec.run.nLayer, 3);
    assert.equal(rec.run.nHead, H);
    assert.equal(rec.run.seqLen, T);
    assert.deepEqual(
      rec.run.tokens.map((t) => t.display),
      ['9', '10', '[pad 0]', '[pad 0]'],
    );
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

  it('labels the axes with the token text of the tokenizer the recording saved, ids when it has none', () => {
    const b = gpt2LikeTrace(1);
    const tokenizer = tokenizerFromJson(LLAMA_TOKENIZER.toString('utf8'));
    const ids = tokenizer.encode('Hello world').map((t) => t.id!);
    assert.ok(ids.length >= 2);
    const L = ids.length;
    b.files.set('tokenizer-0.json', LLAMA_TOKENIZER);
    const shape = [1, 1, L, d];
    b.calls.length = 0;
    b.add({
      kind: 'sdpa',
      dtype: 'float32',
      shapes: { q: shape, k: shape, v: shape },
      params: { isCausal: true },
      tensors: {
        q: b.tensor(0, 'q', 'float32', shape, randoms(L * d, 1)),
        k: b.tensor(0, 'k', 'float32', shape, randoms(L * d, 2)),
        v: b.tensor(0, 'v', 'float32', shape, randoms(L * d, 3)),
        token_ids: b.tensor(0, 'token_ids', 'int64', [1, L], ids),
      },
      tokens: {
        paddingIdx: null,
        numEmbeddings: 420,
        module: 'model.embed_tokens',
        tokenizer: { name: 'llama', className: 'TokenizersBackend', vocabSize: 420, file: 'tokenizer-0.json' },
      },
    });
    const trace = parseTrace(b.text(), 'trace.json');
    const tensors = readCallTensors(trace.calls[0], b.reader());
    const labels = recordedLabels(trace.calls[0], tensors, b.reader(), 0);
    assert.deepEqual(
      labels.keys!.map((t) => t.display),
      tokenizer.decodeForDisplay!(ids),
    );
    assert.ok(
      labels.keys!.some((t) => /[A-Za-z]/.test(t.display)),
      'token text, not ids',
    );
    assert.deepEqual(
      labels.keys!.map((t) => t.id),
      ids,
    );
    const rec = buildRecordedRun(trace, trace.calls, (c) => readCallTensors(c, b.reader()), { runId: 3, batch: 0, labels });
    assert.deepEqual(
      rec.run.tokens.map((t) => t.display),
      labels.keys!.map((t) => t.display),
    );

    // A tokenizer.json that cannot be read leaves the ids.
    b.files.set('tokenizer-0.json', new TextEncoder().encode('{"model": 3}'));
    const ids2 = recordedLabels(trace.calls[0], tensors, b.reader(), 0);
    assert.deepEqual(
      ids2.keys!.map((t) => t.display),
      ids.map(String),
    );
  });

  it('shows T queries against S keys (a KV-cache step) with query labels, thumbnails and the debugger', () => {
    const b = new TraceBuilder();
    const [Bq, Hq, Tq, S] = [2, 2, 1, 3];
    const qs = [Bq, Hq, Tq, d];
    const ks = [Bq, Hq, S, d];
    b.add({
      kind: 'sdpa',
      dtype: 'float32',
      shapes: { q: qs, k: ks, v: ks },
      params: { isCausal: false },
      tensors: {
        q: b.tensor(0, 'q', 'float32', qs, randoms(Bq * Hq * Tq * d, 1)),
        k: b.tensor(0, 'k', 'float32', ks, randoms(Bq * Hq * S * d, 2)),
        v: b.tensor(0, 'v', 'float32', ks, randoms(Bq * Hq * S * d, 3)),
        token_ids: b.tensor(0, 'token_ids', 'int64', [Bq, S], [4, 5, 6, 7, 8, 9]),
        query_token_ids: b.tensor(0, 'query_token_ids', 'int64', [Bq, Tq], [6, 9]),
      },
      tokens: { paddingIdx: null, numEmbeddings: 50, module: 'wte', fromCache: true },
      queryTokens: { paddingIdx: null, numEmbeddings: 50, module: 'wte' },
    });
    const trace = parseTrace(b.text(), 'trace.json');
    const tensors = readCallTensors(trace.calls[0], b.reader());
    const labels = recordedLabels(trace.calls[0], tensors, b.reader(), 1);
    const rec = buildRecordedRun(trace, trace.calls, () => tensors, { runId: 5, batch: 1, labels });
    assert.equal(rec.run.seqLen, S);
    assert.deepEqual(
      rec.run.tokens.map((t) => t.display),
      ['7', '8', '9'],
    );
    assert.deepEqual(
      rec.run.queryTokens!.map((t) => t.display),
      ['9'],
    );
    assert.deepEqual({ ...rec.run.recorded, stepSources: undefined }, { batch: 1, batchSize: 2, callIds: [0], stepSources: undefined });
    const at = { path: '/ws/prog.py', line: 7, column: 1 };
    assert.deepEqual(rec.run.recorded!.stepSources, [[[at], [at], [at], [at], [at]]], 'every step of an SDPA call is its line');
    const q = tensors.get('q')!.tensor;
    const ref = scaledDotProductAttention(q as never, tensors.get('k')!.tensor as never, tensors.get('v')!.tensor as never).probs;
    const off = (1 * Hq + 1) * Tq * S; // batch 1, head 1
    const head = recordedAttention(rec, { runId: 5, layer: 0, head: 1 });
    assert.equal(head.rows, Tq);
    assert.equal(head.cols, S);
    assert.deepEqual(Array.from(head.data), Array.from(ref.data.subarray(off, off + Tq * S)));
    assert.equal(rec.run.attentions!.length, Hq * Tq * S);
    // The thumbnail stretches the one query row over the whole square, each column the mean of its keys.
    const size = rec.run.thumbnails.size;
    assert.equal(size, S);
    const thumb = rec.run.thumbnails.data.subarray(size * size, 2 * size * size);
    for (let a = 0; a < size; a++) for (let j = 0; j < S; j++) assert.ok(Math.abs(thumb[a * size + j] - ref.data[off + j]) < 1e-7);
    const stepped = recordedTrace(rec, { runId: 5, layer: 0, head: 1, options: {} });
    assert.deepEqual(stepped.probs.shape, [Tq, S]);
    for (let j = 0; j < S; j++) assert.ok(Math.abs(stepped.probs.data[j] - ref.data[off + j]) < 1e-6);
    assert.throws(() => buildRecordedRun(trace, trace.calls, () => tensors, { runId: 6, batch: 2 }), /batch element 2 is out of range \(batch size 2\)/);
  });
});
