// The shared worker RPC client (src/worker/rpc-client.ts) against a test worker (./test-worker.ts) speaking a
// test protocol: lazy start, correlation, transfers, progress, cancellation (cooperative and ignored), time
// limits, crashes and exits (every pending request fails, the next request gets a new worker), error names,
// payloads that cannot be sent, dispose. The engine's and the linter's clients are this client, configured.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ENGINE_PROGRESS } from '../../../src/protocol/engine-progress';
import type { MessageParts } from '../../../src/protocol/message';
import { CancelledError, isCancelledError } from '../../../src/protocol/rpc';
import { ClientDisposedError, RpcClient, WorkerRestartedError, type CancellationSignal, type RpcClientOptions } from '../../../src/worker/rpc-client';
import { EngineClient, EngineRestartedError } from '../../../src/worker/client';
import type { TestRequests } from './test-worker';

const workerPath = join(__dirname, 'test-worker.ts');

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

describe('worker RPC client', function () {
  this.timeout(60_000);
  let client: RpcClient<TestRequests> | undefined;
  const restarts: string[] = [];
  let restarted: Promise<string>;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  /** A client of the test worker; `restarted` resolves with the reason of its first replacement. */
  function makeClient(extra: Partial<RpcClientOptions> = {}): RpcClient<TestRequests> {
    let report!: (reason: string) => void;
    restarted = new Promise((r) => (report = r));
    client = new RpcClient<TestRequests>({
      workerPath,
      execArgv: ['--require', 'tsx/cjs'],
      onRestart: (reason) => {
        restarts.push(reason);
        report(reason);
      },
      ...extra,
    });
    return client;
  }

  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => process.off('unhandledRejection', onUnhandled));
  beforeEach(() => {
    restarts.length = 0;
  });
  afterEach(() => {
    client?.dispose();
    client = undefined;
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  it('starts the worker lazily and correlates replies', async () => {
    const c = makeClient();
    assert.equal(c.running, false);
    assert.equal(c.generation, 0);
    const [a, b] = await Promise.all([c.request('echo', { x: 1 }), c.request('echo', 'two')]);
    assert.deepEqual(a, { x: 1 });
    assert.equal(b, 'two');
    assert.equal(c.running, true);
    assert.equal(c.generation, 1);
  });

  it('transfers buffers both ways instead of cloning them', async () => {
    const c = makeClient();
    const data = Float32Array.from([1, 2, 3]);
    const reply = await c.request('double', { data }, { transfer: [data.buffer] });
    assert.equal(data.byteLength, 0, 'the sent buffer is detached (transferred)');
    assert.deepEqual(Array.from(reply.data), [2, 4, 6]);
  });

  it('reports progress, and a cooperative cancel rejects at a checkpoint and keeps the worker', async () => {
    const c = makeClient({ cancelGraceMs: 60_000 });
    const source = new Source();
    const seen: string[] = [];
    let firstProgress!: () => void;
    const started = new Promise<void>((r) => (firstProgress = r));
    const p = c.request(
      'steps',
      { n: 1000 },
      {
        signal: source,
        onProgress: (fraction, message) => {
          assert.ok(fraction >= 0 && fraction < 1);
          seen.push(message);
          firstProgress();
        },
      },
    );
    await started;
    source.cancel();
    await assert.rejects(p, (e) => isCancelledError(e));
    assert.equal(seen[0], 'step 0', 'progress arrived in order');
    assert.equal(await c.request('echo', 5), 5);
    assert.equal(c.generation, 1, 'the same worker');
    assert.deepEqual(restarts, []);
  });

  it('passes a progress report made from a template as its English text and its parts', async () => {
    const c = makeClient();
    const seen: [number, string, MessageParts | undefined][] = [];
    assert.equal(await c.request('progressParts', { file: 'a.bin' }, { onProgress: (f, m, parts) => seen.push([f, m, parts]) }), 'done');
    assert.deepEqual(seen, [[0.5, 'reading a.bin', { template: ENGINE_PROGRESS.reading, args: ['a.bin'] }]]);
  });

  it('a request whose signal is already cancelled fails without starting a worker', async () => {
    const c = makeClient();
    const source = new Source();
    source.cancel();
    await assert.rejects(c.request('echo', 1, { signal: source }), CancelledError);
    assert.equal(c.running, false);
  });

  it('the late reply of a cancelled request is dropped, and a worker that sends it is healthy', async () => {
    const c = makeClient({ cancelGraceMs: 60_000 });
    const source = new Source();
    const cancelled = c.request('sleep', { ms: 300 }, { signal: source });
    source.cancel();
    await assert.rejects(cancelled, CancelledError);
    // The worker's timers fire in order: by the time this answers, the cancelled one has answered too.
    assert.equal(await c.request('sleep', { ms: 400 }), 'slept');
    assert.deepEqual(restarts, []);
    assert.equal(c.generation, 1);
  });

  it('replaces a worker that ignores a cancel, after the grace time', async () => {
    const c = makeClient({ cancelGraceMs: 200 });
    await c.request('echo', 0);
    const source = new Source();
    const p = c.request('spin', {}, { signal: source });
    source.cancel();
    await assert.rejects(p, CancelledError, 'the caller is not kept waiting for the stuck worker');
    assert.match(await restarted, /the worker did not stop after a cancel and was restarted/);
    assert.equal(c.running, false);
    assert.equal(await c.request('echo', 'alive'), 'alive');
    assert.equal(c.generation, 2);
  });

  it('replaces a hung worker after the time limit; every request it held fails, the next gets a new worker', async () => {
    const c = makeClient();
    await c.request('echo', 0);
    const hung = c.request('spin', {}, { timeoutMs: 300 });
    const queued = c.request('echo', 'behind the hang', { timeoutMs: 60_000 });
    await assert.rejects(hung, (e: Error) => e instanceof WorkerRestartedError && /did not answer 'spin' within 300 ms and was restarted/.test(e.message));
    await assert.rejects(queued, WorkerRestartedError);
    assert.equal(restarts.length, 1);
    assert.equal(await c.request('echo', 'again'), 'again');
    assert.equal(c.generation, 2);
  });

  for (const [how, type, reason] of [
    ['crashes', 'crash', /the worker crashed: boom/],
    ['exits', 'exit', /the worker exited unexpectedly \(code 3\)/],
  ] as const) {
    it(`fails every pending request when the worker ${how}, once, and starts a new worker on the next request`, async () => {
      const c = makeClient();
      const slow = c.request('sleep', { ms: 30_000 });
      const bad = type === 'crash' ? c.request('crash', {}) : c.request('exit', { code: 3 });
      await assert.rejects(bad, WorkerRestartedError);
      await assert.rejects(slow, (e: Error) => e instanceof WorkerRestartedError && reason.test(e.message));
      assert.equal(restarts.length, 1, restarts.join('\n'));
      assert.match(restarts[0], reason);
      assert.equal(c.running, false);
      assert.equal(await c.request('echo', 1), 1);
      assert.equal(c.generation, 2);
    });
  }

  it('keeps error names and messages from the worker; a type the worker lacks is an error, not a crash', async () => {
    const c = makeClient();
    await assert.rejects(c.request('fail', {}), (e: Error) => e.name === 'ShapeError' && e.message === 'bad shapes');
    // A client built against another version of the protocol: the worker answers with an error.
    const other = c as unknown as RpcClient<{ nope: [object, never]; toString: [object, never] }>;
    await assert.rejects(other.request('nope', {}), /no request type 'nope'/);
    await assert.rejects(other.request('toString', {}), /no request type 'toString'/, 'only the handlers own keys are request types');
    assert.equal(c.generation, 1);
    assert.deepEqual(restarts, []);
  });

  it('a payload that cannot be sent fails that request only', async () => {
    const c = makeClient();
    await assert.rejects(c.request('echo', { callback: () => 1 }), /echo: could not send the request to the worker/);
    assert.equal(await c.request('echo', 'still here'), 'still here');
    assert.equal(c.generation, 1);
  });

  it('dispose fails pending and later requests with ClientDisposedError and reports no restart', async () => {
    const c = makeClient();
    const pending = c.request('sleep', { ms: 30_000 });
    await c.request('echo', 0);
    c.dispose();
    await assert.rejects(pending, ClientDisposedError);
    await assert.rejects(c.request('echo', 1), ClientDisposedError);
    assert.equal(c.running, false);
    assert.deepEqual(restarts, []);
  });

  it("the engine's client is this client with the engine's name and error class", async () => {
    const engine = new EngineClient({ workerPath, execArgv: ['--require', 'tsx/cjs'] });
    try {
      const asTest = engine as unknown as RpcClient<TestRequests>;
      await assert.rejects(
        asTest.request('spin', {}, { timeoutMs: 300 }),
        (e: Error) => e instanceof EngineRestartedError && e.name === 'EngineRestartedError' && /^the attention engine did not answer 'spin'/.test(e.message),
      );
    } finally {
      engine.dispose();
    }
  });
});
