// Plain-language warnings about one traced head, each with a stable id and the rows it concerns.
import type { PaddingReading } from './build-mask';
import { type CausalAlign, TRACE_DEFAULTS } from './options';
import type { TraceStats } from './stats';

export type TraceWarningId =
  | 'rows-not-normalized'
  | 'attends-only-padding'
  | 'saturated-rows'
  | 'nan-rows'
  | 'future-visible'
  | 'fully-masked-zero-rows'
  | 'score-variance-high'
  | 'near-uniform-rows';

export interface TraceWarning {
  id: TraceWarningId;
  /** One sentence for the learner. */
  message: string;
  /** Query rows concerned (empty when the warning is about the whole head). */
  rows: number[];
}

export interface WarningContext {
  stats: TraceStats;
  L: number;
  dk: number;
  scale: number;
  effectiveScale: number;
  softmaxDim: -1 | -2;
  fullyMaskedRows: 'nan' | 'zero';
  padding: PaddingReading[];
  causalIntent: CausalAlign | null;
  causalAligns: CausalAlign[];
  scoreVarianceThreshold: number;
  normalizationTolerance: number;
  /** See TraceOptions.uniformEntropyRatio / scoreVarianceLowThreshold (defaults from TRACE_DEFAULTS). */
  uniformEntropyRatio?: number;
  scoreVarianceLowThreshold?: number;
}

/** What a warning about flat or peaked rows measured: entropy against ln(n) over `rows`, and the scores' spread. */
export interface RowSpread {
  entropyMin: number;
  entropyMax: number;
  /** ln(n) for the rows' visible key counts n (equal when every row sees as many keys). */
  lnMin: number;
  lnMax: number;
  /** Standard deviation of the raw q·k scores (about √d_k for unit-variance q and k) and of the scaled ones (about 1 when right). */
  rawStd: number;
  scaledStd: number;
  sqrtDk: number;
}

export function rowSpread(stats: TraceStats, rows: readonly number[]): RowSpread {
  let entropyMin = Infinity,
    entropyMax = -Infinity,
    lnMin = Infinity,
    lnMax = -Infinity;
  for (const i of rows) {
    const e = stats.entropy[i] ?? NaN,
      ln = stats.lnVisible[i] ?? NaN;
    if (Number.isFinite(e)) {
      entropyMin = Math.min(entropyMin, e);
      entropyMax = Math.max(entropyMax, e);
    }
    if (Number.isFinite(ln)) {
      lnMin = Math.min(lnMin, ln);
      lnMax = Math.max(lnMax, ln);
    }
  }
  const o = stats.overall;
  return { entropyMin, entropyMax, lnMin, lnMax, rawStd: Math.sqrt(o.rawVariance), scaledStd: Math.sqrt(o.scaledVariance), sqrtDk: Math.sqrt(o.dk) };
}

/** "2.35–2.39", or one number when both ends agree to 3 significant digits. */
export function numberRange(lo: number, hi: number): string {
  const a = fmt3(lo),
    b = fmt3(hi);
  return a === b ? a : `${a}–${b}`;
}

const fmt3 = (x: number): string => String(+x.toPrecision(3));

/** "row 3", "rows 0, 1 and 2", "rows 0, 1, 2, 3, 4 and 7 more", "all 8 rows". */
export function describeRows(rows: readonly number[], L: number): string {
  if (rows.length === L && L > 1) return `all ${L} rows`;
  if (rows.length === 1) return `row ${rows[0]}`;
  if (rows.length > 6) return `rows ${rows.slice(0, 5).join(', ')} and ${rows.length - 5} more`;
  return `rows ${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`;
}

/** The verb form agreeing with the row list: one row → singular. */
function agree(rows: readonly number[], singular: string, plural: string): string {
  return rows.length === 1 ? singular : plural;
}

const fmt = (x: number): string => (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : String(+x.toPrecision(4)));

export function traceWarnings(ctx: WarningContext): TraceWarning[] {
  const out: TraceWarning[] = [];
  const push = (w: TraceWarning | null) => w && out.push(w);
  push(notNormalized(ctx));
  push(onlyPadding(ctx));
  push(saturated(ctx));
  push(nanRows(ctx));
  push(futureVisible(ctx));
  push(silentZeroRows(ctx));
  push(varianceHigh(ctx));
  push(nearUniform(ctx));
  return out;
}

function notNormalized(ctx: WarningContext): TraceWarning | null {
  const { stats, normalizationTolerance: tol } = ctx;
  const skip = new Set([...stats.nanRows, ...(ctx.fullyMaskedRows === 'zero' ? stats.fullyMaskedRows : [])]);
  const rows: number[] = [];
  let worst = 0;
  stats.rowSums.forEach((sum, i) => {
    if (skip.has(i) || Math.abs(sum - 1) <= tol) return;
    rows.push(i);
    worst = Math.max(worst, Math.abs(sum - 1));
  });
  if (rows.length === 0) return null;
  const why = ctx.softmaxDim === -2 ? ': the softmax ran over dim -2 (the queries), so each key column sums to 1 instead of each query row; use dim=-1' : '';
  return {
    id: 'rows-not-normalized',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} of the weights ${agree(rows, 'does', 'do')} not sum to 1 (off by up to ${fmt(worst)})${why}.`,
  };
}

function onlyPadding(ctx: WarningContext): TraceWarning | null {
  const rows = ctx.stats.paddingOnlyRows;
  if (rows.length === 0) return null;
  const inverted = ctx.padding.find((p) => p.inverted);
  let why = '';
  if (inverted?.passedTo === 'sdpa') {
    why =
      ': the padding mask was built with True = pad but F.scaled_dot_product_attention reads True = attend, so invert it (~mask) or pass it to nn.MultiheadAttention as key_padding_mask';
  } else if (inverted?.passedTo === 'mha') {
    why =
      ": the padding mask was built with True = keep but nn.MultiheadAttention's key_padding_mask reads True = ignore, so invert it (~mask) or pass it to SDPA as attn_mask";
  }
  return {
    id: 'attends-only-padding',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} ${agree(rows, 'puts all its', 'put all their')} weight on padding keys${why}.`,
  };
}

function saturated(ctx: WarningContext): TraceWarning | null {
  const rows = ctx.stats.saturatedRows;
  if (rows.length === 0) return null;
  const pct = Math.round(ctx.stats.saturationThreshold * 1000) / 10;
  const ideal = 1 / Math.sqrt(ctx.dk);
  const hint =
    Math.abs(ctx.effectiveScale - ideal) > 1e-9 * ideal ? ` (the scores are multiplied by ${fmt(ctx.effectiveScale)}, while 1/sqrt(d_k) = ${fmt(ideal)})` : '';
  const m = rowSpread(ctx.stats, rows);
  return {
    id: 'saturated-rows',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} ${agree(rows, 'puts at least ' + pct + '% of its', 'put at least ' + pct + '% of their')} weight on a single key (one-hot: entropy ${numberRange(m.entropyMin, m.entropyMax)} nats against ln n = ${numberRange(m.lnMin, m.lnMax)}; the scaled scores spread ${fmt3(m.scaledStd)} (std), where about 1 is usual), so the softmax is saturated and its gradients vanish${hint}.`,
  };
}

function nanRows(ctx: WarningContext): TraceWarning | null {
  const rows = ctx.stats.nanRows;
  if (rows.length === 0) return null;
  const masked = new Set(ctx.stats.fullyMaskedRows);
  const why = rows.every((i) => masked.has(i))
    ? 'every key is masked there, and a softmax over nothing but -inf is 0/0, which ·V then spreads into the output'
    : 'the scores contain NaN or +inf';
  return { id: 'nan-rows', rows, message: `${cap(describeRows(rows, ctx.L))} of the weights ${agree(rows, 'is', 'are')} NaN because ${why}.` };
}

function futureVisible(ctx: WarningContext): TraceWarning | null {
  const rows = ctx.stats.futureRows;
  if (rows.length === 0 || !ctx.causalIntent) return null;
  const rule = ctx.causalIntent === 'top-left' ? 'query i sees keys j ≤ i' : 'query i sees keys j ≤ i + (S - L)';
  let why = 'no causal mask is applied';
  if (ctx.causalAligns.length > 0) why = `the causal mask is ${ctx.causalAligns.join(' and ')} aligned`;
  return {
    id: 'future-visible',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} ${agree(rows, 'gives', 'give')} weight to future keys although the attention is meant to be causal (${ctx.causalIntent}: ${rule}), but ${why}.`,
  };
}

function silentZeroRows(ctx: WarningContext): TraceWarning | null {
  if (ctx.fullyMaskedRows !== 'zero') return null;
  const rows = ctx.stats.fullyMaskedRows;
  if (rows.length === 0) return null;
  return {
    id: 'fully-masked-zero-rows',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} may attend to no key at all, and SDPA's safe softmax silently gives ${agree(rows, 'it', 'them')} weight 0 and output 0 (after out_proj, exactly its bias) instead of raising or returning NaN.`,
  };
}

function varianceHigh(ctx: WarningContext): TraceWarning | null {
  const { overall } = ctx.stats;
  if (!(overall.scaledVariance > ctx.scoreVarianceThreshold)) return null;
  const rows = ctx.stats.scaledVariance.flatMap((v, i) => (v > ctx.scoreVarianceThreshold ? [i] : []));
  return {
    id: 'score-variance-high',
    rows,
    message: `The scaled scores have variance ${fmt(overall.scaledVariance)} (raw q·k: ${fmt(overall.rawVariance)} with d_k = ${ctx.dk}), above ${fmt(ctx.scoreVarianceThreshold)}: q·k of unit-variance vectors has variance about d_k, and only the 1/sqrt(d_k) scale brings it back near 1.`,
  };
}

/**
 * Most rows spread their weight almost evenly over the keys they see (entropy close to ln n) because the
 * scaled scores hardly differ: q·k spreads about √d_k, and a scale of 1/d_k (or a high temperature) shrinks
 * that far below the 1 that 1/√d_k gives. The head then averages instead of attending.
 */
function nearUniform(ctx: WarningContext): TraceWarning | null {
  const ratio = ctx.uniformEntropyRatio ?? TRACE_DEFAULTS.uniformEntropyRatio;
  const low = ctx.scoreVarianceLowThreshold ?? TRACE_DEFAULTS.scoreVarianceLowThreshold;
  const { stats } = ctx;
  if (!(stats.overall.scaledVariance < low)) return null;
  const eligible: number[] = [];
  const rows: number[] = [];
  for (let i = 0; i < stats.entropy.length; i++) {
    const e = stats.entropy[i] ?? NaN;
    if (!((stats.visibleKeys[i] ?? 0) >= 2) || !Number.isFinite(e)) continue;
    eligible.push(i);
    if (e >= ratio * (stats.lnVisible[i] ?? NaN)) rows.push(i);
  }
  if (rows.length === 0 || rows.length * 2 < eligible.length) return null;
  const m = rowSpread(stats, rows);
  const ideal = 1 / Math.sqrt(ctx.dk);
  const hint =
    Math.abs(ctx.effectiveScale - ideal) > 1e-9 * ideal ? ` The scores are multiplied by ${fmt(ctx.effectiveScale)}, while 1/sqrt(d_k) = ${fmt(ideal)}.` : '';
  return {
    id: 'near-uniform-rows',
    rows,
    message: `${cap(describeRows(rows, ctx.L))} ${agree(rows, 'is', 'are')} almost uniform: entropy ${numberRange(m.entropyMin, m.entropyMax)} nats against ln n = ${numberRange(m.lnMin, m.lnMax)}, the most a row of n keys can have. The scaled scores spread only ${fmt3(m.scaledStd)} (std; raw q·k: ${fmt3(m.rawStd)}, about √d_k = ${fmt3(m.sqrtDk)}), where 1/√d_k gives about 1, so the softmax averages the values instead of attending.${hint}`,
  };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
