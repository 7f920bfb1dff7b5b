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
  for (const [k, v] of [['nLayer', nLayer], ['nHead', nHead], ['seqLen', seqLen]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`run.${k} must be a positive integer, got ${String(v)}`);
  }
  if (!Array.isArray(raw.tokens) || raw.tokens.length !== seqLen) throw new Error(`run has ${raw.tokens?.length} tokens but seqLen ${seqLen}`);
  const size = raw.thumbnails?.size;
  if (!Number.isInteger(size) || size < 1) throw new Error(`run.thumbnails.size must be a positive integer, got ${String(size)}`);
  const thumbs = toF32(raw.thumbnails.data, 'run.thumbnails.data');
  if (thumbs.length !== nLayer * nHead * size * size) throw new Error(`run.thumbnails.data holds ${thumbs.length} values, expected ${nLayer}·${nHead}·${size}²`);
  const attentions = raw.attentions === undefined || raw.attentions === null ? undefined : toF32(raw.attentions, 'run.attentions');
  if (attentions && attentions.length !== nLayer * nHead * seqLen * seqLen) {
    throw new Error(`run.attentions holds ${attentions.length} values, expected ${nLayer}·${nHead}·${seqLen}²`);
  }
  const tokens: TokenInfo[] = raw.tokens.map((t) => ({
    ...t,
    text: String(t.text ?? ''),
    display: String(t.display ?? t.text ?? ''),
  }));
  return {
    ...raw,
    tokens,
    thumbnails: { size, data: thumbs },
    headEntropy: toF32(raw.headEntropy ?? [], 'run.headEntropy'),
    attentions,
  };
}

/** One head's (T, T) weights from a run that carries them all; undefined when it does not. */
export function headFromRun(run: RunResult, layer: number, head: number): Float32Array | undefined {
  if (!run.attentions) return undefined;
  const T = run.seqLen;
  const off = (layer * run.nHead + head) * T * T;
  return run.attentions.subarray(off, off + T * T);
}

/** One head's thumbnail (size, size). */
export function thumbnailOf(run: RunResult, layer: number, head: number): Float32Array {
  const s = run.thumbnails.size;
  const off = (layer * run.nHead + head) * s * s;
  return run.thumbnails.data.subarray(off, off + s * s);
}

export function normaliseAttention(raw: AttentionResult, seqLen: number): Float32Array {
  const data = toF32(raw.data, 'attention.data');
  if (data.length !== seqLen * seqLen) throw new Error(`attention.data holds ${data.length} values, expected ${seqLen}²`);
  return data;
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

/**
 * Whether a run's first head looks causal: every thumbnail cell strictly above the diagonal is zero.
 * (Thumbnail bands are monotone, so a cell above the diagonal only covers keys after its queries.)
 */
export function looksCausal(run: RunResult): boolean {
  if (run.model.causal) return true;
  if (run.seqLen < 2) return false;
  const s = run.thumbnails.size;
  if (s < 2) return false;
  const th = thumbnailOf(run, 0, 0);
  for (let a = 0; a < s; a++) for (let b = a + 1; b < s; b++) if (th[a * s + b] !== 0) return false;
  return true;
}

/** A least-recently-used cache of per-head weights, bounded in bytes. */
export class HeadCache {
  private readonly map = new Map<string, Float32Array>();
  private bytes = 0;
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string): Float32Array | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, v: Float32Array): void {
    if (this.map.has(key)) this.bytes -= this.map.get(key)!.byteLength;
    this.map.delete(key);
    this.map.set(key, v);
    this.bytes += v.byteLength;
    for (const [k, old] of this.map) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.map.delete(k);
      this.bytes -= old.byteLength;
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
