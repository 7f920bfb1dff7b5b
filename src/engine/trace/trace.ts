// The step trace of one head for the debugger:
//   q, k   = rope(q), rope(k)           when options.rope applies (RoPE models; switchable off)
//   scores = q·kᵀ                       (L, S)
//   scaled = scores · scale / temperature, then cap·tanh(scaled / cap) when options.softcap (Gemma 2)
//   masked = scaled + bias              bias: 0 / -inf / float mask
//   probs  = softmax(masked, dim)       dim -1 (keys) or -2 (queries)
//   output = probs · v                  (L, dv)
// plus the statistics and warnings the panel shows. Everything is plain data (Float32Array tensors,
// numbers, arrays), so it crosses the worker boundary as is.
import { getKernel } from '../kernels';
import { applyRopeInPlace, ropeTables } from '../ops/rope';
import { softmax } from '../ops/softmax';
import { type BoolTensor, type Tensor, type TensorLike, contiguous, formatShape } from '../tensor';
import { checkFloat, checkMaterialisable, checkNonEmpty } from '../validate';
import { type BuiltMask, type PaddingReading, buildMask } from './build-mask';
import { scaleAndMask } from './scale-mask';
import { type CausalAlign, type MaskChoice, type RopeStep, type ScaleChoice, TRACE_DEFAULTS, type TraceOptions } from './options';
import { type TraceStats, computeStats } from './stats';
import { type TraceWarning, traceWarnings } from './warnings';

const FN = 'traceAttention';

/** Largest L×S traced: 4096 × 4096 (five float32 L×S arrays and one byte mask: about 350 MB at this size). */
export const MAX_TRACE_CELLS = 2 ** 24;

export interface AttentionTrace {
  L: number;
  S: number;
  dk: number;
  dv: number;
  /** The scale the choice resolved to, and what actually multiplied q·kᵀ (scale / temperature). */
  scale: number;
  scaleChoice: ScaleChoice;
  temperature: number;
  effectiveScale: number;
  softmaxDim: -1 | -2;
  fullyMaskedRows: 'nan' | 'zero';
  /** The rotation step when options.rope was given: q and k before and after it (after = before when switched off). */
  rope?: { applied: boolean; qBefore: Tensor; kBefore: Tensor; q: Tensor; k: Tensor };
  /** (L, S) q·kᵀ (of the rotated q and k when RoPE applies) */
  scores: Tensor;
  /** (L, S) scores · effectiveScale, soft-capped when softcap is set */
  scaled: Tensor;
  /** The soft-cap applied to the scaled scores, and the scores before it (L, S); absent when none. */
  softcap?: { cap: number; before: Tensor };
  /** (L, S) the additive mask: 0, -inf, or a float mask's values */
  bias: Tensor;
  /** (L, S) scaled + bias (-inf in masked cells) */
  masked: Tensor;
  /** (L, S) True where the query may attend the key (bias ≠ -inf) */
  allowed: BoolTensor;
  /** (L, S) softmax(masked, softmaxDim) */
  probs: Tensor;
  /** (L, dv) probs · v */
  output: Tensor;
  /** The causal intent the future-visible check used. */
  causalIntent: CausalAlign | null;
  paddedKeys: number[];
  /** How each padding mask was built and read (inverted = queries see only padding). */
  padding: PaddingReading[];
  stats: TraceStats;
  warnings: TraceWarning[];
}

/** Runs one head step by step: q [L, dk], k [S, dk], v [S, dv]. */
export function traceAttention(q: TensorLike, k: TensorLike, v: TensorLike, options: TraceOptions = {}): AttentionTrace {
  const { L, S, dk, dv, qd, kd, vd } = checkInputs(q, k, v);
  if (options === null || typeof options !== 'object') throw new Error(`${FN}: options must be an object, got ${String(options)}`);
  checkMaterialisable(FN, 'a trace', [L, S], MAX_TRACE_CELLS, 'trace a shorter span, or use attentionRows for the rows you need');
  const scaleChoice = options.scale ?? { kind: 'inv-sqrt-dk' };
  const scale = resolveScale(scaleChoice, dk);
  const temperature = options.temperature ?? 1;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature <= 0) {
    throw new Error(`${FN}: temperature must be a positive finite number, got ${String(temperature)}`);
  }
  const effectiveScale = scale / temperature;
  const softmaxDim = options.softmaxDim ?? -1;
  if (softmaxDim !== -1 && softmaxDim !== -2) throw new Error(`${FN}: softmaxDim must be -1 or -2, got ${String(softmaxDim)}`);
  const fullyMaskedRows = options.fullyMaskedRows ?? 'nan';
  if (fullyMaskedRows !== 'nan' && fullyMaskedRows !== 'zero') {
    throw new Error(`${FN}: fullyMaskedRows must be 'nan' or 'zero', got ${String(fullyMaskedRows)}`);
  }
  const saturationThreshold = checkThreshold('saturationThreshold', options.saturationThreshold, TRACE_DEFAULTS.saturationThreshold);
  const scoreVarianceThreshold = checkThreshold('scoreVarianceThreshold', options.scoreVarianceThreshold, TRACE_DEFAULTS.scoreVarianceThreshold);
  const normalizationTolerance = checkThreshold('normalizationTolerance', options.normalizationTolerance, TRACE_DEFAULTS.normalizationTolerance);
  const uniformEntropyRatio = checkThreshold('uniformEntropyRatio', options.uniformEntropyRatio, TRACE_DEFAULTS.uniformEntropyRatio);
  const scoreVarianceLowThreshold = checkThreshold('scoreVarianceLowThreshold', options.scoreVarianceLowThreshold, TRACE_DEFAULTS.scoreVarianceLowThreshold);

  const choices: readonly MaskChoice[] = options.mask == null ? [] : Array.isArray(options.mask) ? options.mask : [options.mask as MaskChoice];
  const built = buildMask(choices, L, S);

  const rope = options.rope === undefined ? undefined : rotate(options.rope, qd, kd, L, S, dk);
  const qUsed = rope?.q.data ?? qd;
  const kUsed = rope?.k.data ?? kd;
  const cap = options.softcap ?? undefined;
  if (cap !== undefined && (typeof cap !== 'number' || !(cap > 0) || !Number.isFinite(cap)))
    throw new Error(`${FN}: softcap must be a positive finite number or null, got ${String(cap)}`);

  const kernel = getKernel();
  const scores = new Float32Array(L * S);
  // (L, dk) · (S, dk)ᵀ → (L, S)
  kernel.gemm({ m: L, n: S, k: dk, a: qUsed, aOff: 0, lda: dk, b: kUsed, bOff: 0, ldb: dk, transB: true, c: scores, cOff: 0, ldc: S });
  const { scaled, masked, allowed, beforeCap } = scaleAndMask(scores, effectiveScale, built.bias, cap);
  const probs = softmax({ data: masked, shape: [L, S] }, softmaxDim, { fullyMasked: fullyMaskedRows }).data;
  const output = new Float32Array(L * dv);
  // (L, S) · (S, dv) → (L, dv)
  kernel.gemm({ m: L, n: dv, k: S, a: probs, aOff: 0, lda: S, b: vd, bOff: 0, ldb: dv, transB: false, c: output, cOff: 0, ldc: dv });

  const causalIntent = resolveCausalIntent(options.causalIntent, built);
  const paddedKeys = resolvePaddedKeys(options.paddedKeys, built, S);
  const stats = computeStats({
    L,
    S,
    dk,
    raw: scores,
    scaled,
    bias: built.bias,
    probs,
    paddedKeys,
    futureShift: causalIntent === null ? null : causalIntent === 'top-left' ? 0 : S - L,
    saturationThreshold,
    negligibleWeight: TRACE_DEFAULTS.negligibleWeight,
  });
  const warnings = traceWarnings({
    stats,
    L,
    dk,
    scale,
    effectiveScale,
    softmaxDim,
    fullyMaskedRows,
    padding: built.padding,
    causalIntent,
    causalAligns: built.causalAligns,
    scoreVarianceThreshold,
    normalizationTolerance,
    uniformEntropyRatio,
    scoreVarianceLowThreshold,
  });
  const ls = [L, S];
  return {
    L,
    S,
    dk,
    dv,
    scale,
    scaleChoice,
    temperature,
    effectiveScale,
    softmaxDim,
    fullyMaskedRows,
    ...(rope ? { rope } : {}),
    scores: { data: scores, shape: ls },
    scaled: { data: scaled, shape: ls },
    ...(cap !== undefined ? { softcap: { cap, before: { data: beforeCap!, shape: ls } } } : {}),
    bias: { data: built.bias, shape: ls },
    masked: { data: masked, shape: ls },
    allowed: { data: allowed, shape: ls, dtype: 'bool' },
    probs: { data: probs, shape: ls },
    output: { data: output, shape: [L, dv] },
    causalIntent,
    paddedKeys,
    padding: built.padding,
    stats,
    warnings,
  };
}

/** The RoPE step: q (L, dk) and k (S, dk) rotated by their positions, or passed through when switched off. */
function rotate(step: RopeStep, qd: Float32Array, kd: Float32Array, L: number, S: number, dk: number): NonNullable<AttentionTrace['rope']> {
  if (typeof step !== 'object' || step === null || typeof step.apply !== 'boolean')
    throw new Error(`${FN}: rope must be {apply: boolean, invFreq: number[]}, got ${String(step)}`);
  const inv = step.invFreq;
  if (!Array.isArray(inv) || inv.length < 1 || 2 * inv.length > dk || !inv.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new Error(
      `${FN}: rope.invFreq must hold 1..${Math.floor(dk / 2)} finite numbers (rotaryDim/2 ≤ dk/2), got ${Array.isArray(inv) ? `${inv.length} values` : String(inv)}`,
    );
  }
  const positions = (given: readonly number[] | undefined, n: number, name: string): number[] => {
    if (given === undefined) return Array.from({ length: n }, (_, i) => i);
    if (!Array.isArray(given) || given.length !== n || !given.every((p) => Number.isInteger(p) && p >= 0))
      throw new Error(`${FN}: rope.${name} must list ${n} non-negative integers`);
    return Array.from({ length: n }, (_, i) => Number(given[i]));
  };
  const before = (d: Float32Array, n: number): Tensor => ({ data: d.slice(), shape: [n, dk] });
  const qBefore = before(qd, L);
  const kBefore = before(kd, S);
  const q = before(qd, L);
  const k = before(kd, S);
  if (step.apply) {
    const invFreq = Float32Array.from(inv);
    applyRopeInPlace(q.data, 1, L, dk, ropeTables(invFreq, positions(step.qPositions, L, 'qPositions')));
    applyRopeInPlace(k.data, 1, S, dk, ropeTables(invFreq, positions(step.kPositions, S, 'kPositions')));
  }
  return { applied: step.apply, qBefore, kBefore, q, k };
}

/** The two sizes of a shape checked to be 2-D (a clear error naming the input if it is not). */
function sizes2(name: string, shape: readonly number[]): [number, number] {
  const [a, b] = shape;
  if (a === undefined || b === undefined) throw new Error(`${FN}: ${name} must be 2-D, got ${formatShape(shape)}`);
  return [a, b];
}

function checkInputs(q: TensorLike, k: TensorLike, v: TensorLike) {
  checkFloat(FN, 'q', q);
  checkFloat(FN, 'k', k);
  checkFloat(FN, 'v', v);
  for (const [name, t, dims] of [
    ['q', q, '[L, dk]'],
    ['k', k, '[S, dk]'],
    ['v', v, '[S, dv]'],
  ] as const) {
    if (t.shape.length !== 2) throw new Error(`${FN}: ${name} must be 2-D ${dims} (one head), got ${formatShape(t.shape)}`);
  }
  checkNonEmpty(FN, 'q', q.shape, ['L', 'dk']);
  checkNonEmpty(FN, 'k', k.shape, ['S', 'dk']);
  checkNonEmpty(FN, 'v', v.shape, ['S', 'dv']);
  const [L, dk] = sizes2('q', q.shape);
  const [S, dk2] = sizes2('k', k.shape);
  const [S2, dv] = sizes2('v', v.shape);
  if (dk2 !== dk) throw new Error(`${FN}: q of shape ${formatShape(q.shape)} and k of shape ${formatShape(k.shape)} must have the same dk (${dk} vs ${dk2})`);
  if (S2 !== S)
    throw new Error(`${FN}: k of shape ${formatShape(k.shape)} and v of shape ${formatShape(v.shape)} must have the same number of keys S (${S} vs ${S2})`);
  return { L, S, dk, dv, qd: contiguous(q).data, kd: contiguous(k).data, vd: contiguous(v).data };
}

/** The number a scale choice stands for. */
export function resolveScale(choice: ScaleChoice, dk: number): number {
  switch (choice?.kind) {
    case 'inv-sqrt-dk':
      return 1 / Math.sqrt(dk);
    case 'inv-dk':
      return 1 / dk;
    case 'none':
      return 1;
    case 'custom':
    case 'model':
      if (typeof choice.value !== 'number' || !Number.isFinite(choice.value)) {
        throw new Error(`${FN}: a ${choice.kind} scale must be a finite number, got ${String(choice.value)}`);
      }
      return choice.value;
    default:
      throw new Error(`${FN}: scale.kind must be 'inv-sqrt-dk', 'inv-dk', 'none', 'custom' or 'model', got ${String((choice as { kind?: unknown })?.kind)}`);
  }
}

function checkThreshold(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Error(`${FN}: ${name} must be a finite number ≥ 0, got ${String(value)}`);
  }
  return value;
}

function resolveCausalIntent(intent: TraceOptions['causalIntent'], built: BuiltMask): CausalAlign | null {
  if (intent === undefined) return built.causalAligns[0] ?? null;
  if (intent === 'none') return null;
  if (intent !== 'top-left' && intent !== 'bottom-right') {
    throw new Error(`${FN}: causalIntent must be 'top-left', 'bottom-right' or 'none', got ${String(intent)}`);
  }
  return intent;
}

function resolvePaddedKeys(keys: readonly number[] | undefined, built: BuiltMask, S: number): number[] {
  if (keys === undefined) return built.paddedKeys;
  for (const j of keys) {
    if (!Number.isInteger(j) || j < 0 || j >= S) throw new Error(`${FN}: paddedKeys holds ${String(j)}, outside 0..${S - 1}`);
  }
  return [...new Set(keys)].sort((a, b) => a - b);
}
