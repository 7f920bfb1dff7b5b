// Recorded attention through the real engine worker: the captured tensors are read, diagnosed and turned into
// the panel's run in the worker (never on the extension host's thread), and the panel's head and step requests
// are answered there, with the same numbers as the pure functions of src/record give.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  analyseTrace,
  buildRecordedRun,
  TraceDiagnosis,
  forwardPassOf,
  parseTrace,
  readCallTensors,
  recordedAttention,
  recordedTrace,
} from '../../../src/record';
import { EngineClient } from '../../../src/worker/client';
import { assertClose } from '../helpers/fixtures';
import { randoms, TraceBuilder } from '../record/builders';

const root = join(__dirname, '..', '..', '..');
const [B, H, T, d] = [1, 2, 4, 8];

/** Two layers of causal SDPA, the second with an explicit scale. */
function twoLayerTrace(): TraceBuilder {
  const b = new TraceBuilder();
  for (let layer = 0; layer < 2; layer++) {
    const shape = [B, H, T, d];
    b.add({
      kind: 'sdpa',
      dtype: 'float32',
      module: `model.h.${layer}.attn`,
      moduleClass: 'Attention',
      shapes: { q: shape, k: shape, v: shape },
      params: { isCausal: true, scale: layer === 1 ? 1 / d : null },
      tensors: {
        q: b.tensor(layer, 'q', 'float32', shape, randoms(B * H * T * d, 10 * layer + 1)),
        k: b.tensor(layer, 'k', 'float32', shape, randoms(B * H * T * d, 10 * layer + 2)),
        v: b.tensor(layer, 'v', 'float32', shape, randoms(B * H * T * d, 10 * layer + 3)),
      },
    });
  }
  return b;
}

describe('engine worker: recorded attention', function () {
  this.timeout(60_000);
  let client: EngineClient;
  let dir: string;
  beforeEach(() => {
    client = new EngineClient({ workerPath: join(root, 'src', 'worker', 'main.ts'), execArgv: ['--require', 'tsx/cjs'], workerData: { kernel: 'ts' } });
    dir = mkdtempSync(join(tmpdir(), 'ai-recorded-'));
  });
  afterEach(() => {
    client.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('diagnoses, opens and steps through a recorded forward pass as the pure functions do', async () => {
    const b = twoLayerTrace();
    for (const [name, bytes] of b.files) writeFileSync(join(dir, name), bytes);
    const trace = parseTrace(b.text(), 'trace.json');

    // Diagnosed part by part (budget 0: one call per part), as the host asks while the calls are already listed.
    const parts = new TraceDiagnosis(trace);
    while (!parts.complete) {
      const part = await client.request('recordingDiagnose', { dir, trace, from: parts.done, budgetMs: 0 });
      assert.equal(part.to, part.from + 1);
      parts.add(part);
    }
    const analysis = parts.analysis();
    const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x)); // the worker's copy has ordinary prototypes
    assert.deepEqual(plain(analysis), plain(analyseTrace(trace, b.reader())));
    assert.equal(analysis.calls.length, 2);
    const whole = await client.request('recordingDiagnose', { dir, trace, from: 0, budgetMs: 60_000 });
    assert.deepEqual([whole.from, whole.to], [0, 2]);

    const opened = await client.request('recordingOpen', { dir, trace, callId: 1, runId: 41, batch: 0 });
    const direct = buildRecordedRun(trace, forwardPassOf(trace, 1), (c) => readCallTensors(c, b.reader()), { runId: 41, batch: 0 });
    assert.equal(opened.layer, 1);
    assert.equal(opened.run.nLayer, 2);
    assert.equal(opened.run.nHead, H);
    assert.deepEqual(
      opened.run.tokens.map((t) => t.display),
      direct.run.tokens.map((t) => t.display),
    );

    // The worker runs the pure-TS kernel; this process may run another (npm run test:kernels): 1e-6 apart at most.
    const head = await client.request('recordedAttention', { runId: 41, layer: 1, head: 1 });
    assertClose(head.data, recordedAttention(direct, { runId: 41, layer: 1, head: 1 }).data, { atol: 1e-6 });
    const step = await client.request('recordedTrace', { runId: 41, layer: 0, head: 0, options: { scale: { kind: 'none' } } });
    assertClose(step.probs, recordedTrace(direct, { runId: 41, layer: 0, head: 0, options: { scale: { kind: 'none' } } }).probs, { atol: 1e-6 });

    await assert.rejects(client.request('recordedAttention', { runId: 40, layer: 0, head: 0 }), /no longer loaded in the engine/);
  });

  it('reads only plain file names inside the trace folder', async () => {
    const b = twoLayerTrace();
    const trace = parseTrace(b.text(), 'trace.json');
    // The folder lacks the tensors: each call's problem is reported, nothing is read from elsewhere.
    const analysis = await client.request('recordingDiagnose', { dir, trace, from: 0, budgetMs: 60_000 });
    assert.equal(analysis.findings.length, 0);
    assert.equal(analysis.problems.length, 2);
  });
});
