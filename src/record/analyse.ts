// A whole trace, or a part of its calls: each call's tensors read and diagnosed. Pure: the caller supplies file
// bytes by name.
import { diagnoseCall, measuredOnce, type RuntimeFinding } from './diagnose';
import { callEvidence, type RuntimeEvidence } from './evidence';
import { readCallTensors, type ReadTraceFile } from './tensors';
import { TraceError, type TraceIndex } from './trace';
import { TraceDiagnosis, type CallsDiagnosis, type TraceAnalysis } from './trace-diagnosis';

/** Diagnoses calls [from, to) of the trace (a part of it: the host shows findings as the parts come). */
export function diagnoseCalls(trace: TraceIndex, readFile: ReadTraceFile, from: number, to: number): CallsDiagnosis {
  const findings: RuntimeFinding[] = [];
  const problems: string[] = [];
  const evidence: RuntimeEvidence[] = [];
  const end = Math.min(to, trace.calls.length);
  for (const call of trace.calls.slice(Math.max(0, from), end)) {
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
    findings.push(...found);
  }
  return { from, to: Math.max(from, end), findings, problems, evidence };
}

/** Diagnoses every call; findings on one line from several calls (layers, repeats) are reported once. */
export function analyseTrace(trace: TraceIndex, readFile: ReadTraceFile): TraceAnalysis {
  const all = new TraceDiagnosis(trace);
  all.add(diagnoseCalls(trace, readFile, 0, trace.calls.length));
  return all.analysis();
}
