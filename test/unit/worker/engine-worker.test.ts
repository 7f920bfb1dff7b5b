// The real engine worker (src/worker/main.ts) behind the client: configure, run, fetch a head, trace,
// load a checkpoint by path, and clear errors for bad files.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { EngineClient } from '../../../src/worker/client';

const root = join(__dirname, '..', '..', '..');
const fixture = (name: string) => join(root, 'test', 'fixtures', 'torch', name);

describe('engine worker', function () {
  this.timeout(60_000);
  let client: EngineClient;
  beforeEach(() => {
    client = new EngineClient({ workerPath: join(root, 'src', 'worker', 'main.ts'), execArgv: ['--require', 'tsx/cjs'], workerData: { kernel: 'ts' } });
  });
  afterEach(() => client.dispose());

  it('runs the seeded model, then serves a head and a trace of that run', async () => {
    const info = await client.request('configureModel', { kind: 'seeded', seed: 0, heads: 2, dModel: 8 });
    assert.equal(info.family, 'seeded');
    const run = await client.request('run', { text: 'one two three', maxTokens: 10 });
    assert.equal(run.seqLen, 3);
    assert.ok(run.attentions instanceof Float32Array && run.attentions.length === 2 * 9);
    const head = await client.request('attention', { runId: run.runId, layer: 0, head: 1 });
    assert.deepEqual(Array.from(head.data), Array.from(run.attentions.subarray(9, 18)));
    const trace = await client.request('trace', { runId: run.runId, layer: 0, head: 1, options: { scale: { kind: 'none' } } });
    assert.ok(trace.probs.data instanceof Float32Array);
    assert.equal(trace.scale, 1);
  });

  it('loads a GPT-2 checkpoint from a path and inspects it', async () => {
    const info = await client.request('configureModel', { kind: 'file', fileName: 'gpt2_tiny.safetensors', path: fixture('gpt2_tiny.safetensors') });
    assert.equal(info.family, 'gpt2');
    assert.equal(info.nLayer, 2);
    const run = await client.request('run', { text: '', ids: [3, 17, 42, 8], maxTokens: 32 });
    assert.equal(run.seqLen, 4);
    // Causal: row 0 attends only to itself.
    assert.ok(Math.abs(run.attentions![0] - 1) < 1e-6);
  });

  it('names the file and the problem when a checkpoint is unreadable or malformed', async () => {
    await assert.rejects(
      client.request('configureModel', { kind: 'file', fileName: 'missing.safetensors', path: join(root, 'no', 'such', 'missing.safetensors') }),
      /missing\.safetensors: cannot read the file \(the file does not exist\)/,
    );
    const junk = new TextEncoder().encode('this is not a checkpoint');
    await assert.rejects(client.request('configureModel', { kind: 'file', fileName: 'junk.safetensors', bytes: junk }), /junk\.safetensors/);
  });
});
