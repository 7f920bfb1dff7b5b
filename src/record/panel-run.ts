// Recorded calls as a run the inspector panel shows: one "layer" per call of the same forward pass, its heads
// from the captured tensors (batch element chosen by the caller), weights recomputed by the engine for SDPA
// and the captured weights for nn.MultiheadAttention and hand-written attention. The panel's follow-up
// requests (a head's weights, a step-through trace on the captured q, k, v and mask) are answered here too.
import type { BoolTensor, Tensor } from '../engine/tensor';
import { isBoolTensor } from '../engine/tensor';
import { traceAttention, type MaskChoice, type TraceOptions } from '../engine/trace';
import { BlockAverager, blockFor, RowEntropyAccumulator } from '../models/head-stream';
import { thumbnails } from '../models/session';
import type { AttentionRequest, AttentionResult, RecordedAttentionTrace, RunResult, TraceRequest } from '../protocol/engine';
import { compareOwnSteps, ownStepsOfCall, type OwnStepTensors } from './own-steps';
import { blockMeansOfRows, stretchedMeans } from './row-loops';
import type { CapturedTensor } from './tensors';
import type { TraceCall, TraceIndex } from './trace';
import { stepSources } from './step-sources';
import { positionLabels, type RecordedLabels } from './token-labels';
import { attentionView } from './view';
import { msg } from '../protocol/message';
import { concat, describedAs, MODEL_TEXT } from '../models/model-text';

const THUMBNAIL_SIZE = 64;
/** Most weights of one recorded run the panel gets at once (as the worker's 16 MB limit). */
const MAX_SENT_WEIGHTS = 4 * 1024 * 1024;

export interface RecordedHead {
  /** (T, S) weights, row = query, column = key. */
  weights: Float32Array;
  /** Per-head q [T, dk], k [S, dk], v [S, dv] for the debugger, when captured. */
  q: Tensor | null;
  k: Tensor | null;
  v: Tensor | null;
  /** [T, S] True = the query may attend the key, as the call's mask was read (null = nothing masked). */
  allowed: BoolTensor | null;
  /** A hand-written call: the user's own tensors at the debugger's five steps (null where not captured), sliced
   * when the debugger asks (the grid does not need them). */
  own: (() => OwnStepTensors) | null;
}

export interface RecordedRun {
  run: RunResult;
  /** [layer][head] */
  heads: RecordedHead[][];
  /** The call shown as each layer. */
  callIds: number[];
}

/**
 * The calls of the forward pass `callId` belongs to: same kind, user line, shapes and test, module paths that
 * differ only in their numbers (model.h.3.attn), in order, up to the first module path seen twice.
 */
export function forwardPassOf(trace: TraceIndex, callId: number): TraceCall[] {
  const anchor = trace.calls[callId];
  if (!anchor) throw new Error(`no recorded call #${callId}`);
  const key = (c: TraceCall) =>
    [c.kind, c.site.user?.path, c.site.user?.line, c.test, JSON.stringify(c.shapes), c.module?.replace(/\.\d+(?=\.|$)/g, '.#') ?? ''].join('\0');
  const want = key(anchor);
  if (anchor.module === null) return [anchor];
  const same = trace.calls.filter((c) => key(c) === want);
  // Split into passes at the first repeated module path; pick the pass holding the anchor.
  let pass: TraceCall[] = [];
  const seen = new Set<string>();
  for (const c of same) {
    if (seen.has(c.module ?? '')) {
      if (pass.includes(anchor)) return pass;
      pass = [];
      seen.clear();
    }
    seen.add(c.module ?? '');
    pass.push(c);
  }
  return pass.includes(anchor) ? pass : [anchor];
}

function floats(t: CapturedTensor | undefined): Tensor | null {
  return t && !t.summarised && !isBoolTensor(t.tensor) ? t.tensor : null;
}

/** Heads of batch element `batch` of one call: weights (T, S) and, where captured, per-head q, k, v. */
export function headsOfCall(
  call: TraceCall,
  tensors: Map<string, CapturedTensor>,
  batch: number,
): { heads: RecordedHead[]; T: number; S: number; batchSize: number } {
  const view = attentionView(call, tensors);
  if (!view || !view.probs)
    throw new Error(`call #${call.id}: its weights were not captured in full (summarised or over the limits), so the panel cannot show them`);
  const { T, S } = view;
  const [B = 1] = view.batch;
  if (!Number.isInteger(batch) || batch < 0 || batch >= B) throw new Error(`call #${call.id}: batch element ${batch} is out of range (batch size ${B})`);
  const H = view.batch.slice(1).reduce((a, b) => a * b, 1);
  const heads: RecordedHead[] = [];
  const qkv = perHeadInputs(call, tensors, B, H, T, S);
  const v = floats(tensors.get('v'));
  const own = call.kind === 'manual' ? ownStepsOfCall(call, tensors, { B, H, T, S, dv: v?.shape.at(-1) ?? null }) : null;
  for (let h = 0; h < H; h++) {
    const off = (batch * H + h) * T * S;
    const weights = view.probs.slice(off, off + T * S);
    const allowed = view.allowed ? ({ data: view.allowed.slice(off, off + T * S), shape: [T, S], dtype: 'bool' } as BoolTensor) : null;
    heads.push({ weights, allowed, own: own ? () => own(batch, h) : null, ...(qkv ? qkv(batch, h) : { q: null, k: null, v: null }) });
  }
  return { heads, T, S, batchSize: B };
}

/** Slices [batch, head] of captured q [B, H, T, d], k and v [B, H, S, d] (or [B, T, d] with one head). */
function perHeadInputs(call: TraceCall, tensors: Map<string, CapturedTensor>, B: number, H: number, T: number, S: number) {
  let q: Tensor | null;
  let k: Tensor | null;
  const v = floats(tensors.get('v'));
  if (call.kind === 'sdpa') {
    q = floats(tensors.get('q'));
    k = floats(tensors.get('k'));
  } else if (call.kind === 'manual') {
    const rows = floats(tensors.get('rows_operand'));
    const cols = floats(tensors.get('cols_operand'));
    [q, k] = call.contracted?.role === 'row' ? [cols, rows] : [rows, cols];
    // q or k multiplied by a number before the matmul (q * d ** -0.5): the reference starts from the unscaled
    // product, so that the user's scale shows at the steps, not inside the reference's q.
    const pre = call.ops.find((o) => o.kind === 'scores')?.operandScale ?? 1;
    if (q && pre !== 1 && Number.isFinite(pre) && pre !== 0) q = { data: q.data.map((x) => x / pre), shape: q.shape };
  } else {
    return null; // nn.MultiheadAttention: the captured inputs are before the projections
  }
  if (!q || !k || !v) return null;
  const slicer = (t: Tensor, n: number) => {
    const d = t.shape.at(-1); // [..., n, d]
    if (d === undefined) return null;
    const heads = t.data.length / (B * n * d);
    if (!Number.isInteger(heads) || (heads !== H && H % heads !== 0) || t.shape[t.shape.length - 2] !== n) return null;
    return (b: number, h: number): Tensor => {
      const hh = heads === H ? h : Math.floor(h / (H / heads)); // grouped-query attention: shared kv heads
      const off = (b * heads + hh) * n * d;
      return { data: t.data.slice(off, off + n * d), shape: [n, d] };
    };
  };
  const [sq, sk, sv] = [slicer(q, T), slicer(k, S), slicer(v, S)];
  if (!sq || !sk || !sv) return null;
  return (b: number, h: number) => ({ q: sq(b, h), k: sk(b, h), v: sv(b, h) });
}

/** The panel's run for the forward pass of `callId` (one layer per call), batch element `opts.batch`. */
export function buildRecordedRun(
  trace: TraceIndex,
  calls: TraceCall[],
  tensorsOf: (call: TraceCall) => Map<string, CapturedTensor>,
  opts: { runId: number; batch: number; labels?: RecordedLabels },
): RecordedRun {
  const layers = calls.map((c) => headsOfCall(c, tensorsOf(c), opts.batch));
  const [first] = calls;
  const [firstLayer] = layers;
  if (first === undefined || firstLayer === undefined) throw new Error('buildRecordedRun: no recorded call to show');
  const { T, S, batchSize } = firstLayer;
  const nHead = firstLayer.heads.length;
  const fits = (l: (typeof layers)[number]) => l.T === T && l.S === S && l.heads.length === nHead;
  const usable = layers.filter(fits);
  const shown = calls.filter((_, i) => {
    const l = layers[i];
    return l !== undefined && fits(l);
  });
  const nLayer = usable.length;
  const all = new Float32Array(nLayer * nHead * T * S);
  usable.forEach((l, li) => l.heads.forEach((h, hi) => all.set(h.weights, (li * nHead + hi) * T * S)));
  const keys = opts.labels?.keys?.length === S ? opts.labels.keys : positionLabels(S);
  const square = T === S;
  const queries = square ? null : opts.labels?.queries?.length === T ? opts.labels.queries : positionLabels(T, 'q');
  const where = first.site.user ? `${basename(first.site.user.path)}:${first.site.user.line}` : msg(MODEL_TEXT.recordedCall, first.id);
  const recordedCalls = msg(
    nLayer === 1 ? MODEL_TEXT.recordedCalls1 : MODEL_TEXT.recordedCallsN,
    nLayer,
    first.kind,
    trace.program.target,
    opts.batch,
    batchSize,
  );
  const torch = msg(MODEL_TEXT.recordedTorch, trace.program.torch);
  const run: RunResult = {
    runId: opts.runId,
    model: {
      family: 'attention-layer',
      ...describedAs(
        msg(MODEL_TEXT.recordedName, first.module ?? first.kind, where),
        square ? concat(recordedCalls, torch) : concat(recordedCalls, msg(T === 1 ? MODEL_TEXT.recordedShape1 : MODEL_TEXT.recordedShapeN, T, S), torch),
      ),
      nLayer,
      nHead,
      dModel: 0,
      headDim: firstLayer.heads[0]?.q?.shape[1] ?? 0,
      causal: false,
      tokenizer: 'words',
    },
    tokens: keys,
    ...(queries ? { queryTokens: queries } : {}),
    recorded: {
      batch: opts.batch,
      batchSize,
      callIds: shown.map((c) => c.id),
      stepSources: shown.map((c) => stepSources(trace, c)),
    },
    nLayer,
    nHead,
    seqLen: S,
    causal: false,
    thumbnails: square ? squareThumbnails(all, nLayer * nHead, T) : rectThumbnails(all, nLayer * nHead, T, S),
    headEntropy: rowEntropies(all, nLayer * nHead, T, S),
    attentions: all.length <= MAX_SENT_WEIGHTS ? all : undefined,
    elapsedMs: trace.program.durationMs ?? 0,
  };
  return { run, heads: usable.map((l) => l.heads), callIds: run.recorded?.callIds ?? [] };
}

function squareThumbnails(all: Float32Array, count: number, T: number): RunResult['thumbnails'] {
  const size = Math.min(T, THUMBNAIL_SIZE);
  return { size, data: thumbnails(all, count, T, size) };
}

/**
 * Thumbnails (size × size, size = min(max(T, S), 64)) of (T, S) heads: cell (a, b) is the mean of the weights
 * of the queries and keys it covers; an axis shorter than `size` is stretched (its positions repeat).
 */
export function rectThumbnails(all: Float32Array, count: number, T: number, S: number): RunResult['thumbnails'] {
  const size = Math.min(Math.max(T, S), THUMBNAIL_SIZE);
  return { size, data: stretchedMeans(all, count, T, S, size) };
}

/** Mean row entropy (nats) of each (T, S) head; NaN rows are skipped. */
function rowEntropies(all: Float32Array, count: number, T: number, S: number): Float32Array {
  const out = new Float32Array(count);
  for (let h = 0; h < count; h++) {
    const acc = new RowEntropyAccumulator(S);
    acc.add(all, T, h * T * S);
    out[h] = acc.mean;
  }
  return out;
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

function headOf(rec: RecordedRun, layer: number, head: number): RecordedHead {
  const h = rec.heads[layer]?.[head];
  if (!h) throw new Error(`layer ${layer} head ${head} is not in the recorded run (${rec.run.nLayer} × ${rec.run.nHead})`);
  return h;
}

/** A head's weights, rows [rowStart, rowEnd) of its T queries over S keys, optionally block-averaged (as the
 * engine session answers). */
export function recordedAttention(rec: RecordedRun, req: AttentionRequest): AttentionResult {
  const S = rec.run.seqLen;
  const T = rec.run.queryTokens?.length ?? S;
  const { weights } = headOf(rec, req.layer, req.head);
  const r0 = req.rowStart ?? 0;
  const r1 = req.rowEnd ?? T;
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 < r1 && r1 <= T)) throw new Error(`rows ${r0}..${r1} are outside 0..${T}`);
  const R = r1 - r0;
  const block = req.downsample === undefined ? 1 : blockFor(R, S, req.downsample);
  const meta = { seqLen: S, rowStart: r0, rowEnd: r1, block };
  if (block === 1) return { data: weights.slice(r0 * S, r1 * S), rows: R, cols: S, ...meta };
  if (T === S) {
    const averager = new BlockAverager(r0, r1, T, block);
    averager.add(weights.subarray(r0 * T, r1 * T), r0, R);
    return { data: averager.result(), rows: averager.rows, cols: averager.cols, ...meta };
  }
  // (R, S) in (block, block) blocks → (⌈R/block⌉, ⌈S/block⌉)
  return { data: blockMeansOfRows(weights, r0, r1, S, block, block), rows: Math.ceil(R / block), cols: Math.ceil(S / block), ...meta };
}

/**
 * The step-through debugger on a head's captured q, k, v, with the call's own mask added to the switches; for a
 * hand-written call, the user's own tensor at each step beside the reference (`own`).
 */
export function recordedTrace(rec: RecordedRun, req: TraceRequest): RecordedAttentionTrace {
  const h = headOf(rec, req.layer, req.head);
  if (!h.q || !h.k || !h.v)
    throw new Error(
      'the debugger needs the per-head q, k and v, which this call did not capture (nn.MultiheadAttention records its inputs before the projections)',
    );
  const own: MaskChoice[] = h.allowed ? [{ kind: 'explicit', mask: h.allowed, trueMeans: 'attend' }] : [];
  const chosen = req.options.mask === undefined ? [] : Array.isArray(req.options.mask) ? req.options.mask : [req.options.mask as MaskChoice];
  const options: TraceOptions = { ...req.options, mask: [...own, ...chosen] };
  const trace = traceAttention(h.q, h.k, h.v, options);
  return h.own ? { ...trace, own: compareOwnSteps(h.own(), trace) } : trace;
}
