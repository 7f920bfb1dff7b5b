// The data the host sends, made dependable. Webview messages are serialised: typed arrays arrive as typed
// arrays (VS Code transfers buffers), but NaN and ±Infinity inside plain number arrays arrive as null
// (JSON). These helpers turn whatever arrived into the shapes the views use, and slice one head out of a
// run. Pure.
import type { AttentionTrace } from '../src/engine/trace';
import type { AttentionResult, RunResult, TokenInfo } from '../src/protocol/engine';

/** A Float32Array from a typed array, an ArrayBuffer, or a plain array (null → NaN). */
export function toF32(v: unknown, what: string): Float32Array {
  if (v instanceof Float32Array) return v;
  if (v instanceof ArrayBuffer) return new Float32Array(v);
  if (ArrayBuffer.isView(v)) return Float32Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return Float32Array.from(v, (x) => (typeof x === 'number' ? x : NaN));
  if (typeof v === 'object' && v !== null) {
    // A typed array that went through JSON.stringify becomes {"0": x, "1": y, ...}.
    const o = v as Record<string, unknown>;
    const n = Object.keys(o).length;
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const x = o[i];
      out[i] = typeof x === 'number' ? x : NaN;
    }
    return out;
  }
  throw new Error(`${what}: expected numbers, got ${v === null ? 'null' : typeof v}`);
}

/** Plain numbers (null → NaN). */
export function toNumbers(v: unknown): number[] {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'number' ? x : NaN));
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  return [];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

/** Checks a run's sizes against its arrays; throws an Error naming what does not fit. */
export function normaliseRun(raw: RunResult): RunResult {
  const { nLayer, nHead, seqLen } = raw;
  for (const [k, v] of [
    ['nLayer', nLayer],
    ['nHead', nHead],
    ['seqLen', seqLen],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`run.${k} must be a positive integer, got ${String(v)}`);
  }
  if (!Array.isArray(raw.tokens) || raw.tokens.length !== seqLen) throw new Error(`run has ${raw.tokens?.length} tokens but seqLen ${seqLen}`);
  const size = raw.thumbnails?.size;
  if (!Number.isInteger(size) || size < 1) throw new Error(`run.thumbnails.size must be a positive integer, got ${String(size)}`);
  const thumbs = toF32(raw.thumbnails.data, 'run.thumbnails.data');
  if (thumbs.length !== nLayer * nHead * size * size)
    throw new Error(`run.thumbnails.data holds ${thumbs.length} values, expected ${nLayer}·${nHead}·${size}²`);
  if (raw.queryTokens !== undefined && raw.queryTokens !== null && (!Array.isArray(raw.queryTokens) || raw.queryTokens.length < 1))
    throw new Error('run.queryTokens must be a non-empty list of tokens');
  const queries = raw.queryTokens ? raw.queryTokens.length : seqLen;
  const attentions = raw.attentions === undefined || raw.attentions === null ? undefined : toF32(raw.attentions, 'run.attentions');
  if (attentions && attentions.length !== nLayer * nHead * queries * seqLen) {
    throw new Error(
      `run.attentions holds ${attentions.length} values, expected ${nLayer}·${nHead}·${queries === seqLen ? `${seqLen}²` : `${queries}·${seqLen}`}`,
    );
  }
  const plain = (list: TokenInfo[]): TokenInfo[] =>
    list.map((t) => ({
      ...t,
      text: String(t.text ?? ''),
      display: String(t.display ?? t.text ?? ''),
    }));
  const recorded = raw.recorded;
  if (
    recorded !== undefined &&
    recorded !== null &&
    !(Number.isInteger(recorded.batch) && Number.isInteger(recorded.batchSize) && recorded.batch >= 0 && recorded.batch < recorded.batchSize)
  ) {
    throw new Error(`run.recorded shows batch element ${String(recorded.batch)} of ${String(recorded.batchSize)}`);
  }
  return {
    ...raw,
    tokens: plain(raw.tokens),
    ...(raw.queryTokens ? { queryTokens: plain(raw.queryTokens) } : {}),
    // Runs from an older host carry no `causal`: the model's own flag is then the best answer.
    causal: typeof raw.causal === 'boolean' ? raw.causal : raw.model?.causal === true,
    thumbnails: { size, data: thumbs },
    headEntropy: toF32(raw.headEntropy ?? [], 'run.headEntropy'),
    attentions,
  };
}

/** The queries' tokens: the keys' (`tokens`) unless the run has other queries (T ≠ S, a recorded KV-cache step). */
export function queryTokensOf(run: RunResult): TokenInfo[] {
  return run.queryTokens ?? run.tokens;
}

/** One head's (T, S) weights from a run that carries them all; undefined when it does not. */
export function headFromRun(run: RunResult, layer: number, head: number): Float32Array | undefined {
  if (!run.attentions) return undefined;
  const n = queryTokensOf(run).length * run.seqLen;
  const off = (layer * run.nHead + head) * n;
  return run.attentions.subarray(off, off + n);
}

/** One head's thumbnail (size, size). */
export function thumbnailOf(run: RunResult, layer: number, head: number): Float32Array {
  const s = run.thumbnails.size;
  const off = (layer * run.nHead + head) * s * s;
  return run.thumbnails.data.subarray(off, off + s * s);
}

/**
 * One head's weights as the panel draws them: (rows, cols) values for query rows [rowStart, rowEnd); with
 * block > 1 each cell is the mean of a block × block square (see AttentionRequest).
 */
export interface HeadMatrix {
  values: Float32Array;
  rows: number;
  cols: number;
  rowStart: number;
  rowEnd: number;
  block: number;
}

/** The whole (T, S) head as a HeadMatrix (S = T unless the run has other queries than keys). */
export function fullHead(values: Float32Array, T: number, S = T): HeadMatrix {
  return { values, rows: T, cols: S, rowStart: 0, rowEnd: T, block: 1 };
}

/** Checks an `attention` answer against the run's T queries and S keys (S = T by default) and its own sizes;
 * throws naming what does not fit. */
export function normaliseAttention(raw: AttentionResult, queries: number, seqLen = queries): HeadMatrix {
  const data = toF32(raw.data, 'attention.data');
  // Answers without the view fields (an older host) are whole heads.
  const rowStart = raw.rowStart ?? 0;
  const rowEnd = raw.rowEnd ?? queries;
  const block = raw.block ?? 1;
  for (const [k, v] of [
    ['rowStart', rowStart],
    ['rowEnd', rowEnd],
    ['block', block],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`attention.${k} must be a non-negative integer, got ${String(v)}`);
  }
  if (rowStart >= rowEnd || rowEnd > queries || block < 1)
    throw new Error(`attention covers rows ${rowStart}..${rowEnd} in blocks of ${block}, which does not fit ${queries} tokens`);
  const rows = Math.ceil((rowEnd - rowStart) / block);
  const cols = Math.ceil(seqLen / block);
  if ((raw.rows !== undefined && raw.rows !== rows) || (raw.cols !== undefined && raw.cols !== cols)) {
    throw new Error(`attention is ${raw.rows}×${raw.cols}, expected ${rows}×${cols} for rows ${rowStart}..${rowEnd} in blocks of ${block}`);
  }
  if (data.length !== rows * cols) {
    throw new Error(
      block === 1 && rows === seqLen && cols === seqLen
        ? `attention.data holds ${data.length} values, expected ${seqLen}²`
        : `attention.data holds ${data.length} values, expected ${rows}×${cols}`,
    );
  }
  return { values: data, rows, cols, rowStart, rowEnd, block };
}

/** A trace as the views use it: typed tensors, NaN restored in the per-row statistics. */
export function normaliseTrace(raw: AttentionTrace): AttentionTrace {
  const t = (x: { data: unknown; shape: number[] }, what: string) => {
    const data = toF32(x.data, what);
    const n = x.shape.reduce((a, b) => a * b, 1);
    if (data.length !== n) throw new Error(`${what} holds ${data.length} values for shape (${x.shape.join(', ')})`);
    return { data, shape: [...x.shape] };
  };
  const s = raw.stats;
  const o = s.overall;
  return {
    ...raw,
    scale: num(raw.scale),
    effectiveScale: num(raw.effectiveScale),
    scores: t(raw.scores, 'trace.scores'),
    scaled: t(raw.scaled, 'trace.scaled'),
    bias: t(raw.bias, 'trace.bias'),
    masked: t(raw.masked, 'trace.masked'),
    probs: t(raw.probs, 'trace.probs'),
    output: t(raw.output, 'trace.output'),
    allowed: { ...raw.allowed, data: raw.allowed.data instanceof Uint8Array ? raw.allowed.data : Uint8Array.from(toNumbers(raw.allowed.data)) },
    stats: {
      ...s,
      rowSums: toNumbers(s.rowSums),
      colSums: toNumbers(s.colSums),
      visibleKeys: toNumbers(s.visibleKeys),
      lnVisible: toNumbers(s.lnVisible),
      entropy: toNumbers(s.entropy),
      maxWeight: toNumbers(s.maxWeight),
      argmax: toNumbers(s.argmax),
      rawMean: toNumbers(s.rawMean),
      rawVariance: toNumbers(s.rawVariance),
      scaledMean: toNumbers(s.scaledMean),
      scaledVariance: toNumbers(s.scaledVariance),
      paddingWeight: toNumbers(s.paddingWeight),
      futureWeight: toNumbers(s.futureWeight),
      overall: {
        dk: num(o.dk),
        rawMean: num(o.rawMean),
        rawVariance: num(o.rawVariance),
        scaledMean: num(o.scaledMean),
        scaledVariance: num(o.scaledVariance),
        rawVarianceOverDk: num(o.rawVarianceOverDk),
      },
    },
    warnings: Array.isArray(raw.warnings) ? raw.warnings : [],
  };
}

/** A least-recently-used cache of per-head weights, bounded in bytes (`sizeOf` measures an entry). */
export class HeadCache<V = Float32Array> {
  private readonly map = new Map<string, V>();
  private bytes = 0;
  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly sizeOf: (v: V) => number = (v) => (v as unknown as ArrayBufferView).byteLength,
  ) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, v: V): void {
    if (this.map.has(key)) this.bytes -= this.sizeOf(this.map.get(key)!);
    this.map.delete(key);
    this.map.set(key, v);
    this.bytes += this.sizeOf(v);
    for (const [k, old] of this.map) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.map.delete(k);
      this.bytes -= this.sizeOf(old);
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.map.size;
  }
}
