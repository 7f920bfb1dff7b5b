// A kernel helper thread that dies, hangs, is slow, fails a job, never takes one or never starts: the two-thread
// kernel never hangs, every result stays identical to the single-thread kernel's, and each problem is logged.
// (The misbehaving helpers: ./helpers/faulty-helper.ts.)
import { strict as assert } from 'node:assert';
import { createParallelWasmSimdKernel, createWasmSimdKernel } from '../../../src/engine/kernels';
import type { Kernel, ParallelKernelOptions, ParallelWasmSimdKernel, SpawnKernelHelper, WasmSimdKernel } from '../../../src/engine/kernels';
import { base, build, type Case } from './cases';
import { randomArray } from './reference';
import { spawnFaultyHelper, tick } from './helpers/spawn';

/** Products big enough to split by rows or by columns, varied so that a mix-up would show. */
const cases: Case[] = [
  { ...base, m: 96, n: 40, k: 33, seed: 1 },
  { ...base, m: 24, n: 130, k: 70, transB: true, beta: 1, seed: 2 },
  { ...base, m: 77, n: 77, k: 300, alpha: 0.5, ldaExtra: 2, cOff: 3, seed: 3 },
  { ...base, m: 200, n: 17, k: 9, transB: true, seed: 4 },
  { ...base, m: 64, n: 64, k: 64, nanC: true, seed: 5 },
  { ...base, m: 130, n: 260, k: 20, seed: 6 },
];

function expectSame(parallel: Kernel, single: Kernel, cs: Case, what: string): void {
  const args = build(cs);
  const c1 = args.c.slice();
  const c2 = args.c.slice();
  single.gemm({ ...args, c: c1 });
  parallel.gemm({ ...args, c: c2 });
  for (let i = 0; i < c1.length; i++) {
    if (!Object.is(c1[i], c2[i])) assert.fail(`${what}: element ${i} differs: single ${c1[i]}, two threads ${c2[i]}`);
  }
}

function expectSameSoftmax(parallel: Kernel, single: Kernel, seed: number, what: string): void {
  const rows = 50;
  const cols = 61;
  const x = randomArray(rows * cols, seed, -9, 9);
  x.fill(-Infinity, cols, 2 * cols);
  const x1 = x.slice();
  const x2 = x.slice();
  single.softmaxRows({ x: x1, off: 0, rows, cols, ld: cols, fullyMasked: 'nan' });
  parallel.softmaxRows({ x: x2, off: 0, rows, cols, ld: cols, fullyMasked: 'nan' });
  for (let i = 0; i < x1.length; i++) {
    if (!Object.is(x1[i], x2[i])) assert.fail(`${what}: x[${i}] differs: single ${x1[i]}, two threads ${x2[i]}`);
  }
}

/**
 * The kernels' time limit for the helper's chunks: far above what a chunk here takes even on a busy machine
 * (a chunk takes well under 10 ms; at load 8 on 2 cores a runnable thread waits tens of ms for a core, so a
 * healthy helper never comes near it), far below the faults' hang (60 s). Only a fault may hit this limit:
 * the tests count how often it was hit, never how long anything took.
 */
const LIMIT_MS = 3000;

/** How long to wait for an event the test needs (worker exit, a late chunk) before failing: never reached when all is well. */
const EVENT_MS = 60_000;

/** Resolves once `condition` holds, polling; fails after `ms` (a bound on a hang, not a speed requirement). */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) assert.fail(`${what} not within ${ms} ms`);
    await tick(10);
  }
}

describe('kernels: two-thread wasm-simd with a misbehaving helper', function () {
  this.timeout(5 * EVENT_MS);
  let single: WasmSimdKernel;
  const started: ParallelWasmSimdKernel[] = [];
  before(async () => {
    single = await createWasmSimdKernel();
  });
  after(() => {
    for (const kernel of started) kernel.dispose();
  });

  /** A kernel whose helper computes every chunk (ownChunkLimit 0), so that a fault hits deterministically. */
  async function withHelper(spawn: SpawnKernelHelper, options: ParallelKernelOptions = {}): Promise<{ kernel: ParallelWasmSimdKernel; logged: string[] }> {
    const logged: string[] = [];
    const kernel = await createParallelWasmSimdKernel(spawn, {
      minParallelMulAdds: 0,
      minParallelSoftmaxFloats: 0,
      chunkMulAdds: 1,
      ownChunkLimit: 0,
      helperTimeoutMs: LIMIT_MS,
      log: (message) => logged.push(message),
      ...options,
    });
    assert.ok(kernel);
    started.push(kernel);
    return { kernel, logged };
  }

  /** Every case (gemm and softmax, alternating) through the kernel; all must equal the single-thread results. */
  function runAll(kernel: Kernel, what: string, rounds = 2): void {
    for (let r = 0; r < rounds; r++) {
      cases.forEach((cs, i) => {
        expectSame(kernel, single, cs, `${what}, round ${r}, case ${i}`);
        expectSameSoftmax(kernel, single, 100 * r + i, `${what}, round ${r}, softmax ${i}`);
      });
    }
  }

  it('a helper that dies in the middle of a job: the job finishes right, then one thread', async () => {
    const { kernel, logged } = await withHelper(spawnFaultyHelper('exit', 5));
    assert.equal(kernel.helperStatus, 'ready');
    runAll(kernel, 'helper exited at its 6th chunk');
    assert.equal(kernel.counters.recovered, 1, 'the dead helper chunks were recomputed once; no later call waited');
    assert.match(logged[0], /the helper thread did not finish its chunks of a .* within \d+ ms; recomputed them here/);
    await until(() => kernel.helperStatus === 'gone', EVENT_MS, "the worker's exit event");
    assert.equal(kernel.threads, 1);
    assert.ok(
      logged.some((m) => /the helper thread exited \(code 3\); computing on one thread from now on/.test(m)),
      logged.join('\n'),
    );
    runAll(kernel, 'after the helper exited');
    assert.equal(kernel.counters.recovered, 1, 'no call after the exit waited for the helper');
  });

  it('a helper that hangs in a chunk: results stay right on the private kernel; dispose stops it', async () => {
    const { kernel, logged } = await withHelper(spawnFaultyHelper('hang', 2));
    runAll(kernel, 'helper hung at its 3rd chunk');
    assert.equal(kernel.helperStatus, 'abandoned', 'the shared memory stays off-limits while the hung chunk may still be written');
    assert.equal(kernel.counters.recovered, 1, 'one wait timed out; later calls did not wait again');
    assert.equal(logged.length, 1, logged.join('\n'));
    kernel.dispose();
    assert.equal(kernel.threads, 1);
    runAll(kernel, 'after dispose', 1);
  });

  it('a helper that finishes a chunk late is used again once it has', async () => {
    const { kernel, logged } = await withHelper(spawnFaultyHelper('slow', 3, 2 * LIMIT_MS));
    // its 4th chunk takes twice the limit: the helper's chunks of that job are recomputed privately
    for (const cs of cases.slice(0, 3)) expectSame(kernel, single, cs, 'before and during the late chunk');
    assert.equal(kernel.helperStatus, 'abandoned');
    expectSame(kernel, single, cases[3], 'while the late chunk runs');
    await until(() => kernel.helperStatus === 'ready', EVENT_MS, `the late chunk finished (${logged.join('; ')})`);
    const helperChunks = kernel.counters.helperChunks;
    runAll(kernel, 'after the late chunk', 1);
    assert.ok(kernel.counters.helperChunks > helperChunks, 'the helper computes chunks again');
    assert.match(logged.join('\n'), /finished its late chunks; two threads from now on/);
  });

  it('a helper that fails a chunk: its chunks are computed on the calling thread, then one thread', async () => {
    const { kernel, logged } = await withHelper(spawnFaultyHelper('throw', 4));
    runAll(kernel, 'helper failed its 5th chunk');
    assert.equal(kernel.counters.recovered, 1);
    assert.equal(kernel.helperStatus, 'gone');
    assert.match(logged[0], /the helper thread failed a chunk of a .*; computed its chunks here, one thread from now on/);
  });

  it('a helper that never takes a chunk: the calling thread does all of them, without waiting for it', async () => {
    const { kernel, logged } = await withHelper(spawnFaultyHelper('never-take', 0), { ownChunkLimit: Infinity, helperTimeoutMs: EVENT_MS });
    assert.equal(kernel.helperStatus, 'ready');
    runAll(kernel, 'helper never takes a chunk');
    assert.equal(kernel.counters.recovered, 0, "no call waited out the helper's time limit");
    assert.ok(kernel.counters.splitGemms > 0 && kernel.counters.ownChunks > 0);
    assert.equal(kernel.counters.helperChunks, 0);
    assert.deepEqual(logged, []);
    // when the engine thread leaves chunks to the helper, it takes them back after the time limit
    const patient = await withHelper(spawnFaultyHelper('never-take', 0));
    expectSame(patient.kernel, single, cases[0], 'chunks taken back after the time limit');
    assert.equal(patient.kernel.helperStatus, 'ready');
  });

  it('a helper that never starts, or cannot be started: one thread, results right', async () => {
    const silent = await withHelper(() => ({ terminate() {} }), { awaitHelper: false });
    assert.equal(silent.kernel.helperStatus, 'starting');
    runAll(silent.kernel, 'helper never started', 1);
    assert.equal(silent.kernel.counters.splitGemms, 0);

    const failing = await withHelper(() => {
      throw new Error('no threads here');
    });
    assert.equal(failing.kernel.helperStatus, 'gone');
    assert.equal(failing.kernel.threads, 1);
    assert.match(failing.logged[0], /the helper thread could not be started \(no threads here\)/);
    runAll(failing.kernel, 'helper could not start', 1);

    const crashing = await withHelper((_memory, _module, _control, onExit) => {
      setTimeout(() => onExit('failed (Cannot find module dist/kernel-helper.js)'), 1);
      return { terminate() {} };
    });
    assert.equal(crashing.kernel.helperStatus, 'gone');
    assert.match(crashing.logged[0], /Cannot find module/);
    runAll(crashing.kernel, 'helper script missing', 1);
  });
});
