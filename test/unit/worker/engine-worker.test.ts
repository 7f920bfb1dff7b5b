// The real engine worker (src/worker/main.ts) behind the client: configure, run, fetch a head, trace,
// load a checkpoint by path, and clear errors for bad files.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { messagePartsOf, renderMessage, type MessageParts } from '../../../src/protocol/message';
import { WEIGHT_PHRASES } from '../../../src/weights/errors';
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

  it('sends a loader error across the channel as its template and arguments, the file name one of them', async () => {
    // A safetensors file whose header length points past its end: what a truncated download looks like.
    const truncated = new Uint8Array(16);
    new DataView(truncated.buffer).setBigUint64(0, 1000n, true);
    const e = await client.request('configureModel', { kind: 'file', fileName: 'cut.safetensors', bytes: truncated }).then(
      () => assert.fail('the engine loaded a truncated file'),
      (err: unknown) => err as Error,
    );
    assert.equal(e.name, 'WeightFileError');
    assert.equal(e.message, 'cut.safetensors: header length 1,000 is past the end of the file (16 bytes)');
    const parts = messagePartsOf(e);
    assert.ok(parts, 'the error arrived without its parts');
    assert.equal(parts.template, WEIGHT_PHRASES.fileProblem);
    assert.equal(parts.args[0], 'cut.safetensors');
    const problem = parts.args[1] as MessageParts;
    assert.deepEqual(problem, { template: 'header length {0} is past the end of the file ({1} bytes)', args: ['1,000', '16'] });
    assert.equal(renderMessage(parts), e.message);
    // Rendered through another language's templates, nothing of the English is left.
    const zh: Record<string, string> = {
      '{0}: {1}': '{0}：{1}',
      'header length {0} is past the end of the file ({1} bytes)': '头部长度 {0} 超出了文件末尾（文件共 {1} 字节）',
    };
    assert.equal(
      renderMessage(parts, (t, args) => args.reduce<string>((out, a, i) => out.replaceAll(`{${i}}`, String(a)), zh[t] ?? t)),
      'cut.safetensors：头部长度 1,000 超出了文件末尾（文件共 16 字节）',
    );
  });
});
