// The two-thread WebAssembly SIMD kernel: identical bit for bit to the single-thread kernel (cutting C into
// bands of rows or columns keeps every element's arithmetic), with chunks really computed by the helper thread;
// thresholds; how C is cut; memory growth seen by the helper; initKernels with threads.
// Helpers that die, hang or fail: ./parallel-faults.test.ts.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  availableKernelThreads,
  createParallelWasmSimdKernel,
  createWasmSimdKernel,
  getKernel,
  initKernels,
  setKernel,
  tsKernel,
  wasmThreadsSupported,
} from '../../../src/engine/kernels';
import type { GemmArgs, Kernel, ParallelKernelOptions, ParallelWasmSimdKernel, SoftmaxRowsArgs, WasmSimdKernel } from '../../../src/engine/kernels';
import { PARALLEL_MIN_MULADDS, PARALLEL_MIN_SOFTMAX_FLOATS } from '../../../src/engine/kernels/parallel-kernel';
import { MR, NR } from '../../../src/engine/kernels/simd-module';
import { chunkPart, MAX_CHUNKS, planChunks } from '../../../src/engine/kernels/staged-gemm';
import { base, build, caseArb, label, specialsArb, type Case } from './cases';
import { expectGemmClose, randomArray, referenceGemm } from './reference';
import { spawnKernelHelper } from './helpers/spawn';

/** Index of the first element where two arrays differ (Object.is: NaN equals NaN, -0 differs from 0), or -1. */
function firstDifference(x: Float32Array, y: Float32Array): number {
  if (x.length !== y.length) return 0;
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return i;
  return -1;
}

/** Runs the product on both kernels (each on its own copy of C) and asserts identical arrays. */
function expectSameGemm(parallel: Kernel, single: Kernel, args: GemmArgs, what: string): Float32Array {
  const c1 = args.c.slice();
  const c2 = args.c.slice();
  single.gemm({ ...args, c: c1 });
  parallel.gemm({ ...args, c: c2 });
  const at = firstDifference(c1, c2);
  assert.equal(at, -1, `${what}: element ${at} differs: single ${c1[at]}, two threads ${c2[at]}`);
  return c2;
}

function expectSameSoftmax(parallel: Kernel, single: Kernel, args: SoftmaxRowsArgs, what: string): void {
  const x1 = args.x.slice();
  const x2 = args.x.slice();
  single.softmaxRows({ ...args, x: x1 });
  parallel.softmaxRows({ ...args, x: x2 });
  const at = firstDifference(x1, x2);
  assert.equal(at, -1, `${what}: element ${at} differs: single ${x1[at]}, two threads ${x2[at]}`);
}

async function twoThreads(options: ParallelKernelOptions = {}): Promise<ParallelWasmSimdKernel> {
  const kernel = await createParallelWasmSimdKernel(spawnKernelHelper, options);
  assert.ok(kernel, 'shared WebAssembly memory works in this Node.js');
  assert.equal(kernel.helperStatus, 'ready', 'the helper thread started');
  return kernel;
}

describe('kernels: two-thread wasm-simd', function () {
  this.timeout(60_000);
  const started: ParallelWasmSimdKernel[] = [];
  let single: WasmSimdKernel;
  /**
   * Posts every product and softmax block that can be cut, in small chunks; the engine thread computes at most
   * one chunk of each and the helper all the others, so the helper's work is checked on every case.
   */
  let splitAll: ParallelWasmSimdKernel;
  /** The same with both threads taking chunks as they come (the default schedule). */
  let dynamic: ParallelWasmSimdKernel;
  // (a generous time limit: on a busy machine the helper may be descheduled for a while, which is no fault)
  const forced: ParallelKernelOptions = { minParallelMulAdds: 0, minParallelSoftmaxFloats: 0, chunkMulAdds: 1, ownChunkLimit: 1, helperTimeoutMs: 10_000 };
  before(async () => {
    assert.ok(wasmThreadsSupported(), 'Node.js 20 has SharedArrayBuffer and shared WebAssembly memory');
    single = await createWasmSimdKernel();
    splitAll = await twoThreads(forced);
    dynamic = await twoThreads({ minParallelMulAdds: 0, minParallelSoftmaxFloats: 0, chunkMulAdds: 1, helperTimeoutMs: 10_000 });
    started.push(splitAll, dynamic);
  });
  after(() => {
    for (const kernel of started) kernel.dispose();
  });

  it('is named wasm-simd and reports two threads', () => {
    assert.equal(splitAll.name, 'wasm-simd');
    assert.equal(splitAll.threads, 2);
  });

  it('gives the single-thread results bit for bit on random shapes, views, alpha and beta; both threads compute', () => {
    const before = { ...splitAll.counters };
    let splittable = 0;
    let chunks = 0;
    fc.assert(
      fc.property(caseArb(70), (cs) => {
        const plan = planChunks(cs.m, cs.n, cs.k, 1);
        if (plan) {
          splittable++;
          chunks += plan.count;
        }
        expectSameGemm(splitAll, single, build(cs), label(cs));
      }),
      { numRuns: 150, seed: 0x2cae },
    );
    const after = splitAll.counters;
    assert.ok(splittable > 100, `most random shapes are wide enough to cut (${splittable})`);
    assert.equal(after.splitGemms - before.splitGemms, splittable, 'every product that can be cut was posted');
    const own = after.ownChunks - before.ownChunks;
    const helper = after.helperChunks - before.helperChunks;
    assert.equal(own + helper, chunks, 'every chunk computed once');
    // (on tiny products the helper may take every chunk before the engine thread takes its one)
    assert.ok(own <= splittable && own > 0, `the engine thread computed at most one chunk of each (${own})`);
    assert.ok(helper >= chunks - splittable, `the helper computed all the others (${helper})`);
    assert.equal(after.recovered, 0);
  });

  it('gives the same bits when both threads take chunks as they come', () => {
    fc.assert(
      fc.property(caseArb(70), (cs) => {
        expectSameGemm(dynamic, single, build(cs), label(cs));
      }),
      { numRuns: 100, seed: 0x2caf },
    );
    const { ownChunks, helperChunks, recovered } = dynamic.counters;
    assert.ok(ownChunks + helperChunks > 200, `${ownChunks} + ${helperChunks} chunks`);
    assert.equal(recovered, 0);
  });

  it('is also within the float32 error bound of the float64 reference', () => {
    fc.assert(
      fc.property(caseArb(70), (cs) => {
        const args = build(cs);
        const ref = referenceGemm(args);
        const c = args.c.slice();
        splitAll.gemm({ ...args, c });
        expectGemmClose(c, ref, args, label(cs));
      }),
      { numRuns: 60, seed: 0x2cb0 },
    );
  });

  it('sends NaN and ±Inf operands to the same elements as one thread does', () => {
    fc.assert(
      fc.property(caseArb(40), specialsArb, (cs, specials) => {
        const withSpecials: Case = { ...cs, specials };
        expectSameGemm(splitAll, single, build(withSpecials), label(withSpecials));
      }),
      { numRuns: 100, seed: 0x2cb1 },
    );
  });

  it('gives the same bits on the shapes attention uses and on shapes crossing the cache blocks', async () => {
    const packed = await createWasmSimdKernel({ packAMinN: 0 });
    const packedTwo = await twoThreads({ ...forced, packAMinN: 0 });
    const staged = await createWasmSimdKernel({ maxStagedFloats: 5000 });
    const stagedTwo = await twoThreads({ ...forced, maxStagedFloats: 5000 });
    const defaults = await twoThreads({ helperTimeoutMs: 10_000 });
    started.push(defaults);
    started.push(packedTwo, stagedTwo);
    const shapes: [number, number, number, boolean][] = [
      [512, 768, 96, true], // a projection (k cut short to keep the test quick): split by columns
      [512, 512, 64, true], // Q·Kᵀ of one head, L = 512: split by rows
      [512, 64, 512, false], // weights·V of one head
      [259, 1030, 37, false], // n crosses the 1024-column block
      [133, 77, 700, true], // k crosses two 256-deep blocks
      [300, 64, 300, false], // m crosses the 128-row block
      [9, 2000, 3, false], // short and wide
      [2000, 9, 3, true], // tall and narrow
    ];
    for (const [m, n, k, transB] of shapes) {
      const cs: Case = { ...base, m, n, k, transB, alpha: 0.125, beta: (m % 2) as 0 | 1, seed: m * n + k, ldaExtra: 3, cOff: 5 };
      const args = build(cs);
      expectSameGemm(splitAll, single, args, label(cs));
      expectSameGemm(defaults, single, args, `default thresholds and chunks: ${label(cs)}`);
      expectSameGemm(packedTwo, packed, args, `A packed: ${label(cs)}`);
      if (m * n * k < 2e6) expectSameGemm(stagedTwo, staged, args, `staged in pieces: ${label(cs)}`);
    }
    assert.ok(packedTwo.counters.splitGemms >= shapes.length);
    assert.ok(stagedTwo.counters.splitGemms > shapes.length, 'products split for staging are each shared too');
  });

  it('reads each head out of a [L, heads·hd] projection like one thread does', () => {
    const L = 67;
    const heads = 3;
    const hd = 16;
    const q = randomArray(L * heads * hd, 11);
    const kMat = randomArray(L * heads * hd, 12);
    for (let h = 0; h < heads; h++) {
      const args: GemmArgs = {
        m: L,
        n: L,
        k: hd,
        a: q,
        aOff: h * hd,
        lda: heads * hd,
        b: kMat,
        bOff: h * hd,
        ldb: heads * hd,
        transB: true,
        c: randomArray(heads * L * L, 13),
        cOff: h * L * L,
        ldc: L,
        alpha: 0.25,
      };
      expectSameGemm(splitAll, single, args, `head ${h}`);
    }
  });

  it('softmaxRows: same bits as one thread on random rows, views, masks and fully masked rows', () => {
    const before = splitAll.counters.splitSoftmaxes;
    fc.assert(
      fc.property(
        fc.record({
          rows: fc.integer({ min: 1, max: 40 }),
          cols: fc.integer({ min: 1, max: 90 }),
          off: fc.integer({ min: 0, max: 5 }),
          ldExtra: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 7 })),
          spread: fc.constantFrom(1, 10, 100, 1e30),
          maskEvery: fc.constantFrom(0, 2, 3, 7),
          fullyMasked: fc.constantFrom('nan' as const, 'zero' as const),
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
        ({ rows, cols, off, ldExtra, spread, maskEvery, fullyMasked, seed }) => {
          const ld = cols + ldExtra;
          const x = randomArray(off + rows * ld + 2, seed, -spread, spread);
          if (maskEvery > 0) for (let i = 0; i < x.length; i += maskEvery) x[i] = -Infinity;
          // a fully masked row and a row with a NaN
          if (rows > 2) x.fill(-Infinity, off + ld, off + ld + cols);
          if (rows > 3) x[off + 2 * ld] = NaN;
          expectSameSoftmax(splitAll, single, { x, off, rows, cols, ld, fullyMasked }, `${rows}x${cols} ld=${ld}`);
        },
      ),
      { numRuns: 150, seed: 0x50f8 },
    );
    assert.ok(splitAll.counters.splitSoftmaxes - before > 100, 'blocks of two or more rows went to both threads');
    for (let seed = 0; seed < 30; seed++) {
      const x = randomArray(37 * 70, seed, -20, 20);
      expectSameSoftmax(dynamic, single, { x, off: 0, rows: 37, cols: 70, ld: 70, fullyMasked: 'zero' }, `dynamic ${seed}`);
    }
  });

  it('softmaxRows: same bits for more rows than one staged block (1M floats), through a view', () => {
    const rows = 300;
    const cols = 4001;
    const ld = 4005;
    const x = randomArray(7 + rows * ld, 21, -30, 30);
    const before = splitAll.counters.splitSoftmaxes;
    expectSameSoftmax(splitAll, single, { x, off: 7, rows, cols, ld, fullyMasked: 'nan' }, 'two staged blocks');
    assert.equal(splitAll.counters.splitSoftmaxes - before, 2);
  });

  it('the helper sees memory the engine thread grew after it started', async () => {
    const fresh = await twoThreads(forced);
    started.push(fresh);
    const small: Case = { ...base, m: 16, n: 16, k: 8, seed: 3 };
    expectSameGemm(fresh, single, build(small), 'small product');
    const bytesBefore = fresh.memoryBytes;
    const big: Case = { ...base, m: 700, n: 600, k: 90, transB: true, seed: 4 };
    expectSameGemm(fresh, single, build(big), 'product after growing the memory');
    assert.ok(fresh.memoryBytes > bytesBefore, 'the second product needed more memory');
    assert.equal(fresh.counters.splitGemms, 2);
    assert.ok(fresh.counters.helperChunks > 2, 'the helper computed chunks of the product in the grown memory');
    assert.equal(fresh.counters.recovered, 0);
  });

  it('small products and softmax blocks stay on the calling thread; big ones are split', async () => {
    const defaults = await twoThreads({ helperTimeoutMs: 10_000 });
    started.push(defaults);
    const run = (m: number, n: number, k: number): void => {
      const cs: Case = { ...base, m, n, k, seed: m + n + k };
      expectSameGemm(defaults, single, build(cs), label(cs));
    };
    // just below and at the threshold (m·n·k multiply-adds)
    run(64, 64, PARALLEL_MIN_MULADDS / 4096 - 1);
    assert.deepEqual([defaults.counters.singleGemms, defaults.counters.splitGemms], [1, 0]);
    run(64, 64, PARALLEL_MIN_MULADDS / 4096);
    assert.deepEqual([defaults.counters.singleGemms, defaults.counters.splitGemms], [1, 1]);
    // too narrow to split along either side, however deep
    run(MR + 3, NR * 2 - 1, 20_000);
    assert.deepEqual([defaults.counters.singleGemms, defaults.counters.splitGemms], [2, 1]);

    const cols = 256;
    const rowsAtThreshold = PARALLEL_MIN_SOFTMAX_FLOATS / cols;
    for (const rows of [rowsAtThreshold - 1, rowsAtThreshold]) {
      const x = randomArray(rows * cols, rows, -5, 5);
      expectSameSoftmax(defaults, single, { x, off: 0, rows, cols, ld: cols, fullyMasked: 'zero' }, `${rows} rows`);
    }
    assert.deepEqual([defaults.counters.singleSoftmaxes, defaults.counters.splitSoftmaxes], [1, 1]);
  });
});

describe('kernels: cutting C into chunks for two threads', () => {
  it('cuts along the longer side into whole tiles, 2 to MAX_CHUNKS chunks that cover C exactly once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 2 ** 24 }),
        (m, n, k, per) => {
          const plan = planChunks(m, n, k, per);
          if (!plan) {
            assert.ok(m < 2 * MR && n < 2 * NR, `${m}x${n} should have been cut`);
            return;
          }
          assert.ok(plan.count >= 2 && plan.count <= MAX_CHUNKS, `${m}x${n}x${k}: ${plan.count} chunks`);
          if (plan.axis === 'rows') assert.ok(m >= n || n < 2 * NR, `${m}x${n}: cut into rows although columns are longer`);
          else assert.ok(n > m || m < 2 * MR, `${m}x${n}: cut into columns although rows are at least as long`);
          assert.equal(plan.size % (plan.axis === 'rows' ? MR : NR), 0, 'whole tiles');
          const covered = new Uint8Array(plan.axis === 'rows' ? m : n);
          for (let c = 0; c < plan.count; c++) {
            const p = chunkPart(plan, c, m, n);
            const [from, to] = plan.axis === 'rows' ? [p.i0, p.i1] : [p.j0, p.j1];
            assert.deepEqual(plan.axis === 'rows' ? [p.j0, p.j1] : [p.i0, p.i1], [0, plan.axis === 'rows' ? n : m]);
            assert.ok(to > from, `chunk ${c} is empty`);
            for (let x = from; x < to; x++) covered[x]++;
          }
          assert.ok(
            covered.every((x) => x === 1),
            'every row (column) in exactly one chunk',
          );
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  it('aims at the multiply-adds per chunk it is given', () => {
    assert.deepEqual(planChunks(512, 512, 64, 1 << 20), { axis: 'rows', size: 64, count: 8 }); // Q·Kᵀ of a head
    assert.deepEqual(planChunks(512, 768, 768, 1 << 20), { axis: 'cols', size: 96, count: 8 }); // a projection
    assert.deepEqual(planChunks(512, 64, 512, 1 << 23), { axis: 'rows', size: 256, count: 2 }); // P·V, big chunks
  });
});

describe('kernels: initKernels with threads', function () {
  this.timeout(30_000);
  let saved: Kernel;
  beforeEach(() => {
    saved = getKernel();
  });
  afterEach(() => {
    setKernel(saved);
  });

  it('threads 2 gives the two-thread wasm-simd kernel, once; threads 1 the single-thread one', async () => {
    assert.equal(availableKernelThreads(), 2);
    const two = await initKernels('wasm-simd', { threads: 2, spawnHelper: spawnKernelHelper });
    assert.equal(two.name, 'wasm-simd');
    assert.equal(two.threads, 2);
    assert.equal(getKernel(), two);
    // exact: 'auto' would take the FMA module where relaxed SIMD is available (test/unit/kernels/fma.test.ts)
    assert.equal(await initKernels('auto', { threads: 2, spawnHelper: spawnKernelHelper, exact: true }), two, 'started once');
    assert.equal(await initKernels('auto', { threads: 8, spawnHelper: spawnKernelHelper, exact: true }), two, 'more than 2 means 2');
    const one = await initKernels('wasm-simd', { threads: 1 });
    assert.equal(one.threads, 1);
    assert.notEqual(one, two);
    assert.equal(await initKernels('wasm-simd'), one, 'threads defaults to 1');
    assert.equal(await initKernels('ts', { threads: 2, spawnHelper: spawnKernelHelper }), tsKernel, 'ts is single-threaded');
  });

  it('without SharedArrayBuffer, threads 2 falls back to the single-thread kernel and says so', async () => {
    const sab = globalThis.SharedArrayBuffer;
    let spawned = 0;
    try {
      (globalThis as { SharedArrayBuffer?: unknown }).SharedArrayBuffer = undefined;
      assert.equal(wasmThreadsSupported(), false);
      assert.equal(availableKernelThreads(), 1);
      const kernel = await initKernels('wasm-simd', { threads: 2, spawnHelper: () => (spawned++, { terminate() {} }) });
      assert.equal(kernel.name, 'wasm-simd');
      assert.equal(kernel.threads, 1);
      assert.equal(spawned, 0, 'no helper thread without shared memory');
      assert.equal(await createParallelWasmSimdKernel(() => (spawned++, { terminate() {} })), null);
    } finally {
      globalThis.SharedArrayBuffer = sab;
    }
  });

  it('rejects a bad thread count, and threads > 1 without a way to start the helper', async () => {
    for (const threads of [0, -1, 1.5, NaN, '2']) {
      await assert.rejects(initKernels('auto', { threads: threads as number }), /initKernels: threads must be a positive integer, got /);
    }
    await assert.rejects(initKernels('auto', { threads: 2 }), /initKernels: threads 2 needs a spawnHelper/);
  });
});
