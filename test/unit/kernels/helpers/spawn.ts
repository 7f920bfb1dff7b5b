// Starting kernel helper threads in tests: the real one (src/worker/kernel-helper.ts, as the engine worker
// starts it) and the misbehaving one (./faulty-helper.ts).
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SpawnKernelHelper } from '../../../../src/engine/kernels';
import type { Fault, FaultyHelperData } from './faulty-helper';

export { spawnKernelHelper } from '../../../../src/worker/kernel-helper';

/** A SpawnKernelHelper that starts ./faulty-helper.ts with the given fault at job number `at`. */
export function spawnFaultyHelper(fault: Fault, at: number, ms?: number): SpawnKernelHelper {
  return (memory, module, control, onExit) => {
    const workerData: FaultyHelperData = { memory, module, control, fault, at, ms };
    const worker = new Worker(join(__dirname, 'faulty-helper.ts'), { workerData, execArgv: ['--require', 'tsx/cjs'] });
    let stopped = false;
    worker.on('error', (e) => stopped || onExit(`failed (${e.message})`));
    worker.on('exit', (code) => stopped || onExit(`exited (code ${code})`));
    worker.unref();
    return {
      terminate() {
        stopped = true;
        void worker.terminate();
      },
    };
  };
}

/** Lets the event loop run (worker 'exit' events arrive) for `ms`. */
export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
