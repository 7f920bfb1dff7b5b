// Entry point of the engine worker (dist/worker.js): the only place the engine meets worker_threads.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { initKernels, type KernelPreference } from '../engine';
import { InspectSession, loadCheckpoint } from '../models/session';
import { engineHandlers } from './handlers';
import { serve } from './server';

if (!parentPort) throw new Error('dist/worker.js must run as a worker thread');

const kernelReady = initKernels(((workerData as { kernel?: KernelPreference } | undefined)?.kernel ?? 'auto') as KernelPreference);
const session = new InspectSession(loadCheckpoint);
const handlers = engineHandlers(session, async (path) => new Uint8Array(await readFile(path)));

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
