// Recorded attention: the trace the Python recorder writes (python/attention_recorder), read as untrusted input,
// and runtime diagnostics decided from its values. Pure (no vscode, no node:*): callers read the files.
export { parseTrace, TraceError, TRACE_FORMAT, TRACE_VERSION, TRACE_LIMITS } from './trace';
export type { TraceIndex, TraceCall, TraceOp, TraceFrame, TensorEntry, CallKind, AxisRole, TraceProgram, TraceTokens, TraceTokenizer } from './trace';
export { readCallTensors, readCapturedTensor, type CapturedTensor, type ReadTraceFile } from './tensors';
export { diagnoseCall, measureScale, type RuntimeFinding } from './diagnose';
export { attentionView, type AttentionView } from './view';
export { analyseTrace, diagnoseCalls } from './analyse';
export { mergeEvidence, summariseCall, TraceDiagnosis, type CallSummary, type CallsDiagnosis, type TraceAnalysis } from './trace-diagnosis';
export { buildRecordedRun, forwardPassOf, headsOfCall, recordedAttention, recordedTrace, type RecordedRun, type RecordedHead } from './panel-run';
export { recordedLabels, recordedTokenizer, tokenLabels, positionLabels, type RecordedLabels } from './token-labels';
export { stepSources } from './step-sources';
export { callEvidence, fineChecks, siteLines, type RuntimeEvidence } from './evidence';
