// A kernel helper thread that misbehaves on purpose (started by test/unit/kernels/parallel-faults.test.ts):
// it serves jobs like src/worker/kernel-helper.ts until it has taken `at` chunks; on taking the next one it
//   'exit'       dies (the thread exits) before computing it,
//   'hang'       never computes it,
//   'slow'       computes it `ms` late,
//   'throw'      fails it (an exception in the chunk);
// or, from the start,
//   'never-take' reports ready but never takes a chunk.
import { workerData } from 'node:worker_threads';
import { serveKernelJobs } from '../../../../src/engine/kernels';
import { HELPER, SLOT } from '../../../../src/engine/kernels/parallel-protocol';

export type Fault = 'exit' | 'hang' | 'slow' | 'throw' | 'never-take';

export interface FaultyHelperData {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  control: SharedArrayBuffer;
  fault: Fault;
  /** Chunks served normally before the fault. */
  at: number;
  /** For 'slow': how late. */
  ms?: number;
}

const data = workerData as FaultyHelperData;
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

if (data.fault === 'never-take') {
  Atomics.store(new Int32Array(data.control), SLOT.helper, HELPER.ready);
  sleep(60_000);
} else {
  serveKernelJobs(data.module, data.memory, data.control, {
    beforeChunk(index) {
      if (index !== data.at) return;
      if (data.fault === 'exit') process.exit(3);
      if (data.fault === 'hang') sleep(60_000);
      if (data.fault === 'slow') sleep(data.ms ?? 300);
      if (data.fault === 'throw') throw new Error('injected failure');
    },
    onError() {
      // expected: the test checks the kernel's own report
    },
  });
}
