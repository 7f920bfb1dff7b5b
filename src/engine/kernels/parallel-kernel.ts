// The two-thread WebAssembly SIMD kernel: the single-thread kernel (./wasm-kernel.ts) on a shared
// WebAssembly.Memory, with ONE helper thread running the same module on the same memory.
//
// The kernel boundary stays synchronous. A big gemm is staged once in the shared memory (as the single-thread
// kernel stages it); the engine thread posts the helper's half of C in the control block
// (./parallel-protocol.ts), computes its own half, copies it out, then waits (Atomics.wait, with a time
// limit) for the helper's half and copies that out. softmaxRows splits a staged block of rows the same way.
// Products and row blocks below a threshold run on the engine thread alone (a hand-over costs tens of µs).
// Splitting along rows or columns of C keeps every element's arithmetic, so results are identical bit for
// bit to the single-thread kernel.
//
// The helper is started through an injected capability (`SpawnKernelHelper`): this folder stays free of
// worker_threads; src/worker/kernel-helper.ts implements it. A helper that is slow, fails or dies never hangs
// the engine and never changes a result:
//   - not started yet: the engine thread works alone until the helper reports ready;
//   - did not claim a job in time: the engine thread takes the job back and computes it, then works alone
//     until the helper answers a ping;
//   - claimed a job and did not finish in time (dead or stuck): its half is recomputed by a private
//     single-thread kernel from the caller's arrays, and the engine thread keeps away from the shared memory
//     (which the helper may still write) until the helper reports the job finished;
//   - reported a failure, or exited: the engine thread works alone from then on.
// Each of these is logged once.
import type { GemmArgs, SoftmaxRowsArgs } from './kernel';
import {
  createSharedMemory,
  instantiateShared,
  sharedSimdKernelBytes,
  wasmThreadsSupported,
  type SimdFunctions,
} from './simd-module';
import { multiplyStaged, scratchRegion, splitInTwo, type Part, type StagedGemm } from './staged-gemm';
import { createControlBlock, HELPER, JOB, SLOT, STATE } from './parallel-protocol';
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
 * Below this many multiply-adds (m·n·k) a product runs on the engine thread alone. A hand-over costs about
 * 20-40 µs here (post, wake, notify, wake); 2^19 multiply-adds take ~40 µs at 25 GFLOP/s, so the split saves
 * more than it costs from about there on (bench/kernels.ts, "split threshold" table).
 */
export const PARALLEL_MIN_MULADDS = 1 << 19;

/** Below this many floats (rows·cols) a block of softmax rows runs on the engine thread alone. */
export const PARALLEL_MIN_SOFTMAX_FLOATS = 1 << 15;

/** How long the engine thread waits for the helper's half at least, in ms (and at least 8x its own half). */
export const HELPER_TIMEOUT_MS = 250;

/** How long `createParallelWasmSimdKernel` waits for the helper to report ready before returning anyway. */
const HELPER_START_MS = 5000;

export interface ParallelKernelOptions extends WasmSimdKernelOptions {
  /** Overrides PARALLEL_MIN_MULADDS (tests use 0 to split every product). */
  minParallelMulAdds?: number;
  /** Overrides PARALLEL_MIN_SOFTMAX_FLOATS. */
  minParallelSoftmaxFloats?: number;
  /** Overrides HELPER_TIMEOUT_MS (tests use a short limit). */
  helperTimeoutMs?: number;
  /** Where problems with the helper are reported (once each). Default: console.error. */
  log?: (message: string) => void;
  /** Wait for the helper to report ready (default true; false returns at once, the helper joins later). */
  awaitHelper?: boolean;
}

/** What the kernel knows about its helper. */
export type HelperStatus =
  /** not reported ready yet */
  | 'starting'
  /** takes jobs */
  | 'ready'
  /** did not claim a job in time; a ping is posted, the helper is used again once it answers */
  | 'unresponsive'
  /** still running a job the engine thread gave up waiting for: the shared memory is off-limits */
  | 'abandoned'
  /** reported a failed job, exited, or was disposed: the engine thread works alone */
  | 'gone';

/** Counts of how work was shared, for tests and benchmarks. */
export interface ParallelCounters {
  /** gemm / softmax blocks split between the two threads. */
  splitGemms: number;
  splitSoftmaxes: number;
  /** gemm / softmax blocks run on the engine thread alone (below the threshold, or no helper). */
  singleGemms: number;
  singleSoftmaxes: number;
  /** Helper halves the engine thread computed itself (taken back, failed) or recomputed privately. */
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
  const module = await WebAssembly.compile(sharedSimdKernelBytes());
  const memory = createSharedMemory();
  const wasm = instantiateShared(module, memory);
  const fallback = await createWasmSimdKernel(options);
  const kernel = new ParallelWasmSimdKernel(wasm, memory, module, fallback, options);
  kernel.start(spawnHelper);
  if (options.awaitHelper ?? true) await kernel.whenHelperReady(HELPER_START_MS);
  return kernel;
}

export class ParallelWasmSimdKernel extends WasmSimdKernel {
  private readonly control = createControlBlock();
  private readonly ctl = new Int32Array(this.control);
  private readonly f32 = new Float32Array(this.control);
  private handle: KernelHelperHandle | undefined;
  private status: HelperStatus = 'starting';
  private exitReason: string | undefined;
  private readonly minMulAdds: number;
  private readonly minSoftmaxFloats: number;
  private readonly timeoutMs: number;
  private readonly log: (message: string) => void;
  readonly counters: ParallelCounters = { splitGemms: 0, splitSoftmaxes: 0, singleGemms: 0, singleSoftmaxes: 0, recovered: 0 };

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
    this.minSoftmaxFloats = options.minParallelSoftmaxFloats ?? PARALLEL_MIN_SOFTMAX_FLOATS;
    this.timeoutMs = options.helperTimeoutMs ?? HELPER_TIMEOUT_MS;
    this.log = options.log ?? ((message) => console.error(message));
  }

  /** 2 while the helper takes (or may take again) jobs, 1 once it is gone. */
  override get threads(): number {
    return this.status === 'gone' ? 1 : 2;
  }

  /** The helper's state as of the last kernel call (see HelperStatus). */
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
    Atomics.store(this.ctl, SLOT.state, STATE.quit);
    Atomics.notify(this.ctl, SLOT.state);
    this.handle?.terminate();
    this.status = 'gone';
  }

  // ------------------------------------------------------------------------------------------ helper state

  private helperExited(reason: string): void {
    this.exitReason ??= reason;
    Atomics.store(this.ctl, SLOT.helper, HELPER.exited);
    if (this.status !== 'gone') {
      this.log(`attention kernel: the helper thread ${reason}; computing on one thread from now on`);
      this.status = 'gone';
    }
  }

  /** Updates `status` from the control block (the helper reports ready; an abandoned job or ping finishes). */
  private refreshStatus(): void {
    if (this.status === 'gone') return;
    if (Atomics.load(this.ctl, SLOT.helper) === HELPER.exited) {
      this.status = 'gone'; // (helperExited logged it)
      return;
    }
    if (this.status === 'starting') {
      if (Atomics.load(this.ctl, SLOT.helper) === HELPER.ready) this.status = 'ready';
      return;
    }
    if (this.status === 'unresponsive' || this.status === 'abandoned') {
      const state = Atomics.load(this.ctl, SLOT.state);
      if (state === STATE.done || state === STATE.failed) {
        this.log(`attention kernel: the helper thread answered again; computing on two threads`);
        this.status = 'ready';
      }
    }
  }

  /** The helper is idle and takes jobs. */
  private helperReady(): boolean {
    this.refreshStatus();
    return this.status === 'ready';
  }

  /** Posts a job whose fields the caller has written. */
  private post(kind: number): void {
    Atomics.store(this.ctl, SLOT.kind, kind);
    Atomics.store(this.ctl, SLOT.state, STATE.posted);
    Atomics.notify(this.ctl, SLOT.state);
  }

  /**
   * Waits for the posted job. 'done' / 'failed': the helper finished it (successfully or not); 'taken-back':
   * it never claimed it and now never will; 'abandoned': it claimed it and has not finished.
   */
  private awaitJob(ownMs: number): 'done' | 'failed' | 'taken-back' | 'abandoned' {
    const budget = Math.max(this.timeoutMs, 8 * ownMs);
    const start = performance.now();
    for (;;) {
      const state = Atomics.load(this.ctl, SLOT.state);
      if (state === STATE.done) return 'done';
      if (state === STATE.failed) return 'failed';
      const left = budget - (performance.now() - start);
      if (left <= 0) break;
      Atomics.wait(this.ctl, SLOT.state, state, left);
    }
    if (Atomics.compareExchange(this.ctl, SLOT.state, STATE.posted, STATE.idle) === STATE.posted) return 'taken-back';
    const state = Atomics.load(this.ctl, SLOT.state);
    if (state === STATE.done) return 'done';
    if (state === STATE.failed) return 'failed';
    return 'abandoned';
  }

  /**
   * After a job that did not come back as 'done': updates the status and logs. Returns true when the shared
   * memory is still safe to use (the helper is not running anything).
   */
  private afterTrouble(outcome: 'failed' | 'taken-back' | 'abandoned', what: string, waitedMs: number): boolean {
    this.counters.recovered++;
    if (outcome === 'failed') {
      this.status = 'gone';
      this.log(`attention kernel: the helper thread failed a ${what}; computed its half here, one thread from now on`);
      return true;
    }
    if (outcome === 'taken-back') {
      this.status = 'unresponsive';
      this.log(
        `attention kernel: the helper thread did not take a ${what} within ${Math.round(waitedMs)} ms; ` +
          'computed it here, one thread until it answers',
      );
      this.post(JOB.ping);
      return true;
    }
    this.status = 'abandoned';
    this.log(
      `attention kernel: the helper thread did not finish a ${what} within ${Math.round(waitedMs)} ms; ` +
        'recomputed its half here, one thread until it answers',
    );
    return false;
  }

  // ------------------------------------------------------------------------------------------ gemm

  protected override gemmChecked(args: GemmArgs): void {
    this.refreshStatus();
    // While the helper may still write the shared memory, stage nothing there.
    if (this.status === 'abandoned') this.fallback.gemm(args);
    else super.gemmChecked(args);
  }

  protected override multiplyAndCopyOut(args: GemmArgs, g: StagedGemm): void {
    const parts = g.m * g.n * g.k >= this.minMulAdds ? splitInTwo(g.m, g.n) : null;
    if (!parts || !this.helperReady()) {
      this.counters.singleGemms++;
      super.multiplyAndCopyOut(args, g);
      return;
    }
    const [own, theirs] = parts;
    this.postGemm(g, theirs);
    const start = performance.now();
    multiplyStaged(this.wasm, g, scratchRegion(0), own.i0, own.i1, own.j0, own.j1);
    const ownMs = performance.now() - start;
    this.copyOut(args, g, own.i0, own.i1, own.j0, own.j1);
    const outcome = this.awaitJob(ownMs);
    this.counters.splitGemms++;
    if (outcome === 'done') {
      this.copyOut(args, g, theirs.i0, theirs.i1, theirs.j0, theirs.j1);
      return;
    }
    const what = `${g.m}x${g.n}x${g.k} product`;
    if (this.afterTrouble(outcome, what, performance.now() - start)) {
      multiplyStaged(this.wasm, g, scratchRegion(0), theirs.i0, theirs.i1, theirs.j0, theirs.j1);
      this.copyOut(args, g, theirs.i0, theirs.i1, theirs.j0, theirs.j1);
    } else {
      this.fallback.gemm(subProduct(args, theirs));
    }
  }

  private postGemm(g: StagedGemm, part: Part): void {
    const c = this.ctl;
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
    c[SLOT.i0] = part.i0;
    c[SLOT.i1] = part.i1;
    c[SLOT.j0] = part.j0;
    c[SLOT.j1] = part.j1;
    this.f32[SLOT.alpha] = g.alpha;
    this.post(JOB.gemm);
  }

  // ------------------------------------------------------------------------------------------ softmax

  protected override softmaxBlock(args: SoftmaxRowsArgs, s: StagedSoftmax): void {
    this.refreshStatus();
    // While the helper may still write the shared memory, stage nothing there.
    if (this.status === 'abandoned') this.fallback.softmaxRows(subRows(args, s.r0, s.rows));
    else super.softmaxBlock(args, s);
  }

  protected override softmaxAndCopyOut(args: SoftmaxRowsArgs, s: StagedSoftmax): void {
    const cut = Math.ceil(s.rows / 2);
    if (s.rows < 2 || s.rows * s.colsPad < this.minSoftmaxFloats || !this.helperReady()) {
      this.counters.singleSoftmaxes++;
      super.softmaxAndCopyOut(args, s);
      return;
    }
    const c = this.ctl;
    c[SLOT.rowFrom] = cut;
    c[SLOT.rowTo] = s.rows;
    c[SLOT.colsPad] = s.colsPad;
    c[SLOT.maskedNaN] = s.maskedNaN;
    this.post(JOB.softmax);
    const start = performance.now();
    this.wasm.softmaxRows(0, cut, s.colsPad, s.colsPad, s.maskedNaN);
    const ownMs = performance.now() - start;
    this.copySoftmaxOut(args, s, 0, cut);
    const outcome = this.awaitJob(ownMs);
    this.counters.splitSoftmaxes++;
    if (outcome === 'done') {
      this.copySoftmaxOut(args, s, cut, s.rows);
      return;
    }
    const what = `block of ${s.rows} softmax rows`;
    if (this.afterTrouble(outcome, what, performance.now() - start)) {
      this.wasm.softmaxRows(cut * s.colsPad * 4, s.rows - cut, s.colsPad, s.colsPad, s.maskedNaN);
      this.copySoftmaxOut(args, s, cut, s.rows);
    } else {
      this.fallback.softmaxRows(subRows(args, s.r0 + cut, s.rows - cut));
    }
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
