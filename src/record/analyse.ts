// A whole trace: each call's tensors read and diagnosed. Pure: the caller supplies file bytes by name.
import { diagnoseCall, measuredOnce, type RuntimeFinding } from './diagnose';
import { callEvidence, mergeEvidence, type RuntimeEvidence } from './evidence';
import { readCallTensors, type ReadTraceFile } from './tensors';
import { TraceError, type TraceCall, type TraceIndex } from './trace';

export interface CallSummary {
  id: number;
  kind: TraceCall['kind'];
  /** The user's file and line (the innermost frame in the workspace), or the library's when there is none. */
  path: string | null;
  line: number | null;
  module: string | null;
  shapes: Record<string, number[] | null>;
  dtype: string | null;
}

export interface TraceAnalysis {
  calls: CallSummary[];
  findings: RuntimeFinding[];
  /** Calls whose tensors could not be read (a TraceError each); their other calls are still diagnosed. */
  problems: string[];
  /** What the run says about the sites the static linter judges (confirmed bugs, sites measured fine). */
  evidence: RuntimeEvidence[];
}

export function summariseCall(call: TraceCall): CallSummary {
  const frame = call.site.user ?? call.site.library;
  return { id: call.id, kind: call.kind, path: frame?.path ?? null, line: frame?.line ?? null, module: call.module, shapes: call.shapes, dtype: call.dtype };
}

/** Diagnoses every call; findings on one line from several calls (layers, repeats) are reported once. */
export function analyseTrace(trace: TraceIndex, readFile: ReadTraceFile): TraceAnalysis {
  const findings: RuntimeFinding[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const evidence: RuntimeEvidence[] = [];
  for (const call of trace.calls) {
    let tensors;
    try {
      tensors = readCallTensors(call, readFile);
    } catch (e) {
      if (e instanceof TraceError) {
        problems.push(e.message);
        continue;
      }
      throw e;
    }
    const measures = measuredOnce(trace, call, tensors); // the view and the scale, read by both
    const found = diagnoseCall(trace, call, tensors, measures);
    evidence.push(...callEvidence(trace, call, tensors, found, measures));
    for (const f of found) {
      const key = `${f.path}\0${f.line}\0${f.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column));
  return { calls: trace.calls.map(summariseCall), findings, problems, evidence: mergeEvidence(evidence) };
}
