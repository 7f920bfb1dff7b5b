// The kernel helper thread (dist/kernel-helper.js): the second thread of the two-thread WebAssembly SIMD
// kernel. The engine worker starts it with `spawnKernelHelper` (below, the SpawnKernelHelper capability the
// engine's kernels take); as a worker it runs `serveKernelJobs` on the shared memory it was given, which
// blocks in Atomics.wait between jobs, until the kernel asks it to quit or terminates it.
//
// Also the one place that reads the thread count from the worker's start-up options.
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { MAX_KERNEL_THREADS, serveKernelJobs, type SpawnKernelHelper } from '../engine/kernels';

/** workerData of a helper thread. */
interface HelperData {
  attentionKernelHelper: true;
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  control: SharedArrayBuffer;
}

function isHelperData(data: unknown): data is HelperData {
  return typeof data === 'object' && data !== null && (data as { attentionKernelHelper?: unknown }).attentionKernelHelper === true;
}

/**
 * The helper's script: next to this file — dist/kernel-helper.js beside the bundled dist/worker.js, or
 * src/worker/kernel-helper.ts when running from source under tsx (then the helper needs tsx too).
 */
function helperScript(): { path: string; execArgv?: string[] } {
  if (__filename.endsWith('.ts')) return { path: join(dirname(__filename), 'kernel-helper.ts'), execArgv: ['--require', 'tsx/cjs'] };
  return { path: join(dirname(__filename), 'kernel-helper.js') };
}

/**
 * Starts a helper thread for the two-thread kernel (the engine's SpawnKernelHelper capability). The thread is
 * unref'd (it never keeps the process alive) and reports its exit, or a failure to start, through onExit.
 */
export const spawnKernelHelper: SpawnKernelHelper = (memory, module, control, onExit) => {
  const script = helperScript();
  const data: HelperData = { attentionKernelHelper: true, memory, module, control };
  const worker = new Worker(script.path, { workerData: data, execArgv: script.execArgv, name: 'attention-kernel-helper' });
  let reported = false;
  const report = (reason: string): void => {
    if (!reported) onExit(reason);
    reported = true;
  };
  worker.on('error', (e) => report(`failed (${e.message})`));
  worker.on('exit', (code) => report(`exited (code ${code})`));
  worker.unref();
  return {
    terminate(): void {
      reported = true; // a requested stop is not news
      void worker.terminate();
    },
  };
};

/**
 * The kernel thread count from a worker's start-up options: `threads` when it is a positive integer, else
 * min(2, the cores this process may use).
 */
export function kernelThreads(options: { threads?: unknown } | undefined): number {
  const threads = options?.threads;
  if (typeof threads === 'number' && Number.isInteger(threads) && threads >= 1) return Math.min(threads, MAX_KERNEL_THREADS);
  return Math.min(MAX_KERNEL_THREADS, availableParallelism());
}

if (!isMainThread && isHelperData(workerData)) {
  serveKernelJobs(workerData.module, workerData.memory, workerData.control);
}
