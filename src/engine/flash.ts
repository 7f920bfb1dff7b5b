// Tiled attention with an online softmax (FlashAttention's forward): for each block of query rows it
// walks the keys block by block, keeping per row a running max m and a running sum l of exp(s - m),
// and rescales the partial output whenever m grows. Memory is O(blockSize² + L·Ev) per batch element:
// the L×S weights are never materialised. Results equal scaledDotProductAttention's (fully masked rows
// give 0).
//
// attentionRows computes the probabilities of chosen query rows only ([..., R, S]), for a panel that
// draws a few rows of a long sequence.
import {
  type AttentionInputOptions,
  type BatchOffsets,
  type PreparedAttention,
  batchCount,
  forEachBatch,
  maskScoreBlock,
  prepareAttention,
  scoreBlock,
  weightedValues,
} from './attention-core';
import { getKernel } from './kernels';
import type { Tensor, TensorLike } from './tensor';

export interface FlashOptions extends AttentionInputOptions {
  /** Query rows and keys per tile (default DEFAULT_BLOCK_SIZE = 128). */
  blockSize?: number;
}

export interface FlashResult {
  /** [...batch, L, Ev] */
  out: Tensor;
  /** [...batch, L]: log Σ_j exp(score_ij) per row (the softmax normaliser); -inf for fully masked rows. */
  logsumexp: Tensor;
}

/** Tile side: 128×128 float32 scores = 64 KB of scratch; larger tiles gained little in measurements. */
export const DEFAULT_BLOCK_SIZE = 128;

/** scaledDotProductAttention's output, computed tile by tile without the L×S weight matrix. */
export function flashAttention(q: TensorLike, k: TensorLike, v: TensorLike, options: FlashOptions = {}): FlashResult {
  const fn = 'flashAttention';
  const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
  if (!Number.isInteger(blockSize) || blockSize <= 0) throw new Error(`${fn}: blockSize must be a positive integer, got ${String(blockSize)}`);
  return tiledAttention(prepareAttention(fn, q, k, v, options), blockSize);
}

/** The tiled output of an already prepared problem (SDPA and MHA take this path for large problems without weights). */
export function tiledAttention(p: PreparedAttention, blockSize = DEFAULT_BLOCK_SIZE): FlashResult {
  const { L, Ev } = p;
  const nb = batchCount(p);
  const out = new Float32Array(nb * L * Ev);
  const lse = new Float32Array(nb * L);
  const tile = new FlashTile(p, blockSize);
  forEachBatch(p, (b, offs) => {
    for (let i0 = 0; i0 < L; i0 += tile.br) {
      tile.run(offs, i0, Math.min(tile.br, L - i0), out, b * L * Ev, lse, b * L);
    }
  });
  return { out: { data: out, shape: [...p.batch, L, Ev] }, logsumexp: { data: lse, shape: [...p.batch, L] } };
}

/** Scratch buffers for one block of query rows, reused across blocks. */
class FlashTile {
  readonly br: number;
  readonly bc: number;
  private readonly scores: Float32Array; // (br, bc)
  private readonly m: Float64Array; // running max per row
  private readonly l: Float64Array; // running Σ exp(s - m) per row
  private readonly blockMax: Float64Array; // this tile's max per row ...
  private readonly blockArgmax: Int32Array; // ... and where it is
  private readonly rowIds: Int32Array;

  constructor(
    private readonly p: PreparedAttention,
    blockSize: number,
  ) {
    this.br = Math.min(blockSize, p.L);
    this.bc = Math.min(blockSize, p.S);
    this.scores = new Float32Array(this.br * this.bc);
    this.m = new Float64Array(this.br);
    this.l = new Float64Array(this.br);
    this.blockMax = new Float64Array(this.br);
    this.blockArgmax = new Int32Array(this.br);
    this.rowIds = new Int32Array(this.br);
  }

  /** Output rows i0 .. i0+rows of one batch element, written to out[outOff + i*Ev ...]. */
  run(offs: BatchOffsets, i0: number, rows: number, out: Float32Array, outOff: number, lse: Float32Array, lseOff: number): void {
    const { p, bc, scores, m, l } = this;
    const { S, Ev } = p;
    const rowIds = this.rowIds.subarray(0, rows);
    for (let r = 0; r < rows; r++) rowIds[r] = i0 + r;
    m.fill(-Infinity);
    l.fill(0);
    const acc = out.subarray(outOff + i0 * Ev, outOff + (i0 + rows) * Ev); // (rows, Ev), starts at 0
    // With a causal mask no row of this block sees keys past its last row's diagonal: skip those tiles.
    const keyEnd = p.causalShift === null ? S : Math.max(0, Math.min(S, i0 + rows + p.causalShift));
    const kernel = getKernel();
    for (let j0 = 0; j0 < keyEnd; j0 += bc) {
      const cols = Math.min(bc, S - j0);
      scoreBlock(p, offs, i0, rows, j0, cols, scores, 0, bc); // (rows, cols) = scale · q·kᵀ
      maskScoreBlock(p, offs.mask, rowIds, j0, cols, scores, 0, bc);
      this.findBlockMax(rows, cols);
      // The kernel's (SIMD) softmax does the exponentials: row r becomes exp(s - max_r) / Σ_r; a row with
      // nothing visible becomes 0.
      kernel.softmaxRows({ x: scores, off: 0, rows, cols, ld: bc, fullyMasked: 'zero' });
      for (let r = 0; r < rows; r++) this.updateRow(r, cols, acc);
      weightedValues(p, offs, scores, 0, bc, rows, j0, cols, acc, 0, true); // acc += P̃ · v_block
    }
    for (let r = 0; r < rows; r++) {
      const inv = l[r] > 0 ? 1 / l[r] : 0; // a row that saw no key stays 0 (SDPA's safe softmax)
      for (let c = 0; c < Ev; c++) acc[r * Ev + c] *= inv;
      if (Number.isNaN(l[r])) acc.fill(NaN, r * Ev, (r + 1) * Ev);
      lse[lseOff + i0 + r] = m[r] + Math.log(l[r]);
    }
  }

  private findBlockMax(rows: number, cols: number): void {
    const { scores, bc, blockMax, blockArgmax } = this;
    for (let r = 0; r < rows; r++) {
      let max = -Infinity;
      let arg = 0;
      for (let c = 0; c < cols; c++) {
        const x = scores[r * bc + c];
        if (x > max || x !== x) {
          max = x;
          arg = c;
          if (x !== x) break; // NaN: the whole row is NaN
        }
      }
      blockMax[r] = max;
      blockArgmax[r] = arg;
    }
  }

  /**
   * Online-softmax step for row r, whose tile entries hold exp(s - b) / Σ_b (b = the tile's row max).
   * Σ_b = 1 / (entry at the max), so the entries times Σ_b · exp(b - m') are exp(s - m') for the new
   * running max m'; the partial output and sum are rescaled by exp(m - m') when the max grows.
   */
  private updateRow(r: number, cols: number, acc: Float32Array): void {
    const { scores, bc, m, l } = this;
    const Ev = this.p.Ev;
    const s0 = r * bc;
    const b = this.blockMax[r];
    if (b === -Infinity) return; // nothing visible in this tile (the kernel wrote zeros)
    if (Number.isNaN(b) || Number.isNaN(m[r])) {
      m[r] = NaN;
      l[r] = NaN;
      return;
    }
    const blockSum = 1 / scores[s0 + this.blockArgmax[r]];
    const newMax = Math.max(m[r], b);
    if (m[r] !== -Infinity && newMax !== m[r]) {
      const correction = Math.exp(m[r] - newMax);
      l[r] *= correction;
      for (let c = 0; c < Ev; c++) acc[r * Ev + c] *= correction;
    }
    const factor = blockSum * Math.exp(b - newMax);
    for (let c = 0; c < cols; c++) scores[s0 + c] *= factor;
    l[r] += factor; // Σ_c of the rescaled entries (the kernel's row summed to 1)
    m[r] = newMax;
  }
}

export interface AttentionRowsOptions extends AttentionInputOptions {
  /** Query rows to compute (indices into L). */
  rows: readonly number[];
  /** What a row with no visible key becomes: 'zero' (SDPA, default) or 'nan'. */
  fullyMasked?: 'zero' | 'nan';
}

/**
 * softmax(scale · q·kᵀ + mask) for the chosen query rows only: [...batch, R, S], row r = query rows[r].
 * Memory is R×S per batch element, whatever L is.
 */
export function attentionRows(q: TensorLike, k: TensorLike, options: AttentionRowsOptions): Tensor {
  const fn = 'attentionRows';
  const p = prepareAttention(fn, q, k, null, options);
  const rows = options.rows;
  if (!Array.isArray(rows) && !ArrayBuffer.isView(rows)) throw new Error(`${fn}: rows must be an array of query indices`);
  for (const i of rows) {
    if (!Number.isInteger(i) || i < 0 || i >= p.L) throw new Error(`${fn}: row ${String(i)} is outside 0..${p.L - 1} (q has L = ${p.L})`);
  }
  const { S } = p;
  const R = rows.length;
  const nb = batchCount(p);
  const probs = new Float32Array(nb * R * S);
  const kernel = getKernel();
  const one = new Int32Array(1);
  forEachBatch(p, (b, offs) => {
    const base = b * R * S;
    for (let r = 0; r < R; r++) {
      one[0] = rows[r];
      scoreBlock(p, offs, rows[r], 1, 0, S, probs, base + r * S, S); // (1, S)
      maskScoreBlock(p, offs.mask, one, 0, S, probs, base + r * S, S);
    }
    kernel.softmaxRows({ x: probs, off: base, rows: R, cols: S, ld: S, fullyMasked: options.fullyMasked ?? 'zero' });
  });
  return { data: probs, shape: [...p.batch, R, S] };
}
