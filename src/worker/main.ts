// Entry point of the engine worker (dist/worker.js): with ./kernel-helper.ts (the kernel's helper thread), the
// only place the engine meets worker_threads.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { initKernels } from '../engine';
import type { EngineWorkerData } from '../protocol/engine';
import { InspectSession, loadCheckpoint } from '../models/session';
import { engineHandlers } from './handlers';
import { kernelThreads, spawnKernelHelper } from './kernel-helper';
import { serve } from './server';

if (!parentPort) throw new Error('dist/worker.js must run as a worker thread');

// EngineWorkerData (src/protocol/engine.ts), checked here: a missing kernel means 'auto', odd threads the default.
const options = workerData as Partial<EngineWorkerData> | undefined;
const kernelReady = initKernels(options?.kernel ?? 'auto', {
  threads: kernelThreads(options),
  spawnHelper: spawnKernelHelper,
});
const session = new InspectSession(loadCheckpoint);
const handlers = engineHandlers(session, async (path) => new Uint8Array(await readFile(path)));

serve(parentPort, handlers, { beforeEach: () => kernelReady });
