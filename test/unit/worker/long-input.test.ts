// A long run through the real engine worker: the run carries no weights and says it is causal; the
// `attention` request answers row ranges and block-averaged views (AttentionRequest.rowStart/rowEnd/
// downsample) with transferred buffers; a trace of a run past the debugger's limit is refused clearly.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { EngineClient } from '../../../src/worker/client';

const root = join(__dirname, '..', '..', '..');

describe('engine worker: long runs', function () {
  this.timeout(120_000);
  let client: EngineClient;
  before(() => {
    client = new EngineClient({ workerPath: join(root, 'src', 'worker', 'main.ts'), execArgv: ['--require', 'tsx/cjs'], workerData: { kernel: 'ts' } });
  });
  after(() => client.dispose());

  it('serves rows and downsampled views of a run too long to keep its weights', async () => {
    await client.request('configureModel', { kind: 'seeded', seed: 1, heads: 4, dModel: 8 });
    // 4 heads × 4200² × 4 bytes = 282 MB of weights: far past the 64 MiB a run keeps.
    const T = 4200;
    const text = Array.from({ length: T }, (_, i) => `t${i % 97}`).join(' ');
    const run = await client.request('run', { text, maxTokens: 5000, causal: true, thumbnailSize: 32 });
    assert.equal(run.seqLen, T);
    assert.equal(run.causal, true);
    assert.equal(run.attentions, undefined);
    assert.equal(run.thumbnails.data.length, 4 * 32 * 32);
    // Causal: every thumbnail cell above the diagonal is 0, every row band sums to 1 on average.
    for (let a = 0; a < 32; a++) for (let b = a + 1; b < 32; b++) assert.equal(run.thumbnails.data[a * 32 + b], 0);

    const rows = await client.request('attention', { runId: run.runId, layer: 0, head: 2, rowStart: 4000, rowEnd: 4003 });
    assert.ok(rows.data instanceof Float32Array);
    assert.deepEqual([rows.rows, rows.cols, rows.block, rows.rowStart, rows.rowEnd, rows.seqLen], [3, T, 1, 4000, 4003, T]);
    for (let r = 0; r < 3; r++) {
      const row = rows.data.subarray(r * T, (r + 1) * T);
      assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-4, `row ${4000 + r} sums to 1`);
      for (let j = 4001 + r; j < T; j++) assert.equal(row[j], 0, `causal: query ${4000 + r} sees no key ${j}`);
    }

    const view = await client.request('attention', { runId: run.runId, layer: 0, head: 2, downsample: 1024 });
    assert.deepEqual([view.rows, view.cols, view.block], [840, 840, 5], 'block ceil(4200 / 1024) = 5');
    // A row of cells holds 5 query rows that each sum to 1: Σ_b mean(cell) · 25 = 5, i.e. Σ_b cell = 1/5.
    const sum = view.data.subarray(500 * 840, 501 * 840).reduce((s, x) => s + x, 0);
    assert.ok(Math.abs(sum * 5 - 1) < 1e-4, `a row of cells sums to 1/5 (got ${sum})`);

    await assert.rejects(client.request('trace', { runId: run.runId, layer: 0, head: 0, options: {} }), /the step-through debugger traces at most 4096 tokens/);
    await assert.rejects(client.request('attention', { runId: run.runId, layer: 0, head: 0, downsample: 0 }), /downsample must be an integer in 1\.\.4096/);
  });
});
