// Entry point of the engine worker (dist/worker.js): with ./kernel-helper.ts (the kernel's helper thread), the
// only place the engine meets worker_threads.
import { parentPort, workerData } from 'node:worker_threads';
import { initKernels, type KernelPreference } from '../engine';
import { InspectSession, loadCheckpoint } from '../models/session';
import { engineHandlers } from './handlers';
import { kernelThreads, spawnKernelHelper } from './kernel-helper';
import { readWholeFile } from './read-whole-file';
import { serve } from './server';

if (!parentPort) throw new Error('dist/worker.js must run as a worker thread');

// workerData.kernel: 'auto' | 'wasm-simd' | 'ts'; workerData.threads: kernel threads (default min(2, cores)).
const options = workerData as { kernel?: KernelPreference; threads?: unknown } | undefined;
const kernelReady = initKernels(options?.kernel ?? 'auto', {
  threads: kernelThreads(options),
  spawnHelper: spawnKernelHelper,
});
const session = new InspectSession(loadCheckpoint);
const handlers = engineHandlers(session, readWholeFile);

serve(
  parentPort,
  Object.fromEntries(
    Object.entries(handlers).map(([type, handler]) => [
      type,
      async (payload: unknown, ctx: Parameters<typeof handler>[1]) => {
        await kernelReady;
        return handler(payload, ctx);
      },
    ]),
  ),
);
