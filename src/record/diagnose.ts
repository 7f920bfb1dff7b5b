// Runtime diagnostics: decided from the values a run produced, never from names. Each check says nothing when
// its evidence is missing (a tensor not captured or summarised, a layout it cannot orient, ids without a
// padding_idx): a runtime finding must be right.
import { getKernel } from '../engine/kernels';
import type { Tensor } from '../engine/tensor';
import { isBoolTensor } from '../engine/tensor';
import type { RuleCode, Severity } from '../lint/types';
import { transposeLast } from './broadcast';
import { everyPair, rowSlopes, rowSumRange, scanMaskedRows, scanPadding, unnormalisedRows } from './row-loops';
import type { CapturedTensor } from './tensors';
import { inWorkspace, type TraceCall, type TraceIndex, type TraceOp } from './trace';
import { attentionView, type AttentionView } from './view';
import { msg, renderMessage, type MessageArg, type MessageParts } from '../protocol/message';
import { RUNTIME_MESSAGES as M } from './messages';

export interface RuntimeFinding {
  code: RuleCode;
  severity: Severity;
  /** In English (the CLI's); `messageParts` the same as a template and arguments, for the editor's language. */
  message: string;
  messageParts: MessageParts;
  /** Absolute path of the user's file and 1-based line/column. */
  path: string;
  line: number;
  column: number;
  callId: number;
}

const SEVERITY: Readonly<Record<string, Severity>> = {
  ATT001: 'error',
  ATT002: 'error',
  ATT003: 'warning',
  ATT004: 'warning',
  ATT006: 'warning',
  ATT007: 'warning',
  ATT008: 'error',
};

const FINFO_MAX: Readonly<Record<string, number>> = { float16: 65504, bfloat16: 3.3895313892515355e38, float32: 3.4028234663852886e38 };

/** What several checks of one call read: its view and its measured scale, computed once (see measuredOnce). */
export interface CallMeasures {
  view: AttentionView | null;
  scale: ReturnType<typeof measureScale>;
}

/** The call's view and measured scale (of the user's own hand-written chains: a library's convention is not the
 * user's to judge), for diagnoseCall and the evidence on static findings to share. */
export function measuredOnce(trace: TraceIndex, call: TraceCall, tensors: Map<string, CapturedTensor>): CallMeasures {
  if (call.kind === 'manual' && call.failed) return { view: null, scale: null };
  const own = call.kind === 'manual' && inWorkspace(trace.program, call.ops.find((o) => o.kind === 'softmax')?.path ?? null);
  return { view: attentionView(call, tensors), scale: own ? measureScale(call, tensors) : null };
}

/** Diagnoses one call from its captured tensors. */
export function diagnoseCall(
  trace: TraceIndex,
  call: TraceCall,
  tensors: Map<string, CapturedTensor>,
  measures: CallMeasures = measuredOnce(trace, call, tensors),
): RuntimeFinding[] {
  const ctx = new Context(trace, call);
  if (call.kind === 'manual' && call.failed) {
    checkFailedFill(ctx);
    return ctx.findings;
  }
  const { view } = measures;
  if (call.kind === 'sdpa') checkSdpaCausal(ctx, call);
  if (call.kind === 'manual') {
    checkSoftmaxAxis(ctx, call, tensors);
    checkScale(ctx, measures.scale);
    checkAfterSoftmax(ctx, call, tensors);
    checkOverflowingValues(ctx, call);
  }
  if (view) {
    checkPadding(ctx, view);
    checkCausalDirection(ctx, view);
    if (call.kind !== 'sdpa') checkTrilWithCache(ctx, view);
    // Rows left with no key by a mask already reported as inverted are that finding's consequence.
    if (!ctx.findings.some((f) => f.code === 'ATT002')) checkMaskedRows(ctx, view, tensors);
  }
  return ctx.findings;
}

class Context {
  findings: RuntimeFinding[] = [];
  constructor(
    readonly trace: TraceIndex,
    readonly call: TraceCall,
  ) {}

  inWorkspace(path: string | null): boolean {
    return inWorkspace(this.trace.program, path);
  }

  /** The op's own line when it is the user's, else the innermost line of the user's code on the stack. */
  where(op: TraceOp | null | undefined): { path: string; line: number; column: number } | null {
    if (op && op.path && op.line && this.inWorkspace(op.path)) return { path: op.path, line: op.line, column: op.column ?? 1 };
    const u = this.call.site.user;
    if (u && u.line > 0) return { path: u.path, line: u.line, column: u.column ?? 1 };
    return null;
  }

  add(code: RuleCode, op: TraceOp | null | undefined, messageParts: MessageParts): void {
    const at = this.where(op);
    if (!at) return;
    if (this.findings.some((f) => f.code === code && f.line === at.line && f.path === at.path)) return;
    this.findings.push({ code, severity: SEVERITY[code] ?? 'warning', message: renderMessage(messageParts), messageParts, ...at, callId: this.call.id });
  }

  op(kind: string, predicate: (o: TraceOp) => boolean = () => true): TraceOp | undefined {
    return this.call.ops.find((o) => o.kind === kind && predicate(o));
  }
}

function usable(tensors: Map<string, CapturedTensor>, name: string): Tensor | null {
  const t = tensors.get(name);
  return t && !t.summarised && !isBoolTensor(t.tensor) ? t.tensor : null;
}

function tolerance(dtype: string | null): number {
  return dtype === 'float16' || dtype === 'bfloat16' ? 1e-2 : 1e-4;
}

function fmt(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (Number.isInteger(x) && a < 1e7) return String(x);
  return a >= 1000 || a < 0.001 ? x.toExponential(2) : Number(x.toPrecision(3)).toString();
}

/** Runs of consecutive positions: [1, 2, 3, 7] → "1–3, 7". */
function ranges(positions: number[]): string {
  const runs: [number, number][] = [];
  for (const p of positions) {
    const last = runs.at(-1);
    if (last && p === last[1] + 1) last[1] = p;
    else runs.push([p, p]);
  }
  return runs.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)).join(', ');
}

/** The number of keys S of a tensor of weights [..., T, S] (keys last) or [..., S, T], or null without two axes. */
function keyCount(t: Tensor, keyLast: boolean): number | null {
  return (keyLast ? t.shape.at(-1) : t.shape.at(-2)) ?? null;
}

// --- ATT001: the softmax normalised the axis the matmul with v does not sum over -------------------------
function checkSoftmaxAxis(ctx: Context, call: TraceCall, tensors: Map<string, CapturedTensor>): void {
  if (!call.softmax || !call.contracted || call.softmax.role === call.contracted.role) return;
  const softmaxOp = ctx.op('softmax');
  if (!ctx.inWorkspace(softmaxOp?.path ?? null)) return;
  const probs = usable(tensors, 'probs');
  let detail: MessageArg = '';
  const keyLast = call.contracted.role === 'col';
  const S = probs && keyCount(probs, keyLast);
  if (probs && S !== null) {
    // Sums over the key axis (the one the values are summed over) per query.
    const { lo, hi } = rowSumRange(keyLast ? probs.data : transposeLast(probs.data, probs.shape), S);
    if (Number.isFinite(lo) && (Math.abs(lo - 1) > 1e-3 || Math.abs(hi - 1) > 1e-3)) detail = msg(M.rowSums, `${fmt(lo)}${hi > lo ? `–${fmt(hi)}` : ''}`);
  }
  ctx.add('ATT001', softmaxOp, msg(M.softmaxAxis, call.softmax.dim, opLine(ctx.op('values')), detail));
}

function opLine(op: TraceOp | undefined): string {
  return op && op.line ? String(op.line) : '?';
}

// --- ATT003 / ATT004: the scale the scores were multiplied by, measured -----------------------------------
/** The factor s with softmax input = s · q·kᵀ + (per-row constant) on the unmasked entries, or null. */
export function measureScale(call: TraceCall, tensors: Map<string, CapturedTensor>): { scale: number; dk: number; heads: number | null } | null {
  if (call.kind !== 'manual' || !call.contracted || call.params.otherOps === true) return null;
  const a = usable(tensors, 'rows_operand');
  const b = usable(tensors, 'cols_operand');
  const scores = usable(tensors, 'scores');
  if (!a || !b || !scores) return null;
  const rank = scores.shape.length;
  const [R, C] = scores.shape.slice(-2); // scores [..., R, C] = a [..., R, dk] · b [..., C, dk]ᵀ
  const dk = a.shape.at(-1);
  if (R === undefined || C === undefined || dk === undefined) return null;
  if (a.shape[a.shape.length - 2] !== R || b.shape[b.shape.length - 2] !== C || b.shape[b.shape.length - 1] !== dk) return null;
  const nMat = scores.data.length / (R * C);
  if (a.data.length !== nMat * R * dk || b.data.length !== nMat * C * dk) return null;
  // qk [nMat, R, C] = a · bᵀ, computed by the engine's kernel in float32 (b [nMat, C, dk] read transposed).
  const qk = new Float32Array(nMat * R * C);
  const kernel = getKernel();
  for (let i = 0; i < nMat; i++) {
    kernel.gemm({
      m: R,
      n: C,
      k: dk,
      a: a.data,
      aOff: i * R * dk,
      lda: dk,
      b: b.data,
      bOff: i * C * dk,
      ldb: dk,
      transB: true,
      c: qk,
      cOff: i * R * C,
      ldc: C,
    });
  }
  const masked = tensors.get('masked');
  const m = masked && isBoolTensor(masked.tensor) && masked.tensor.data.length === scores.data.length ? masked.tensor.data : null;
  // Per query row: the least-squares slope of the softmax input against q·kᵀ over the unmasked keys; null when a
  // row is not exactly linear in q·kᵀ (a position bias, a nonlinearity).
  const slopes = rowSlopes(qk, scores.data, m, nMat * R, C);
  if (slopes === null) return null;
  slopes.sort((p, q) => p - q);
  const [least] = slopes;
  const most = slopes.at(-1);
  const median = slopes[slopes.length >> 1];
  if (least === undefined || most === undefined || median === undefined) return null; // no row to measure
  const tol = tolerance(call.dtype) * 10;
  if (Math.abs(most - least) > tol * Math.abs(median)) return null;
  const pre = call.ops.find((o) => o.kind === 'scores')?.operandScale ?? 1;
  const heads = rank >= 4 ? (scores.shape.at(-3) ?? null) : null;
  return { scale: median * pre, dk, heads };
}

function checkScale(ctx: Context, m: ReturnType<typeof measureScale>): void {
  const softmaxOp = ctx.op('softmax');
  if (!ctx.inWorkspace(softmaxOp?.path ?? null)) return; // a library's own convention is not the user's bug
  if (!m || m.dk < 2) return;
  const { scale, dk, heads } = m;
  const near = (x: number) => Math.abs(scale - x) <= 1e-2 * x;
  const want = 1 / Math.sqrt(dk);
  if (near(want)) return;
  const scoresOp = ctx.op('scores');
  const scaleOp = ctx.op('scale') ?? scoresOp;
  const wantText = `1/sqrt(d_k) = ${fmt(want)} (d_k = ${dk})`;
  if (near(1)) {
    ctx.add('ATT003', scoresOp, msg(M.unscaled, fmt(scale), wantText));
  } else if (near(1 / dk)) {
    ctx.add('ATT004', scaleOp, msg(M.byDk, fmt(scale), dk, wantText));
  } else if (near(Math.sqrt(dk))) {
    ctx.add('ATT004', scaleOp, msg(M.bySqrtDk, fmt(scale), wantText));
  } else if (heads !== null && heads > 1 && near(1 / Math.sqrt(dk * heads))) {
    ctx.add('ATT004', scaleOp, msg(M.byDModel, heads, dk, fmt(scale), wantText));
  }
}

// --- ATT006: weights changed after the softmax and not renormalised --------------------------------------
function checkAfterSoftmax(ctx: Context, call: TraceCall, tensors: Map<string, CapturedTensor>): void {
  const changes = call.afterSoftmax.filter((o) => o.kind === 'after-softmax');
  const last = changes.at(-1);
  if (!last || !call.contracted) return;
  if (!ctx.inWorkspace(last.path)) return;
  const lastIndex = call.afterSoftmax.lastIndexOf(last);
  if (call.afterSoftmax.slice(0, lastIndex).some((o) => o.kind === 'dropout' && o.training && (o.p ?? 0) > 0)) return;
  const used = usable(tensors, 'weights_used');
  const probs = usable(tensors, 'probs');
  if (!used || !probs || used.data.length !== probs.data.length) return;
  const keyLast = call.contracted.role === 'col';
  const S = keyCount(used, keyLast);
  if (S === null) return;
  const w = keyLast ? used.data : transposeLast(used.data, used.shape);
  const p = keyLast ? probs.data : transposeLast(probs.data, probs.shape);
  const { bad, rows, lo, hi } = unnormalisedRows(w, p, S, tolerance(call.dtype) * 10);
  if (bad === 0) return;
  ctx.add('ATT006', last, msg(M.afterSoftmax, last.op, bad, rows, `${fmt(lo)}${hi > lo ? `–${fmt(hi)}` : ''}`));
}

// --- ATT007: fill values that do not fit the dtype ----------------------------------------------------------
function checkFailedFill(ctx: Context): void {
  const op = ctx.call.ops[ctx.call.ops.length - 1];
  if (!op || !op.error || !/overflow/i.test(op.error)) return;
  const max = FINFO_MAX[ctx.call.dtype ?? ''];
  ctx.add(
    'ATT007',
    op,
    msg(M.fillFailed, op.op, typeof op.value === 'number' ? fmt(op.value) : String(op.value), String(ctx.call.dtype), max ? msg(M.largest, fmt(max)) : ''),
  );
}

function checkOverflowingValues(ctx: Context, call: TraceCall): void {
  const max = FINFO_MAX[call.dtype ?? ''];
  if (!max) return;
  for (const op of call.ops) {
    if ((op.kind === 'fill' || op.kind === 'add') && typeof op.value === 'number' && Math.abs(op.value) > max) {
      ctx.add('ATT007', op, msg(M.valueOverflows, fmt(op.value), String(call.dtype), fmt(max), op.value < 0 ? '-' : ''));
    }
  }
}

// --- ATT008: causal masks aligned top-left with fewer queries than keys -----------------------------------
function checkSdpaCausal(ctx: Context, call: TraceCall): void {
  if (call.params.isCausal !== true) return;
  const q = call.shapes.q;
  const k = call.shapes.k;
  const T = q?.at(-2); // q [..., T, dk], k [..., S, dk]
  const S = k?.at(-2);
  if (T === undefined || S === undefined || T >= S) return;
  ctx.add('ATT008', null, msg(T === 1 ? M.sdpaCausalOne : M.sdpaCausal, T, S, S - T + 1));
}

function checkTrilWithCache(ctx: Context, view: AttentionView): void {
  const { T, S, allowed } = view;
  if (!allowed || T >= S) return;
  if (!everySlice(view, (t, s, a) => a === (s <= t ? 1 : 0))) return;
  const maskOp = ctx.call.ops.find((o) => o.kind === 'fill' || o.kind === 'add');
  ctx.add('ATT008', maskOp, msg(M.trilWithCache, T, S, S - T));
}

// --- ATT002: masks that let real queries attend padding, or point the causal triangle the wrong way -------
function everySlice(view: AttentionView, pred: (t: number, s: number, allowed: number) => boolean): boolean {
  const { T, S, allowed } = view;
  return allowed !== null && everyPair(allowed, T, S, pred);
}

function maskOpOf(ctx: Context): TraceOp | undefined {
  return (
    ctx.call.ops.find((o) => (o.kind === 'fill' || o.kind === 'add') && o.value !== null) ?? ctx.call.ops.find((o) => o.kind === 'fill' || o.kind === 'add')
  );
}

function checkCausalDirection(ctx: Context, view: AttentionView): void {
  const { T, S } = view;
  if (T !== S || T < 3 || !view.allowed) return;
  const future = everySlice(view, (t, s, a) => a === (s >= t ? 1 : 0));
  const strictFuture = !future && everySlice(view, (t, s, a) => a === (s > t ? 1 : 0));
  if (!future && !strictFuture) return;
  ctx.add('ATT002', maskOpOf(ctx), msg(ctx.call.kind === 'sdpa' ? M.causalWrongWaySdpa : M.causalWrongWay, strictFuture ? 't+1' : 't', S - 1));
}

function checkPadding(ctx: Context, view: AttentionView): void {
  const { ids, T, S, allowed, probs } = view;
  const off = view.queryOffset; // query t is key position t + off (a KV-cache step: the last T keys)
  if (!ids || ids.paddingIdx === null || !allowed || off === null) return;
  const perB = view.batch.slice(1).reduce((a, b) => a * b, 1);
  const scan = { allowed, probs, ids: ids.data, paddingIdx: ids.paddingIdx, T, S, perB };
  const { padAllowed, realPastMasked, slicesBlind, slicesWithPad, padWeight, realRows, example } = scanPadding(scan, off);
  if (slicesWithPad === 0 || !example) return;
  const inverted = slicesBlind === slicesWithPad;
  if (!inverted && !(padAllowed && realPastMasked)) return;
  const share = realRows > 0 ? padWeight / realRows : null;
  const where = msg(example.pads.length > 1 ? M.paddingAtMany : M.paddingAt, ranges(example.pads), example.b, ids.paddingIdx);
  const reading = ctx.call.kind === 'sdpa' ? msg(M.readingSdpa) : ctx.call.kind === 'mha' ? msg(M.readingMha) : '';
  const measured = share !== null && share > 0 ? msg(M.paddingShare, Math.round(share * 100), where) : msg(M.paddingMayAttend, where);
  ctx.add('ATT002', maskOpOf(ctx), msg(inverted ? M.paddingInverted : M.paddingLeaks, measured, reading));
}

// --- ATT007: NaN rows and rows with every key masked ------------------------------------------------------
function checkMaskedRows(ctx: Context, view: AttentionView, tensors: Map<string, CapturedTensor>): void {
  const { T, S, allowed, probs, ids } = view;
  if (!allowed) return;
  const perB = view.batch.slice(1).reduce((a, b) => a * b, 1);
  const outT = usable(tensors, 'out');
  const nSlices = allowed.length / (T * S);
  // SDPA's output [..., T, Ev]: a row with every key masked is NaN there too.
  const Ev = outT?.shape.at(-1);
  const out = outT && ctx.call.kind === 'sdpa' && Ev !== undefined && outT.data.length === nSlices * T * Ev ? { data: outT.data, Ev } : null;
  const scan = { allowed, probs, ids: ids?.data ?? null, paddingIdx: ids?.paddingIdx ?? null, T, S, perB };
  const { nanRows, blindRealRows, first: firstRow } = scanMaskedRows(scan, out, view.queryOffset);
  const first = firstRow && msg(firstRow.kind === 'nan' ? M.firstQuery : M.firstRealQuery, firstRow.t, firstRow.b);
  const total = nSlices * T;
  if (nanRows > 0) {
    ctx.add('ATT007', maskOpOf(ctx), msg(M.nanRows, nanRows, total, first ?? ''));
  } else if (blindRealRows > 0) {
    ctx.add('ATT007', maskOpOf(ctx), msg(ctx.call.kind === 'sdpa' ? M.blindRowsSdpa : M.blindRows, blindRealRows, total, first ?? ''));
  }
}
