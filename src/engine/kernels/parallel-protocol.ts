// The control block between the engine thread and its kernel helper thread: an Int32Array over a
// SharedArrayBuffer (a Float32Array over the same buffer carries alpha).
//
// A job is a staged product (or block of softmax rows) cut into chunks: bands of rows or of columns of C.
// Both threads take chunks from one counter until none is left, so a helper that is slow to wake, or
// descheduled on a busy machine, simply takes fewer (or none) and the engine thread never waits for work it
// could have done itself; it waits only for chunks the helper has taken and not finished.
//
// Posting (engine thread): VERSION is a seqlock and the wake-up word. The engine thread makes it odd, writes
// the job's fields, resets NEXT (tagged with the new job's id) and HELPER_DONE, makes VERSION even (the new
// job's id is VERSION/2) and notifies. The helper, woken by a new even VERSION, reads the fields and checks
// VERSION again (a torn read is retried). Taking a chunk is a compare-exchange on NEXT that succeeds only
// while NEXT carries the helper's job id: a helper still busy with an old job can never take a chunk of a
// newer one. The operands every chunk shares are staged before posting; each chunk's own part after, and
// READY[c] = job id says it is there (the helper waits for it). The helper sets DONE[c] = job id and adds 1
// to HELPER_DONE (and notifies) after each chunk it finishes, or sets FAILED (and notifies) if a chunk
// throws, after which it takes no more chunks of that job.

/** Int32 slots of the control block. */
export const SLOT = {
  /** Seqlock and wake-up word: odd while a job is being written; each new job makes it a new even number. */
  version: 0,
  /** One of HELPER below. */
  helper: 1,
  /** 1: the helper should return. */
  quit: 2,
  /** (job id << 16) | index of the next chunk nobody has taken yet. */
  next: 3,
  /** Chunks of the current job the helper has finished. */
  helperDone: 4,
  /** 1: a chunk of the current job threw in the helper, which then stopped taking chunks. */
  failed: 5,
  /** One of JOB below. */
  kind: 6,
  /** Chunks of the job, and rows (or columns) per chunk. */
  chunks: 7,
  chunkSize: 8,
  /** One of AXIS below. */
  axis: 9,
  // gemm: the staged product (byte addresses)
  m: 10,
  n: 11,
  k: 12,
  transB: 13,
  accumulate: 14,
  packA: 15,
  aAt: 16,
  bAt: 17,
  cAt: 18,
  mPad: 19,
  ldc: 20,
  /** Float32 slot (same index in the Float32Array view). */
  alpha: 21,
  // softmax: a block of `rows` rows staged at byte 0, colsPad floats apart
  rows: 22,
  colsPad: 23,
  maskedNaN: 24,
  /** Chunks the helper has finished over its life (diagnostics and tests). */
  helperChunks: 25,
  /** gemm: byte address of the fully packed A / B the chunks share, or -1 (each chunk packs its own). */
  packedA: 26,
  packedB: 27,
  /**
   * MAX_CHUNKS slots from here: slot c holds the job id once chunk c's part of the operands is staged (the
   * engine thread stages the parts after posting the job, so the helper can start on the first while it
   * stages the rest).
   */
  ready: 32,
  /** MAX_CHUNKS slots from here: slot c holds the job id once the helper has finished chunk c. */
  done: 48,
} as const;

export const CONTROL_BYTES = 64 * 4;

/** Values of SLOT.helper. */
export const HELPER = { starting: 0, ready: 1, exited: 2 } as const;

/** Values of SLOT.kind. */
export const JOB = { gemm: 1, softmax: 2 } as const;

/** Values of SLOT.axis: chunks are bands of rows or of columns of C. */
export const AXIS = { rows: 0, cols: 1 } as const;

/** A new control block (all slots 0: no job, helper starting). */
export function createControlBlock(): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES);
}

/** The id of the job a (even) version posts; ids are 15 bits and tag NEXT. */
export function jobId(version: number): number {
  return (version >>> 1) & 0x7fff;
}

/**
 * Takes the next chunk of job `id` (of `chunks`): its index, or -1 when none is left or the counter belongs
 * to another job.
 */
export function takeChunk(ctl: Int32Array, id: number, chunks: number): number {
  for (;;) {
    const v = Atomics.load(ctl, SLOT.next);
    if (v >>> 16 !== id) return -1;
    const chunk = v & 0xffff;
    if (chunk >= chunks) return -1;
    if (Atomics.compareExchange(ctl, SLOT.next, v, v + 1) === v) return chunk;
  }
}
