// The worker side of the two-thread kernel (src/worker/kernel-helper.ts, src/worker/main.ts): the thread count
// from workerData, starting and stopping the helper thread, and the engine worker computing the same
// attention bit for bit on one and on two threads.
import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createParallelWasmSimdKernel, createWasmSimdKernel } from '../../../src/engine/kernels';
import { createSharedMemory } from '../../../src/engine/kernels/simd-module';
import { createControlBlock } from '../../../src/engine/kernels/parallel-protocol';
import type { RunResult } from '../../../src/protocol/engine';
import { EngineClient } from '../../../src/worker/client';
import { kernelThreads, spawnKernelHelper } from '../../../src/worker/kernel-helper';
import { base, build } from './cases';
import { tick } from './helpers/spawn';

const root = join(__dirname, '..', '..', '..');

describe('kernels: the helper thread in the engine worker', function () {
  this.timeout(60_000);

  it('reads the thread count from workerData: a positive integer (at most 2), else min(2, cores)', () => {
    const fallback = Math.min(2, availableParallelism());
    assert.equal(kernelThreads({ threads: 1 }), 1);
    assert.equal(kernelThreads({ threads: 2 }), 2);
    assert.equal(kernelThreads({ threads: 16 }), 2);
    for (const bad of [undefined, 0, -1, 1.5, '2', null]) assert.equal(kernelThreads({ threads: bad }), fallback, String(bad));
    assert.equal(kernelThreads(undefined), fallback);
  });

  it('starts a helper that computes chunks, and reports a helper that dies on start', async () => {
    const kernel = await createParallelWasmSimdKernel(spawnKernelHelper, { minParallelMulAdds: 0, ownChunkLimit: 0, helperTimeoutMs: 10_000 });
    assert.ok(kernel);
    try {
      assert.equal(kernel.helperStatus, 'ready');
      const args = build({ ...base, m: 64, n: 48, k: 20, seed: 9 });
      const single = await createWasmSimdKernel();
      const c1 = args.c.slice();
      const c2 = args.c.slice();
      single.gemm({ ...args, c: c1 });
      kernel.gemm({ ...args, c: c2 });
      assert.deepEqual(c2, c1);
      assert.ok(kernel.counters.helperChunks > 0);
    } finally {
      kernel.dispose();
    }

    // not a module: the helper thread throws on start and exits
    const reasons: string[] = [];
    const notAModule = {} as WebAssembly.Module;
    spawnKernelHelper(createSharedMemory(), notAModule, createControlBlock(), (reason) => reasons.push(reason));
    for (let i = 0; i < 500 && reasons.length === 0; i++) await tick(10);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0], /^(failed \(.+\)|exited \(code \d+\))$/);

    // a helper stopped on request is not reported as an exit
    const stopped: string[] = [];
    const handle = spawnKernelHelper(
      createSharedMemory(),
      await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
      createControlBlock(),
      (r) => stopped.push(r),
    );
    handle.terminate();
    await tick(300);
    assert.deepEqual(stopped, []);
  });

  it('the engine worker gives the same attention bit for bit with threads 1 and 2', async () => {
    // 4 heads of 64 over 160 tokens: projections of 160x256x256 and per-head products of 160x160x64,
    // all above the split threshold
    const ids = Array.from({ length: 160 }, (_, i) => (i * 37) % 50);
    const results: RunResult[] = [];
    for (const threads of [1, 2]) {
      const client = new EngineClient({
        workerPath: join(root, 'src', 'worker', 'main.ts'),
        execArgv: ['--require', 'tsx/cjs'],
        workerData: { kernel: 'wasm-simd', threads },
      });
      try {
        const info = await client.request('configureModel', { kind: 'seeded', seed: 3, heads: 4, dModel: 256 });
        assert.equal(info.family, 'seeded');
        results.push(await client.request('run', { text: '', ids, maxTokens: 512, causal: true }));
      } finally {
        client.dispose();
      }
    }
    const [one, two] = results;
    assert.equal(one.seqLen, 160);
    assert.ok(one.attentions instanceof Float32Array && two.attentions instanceof Float32Array);
    assert.equal(one.attentions.length, 4 * 160 * 160);
    const at = one.attentions.findIndex((v, i) => !Object.is(v, two.attentions![i]));
    assert.equal(at, -1, `attention weight ${at} differs: ${one.attentions[at]} vs ${two.attentions[at]}`);
  });
});
