// The control block between the engine thread and its kernel helper thread: an Int32Array over a
// SharedArrayBuffer (a Float32Array over the same buffer carries alpha). The engine thread writes a job's
// fields, then sets STATE to POSTED and notifies; the helper claims it (compare-exchange POSTED -> RUNNING),
// runs it on the shared WebAssembly memory, sets DONE (or FAILED) and notifies. A job that the engine thread
// takes back before the helper claimed it (POSTED -> IDLE) is never run by the helper.

/** Int32 slots of the control block. */
export const SLOT = {
  /** One of STATE below. */
  state: 0,
  /** One of HELPER below. */
  helper: 1,
  /** One of JOB below. */
  kind: 2,
  // gemm: the staged product (byte addresses) and the part of C the helper computes
  m: 3,
  n: 4,
  k: 5,
  transB: 6,
  accumulate: 7,
  packA: 8,
  aAt: 9,
  bAt: 10,
  cAt: 11,
  mPad: 12,
  ldc: 13,
  i0: 14,
  i1: 15,
  j0: 16,
  j1: 17,
  /** Float32 slot (same index in the Float32Array view). */
  alpha: 18,
  // softmax: rows from..to of a block staged at byte 0, colsPad floats apart
  rowFrom: 19,
  rowTo: 20,
  colsPad: 21,
  maskedNaN: 22,
  /** Jobs the helper has finished (DONE or FAILED), for tests and diagnostics. */
  finished: 23,
} as const;

export const CONTROL_BYTES = 32 * 4;

/** Values of SLOT.state. */
export const STATE = { idle: 0, posted: 1, running: 2, done: 3, failed: 4, quit: 5 } as const;

/** Values of SLOT.helper. */
export const HELPER = { starting: 0, ready: 1, exited: 2 } as const;

/** Values of SLOT.kind. */
export const JOB = { gemm: 1, softmax: 2, ping: 3 } as const;

/** A new control block (all slots 0: IDLE, helper starting). */
export function createControlBlock(): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES);
}
