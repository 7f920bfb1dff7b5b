import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { EngineClient, type CancellationSignal } from '../../../src/worker/client';
import { isCancelledError } from '../../../src/protocol/rpc';

const workerPath = join(__dirname, 'test-worker.ts');

function makeClient(extra: Partial<ConstructorParameters<typeof EngineClient>[0]> = {}) {
  return new EngineClient({ workerPath, execArgv: ['--require', 'tsx/cjs'], ...extra });
}

class Source implements CancellationSignal {
  isCancellationRequested = false;
  private listeners: (() => void)[] = [];
  onCancellationRequested(l: () => void) {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  }
  cancel() {
    this.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
}

describe('engine client ↔ worker channel', function () {
  this.timeout(30_000);
  let client: EngineClient;
  afterEach(() => client?.dispose());

  it('starts the worker lazily and correlates replies', async () => {
    client = makeClient();
    assert.equal(client.running, false);
    const [a, b] = await Promise.all([client.request('echo', { x: 1 }), client.request('echo', 'two')]);
    assert.deepEqual(a, { x: 1 });
    assert.equal(b, 'two');
    assert.equal(client.running, true);
  });

  it('transfers buffers both ways instead of cloning them', async () => {
    client = makeClient();
    const data = Float32Array.from([1, 2, 3]);
    const reply = await client.request<{ data: Float32Array }>('double', { data }, { transfer: [data.buffer] });
    assert.equal(data.byteLength, 0, 'the sent buffer is detached (transferred)');
    assert.deepEqual(Array.from(reply.data), [2, 4, 6]);
  });

  it('reports progress and honours cancellation at checkpoints', async () => {
    client = makeClient();
    const source = new Source();
    const seen: string[] = [];
    let firstProgress!: () => void;
    const started = new Promise<void>((r) => (firstProgress = r));
    const p = client.request('steps', { n: 1000 }, {
      signal: source,
      onProgress: (_f, m) => {
        seen.push(m);
        firstProgress();
      },
    });
    await started;
    source.cancel();
    await assert.rejects(p, (e) => isCancelledError(e));
    assert.ok(seen.length > 0, 'progress arrived');
    // The worker survives a cooperative cancel.
    const gen = client.generation;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await client.request('echo', 5), 5);
    assert.equal(client.generation, gen);
  });

  it('replaces a worker that ignores a cancel', async () => {
    const restarts: string[] = [];
    client = makeClient({ cancelGraceMs: 200, onRestart: (r) => restarts.push(r) });
    await client.request('echo', 0);
    const source = new Source();
    const p = client.request('spin', {}, { signal: source });
    setTimeout(() => source.cancel(), 50);
    await assert.rejects(p, (e) => isCancelledError(e));
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(restarts.length, 1);
    assert.match(restarts[0], /did not stop after a cancel/);
    assert.equal(await client.request('echo', 'alive'), 'alive');
  });

  it('replaces a hung worker after the time limit with a clear error', async () => {
    const restarts: string[] = [];
    client = makeClient({ onRestart: (r) => restarts.push(r) });
    await assert.rejects(client.request('spin', {}, { timeoutMs: 300 }), /did not answer 'spin' within/);
    assert.equal(restarts.length, 1);
    assert.equal(await client.request('echo', 'again'), 'again');
  });

  it('replaces a crashed worker and rejects what was pending', async () => {
    const restarts: string[] = [];
    client = makeClient({ onRestart: (r) => restarts.push(r) });
    await assert.rejects(client.request('crash', {}), /crashed: boom/);
    assert.equal(restarts.length, 1);
    assert.equal(await client.request('echo', 1), 1);
  });

  it('keeps error names and messages from the worker', async () => {
    client = makeClient();
    await assert.rejects(client.request('fail', {}), (e: Error) => e.name === 'ShapeError' && e.message === 'bad shapes');
    await assert.rejects(client.request('nope', {}), /no request type 'nope'/);
  });
});
