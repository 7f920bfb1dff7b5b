// Summaries of attention heads computed from blocks of query rows, so that a long run never holds a whole
// (T, T) head: per-head thumbnails (area means), mean row entropy, and block-averaged views of one head.
// Each accumulator takes rows in order, a block at a time; the same code serves materialised weights (one
// block = the whole head). Pure.
import { entropyNats } from '../engine';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg, type MessageParts } from '../protocol/message';

/** Most bytes of weights one streamed block holds: (rows, T) float32. */
export const STREAM_BLOCK_BYTES = 16 * 1024 * 1024;

/** Query rows per block so that (rows, T) float32 stays within maxBytes (at least one row). */
export function blockRows(T: number, maxBytes = STREAM_BLOCK_BYTES): number {
  return Math.max(1, Math.floor(maxBytes / (4 * T)));
}

/** The thumbnail band of each of T positions: floor(i · size / T), capped at size − 1. */
export function thumbnailBands(T: number, size: number): Uint32Array {
  const out = new Uint32Array(T);
  for (let i = 0; i < T; i++) out[i] = Math.min(size - 1, Math.floor((i * size) / T));
  return out;
}

/**
 * One head's (size, size) thumbnail: cell (a, b) is the mean of the weights whose query falls in band a and
 * key in band b (bands by thumbnailBands). Rows are added in order, any number at a time.
 */
export class ThumbnailAccumulator {
  private readonly sums: Float64Array;
  private readonly bands: Uint32Array;
  private readonly bandCount: Float64Array;
  /** Column band b covers keys bandStart[b] .. bandStart[b + 1] − 1 (bands are runs of consecutive keys). */
  private readonly bandStart: Uint32Array;

  constructor(
    private readonly T: number,
    readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1 || size > T) throw new Error(`thumbnail size must be an integer in 1..${T}, got ${size}`);
    this.sums = new Float64Array(size * size);
    this.bands = thumbnailBands(T, size);
    this.bandCount = new Float64Array(size);
    this.bandStart = new Uint32Array(size + 1);
    for (let i = 0; i < T; i++) this.bandCount[this.bands[i]]++;
    for (let b = 0; b < size; b++) this.bandStart[b + 1] = this.bandStart[b] + this.bandCount[b];
  }

  /** Adds query rows rowStart .. rowStart+count of the head: `rows` (count, T) from offset `off`. */
  add(rows: ArrayLike<number>, rowStart: number, count: number, off = 0): void {
    const { T, size, sums, bands, bandStart } = this;
    for (let r = 0; r < count; r++) {
      const base = bands[rowStart + r] * size;
      const src = off + r * T;
      for (let b = 0; b < size; b++) {
        let s = 0;
        for (let j = src + bandStart[b], end = src + bandStart[b + 1]; j < end; j++) s += rows[j];
        sums[base + b] += s;
      }
    }
  }

  /** The means, (size, size), written into `out` at `outOff`. */
  writeTo(out: Float32Array, outOff = 0): void {
    const { size, sums, bandCount } = this;
    for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) out[outOff + a * size + b] = sums[a * size + b] / (bandCount[a] * bandCount[b]);
  }
}

/** The mean over query rows of each row's entropy in nats; NaN rows are skipped (NaN when all are). */
export class RowEntropyAccumulator {
  private sum = 0;
  private n = 0;

  constructor(private readonly T: number) {}

  add(rows: ArrayLike<number>, count: number, off = 0): void {
    for (let r = 0; r < count; r++) {
      const start = off + r * this.T;
      const e = entropyNats(rows, start, start + this.T);
      if (Number.isFinite(e)) {
        this.sum += e;
        this.n++;
      }
    }
  }

  get mean(): number {
    return this.n ? this.sum / this.n : NaN;
  }
}

/**
 * Block means of query rows [rowStart, rowEnd) of a head over all T keys: cell (a, b) is the mean of the
 * weights of queries rowStart + a·block … and keys b·block …, each range clipped at its end. Rows are
 * added in order.
 */
export class BlockAverager {
  readonly rows: number;
  readonly cols: number;
  private readonly sums: Float64Array;

  constructor(
    private readonly rowStart: number,
    private readonly rowEnd: number,
    private readonly T: number,
    readonly block: number,
  ) {
    if (!Number.isInteger(block) || block < 1) throw new Error(`block must be a positive integer, got ${block}`);
    this.rows = Math.ceil((rowEnd - rowStart) / block);
    this.cols = Math.ceil(T / block);
    this.sums = new Float64Array(this.rows * this.cols);
  }

  /** Adds query rows at .. at+count (absolute indices): `weights` (count, T) from offset `off`. */
  add(weights: ArrayLike<number>, at: number, count: number, off = 0): void {
    const { T, block, cols, sums } = this;
    for (let r = 0; r < count; r++) {
      const base = Math.floor((at + r - this.rowStart) / block) * cols;
      const src = off + r * T;
      for (let b = 0, j = 0; b < cols; b++) {
        const end = Math.min(T, j + block);
        let s = 0;
        for (; j < end; j++) s += weights[src + j];
        sums[base + b] += s;
      }
    }
  }

  /** The means, (rows, cols). */
  result(): Float32Array {
    const { rows, cols, block, T, sums } = this;
    const out = new Float32Array(rows * cols);
    const span = (start: number, end: number) => Math.min(end, start + block) - start;
    for (let a = 0; a < rows; a++) {
      const nr = span(this.rowStart + a * block, this.rowEnd);
      for (let b = 0; b < cols; b++) out[a * cols + b] = sums[a * cols + b] / (nr * span(b * block, T));
    }
    return out;
  }
}

/** The square block side that shows R × T weights in at most `maxSide` cells per side (1 = no averaging). */
export function blockFor(R: number, T: number, maxSide: number): number {
  if (!Number.isInteger(maxSide) || maxSide < 1) throw new Error(`downsample must be a positive integer, got ${maxSide}`);
  return Math.max(1, Math.ceil(Math.max(R, T) / maxSide));
}

export interface StreamOptions {
  /** Bytes per block of rows (default STREAM_BLOCK_BYTES). */
  blockBytes?: number;
  /** Awaited after every block: yields, and throws when cancelled. */
  checkpoint?: () => Promise<void>;
  /** Called after every block with the share of the work done. */
  progress?: (fraction: number, message: MessageParts) => void;
}

/** Where the weights of one head come from, rows [r0, r1) at a time: (r1 − r0, T), written into `out` when it can. */
export type HeadRowSource = (layer: number, head: number, r0: number, r1: number, out: Float32Array) => Float32Array;

/**
 * Thumbnails (count, size, size) and mean row entropies (count,) of nLayer × nHead heads, computed block
 * by block from `rowsOf` into one reused buffer of blockBytes.
 */
export async function streamHeadSummaries(
  rowsOf: HeadRowSource,
  nLayer: number,
  nHead: number,
  T: number,
  size: number,
  opts: StreamOptions = {},
): Promise<{ thumbnails: Float32Array; headEntropy: Float32Array }> {
  const count = nLayer * nHead;
  const thumbs = new Float32Array(count * size * size);
  const entropy = new Float32Array(count);
  const R = blockRows(T, opts.blockBytes);
  const blocksPerHead = Math.ceil(T / R);
  const scratch = new Float32Array(Math.min(R, T) * T); // one block of weights, reused
  let done = 0;
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      const thumb = new ThumbnailAccumulator(T, size);
      const ent = new RowEntropyAccumulator(T);
      for (let r0 = 0; r0 < T; r0 += R) {
        const r1 = Math.min(T, r0 + R);
        const rows = rowsOf(l, h, r0, r1, scratch); // (r1 − r0, T)
        thumb.add(rows, r0, r1 - r0);
        ent.add(rows, r1 - r0);
        done++;
        opts.progress?.(done / (count * blocksPerHead), msg(ENGINE_PROGRESS.summarising, l, h));
        await opts.checkpoint?.();
      }
      const i = l * nHead + h;
      thumb.writeTo(thumbs, i * size * size);
      entropy[i] = ent.mean;
    }
  }
  return { thumbnails: thumbs, headEntropy: entropy };
}
