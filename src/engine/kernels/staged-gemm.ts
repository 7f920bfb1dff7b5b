// The blocked matrix product over operands already staged in the SIMD module's memory, for any rectangle of C.
// The engine thread runs it for the whole of C (single thread), or the engine thread and the helper thread
// (./parallel-helper.ts) run it for chunks of C (bands of rows or columns), on the same shared memory, each
// with its own packing scratch.
//
// Memory layout (bytes): scratch region 0 | scratch region 1 (two threads) | A | B | C, where a scratch
// region is a packed B block (KC x NC floats) and a packed A block (MC x KC floats).
//
// Every element of C gets the same arithmetic whichever rectangle it is computed in: the same k blocks in the
// same order, each summed in a register from zero (f32x4 lanes are independent), scaled by alpha and added to
// C. Splitting C along rows or columns therefore gives results identical bit for bit to the whole product.
import { BLOCKING, MR, NR, type SimdFunctions } from './simd-module';

const roundUp = (x: number, multiple: number): number => Math.ceil(x / multiple) * multiple;
/** Byte offsets are kept 64-byte aligned (one cache line). */
export const align64 = (bytes: number): number => roundUp(bytes, 64);

/** Byte addresses of one thread's packing buffers. */
export interface Scratch {
  /** Packed B block: KC x NC floats. */
  pb: number;
  /** Packed A block: MC x KC floats. */
  pa: number;
}

const PACKED_B_BYTES = align64(BLOCKING.nc * BLOCKING.kc * 4);
const PACKED_A_BYTES = align64(BLOCKING.mc * BLOCKING.kc * 4);
/** Bytes of one scratch region. */
export const SCRATCH_BYTES = PACKED_B_BYTES + PACKED_A_BYTES;

/** The scratch region of thread `t` (0 = the engine thread, 1 = the helper). */
export function scratchRegion(t: number): Scratch {
  const pb = t * SCRATCH_BYTES;
  return { pb, pa: pb + PACKED_B_BYTES };
}

/** A product staged in the module's memory (byte addresses), ready to multiply. */
export interface StagedGemm {
  m: number;
  n: number;
  k: number;
  transB: boolean;
  alpha: number;
  /** Add to the staged C (beta = 1) instead of overwriting it. */
  accumulate: boolean;
  /** Pack each block of A in 4-row panels first (else the micro-kernel reads the staged rows in place). */
  packA: boolean;
  /** A, k-block by k-block: block pc holds rows 0..mPad-1 of columns pc..pc+kc, kc floats apart, at aAt + 4*pc*mPad. */
  aAt: number;
  /** B: [k, n] row-major, or (transB) k-block by k-block like A, block pc = rows 0..n-1, kc floats apart. */
  bAt: number;
  /** C: mPad rows of ldc floats (ldc >= n rounded up to NR). */
  cAt: number;
  mPad: number;
  ldc: number;
  /**
   * When set: A already packed in 4-row panels for all its rows (block pc at packedA + 4*pc*mPad; see
   * prepackA), used instead of packing each block of A again.
   */
  packedA?: number;
  /**
   * When set: B already packed in 8-column panels for all its columns (block pc at packedB + 4*pc*nPad; see
   * prepackB), used instead of packing each block of B again.
   */
  packedB?: number;
}

/**
 * Leading dimension of the staged C for nPad columns. When rows would be a multiple of 1 KiB apart, the
 * micro-kernel's column strips of tiles (one row every 1 KiB) would all map to a few cache sets; 8 extra
 * floats (32 bytes) per row spread them over all sets.
 */
function stagedLd(nPad: number): number {
  return nPad % 256 === 0 ? nPad + 8 : nPad;
}

/** Where A, B and C of an m x n x k product go, after `base` bytes of scratch; `end` = bytes needed. */
export function stagedGemmLayout(
  m: number,
  n: number,
  k: number,
  base: number,
): { aAt: number; bAt: number; cAt: number; mPad: number; ldc: number; end: number } {
  const mPad = roundUp(m, MR);
  const ldc = stagedLd(roundUp(n, NR));
  const aAt = align64(base);
  const bAt = align64(aAt + mPad * k * 4);
  const cAt = align64(bAt + k * n * 4);
  return { aAt, bAt, cAt, mPad, ldc, end: cAt + mPad * ldc * 4 };
}

/**
 * C[i0:i1, j0:j1] of the staged product, packing into `scratch`. i0 must be a multiple of MR and j0 of NR
 * (so that two threads computing neighbouring rectangles never write the same tile of C).
 */
export function multiplyStaged(w: SimdFunctions, g: StagedGemm, scratch: Scratch, i0: number, i1: number, j0: number, j1: number): void {
  const { kc: KC, mc: MC, nc: NC } = BLOCKING;
  const { n, k, transB, mPad, alpha } = g;
  const nPad = roundUp(n, NR);
  const { pa } = scratch;
  for (let jc = j0; jc < j1; jc += NC) {
    const nc = Math.min(NC, j1 - jc);
    for (let pc = 0; pc < k; pc += KC) {
      const kc = Math.min(KC, k - pc);
      let pb = scratch.pb;
      if (g.packedB !== undefined) pb = g.packedB + 4 * (pc * nPad + jc * kc);
      else if (transB) w.packBT(g.bAt + 4 * (pc * n + jc * kc), kc, kc, nc, pb);
      else w.packB(g.bAt + 4 * (pc * n + jc), n, kc, nc, pb);
      const accumulate = g.accumulate || pc > 0 ? 1 : 0;
      for (let ic = i0; ic < i1; ic += MC) {
        const mc = Math.min(MC, i1 - ic);
        const cBlock = g.cAt + 4 * (ic * g.ldc + jc);
        if (g.packedA !== undefined) {
          w.macro(mc, nc, kc, g.packedA + 4 * (pc * mPad + ic * kc), kc, 1, pb, cBlock, g.ldc, alpha, accumulate);
        } else if (g.packA) {
          w.packA(g.aAt + 4 * (pc * mPad + ic * kc), kc, mc, kc, pa);
          w.macro(mc, nc, kc, pa, kc, 1, pb, cBlock, g.ldc, alpha, accumulate);
        } else {
          w.macro(mc, nc, kc, g.aAt + 4 * (pc * mPad + ic * kc), kc, 0, pb, cBlock, g.ldc, alpha, accumulate);
        }
      }
    }
  }
}

/** Bytes a fully packed A (prepackA) occupies: the same as the staged A. */
export function packedABytes(g: StagedGemm): number {
  return g.mPad * g.k * 4;
}

/** Bytes a fully packed B (prepackB) occupies: k rows of n rounded up to NR. */
export function packedBBytes(g: StagedGemm): number {
  return roundUp(g.n, NR) * g.k * 4;
}

/**
 * Packs all of the staged A, block by block of KC columns, in 4-row panels at `at` (block pc at at + 4*pc*mPad,
 * panel q of it kc*4 floats further per q): the layout multiplyStaged reads through `packedA`. Chunks of
 * columns then share one packing of A instead of each packing all of it.
 */
export function prepackA(w: SimdFunctions, g: StagedGemm, at: number): void {
  for (let pc = 0; pc < g.k; pc += BLOCKING.kc) {
    const kc = Math.min(BLOCKING.kc, g.k - pc);
    w.packA(g.aAt + 4 * pc * g.mPad, kc, g.mPad, kc, at + 4 * pc * g.mPad);
  }
}

/**
 * Packs all of the staged B, block by block of KC rows, in 8-column panels at `at` (block pc at
 * at + 4*pc*nPad, the panel of columns j..j+7 at j*kc floats further): the layout multiplyStaged reads through
 * `packedB`. Chunks of rows then share one packing of B instead of each packing all of it.
 */
export function prepackB(w: SimdFunctions, g: StagedGemm, at: number): void {
  const nPad = roundUp(g.n, NR);
  for (let pc = 0; pc < g.k; pc += BLOCKING.kc) {
    const kc = Math.min(BLOCKING.kc, g.k - pc);
    if (g.transB) w.packBT(g.bAt + 4 * pc * g.n, kc, kc, g.n, at + 4 * pc * nPad);
    else w.packB(g.bAt + 4 * pc * g.n, g.n, kc, g.n, at + 4 * pc * nPad);
  }
}

/** A rectangle of C: rows i0..i1, columns j0..j1. */
export interface Part {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

/** How a product is cut into chunks for two threads: bands of `size` rows or columns, `count` of them. */
export interface ChunkPlan {
  axis: 'rows' | 'cols';
  size: number;
  count: number;
}

/** Most chunks a product (or block of softmax rows) is cut into. */
export const MAX_CHUNKS = 8;

/**
 * Cuts C into between 2 and MAX_CHUNKS bands of about `chunkMulAdds` multiply-adds each, along the longer side
 * (rows when m >= n): with bands of rows every chunk packs all of B for its rows; with bands of columns every
 * chunk packs only its own columns of B (and, for wide products, its own panels of A), so the longer side
 * keeps the repeated packing small. Bands are whole tiles (MR rows, NR columns) so that two threads never
 * write the same tile. Null when C is under two tiles along both sides.
 */
export function planChunks(m: number, n: number, k: number, chunkMulAdds: number): ChunkPlan | null {
  const byRows = m >= n ? m >= 2 * MR : n < 2 * NR && m >= 2 * MR;
  const byCols = !byRows && n >= 2 * NR;
  if (!byRows && !byCols) return null;
  const length = byRows ? m : n;
  const tile = byRows ? MR : NR;
  const wanted = Math.min(MAX_CHUNKS, Math.max(2, Math.floor((m * n * k) / Math.max(1, chunkMulAdds))));
  const size = roundUp(Math.ceil(length / wanted), tile);
  return { axis: byRows ? 'rows' : 'cols', size, count: Math.ceil(length / size) };
}

/** The rectangle of C that chunk `index` of a plan covers. */
export function chunkPart(plan: ChunkPlan, index: number, m: number, n: number): Part {
  const from = index * plan.size;
  if (plan.axis === 'rows') return { i0: from, i1: Math.min(m, from + plan.size), j0: 0, j1: n };
  return { i0: 0, i1: m, j0: from, j1: Math.min(n, from + plan.size) };
}
