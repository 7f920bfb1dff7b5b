// The two-thread WebAssembly SIMD kernel: the single-thread kernel (./wasm-kernel.ts) on a shared
// WebAssembly.Memory, with ONE helper thread running the same module on the same memory.
//
// The kernel boundary stays synchronous. A big gemm is staged once in the shared memory (as the single-thread
// kernel stages it) and cut into chunks (bands of rows or columns of C, ./staged-gemm.ts); the engine thread
// posts the job in the control block (./parallel-protocol.ts), then both threads take chunks until none is
// left. The engine thread copies each of its chunks out as soon as it is computed, then waits (Atomics.wait,
// with a time limit) only for chunks the helper took and has not finished, and copies those out.
// softmaxRows cuts a staged block of rows the same way. Products and row blocks below a threshold run on the
// engine thread alone (a hand-over costs tens of µs). Every element of C gets the same arithmetic in any
// chunk, so results are identical bit for bit to the single-thread kernel's, whoever computed what.
//
// The helper is started through an injected capability (`SpawnKernelHelper`): this folder stays free of
// worker_threads; src/worker/kernel-helper.ts implements it. A helper that is slow, fails or dies never hangs
// the engine and never changes a result:
//   - not started yet, asleep, or descheduled: it takes fewer chunks or none, the engine thread the rest;
//   - took a chunk and did not finish it in time (dead or stuck): the engine thread recomputes the helper's
//     chunks on a private single-thread kernel from the caller's arrays, and keeps away from the shared memory
//     (which the helper may still write) until the helper reports those chunks finished;
//   - failed a chunk, or exited: the engine thread computes its chunks and works alone from then on.
// Each of these is logged once.
import type { GemmArgs, SoftmaxRowsArgs } from './kernel';
import {
  createSharedMemory,
  instantiateShared,
  sharedSimdKernelBytes,
  wasmFmaSupported,
  wasmFmaUnavailable,
  wasmThreadsSupported,
  type SimdFunctions,
} from './simd-module';
import {
  align64,
  chunkPart,
  multiplyStaged,
  MAX_CHUNKS,
  packedABytes,
  packedBBytes,
  planChunks,
  prepackA,
  prepackB,
  scratchRegion,
  type ChunkPlan,
  type Part,
  type StagedGemm,
} from './staged-gemm';
import { AXIS, createControlBlock, HELPER, JOB, jobId, SLOT, takeChunk } from './parallel-protocol';
import { createWasmSimdKernel, WasmSimdKernel, type StagedSoftmax, type WasmSimdKernelOptions } from './wasm-kernel';

/** A running helper thread, as far as the kernel needs to know. */
export interface KernelHelperHandle {
  terminate(): void;
}

/**
 * Starts the helper thread: it must call `serveKernelJobs(module, memory, control)` (./parallel-helper.ts) on
 * the given shared memory, compiled module and control block, and call `onExit(reason)` if the thread stops
 * (exits or fails to start).
 */
export type SpawnKernelHelper = (
  memory: WebAssembly.Memory,
  module: WebAssembly.Module,
  control: SharedArrayBuffer,
  onExit: (reason: string) => void,
) => KernelHelperHandle;

/**
 * Below this many multiply-adds (m·n·k) a product runs on the engine thread alone: a hand-over costs about
 * 20-40 µs here (post, wake, take, notify), and 2^19 multiply-adds take ~40 µs at 25 GFLOP/s
 * (bench/kernels.ts, "split threshold" table).
 */
export const PARALLEL_MIN_MULADDS = 1 << 19;

/** About this many multiply-adds per chunk (a product is cut into 2..MAX_CHUNKS chunks). */
export const CHUNK_MULADDS = 1 << 20;

/** Below this many floats (rows·cols) a block of softmax rows runs on the engine thread alone. */
export const PARALLEL_MIN_SOFTMAX_FLOATS = 1 << 15;

/** About this many floats per softmax chunk. */
export const SOFTMAX_CHUNK_FLOATS = 1 << 15;

/** How long the engine thread waits for the helper's chunks at least, in ms (and at least 8x its own work). */
export const HELPER_TIMEOUT_MS = 250;

/** How long `createParallelWasmSimdKernel` waits for the helper to report ready before returning anyway. */
const HELPER_START_MS = 5000;

export interface ParallelKernelOptions extends WasmSimdKernelOptions {
  /** Overrides PARALLEL_MIN_MULADDS (tests use 0 to split every product). */
  minParallelMulAdds?: number;
  /** Overrides CHUNK_MULADDS. */
  chunkMulAdds?: number;
  /** Overrides PARALLEL_MIN_SOFTMAX_FLOATS. */
  minParallelSoftmaxFloats?: number;
  /** Overrides HELPER_TIMEOUT_MS (tests use a short limit). */
  helperTimeoutMs?: number;
  /**
   * The most chunks of a job the engine thread takes itself (default: as many as it can). Tests use 0 so that
   * the helper computes every chunk, deterministically.
   */
  ownChunkLimit?: number;
  /** Where problems with the helper are reported (once each). Default: console.error. */
  log?: (message: string) => void;
  /** Wait for the helper to report ready (default true; false returns at once, the helper joins later). */
  awaitHelper?: boolean;
}

/** What the kernel knows about its helper. */
export type HelperStatus =
  /** not reported ready yet */
  | 'starting'
  /** takes chunks */
  | 'ready'
  /** still computing chunks the engine thread gave up waiting for: the shared memory is off-limits */
  | 'abandoned'
  /** failed a chunk, exited, or was disposed: the engine thread works alone */
  | 'gone';

/** Counts of how work was shared, for tests and benchmarks. */
export interface ParallelCounters {
  /** gemm jobs / blocks of softmax rows posted to both threads. */
  splitGemms: number;
  splitSoftmaxes: number;
  /** gemm / softmax blocks run on the engine thread alone (below the threshold, or no helper). */
  singleGemms: number;
  singleSoftmaxes: number;
  /** Chunks of posted jobs the engine thread computed. */
  ownChunks: number;
  /** Chunks of posted jobs the helper computed (as the engine thread copied them out). */
  helperChunks: number;
  /** Times the engine thread had to compute or recompute chunks the helper took (failed, stuck, dead). */
  recovered: number;
}

/**
 * The two-thread kernel where shared WebAssembly memory is available, else null (the caller then uses the
 * single-thread kernel). Rejects only if the module cannot be instantiated.
 */
export async function createParallelWasmSimdKernel(
  spawnHelper: SpawnKernelHelper,
  options: ParallelKernelOptions = {},
): Promise<ParallelWasmSimdKernel | null> {
  if (!wasmThreadsSupported()) return null;
  const fma = options.fma ?? false;
  if (fma && !wasmFmaSupported()) throw wasmFmaUnavailable();
  const module = await WebAssembly.compile(sharedSimdKernelBytes(fma));
  const memory = createSharedMemory();
  const wasm = instantiateShared(module, memory);
  const fallback = await createWasmSimdKernel(options);
  const kernel = new ParallelWasmSimdKernel(wasm, memory, module, fallback, options);
  kernel.start(spawnHelper);
  if (options.awaitHelper ?? true) await kernel.whenHelperReady(HELPER_START_MS);
  return kernel;
}

/** What the engine thread does with one chunk of a job. */
interface ChunkWork {
  /** Computes it in the shared memory with the engine thread's scratch. */
  computeHere(chunk: number): void;
  /** Copies its results from the shared memory to the caller's array. */
  copyOut(chunk: number): void;
  /** Computes it from the caller's arrays into the caller's array on the private single-thread kernel. */
  computePrivately(chunk: number): void;
}

/** How a posted job ended for the engine thread. */
interface JobOutcome {
  /** Chunks the engine thread computed (and copied out). */
  own: Set<number>;
  /** Chunks the helper finished and the engine thread copied out. */
  copied: Set<number>;
  /** 'done': the helper finished every chunk it took; 'failed': one threw; 'stuck': not finished in time. */
  helper: 'done' | 'failed' | 'stuck';
  waitedMs: number;
}

export class ParallelWasmSimdKernel extends WasmSimdKernel {
  private readonly control = createControlBlock();
  private readonly ctl = new Int32Array(this.control);
  private readonly f32 = new Float32Array(this.control);
  private handle: KernelHelperHandle | undefined;
  private status: HelperStatus = 'starting';
  /** While abandoned: how many chunks the helper had finished when it had all the stuck ones done. */
  private abandonedUntil = 0;
  private readonly minMulAdds: number;
  private readonly chunkMulAdds: number;
  private readonly minSoftmaxFloats: number;
  private readonly timeoutMs: number;
  private readonly ownChunkLimit: number;
  private readonly log: (message: string) => void;
  readonly counters: ParallelCounters = {
    splitGemms: 0,
    splitSoftmaxes: 0,
    singleGemms: 0,
    singleSoftmaxes: 0,
    ownChunks: 0,
    helperChunks: 0,
    recovered: 0,
  };

  constructor(
    wasm: SimdFunctions,
    memory: WebAssembly.Memory,
    private readonly module: WebAssembly.Module,
    /** A single-thread kernel on its own memory, for work the shared memory cannot take (see above). */
    private readonly fallback: WasmSimdKernel,
    options: ParallelKernelOptions = {},
  ) {
    super(wasm, memory, options, 2);
    this.minMulAdds = options.minParallelMulAdds ?? PARALLEL_MIN_MULADDS;
    this.chunkMulAdds = options.chunkMulAdds ?? CHUNK_MULADDS;
    this.minSoftmaxFloats = options.minParallelSoftmaxFloats ?? PARALLEL_MIN_SOFTMAX_FLOATS;
    this.timeoutMs = options.helperTimeoutMs ?? HELPER_TIMEOUT_MS;
    this.ownChunkLimit = options.ownChunkLimit ?? Infinity;
    this.log = options.log ?? ((message) => console.error(message));
  }

  /** 2 while the helper takes (or may take again) chunks, 1 once it is gone. */
  override get threads(): number {
    return this.status === 'gone' ? 1 : 2;
  }

  /** The helper's state (see HelperStatus). */
  get helperStatus(): HelperStatus {
    this.refreshStatus();
    return this.status;
  }

  /** Starts the helper thread (once). */
  start(spawnHelper: SpawnKernelHelper): void {
    if (this.handle) throw new Error('parallel kernel: the helper has already been started');
    try {
      this.handle = spawnHelper(this.wasmMemory, this.module, this.control, (reason) => this.helperExited(reason));
    } catch (e) {
      this.helperExited(`could not be started (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /** Resolves true once the helper reported ready, false if it is gone or not ready within `ms`. */
  async whenHelperReady(ms: number): Promise<boolean> {
    const until = performance.now() + ms;
    for (;;) {
      this.refreshStatus();
      if (this.status === 'ready') return true;
      if (this.status === 'gone' || performance.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Asks the helper to quit and terminates its thread; the kernel then works on the engine thread alone. */
  dispose(): void {
    Atomics.store(this.ctl, SLOT.quit, 1);
    Atomics.add(this.ctl, SLOT.version, 2);
    Atomics.notify(this.ctl, SLOT.version);
    this.handle?.terminate();
    this.status = 'gone';
  }

  // ------------------------------------------------------------------------------------------ helper state

  private helperExited(reason: string): void {
    Atomics.store(this.ctl, SLOT.helper, HELPER.exited);
    if (this.status !== 'gone') {
      this.log(`attention kernel: the helper thread ${reason}; computing on one thread from now on`);
      this.status = 'gone';
    }
  }

  /** Updates `status` from the control block (the helper reports ready; stuck chunks finish; it exited). */
  private refreshStatus(): void {
    if (this.status === 'gone') return;
    if (Atomics.load(this.ctl, SLOT.helper) === HELPER.exited) {
      this.status = 'gone'; // (helperExited logged it; a dead thread writes nothing, so the memory is ours)
      return;
    }
    if (this.status === 'starting' && Atomics.load(this.ctl, SLOT.helper) === HELPER.ready) this.status = 'ready';
    if (this.status === 'abandoned') {
      const failed = Atomics.load(this.ctl, SLOT.failed) === 1;
      if (Atomics.load(this.ctl, SLOT.helperDone) >= this.abandonedUntil || failed) {
        this.status = failed ? 'gone' : 'ready';
        this.log(`attention kernel: the helper thread finished its late chunks; ${failed ? 'one thread' : 'two threads'} from now on`);
      }
    }
  }

  /** The helper may take chunks of a new job. */
  private helperReady(): boolean {
    this.refreshStatus();
    return this.status === 'ready';
  }

  /** Posts a job: `write` fills its fields while VERSION is odd. Returns the job's id. */
  private post(kind: number, plan: ChunkPlan, write: (c: Int32Array) => void): number {
    const c = this.ctl;
    const version = Atomics.load(c, SLOT.version);
    Atomics.store(c, SLOT.version, version + 1);
    const id = jobId(version + 2);
    c[SLOT.kind] = kind;
    c[SLOT.axis] = plan.axis === 'cols' ? AXIS.cols : AXIS.rows;
    c[SLOT.chunkSize] = plan.size;
    c[SLOT.chunks] = plan.count;
    write(c);
    Atomics.store(c, SLOT.next, id << 16);
    Atomics.store(c, SLOT.helperDone, 0);
    Atomics.store(c, SLOT.failed, 0);
    Atomics.store(c, SLOT.version, version + 2);
    Atomics.notify(c, SLOT.version);
    return id;
  }

  /** Says that chunk `chunk` of job `id` has its operands staged. */
  private markReady(id: number, chunk: number): void {
    Atomics.store(this.ctl, SLOT.ready + chunk, id);
    Atomics.notify(this.ctl, SLOT.ready + chunk);
  }

  /**
   * Runs a posted job (whose chunks are all staged) from the engine thread: takes chunks, computing and
   * copying out each, and copies out the chunks the helper has finished meanwhile, until none is left or it
   * took `ownChunkLimit`; then waits for the chunks the helper took, copying each out as it is finished.
   * After a time-out or a failure it takes and computes whatever nobody took, so that on return every chunk
   * is either the engine thread's or the helper's (copied out, or failed or stuck).
   */
  private runJob(id: number, plan: ChunkPlan, work: ChunkWork): JobOutcome {
    const own = new Set<number>();
    const copied = new Set<number>();
    const collect = (): void => {
      for (let chunk = 0; chunk < plan.count; chunk++) {
        if (!own.has(chunk) && !copied.has(chunk) && Atomics.load(this.ctl, SLOT.done + chunk) === id) {
          work.copyOut(chunk);
          copied.add(chunk);
        }
      }
    };
    const takeOwn = (limit: number): void => {
      while (own.size < limit) {
        collect();
        const chunk = takeChunk(this.ctl, id, plan.count);
        if (chunk < 0) return;
        work.computeHere(chunk);
        work.copyOut(chunk);
        own.add(chunk);
      }
    };
    const start = performance.now();
    takeOwn(this.ownChunkLimit);
    const ownMs = performance.now() - start;
    const budget = Math.max(this.timeoutMs, 8 * ownMs);
    const waitStart = performance.now();
    let helper: JobOutcome['helper'] = 'stuck';
    for (;;) {
      const done = Atomics.load(this.ctl, SLOT.helperDone);
      collect();
      if (Atomics.load(this.ctl, SLOT.failed) === 1) {
        helper = 'failed';
        break;
      }
      if (done >= plan.count - own.size) {
        collect();
        return { own, copied, helper: 'done', waitedMs: performance.now() - waitStart };
      }
      const left = budget - (performance.now() - waitStart);
      if (left <= 0) break;
      Atomics.wait(this.ctl, SLOT.helperDone, done, left);
    }
    // failed or timed out: whatever nobody took is ours now (the helper cannot take it any more after this)
    takeOwn(Infinity);
    collect();
    const waitedMs = performance.now() - waitStart;
    if (helper !== 'failed' && Atomics.load(this.ctl, SLOT.helperDone) >= plan.count - own.size) {
      collect();
      return { own, copied, helper: 'done', waitedMs };
    }
    if (helper === 'stuck') this.abandonedUntil = plan.count - own.size;
    return { own, copied, helper, waitedMs };
  }

  /**
   * After a job: the helper's chunks not copied out yet are computed here in the shared memory when the helper
   * failed (it writes nothing after failing), or recomputed on the private kernel when it is stuck (it may
   * still write them).
   */
  private finishJob(outcome: JobOutcome, plan: ChunkPlan, what: string, work: ChunkWork): void {
    const missing: number[] = [];
    for (let chunk = 0; chunk < plan.count; chunk++) {
      if (!outcome.own.has(chunk) && !outcome.copied.has(chunk)) missing.push(chunk);
    }
    this.counters.ownChunks += outcome.own.size;
    this.counters.helperChunks += outcome.copied.size;
    if (outcome.helper === 'done') return;
    this.counters.recovered++;
    if (outcome.helper === 'failed') {
      this.status = 'gone';
      this.log(`attention kernel: the helper thread failed a chunk of a ${what}; computed its chunks here, one thread from now on`);
      for (const chunk of missing) {
        work.computeHere(chunk);
        work.copyOut(chunk);
      }
      return;
    }
    this.status = 'abandoned';
    this.log(
      `attention kernel: the helper thread did not finish its chunks of a ${what} within ${Math.round(outcome.waitedMs)} ms; ` +
        'recomputed them here, one thread until it does',
    );
    for (const chunk of missing) work.computePrivately(chunk);
  }

  // ------------------------------------------------------------------------------------------ gemm

  protected override gemmChecked(args: GemmArgs): void {
    this.refreshStatus();
    // While the helper may still write the shared memory, stage nothing there.
    if (this.status === 'abandoned') this.fallback.gemm(args);
    else super.gemmChecked(args);
  }

  protected override stageAndMultiply(args: GemmArgs, staged: StagedGemm): void {
    let g = staged;
    const plan = g.m * g.n * g.k >= this.minMulAdds ? planChunks(g.m, g.n, g.k, this.chunkMulAdds) : null;
    if (!plan || !this.helperReady()) {
      this.counters.singleGemms++;
      super.stageAndMultiply(args, g);
      return;
    }
    this.counters.splitGemms++;
    // The operand all chunks share is staged, and packed once for all of them when a chunk would pack it
    // (B for bands of rows; A for bands of columns when A is packed at all), before the job is posted.
    const packAt = align64(g.cAt + g.mPad * g.ldc * 4);
    if (plan.axis === 'rows') {
      this.memory(packAt + packedBBytes(g));
      this.stageB(args, g, 0, g.n);
      prepackB(this.wasm, g, packAt);
      g = { ...g, packedB: packAt };
    } else {
      if (g.packA) this.memory(packAt + packedABytes(g));
      this.stageA(args, g, 0, g.m);
      if (g.packA) {
        prepackA(this.wasm, g, packAt);
        g = { ...g, packedA: packAt };
      }
    }
    const id = this.post(JOB.gemm, plan, (c) => {
      c[SLOT.m] = g.m;
      c[SLOT.n] = g.n;
      c[SLOT.k] = g.k;
      c[SLOT.transB] = g.transB ? 1 : 0;
      c[SLOT.accumulate] = g.accumulate ? 1 : 0;
      c[SLOT.packA] = g.packA ? 1 : 0;
      c[SLOT.aAt] = g.aAt;
      c[SLOT.bAt] = g.bAt;
      c[SLOT.cAt] = g.cAt;
      c[SLOT.mPad] = g.mPad;
      c[SLOT.ldc] = g.ldc;
      c[SLOT.packedA] = g.packedA ?? -1;
      c[SLOT.packedB] = g.packedB ?? -1;
      this.f32[SLOT.alpha] = g.alpha;
    });
    const part = (chunk: number): Part => chunkPart(plan, chunk, g.m, g.n);
    // Each chunk's own part of the operands (rows of A, or columns of B; and of C when beta = 1), in the
    // order chunks are taken: the helper starts on the first while the rest are staged.
    for (let chunk = 0; chunk < plan.count; chunk++) {
      const p = part(chunk);
      if (plan.axis === 'rows') this.stageA(args, g, p.i0, p.i1);
      else this.stageB(args, g, p.j0, p.j1);
      if (g.accumulate) this.stageC(args, g, p.i0, p.i1, p.j0, p.j1);
      this.markReady(id, chunk);
    }
    const work: ChunkWork = {
      computeHere: (chunk) => {
        const p = part(chunk);
        multiplyStaged(this.wasm, g, scratchRegion(0), p.i0, p.i1, p.j0, p.j1);
      },
      copyOut: (chunk) => {
        const p = part(chunk);
        this.copyOut(args, g, p.i0, p.i1, p.j0, p.j1);
      },
      computePrivately: (chunk) => this.fallback.gemm(subProduct(args, part(chunk))),
    };
    this.finishJob(this.runJob(id, plan, work), plan, `${g.m}x${g.n}x${g.k} product`, work);
  }

  // ------------------------------------------------------------------------------------------ softmax

  protected override softmaxBlock(args: SoftmaxRowsArgs, s: StagedSoftmax): void {
    this.refreshStatus();
    // While the helper may still write the shared memory, stage nothing there.
    if (this.status === 'abandoned') {
      this.fallback.softmaxRows(subRows(args, s.r0, s.rows));
      return;
    }
    const floats = s.rows * s.colsPad;
    if (s.rows < 2 || floats < this.minSoftmaxFloats || !this.helperReady()) {
      this.counters.singleSoftmaxes++;
      super.softmaxBlock(args, s);
      return;
    }
    this.counters.splitSoftmaxes++;
    this.memory(floats * 4);
    const count = Math.min(s.rows, MAX_CHUNKS, Math.max(2, Math.floor(floats / SOFTMAX_CHUNK_FLOATS)));
    const size = Math.ceil(s.rows / count);
    const plan: ChunkPlan = { axis: 'rows', size, count: Math.ceil(s.rows / size) };
    const id = this.post(JOB.softmax, plan, (c) => {
      c[SLOT.rows] = s.rows;
      c[SLOT.colsPad] = s.colsPad;
      c[SLOT.maskedNaN] = s.maskedNaN;
    });
    const rowsOf = (chunk: number): [number, number] => [chunk * size, Math.min(s.rows, (chunk + 1) * size)];
    for (let chunk = 0; chunk < plan.count; chunk++) {
      const [from, to] = rowsOf(chunk);
      this.stageSoftmaxRows(args, s, from, to);
      this.markReady(id, chunk);
    }
    const work: ChunkWork = {
      computeHere: (chunk) => {
        const [from, to] = rowsOf(chunk);
        this.wasm.softmaxRows(from * s.colsPad * 4, to - from, s.colsPad, s.colsPad, s.maskedNaN);
      },
      copyOut: (chunk) => {
        const [from, to] = rowsOf(chunk);
        this.copySoftmaxOut(args, s, from, to);
      },
      computePrivately: (chunk) => {
        const [from, to] = rowsOf(chunk);
        this.fallback.softmaxRows(subRows(args, s.r0 + from, to - from));
      },
    };
    this.finishJob(this.runJob(id, plan, work), plan, `block of ${s.rows} softmax rows`, work);
  }
}

/** The product restricted to a rectangle of C (same arithmetic for each of its elements). */
function subProduct(args: GemmArgs, p: Part): GemmArgs {
  return {
    ...args,
    m: p.i1 - p.i0,
    n: p.j1 - p.j0,
    aOff: args.aOff + p.i0 * args.lda,
    bOff: args.bOff + (args.transB ? p.j0 * args.ldb : p.j0),
    cOff: args.cOff + p.i0 * args.ldc + p.j0,
  };
}

/** Rows from..from+count of a softmax view. */
function subRows(args: SoftmaxRowsArgs, from: number, count: number): SoftmaxRowsArgs {
  return { ...args, off: args.off + from * args.ld, rows: count };
}
