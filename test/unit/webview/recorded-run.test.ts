// A recorded call of T queries against S keys (a KV-cache step), built by the real src/record pipeline, as the
// panel reads it: the run checked and sliced (T × S heads), head answers, tooltips, axis labels, CSV, the
// cursor kept inside the run, and the batch picker's message validated.
import { strict as assert } from 'node:assert';
import { buildRecordedRun, parseTrace, readCallTensors, recordedAttention, recordedLabels } from '../../../src/record';
import { parseFromWebview } from '../../../src/protocol/webview';
import { fullHead, headFromRun, normaliseAttention, normaliseRun, queryTokensOf } from '../../../webview/data';
import { longCsv } from '../../../webview/exports';
import { cellLabels, describeHeadCell } from '../../../webview/head-view';
import { defaultState, fitStateToRun } from '../../../webview/state';
import { randoms, TraceBuilder } from '../record/builders';

const [B, H, T, S, d] = [3, 2, 2, 5, 4];

function kvCacheRun(batch: number) {
  const b = new TraceBuilder();
  const qs = [B, H, T, d];
  const ks = [B, H, S, d];
  b.add({
    kind: 'sdpa',
    dtype: 'float32',
    module: 'model.layers.0.self_attn',
    shapes: { q: qs, k: ks, v: ks },
    params: { isCausal: false },
    tensors: {
      q: b.tensor(0, 'q', 'float32', qs, randoms(B * H * T * d, 1)),
      k: b.tensor(0, 'k', 'float32', ks, randoms(B * H * S * d, 2)),
      v: b.tensor(0, 'v', 'float32', ks, randoms(B * H * S * d, 3)),
      token_ids: b.tensor(
        0,
        'token_ids',
        'int64',
        [B, S],
        Array.from({ length: B * S }, (_, i) => 10 + i),
      ),
      query_token_ids: b.tensor(
        0,
        'query_token_ids',
        'int64',
        [B, T],
        Array.from({ length: B * T }, (_, i) => 50 + i),
      ),
    },
    tokens: { paddingIdx: null, numEmbeddings: 99, module: 'wte', fromCache: true },
    queryTokens: { paddingIdx: null, numEmbeddings: 99, module: 'wte' },
  });
  const trace = parseTrace(b.text(), 'trace.json');
  const tensors = readCallTensors(trace.calls[0], b.reader());
  return buildRecordedRun(trace, trace.calls, () => tensors, { runId: 9, batch, labels: recordedLabels(trace.calls[0], tensors, b.reader(), batch) });
}

describe('webview: a recorded call with T queries and S keys', () => {
  it('reads the run, slices (T, S) heads and labels rows with the queries and columns with the keys', () => {
    const rec = kvCacheRun(2);
    const run = normaliseRun(
      JSON.parse(
        JSON.stringify({
          ...rec.run,
          attentions: Array.from(rec.run.attentions!),
          thumbnails: { size: rec.run.thumbnails.size, data: Array.from(rec.run.thumbnails.data) },
          headEntropy: Array.from(rec.run.headEntropy),
        }),
      ),
    );
    assert.equal(run.seqLen, S);
    assert.deepEqual(
      queryTokensOf(run).map((t) => t.display),
      ['54', '55'],
    );
    assert.deepEqual(
      run.tokens.map((t) => t.display),
      ['20', '21', '22', '23', '24'],
    );
    assert.deepEqual([run.recorded!.batch, run.recorded!.batchSize, run.recorded!.callIds], [2, B, [0]]);
    const inline = headFromRun(run, 0, 1)!;
    const answer = recordedAttention(rec, { runId: 9, layer: 0, head: 1 });
    assert.deepEqual(Array.from(inline), Array.from(answer.data));
    const m = normaliseAttention(answer, T, S);
    assert.deepEqual([m.rows, m.cols], [T, S]);
    assert.deepEqual(fullHead(inline, T, S), { ...m, values: inline });
    const keys = run.tokens.map((t) => t.display);
    const queries = queryTokensOf(run).map((t) => t.display);
    assert.deepEqual(cellLabels(m, queries, 'rows'), ['54', '55']);
    assert.deepEqual(cellLabels(m, keys, 'cols'), keys);
    assert.equal(describeHeadCell(m, keys, 1, 4, queries)[0], 'Query 1 “55” → key 4 “24”');
    // Each row is a softmax over the S keys.
    for (let r = 0; r < T; r++) assert.ok(Math.abs(inline.subarray(r * S, (r + 1) * S).reduce((a, x) => a + x, 0) - 1) < 1e-5);
    const down = normaliseAttention(recordedAttention(rec, { runId: 9, layer: 0, head: 1, downsample: 2 }), T, S);
    assert.deepEqual([down.rows, down.cols, down.block], [1, 2, 3]);
    assert.ok(Math.abs(down.values[0] - (inline[0] + inline[1] + inline[2] + inline[S] + inline[S + 1] + inline[S + 2]) / 6) < 1e-6);
    assert.throws(() => normaliseRun({ ...rec.run, attentions: new Float32Array(H * S * S) }), /expected 1·2·2·5/);
  });

  it('exports every weight with the query and key tokens, and keeps the cursor inside T × S', () => {
    const rec = kvCacheRun(0);
    const run = rec.run;
    const rows = longCsv(
      run.attentions!,
      1,
      H,
      run.tokens.map((t) => t.display),
      0,
      queryTokensOf(run).map((t) => t.display),
    )
      .trim()
      .split('\r\n');
    assert.equal(rows.length, 1 + H * T * S);
    assert.equal(rows[1 + S + 2].split(',').slice(2, 6).join(','), '1,51,2,12');
    const s = { ...defaultState(), cursor: { row: 1, col: 4 } };
    assert.deepEqual(fitStateToRun(s, 1, H, S, T).cursor, { row: 1, col: 4 });
    assert.equal(fitStateToRun({ ...s, cursor: { row: 2, col: 0 } }, 1, H, S, T).cursor, undefined);
  });

  it('asks the host for another batch element only with a whole batch index', () => {
    assert.deepEqual(parseFromWebview({ type: 'recordedBatch', batch: 2, extra: 1 }), { type: 'recordedBatch', batch: 2 });
    for (const batch of [-1, 1.5, '2', null]) assert.ok(parseFromWebview({ type: 'recordedBatch', batch }) instanceof Error);
    assert.throws(() => normaliseRun({ ...kvCacheRun(0).run, recorded: { batch: 3, batchSize: 3, callIds: [0] } }), /batch element 3 of 3/);
  });
});
