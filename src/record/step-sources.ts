// Where each of the debugger's five steps (scores = q·kᵀ, × scale, + mask, softmax, · v) happened in the user's
// code, from the ops a recorded call captured with their lines. A hand-written chain has a line per op; SDPA and
// nn.MultiheadAttention do every step inside one call, at the call's line. Pure.
import type { RecordedSourceLine } from '../protocol/engine';
import { inWorkspace, type TraceCall, type TraceIndex, type TraceOp } from './trace';

/** The debugger's steps, in order, as the kinds of ops the recorder writes for them. */
const STEP_OP_KINDS: readonly (readonly string[])[] = [['scores'], ['scale'], ['fill', 'add'], ['softmax'], ['values']];

/**
 * For each step, the source lines of the user's code that computed it (several for a mask built by two ops; none
 * when the chain has no such op, e.g. scores that were never scaled). A step whose ops ran in library files, and
 * every step of an SDPA or nn.MultiheadAttention call, links to the user's line that made the call.
 */
export function stepSources(trace: TraceIndex, call: TraceCall): RecordedSourceLine[][] {
  const user = call.site.user;
  const callLine: RecordedSourceLine[] = user && user.line > 0 ? [{ path: user.path, line: user.line, column: user.column ?? 1 }] : [];
  if (call.kind !== 'manual') return STEP_OP_KINDS.map(() => callLine);
  const own = (op: TraceOp): RecordedSourceLine | null =>
    op.path !== null && op.line !== null && op.line > 0 && inWorkspace(trace.program, op.path)
      ? { path: op.path, line: op.line, column: op.column ?? 1 }
      : null;
  return STEP_OP_KINDS.map((kinds) => {
    const ops = call.ops.filter((op) => kinds.includes(op.kind));
    const lines: RecordedSourceLine[] = [];
    for (const op of ops) {
      const at = own(op);
      if (at && !lines.some((l) => l.path === at.path && l.line === at.line)) lines.push(at);
    }
    return ops.length > 0 && lines.length === 0 ? callLine : lines; // the step ran in a library: the user's call
  });
}
