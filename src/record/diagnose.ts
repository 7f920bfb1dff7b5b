// Runtime diagnostics: decided from the values a run produced, never from names. Each check says nothing when
// its evidence is missing (a tensor not captured or summarised, a layout it cannot orient, ids without a
// padding_idx): a runtime finding must be right.
import { getKernel } from '../engine/kernels';
import type { Tensor } from '../engine/tensor';
import { isBoolTensor } from '../engine/tensor';
import type { RuleCode, Severity } from '../lint/types';
import { transposeLast } from './broadcast';
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
    checkPadding(ctx, view, tensors);
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

function ranges(positions: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < positions.length;) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === positions[j] + 1) j++;
    parts.push(i === j ? `${positions[i]}` : `${positions[i]}–${positions[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

// --- ATT001: the softmax normalised the axis the matmul with v does not sum over -------------------------
function checkSoftmaxAxis(ctx: Context, call: TraceCall, tensors: Map<string, CapturedTensor>): void {
  if (!call.softmax || !call.contracted || call.softmax.role === call.contracted.role) return;
  const softmaxOp = ctx.op('softmax');
  if (!ctx.inWorkspace(softmaxOp?.path ?? null)) return;
  const probs = usable(tensors, 'probs');
  let detail: MessageArg = '';
  if (probs) {
    // Sums over the key axis (the one the values are summed over) per query.
    const keyLast = call.contracted.role === 'col';
    const data = keyLast ? probs.data : transposeLast(probs.data, probs.shape);
    const S = keyLast ? probs.shape[probs.shape.length - 1] : probs.shape[probs.shape.length - 2];
    let lo = Infinity;
    let hi = -Infinity;
    for (let r = 0; r < data.length / S; r++) {
      let s = 0;
      for (let j = 0; j < S; j++) s += data[r * S + j];
      if (Number.isFinite(s)) {
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
    }
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
  const [R, C] = scores.shape.slice(-2);
  const dk = a.shape[a.shape.length - 1];
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
  const y = scores.data;
  const used = (i: number) => !(m && m[i]) && Number.isFinite(qk[i]) && Number.isFinite(y[i]);
  const slopes: number[] = [];
  // Per query row: the least-squares slope of the softmax input against q·kᵀ over the unmasked keys.
  for (let r = 0; r < nMat * R; r++) {
    const row = r * C;
    let n = 0;
    let sx = 0;
    let sy = 0;
    for (let i = row; i < row + C; i++) {
      if (!used(i)) continue;
      n++;
      sx += qk[i];
      sy += y[i];
    }
    if (n < 2) continue;
    const mx = sx / n;
    const my = sy / n;
    let sxy = 0;
    let sxx = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = row; i < row + C; i++) {
      if (!used(i)) continue;
      const dx = qk[i] - mx;
      sxy += dx * (y[i] - my);
      sxx += dx * dx;
      if (qk[i] < lo) lo = qk[i];
      if (qk[i] > hi) hi = qk[i];
    }
    if (sxx < 1e-12 * n) continue;
    const slope = sxy / sxx;
    // The row must be exactly linear in q·kᵀ (no position bias, no nonlinearity).
    let worst = 0;
    for (let i = row; i < row + C; i++) if (used(i)) worst = Math.max(worst, Math.abs(y[i] - my - slope * (qk[i] - mx)));
    if (worst > 1e-2 * Math.abs(slope) * (hi - lo) + 1e-6) return null;
    slopes.push(slope);
  }
  if (slopes.length === 0) return null;
  slopes.sort((p, q) => p - q);
  const median = slopes[slopes.length >> 1];
  const tol = tolerance(call.dtype) * 10;
  if (Math.abs(slopes[slopes.length - 1] - slopes[0]) > tol * Math.abs(median)) return null;
  const pre = call.ops.find((o) => o.kind === 'scores')?.operandScale ?? 1;
  const heads = rank >= 4 ? scores.shape[rank - 3] : null;
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
  if (changes.length === 0 || !call.contracted) return;
  const last = changes[changes.length - 1];
  if (!ctx.inWorkspace(last.path)) return;
  const lastIndex = call.afterSoftmax.lastIndexOf(last);
  if (call.afterSoftmax.slice(0, lastIndex).some((o) => o.kind === 'dropout' && o.training && (o.p ?? 0) > 0)) return;
  const used = usable(tensors, 'weights_used');
  const probs = usable(tensors, 'probs');
  if (!used || !probs || used.data.length !== probs.data.length) return;
  const keyLast = call.contracted.role === 'col';
  const w = keyLast ? used.data : transposeLast(used.data, used.shape);
  const p = keyLast ? probs.data : transposeLast(probs.data, probs.shape);
  const S = keyLast ? used.shape[used.shape.length - 1] : used.shape[used.shape.length - 2];
  const tol = tolerance(call.dtype) * 10;
  let bad = 0;
  let rows = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let r = 0; r < w.length / S; r++) {
    let sw = 0;
    let sp = 0;
    for (let j = 0; j < S; j++) {
      sw += w[r * S + j];
      sp += p[r * S + j];
    }
    if (!Number.isFinite(sw) || Math.abs(sp - 1) > tol) continue; // rows the softmax itself did not normalise
    rows++;
    if (Math.abs(sw) > tol && Math.abs(sw - 1) > tol) {
      bad++;
      lo = Math.min(lo, sw);
      hi = Math.max(hi, sw);
    }
  }
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
  if (!q || !k || q.length < 2 || k.length < 2) return;
  const T = q[q.length - 2];
  const S = k[k.length - 2];
  if (T >= S) return;
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
  if (!allowed) return false;
  for (let base = 0; base < allowed.length; base += T * S) {
    for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) if (!pred(t, s, allowed[base + t * S + s])) return false;
  }
  return true;
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

function checkPadding(ctx: Context, view: AttentionView, _tensors: Map<string, CapturedTensor>): void {
  const { ids, T, S, allowed, probs } = view;
  const off = view.queryOffset; // query t is key position t + off (a KV-cache step: the last T keys)
  if (!ids || ids.paddingIdx === null || !allowed || off === null) return;
  const perB = view.batch.slice(1).reduce((a, b) => a * b, 1);
  const nSlices = allowed.length / (T * S);
  let padAllowed = false;
  let realPastMasked = false;
  let slicesBlind = 0; // slices where no real query sees any real key
  let slicesWithPad = 0;
  let padWeight = 0;
  let realRows = 0;
  let example: { b: number; pads: number[] } | null = null;
  for (let sl = 0; sl < nSlices; sl++) {
    const b = Math.floor(sl / perB);
    const pad = (s: number) => ids.data[b * S + s] === ids.paddingIdx;
    const pads: number[] = [];
    for (let s = 0; s < S; s++) if (pad(s)) pads.push(s);
    if (pads.length === 0 || pads.length === S) continue;
    let realQueries = 0;
    for (let t = 0; t < T; t++) if (!pad(t + off)) realQueries++;
    if (realQueries === 0) continue; // a KV-cache step whose new tokens are all padding: nothing to judge
    slicesWithPad++;
    let anyRealSeesReal = false;
    for (let t = 0; t < T; t++) {
      if (pad(t + off)) continue;
      const row = sl * T * S + t * S;
      let seesReal = false;
      for (let s = 0; s < S; s++) {
        const a = allowed[row + s];
        if (pad(s)) {
          if (a) padAllowed = true;
        } else if (a) {
          seesReal = true;
        } else if (s <= t + off) {
          realPastMasked = true;
        }
      }
      if (seesReal) anyRealSeesReal = true;
      if (probs) {
        let w = 0;
        for (const s of pads) w += probs[row + s];
        if (Number.isFinite(w)) {
          padWeight += w;
          realRows++;
        }
      }
    }
    if (!anyRealSeesReal) slicesBlind++;
    if (!example && (padAllowed || !anyRealSeesReal)) example = { b, pads };
  }
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
  let nanRows = 0;
  let blindRealRows = 0;
  let first: MessageParts | null = null;
  for (let sl = 0; sl < nSlices; sl++) {
    const b = Math.floor(sl / perB);
    for (let t = 0; t < T; t++) {
      const row = sl * T * S + t * S;
      let any = false;
      for (let s = 0; s < S && !any; s++) any = allowed[row + s] === 1;
      if (any) continue;
      // Every key masked: NaN in the weights (softmax of all -inf) or, with finite fills, uniform weights.
      let nan = false;
      if (probs) for (let s = 0; s < S && !nan; s++) nan = Number.isNaN(probs[row + s]);
      if (!nan && outT && ctx.call.kind === 'sdpa' && outT.data.length === nSlices * T * (outT.shape[outT.shape.length - 1] ?? 0)) {
        const Ev = outT.shape[outT.shape.length - 1];
        for (let e = 0; e < Ev && !nan; e++) nan = Number.isNaN(outT.data[(sl * T + t) * Ev + e]);
      }
      const realQuery = view.queryOffset !== null && ids && ids.paddingIdx !== null ? ids.data[b * S + t + view.queryOffset] !== ids.paddingIdx : null;
      if (nan) {
        nanRows++;
        first ??= msg(M.firstQuery, t, b);
      } else if (realQuery === true) {
        blindRealRows++;
        first ??= msg(M.firstRealQuery, t, b);
      }
    }
  }
  const total = nSlices * T;
  if (nanRows > 0) {
    ctx.add('ATT007', maskOpOf(ctx), msg(M.nanRows, nanRows, total, first ?? ''));
  } else if (blindRealRows > 0) {
    ctx.add('ATT007', maskOpOf(ctx), msg(ctx.call.kind === 'sdpa' ? M.blindRowsSdpa : M.blindRows, blindRealRows, total, first ?? ''));
  }
}
