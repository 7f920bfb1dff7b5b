// The kernel helper thread's loop (pure: no worker_threads here; src/worker/kernel-helper.ts starts it in a
// worker). It instantiates the shared-memory SIMD module on the engine thread's memory and runs the jobs the
// engine thread posts in the control block (./parallel-protocol.ts) until told to quit.
import { instantiateShared, type SimdFunctions } from './simd-module';
import { multiplyStaged, scratchRegion, type StagedGemm } from './staged-gemm';
import { HELPER, JOB, SLOT, STATE } from './parallel-protocol';

export interface KernelHelperHooks {
  /**
   * Called after the helper claimed job number `index` (0, 1, ...) and before it runs it (tests make the
   * helper die, hang or fail here; an exception fails the job).
   */
  beforeJob?(index: number): void;
  /** Called with an error a job threw (the job is then reported FAILED). Default: console.error. */
  onError?(error: unknown): void;
}

/**
 * Serves jobs until the engine thread sets STATE to QUIT (or the thread is terminated). Blocks the calling
 * thread: it sleeps in Atomics.wait between jobs.
 */
export function serveKernelJobs(
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
  control: SharedArrayBuffer,
  hooks: KernelHelperHooks = {},
): void {
  const ctl = new Int32Array(control);
  const f32 = new Float32Array(control);
  const wasm = instantiateShared(module, memory);
  Atomics.store(ctl, SLOT.helper, HELPER.ready);
  Atomics.notify(ctl, SLOT.helper);
  let jobs = 0;
  for (;;) {
    const state = Atomics.load(ctl, SLOT.state);
    if (state === STATE.quit) return;
    if (state !== STATE.posted) {
      Atomics.wait(ctl, SLOT.state, state);
      continue;
    }
    if (Atomics.compareExchange(ctl, SLOT.state, STATE.posted, STATE.running) !== STATE.posted) continue;
    let outcome: number = STATE.done;
    try {
      hooks.beforeJob?.(jobs++);
      runJob(wasm, memory, ctl, f32);
    } catch (e) {
      outcome = STATE.failed;
      (hooks.onError ?? ((err: unknown) => console.error('attention kernel helper: a job failed:', err)))(e);
    }
    Atomics.add(ctl, SLOT.finished, 1);
    // (a QUIT that arrived while running wins)
    Atomics.compareExchange(ctl, SLOT.state, STATE.running, outcome);
    Atomics.notify(ctl, SLOT.state);
  }
}

function runJob(wasm: SimdFunctions, memory: WebAssembly.Memory, ctl: Int32Array, f32: Float32Array): void {
  const kind = ctl[SLOT.kind];
  // Reading memory.buffer also makes this thread see a memory the engine thread has grown.
  const bytes = memory.buffer.byteLength;
  if (kind === JOB.ping) return;
  if (kind === JOB.gemm) {
    const g: StagedGemm = {
      m: ctl[SLOT.m],
      n: ctl[SLOT.n],
      k: ctl[SLOT.k],
      transB: ctl[SLOT.transB] === 1,
      alpha: f32[SLOT.alpha],
      accumulate: ctl[SLOT.accumulate] === 1,
      packA: ctl[SLOT.packA] === 1,
      aAt: ctl[SLOT.aAt],
      bAt: ctl[SLOT.bAt],
      cAt: ctl[SLOT.cAt],
      mPad: ctl[SLOT.mPad],
      ldc: ctl[SLOT.ldc],
    };
    const end = g.cAt + g.mPad * g.ldc * 4;
    if (end > bytes) throw new Error(`gemm job reaches byte ${end} but the shared memory has ${bytes}`);
    multiplyStaged(wasm, g, scratchRegion(1), ctl[SLOT.i0], ctl[SLOT.i1], ctl[SLOT.j0], ctl[SLOT.j1]);
    return;
  }
  if (kind === JOB.softmax) {
    const from = ctl[SLOT.rowFrom];
    const to = ctl[SLOT.rowTo];
    const colsPad = ctl[SLOT.colsPad];
    const end = to * colsPad * 4;
    if (end > bytes) throw new Error(`softmax job reaches byte ${end} but the shared memory has ${bytes}`);
    wasm.softmaxRows(from * colsPad * 4, to - from, colsPad, colsPad, ctl[SLOT.maskedNaN]);
    return;
  }
  throw new Error(`unknown job kind ${kind}`);
}
