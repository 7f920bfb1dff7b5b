// The engine worker's side of recorded attention (python/attention_recorder's trace folders): reading the
// captured tensors, the runtime diagnostics and the panel's numbers all run here, never on the extension
// host's thread (a recording can hold hundreds of MB of tensors). The worker keeps the one recorded run the
// panel shows; a replaced worker has none, and says so.
import type { EngineRequests, RecordedAttentionTrace } from '../protocol/engine';
import {
  buildRecordedRun,
  diagnoseCalls,
  forwardPassOf,
  readCallTensors,
  recordedAttention,
  recordedTrace,
  recordedLabels,
  type CapturedTensor,
  type RecordedRun,
  type TraceCall,
} from '../record';
import type { Handlers } from './server';

/** Reads a file of a trace folder by its plain name (node's fs in the real worker; a fake in tests). */
export type TraceFolderReader = (dir: string) => (name: string) => Uint8Array;

type RecordingRequests = Pick<EngineRequests, 'recordingDiagnose' | 'recordingOpen' | 'recordedAttention' | 'recordedTrace'>;

export function recordingHandlers(readTraceFolder: TraceFolderReader): Handlers<RecordingRequests> {
  let shown: RecordedRun | undefined;
  const current = (runId: number): RecordedRun => {
    if (shown?.run.runId !== runId)
      throw new Error('this recorded call is no longer loaded in the engine (it was restarted, or another call was opened): open the call again');
    return shown;
  };
  return {
    async recordingDiagnose({ dir, trace, from, budgetMs }) {
      // Call by call until the time budget is spent: a request to open a call waits for one part at most.
      const reader = readTraceFolder(dir);
      const start = performance.now();
      const part = diagnoseCalls(trace, reader, from, from + 1);
      while (part.to < trace.calls.length && performance.now() - start < budgetMs) {
        const next = diagnoseCalls(trace, reader, part.to, part.to + 1);
        part.findings.push(...next.findings);
        part.problems.push(...next.problems);
        part.evidence.push(...next.evidence);
        part.to = next.to;
      }
      return { result: part };
    },

    async recordingOpen({ dir, trace, callId, runId, batch }) {
      const call = trace.calls[callId];
      if (!call) throw new Error(`the recording has no call #${callId}`);
      const reader = readTraceFolder(dir);
      const cache = new Map<number, Map<string, CapturedTensor>>();
      const tensorsOf = (c: TraceCall): Map<string, CapturedTensor> => {
        let t = cache.get(c.id);
        if (!t) cache.set(c.id, (t = readCallTensors(c, reader, true))); // with the user's step tensors (debugger)
        return t;
      };
      const pass = forwardPassOf(trace, callId);
      const labels = recordedLabels(call, tensorsOf(call), reader, batch);
      shown = buildRecordedRun(trace, pass, tensorsOf, { runId, batch, labels });
      return { result: { run: shown.run, layer: Math.max(0, shown.callIds.indexOf(callId)) } };
    },

    async recordedAttention(req) {
      return { result: recordedAttention(current(req.runId), req) };
    },

    async recordedTrace(req) {
      const result: RecordedAttentionTrace = recordedTrace(current(req.runId), req);
      return { result };
    },
  };
}
