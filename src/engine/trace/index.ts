export { traceAttention, resolveScale, MAX_TRACE_CELLS, type AttentionTrace } from './trace';
export type { TraceOptions, ScaleChoice, MaskChoice, CausalAlign, RopeStep } from './options';
export { TRACE_DEFAULTS } from './options';
export type { TraceStats, OverallScoreStats } from './stats';
export { meanAndVariance, entropyNats } from './stats';
export type { TraceWarning, TraceWarningId, RowSpread } from './warnings';
export { rowSpread, numberRange } from './warnings';
export type { PaddingReading } from './build-mask';
export { pythonSteps, type PythonStepsContext } from './python';
