// Entry point of the engine worker (dist/worker.js): with ./kernel-helper.ts (the kernel's helper thread), the
// only place the engine meets worker_threads.
import { parentPort, workerData } from 'node:worker_threads';
import { initKernels } from '../engine';
import type { EngineWorkerData } from '../protocol/engine';
import { InspectSession, loadCheckpoint } from '../models/session';
import { readRegularFile } from '../cli/files';
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
// Only regular files, sized before they are read (a FIFO would block the worker for good); one file is read
// whole, so 2 GiB - 1 is the most a Buffer can hold. Errors carry the fs code (ENOENT: a folder lacks the file).
const MAX_FILE_BYTES = 2 ** 31 - 1;
const handlers = engineHandlers(session, (path) => {
  const buf = readRegularFile(path, MAX_FILE_BYTES, 'the largest file read whole');
  // A Buffer that owns its whole ArrayBuffer is viewed, not copied (weights can be gigabytes).
  return Promise.resolve(buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? new Uint8Array(buf.buffer) : new Uint8Array(buf));
});

serve(parentPort, handlers, { beforeEach: () => kernelReady });
