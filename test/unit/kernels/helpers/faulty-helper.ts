// A kernel helper thread that misbehaves on purpose (started by test/unit/kernels/parallel-faults.test.ts):
// it serves jobs like src/worker/kernel-helper.ts until job number `at`, where it
//   'exit'       dies (the thread exits) after claiming the job,
//   'hang'       claims the job and never finishes it,
//   'slow'       claims the job and finishes it `ms` late,
//   'throw'      fails the job (an exception in the job),
//   'never-claim' (from the start) reports ready but never takes a job.
import { workerData } from 'node:worker_threads';
import { serveKernelJobs } from '../../../../src/engine/kernels';
import { HELPER, SLOT } from '../../../../src/engine/kernels/parallel-protocol';

export type Fault = 'exit' | 'hang' | 'slow' | 'throw' | 'never-claim';

export interface FaultyHelperData {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  control: SharedArrayBuffer;
  fault: Fault;
  /** Index of the job (0, 1, ...) the fault hits. */
  at: number;
  /** For 'slow': how late. */
  ms?: number;
}

const data = workerData as FaultyHelperData;
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

if (data.fault === 'never-claim') {
  const ctl = new Int32Array(data.control);
  Atomics.store(ctl, SLOT.helper, HELPER.ready);
  sleep(60_000);
} else {
  serveKernelJobs(data.module, data.memory, data.control, {
    beforeJob(index) {
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
