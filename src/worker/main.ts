// Entry point of the engine worker (dist/worker.js): with ./kernel-helper.ts (the kernel's helper thread), the
// only place the engine meets worker_threads.
import { parentPort, workerData } from 'node:worker_threads';
import { initKernels } from '../engine';
import type { EngineWorkerData } from '../protocol/engine';
import { InspectSession, loadCheckpoint } from '../models/session';
import { traceFileReader } from '../cli/files';
import { engineHandlers } from './handlers';
import { kernelThreads, spawnKernelHelper } from './kernel-helper';
import { readWholeFile } from './read-whole-file';
import { serve } from './server';

if (!parentPort) throw new Error('dist/worker.js must run as a worker thread');

// EngineWorkerData (src/protocol/engine.ts), checked here: a missing kernel means 'auto', odd threads the default.
const options = workerData as Partial<EngineWorkerData> | undefined;
const kernelReady = initKernels(options?.kernel ?? 'auto', {
  threads: kernelThreads(options),
  spawnHelper: spawnKernelHelper,
});
const session = new InspectSession(loadCheckpoint);
// Only regular files, read whole (past 2 GiB too); see read-whole-file.ts.
const handlers = engineHandlers(session, readWholeFile, traceFileReader);

serve(parentPort, handlers, { beforeEach: () => kernelReady });
