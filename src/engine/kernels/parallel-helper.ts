// The kernel helper thread's loop (pure: no worker_threads here; src/worker/kernel-helper.ts starts it in a
// worker). It instantiates the shared-memory SIMD module on the engine thread's memory and takes chunks of the
// jobs the engine thread posts in the control block (./parallel-protocol.ts) until told to quit.
import { instantiateShared, type SimdFunctions } from './simd-module';
import { chunkPart, multiplyStaged, packedABytes, packedBBytes, scratchRegion, type ChunkPlan, type StagedGemm } from './staged-gemm';
import { AXIS, HELPER, JOB, jobId, SLOT, takeChunk } from './parallel-protocol';

export interface KernelHelperHooks {
  /**
   * Called after the helper took its chunk number `index` (0, 1, ... over its life) and before computing it.
   * Tests make the helper die, hang, stall or fail here; an exception fails the chunk.
   */
  beforeChunk?(index: number): void;
  /** Called with the error a chunk threw. Default: console.error. */
  onError?(error: unknown): void;
}

/** A job as the helper read it from the control block. */
interface Job {
  kind: number;
  plan: ChunkPlan;
  gemm: StagedGemm;
  rows: number;
  colsPad: number;
  maskedNaN: number;
}

/**
 * Serves jobs until the engine thread sets QUIT (or the thread is terminated). Blocks the calling thread: it
 * sleeps in Atomics.wait between jobs.
 */
export function serveKernelJobs(module: WebAssembly.Module, memory: WebAssembly.Memory, control: SharedArrayBuffer, hooks: KernelHelperHooks = {}): void {
  const ctl = new Int32Array(control);
  const f32 = new Float32Array(control);
  const wasm = instantiateShared(module, memory);
  const onError = hooks.onError ?? ((e: unknown) => console.error('attention kernel helper: a chunk failed:', e));
  let seen = Atomics.load(ctl, SLOT.version);
  let taken = 0;
  Atomics.store(ctl, SLOT.helper, HELPER.ready);
  Atomics.notify(ctl, SLOT.helper);
  for (;;) {
    if (Atomics.load(ctl, SLOT.quit) === 1) return;
    const version = Atomics.load(ctl, SLOT.version);
    if (version === seen || (version & 1) === 1) {
      // nothing new, or the engine thread is writing a job (it notifies when the job is posted)
      Atomics.wait(ctl, SLOT.version, version);
      continue;
    }
    const job = readJob(ctl, f32);
    if (Atomics.load(ctl, SLOT.version) !== version) continue; // rewritten while we read it: read again
    seen = version;
    const id = jobId(version);
    try {
      // Reading memory.buffer also makes this thread see a memory the engine thread has grown.
      const bytes = memory.buffer.byteLength;
      for (let chunk = takeChunk(ctl, id, job.plan.count); chunk >= 0; chunk = takeChunk(ctl, id, job.plan.count)) {
        if (!awaitReady(ctl, chunk, id, version)) break;
        hooks.beforeChunk?.(taken++);
        runChunk(wasm, job, chunk, bytes);
        Atomics.store(ctl, SLOT.done + chunk, id);
        Atomics.add(ctl, SLOT.helperChunks, 1);
        Atomics.add(ctl, SLOT.helperDone, 1);
        Atomics.notify(ctl, SLOT.helperDone);
      }
    } catch (e) {
      Atomics.store(ctl, SLOT.failed, 1);
      Atomics.notify(ctl, SLOT.helperDone);
      onError(e);
    }
  }
}

/**
 * Waits until the engine thread has staged chunk `chunk` of job `id`. False if the job was replaced or the
 * helper told to quit meanwhile (the engine thread gave up on that job: the chunk is then left alone).
 */
function awaitReady(ctl: Int32Array, chunk: number, id: number, version: number): boolean {
  for (;;) {
    const ready = Atomics.load(ctl, SLOT.ready + chunk);
    if (ready === id) return true;
    if (Atomics.load(ctl, SLOT.version) !== version || Atomics.load(ctl, SLOT.quit) === 1) return false;
    Atomics.wait(ctl, SLOT.ready + chunk, ready, 50);
  }
}

function readJob(ctl: Int32Array, f32: Float32Array): Job {
  return {
    kind: ctl[SLOT.kind],
    plan: { axis: ctl[SLOT.axis] === AXIS.cols ? 'cols' : 'rows', size: ctl[SLOT.chunkSize], count: ctl[SLOT.chunks] },
    gemm: {
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
      packedA: ctl[SLOT.packedA] >= 0 ? ctl[SLOT.packedA] : undefined,
      packedB: ctl[SLOT.packedB] >= 0 ? ctl[SLOT.packedB] : undefined,
    },
    rows: ctl[SLOT.rows],
    colsPad: ctl[SLOT.colsPad],
    maskedNaN: ctl[SLOT.maskedNaN],
  };
}

function runChunk(wasm: SimdFunctions, job: Job, chunk: number, bytes: number): void {
  if (job.kind === JOB.gemm) {
    const g = job.gemm;
    const end = Math.max(
      g.cAt + g.mPad * g.ldc * 4,
      g.packedA === undefined ? 0 : g.packedA + packedABytes(g),
      g.packedB === undefined ? 0 : g.packedB + packedBBytes(g),
    );
    if (end > bytes) throw new Error(`gemm job reaches byte ${end} but the shared memory has ${bytes}`);
    const p = chunkPart(job.plan, chunk, g.m, g.n);
    multiplyStaged(wasm, g, scratchRegion(1), p.i0, p.i1, p.j0, p.j1);
    return;
  }
  if (job.kind === JOB.softmax) {
    const from = chunk * job.plan.size;
    const to = Math.min(job.rows, from + job.plan.size);
    const end = to * job.colsPad * 4;
    if (end > bytes) throw new Error(`softmax job reaches byte ${end} but the shared memory has ${bytes}`);
    wasm.softmaxRows(from * job.colsPad * 4, to - from, job.colsPad, job.colsPad, job.maskedNaN);
    return;
  }
  throw new Error(`unknown job kind ${job.kind}`);
}
