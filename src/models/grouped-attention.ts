// One decoder layer's attention over all heads, with what today's families add to SDPA: grouped kv heads,
// a soft-cap on the scaled scores, sliding windows. Per query head h (kv head g = kvHeads[h]):
//   P_h = softmax(mask(softcap(scale · q_h·k_gᵀ)))    (T, T), computed a block of query rows at a time
//   context_h = P_h · v_g                              (T, hd)
// Short runs keep every P_h ((H, T, T), the weights HF returns); long ones keep none, and each block of
// rows lives only while its context rows are computed: memory O(rows · T), whatever T is. Pure.
import { type Tensor, getKernel, select } from '../engine';
import { blockRows } from './head-stream';
import { headRows } from './lazy-attention';
import type { MaskSpec } from './types';

export interface GroupedAttentionOptions {
  mask: MaskSpec;
  scale: number;
  softcap?: number;
  /** (H,): the kv head of each query head. */
  kvHeads: readonly number[];
  /** Keep (H, T, T) probabilities. */
  materialise: boolean;
  /** Awaited between heads. */
  checkpoint?: () => Promise<void>;
}

/**
 * q (H, T, hd), k and v (H_kv, T, hd) → context (H, T, hd) and, when materialised, probs (H, T, T).
 */
export async function groupedAttention(q: Tensor, k: Tensor, v: Tensor, opts: GroupedAttentionOptions): Promise<{ context: Tensor; probs?: Tensor }> {
  const [H, T, hd] = q.shape;
  const [Hkv, S, hdv] = v.shape;
  if (k.shape[0] !== Hkv || k.shape[1] !== T || k.shape[2] !== hd || S !== T || opts.kvHeads.length !== H) {
    throw new Error(
      `grouped attention: q [${q.shape.join(', ')}], k [${k.shape.join(', ')}], v [${v.shape.join(', ')}] and ${opts.kvHeads.length} kv head indices do not fit together`,
    );
  }
  const context = new Float32Array(H * T * hdv); // (H, T, hdv)
  const probs = opts.materialise ? new Float32Array(H * T * T) : undefined; // (H, T, T)
  const rowsPerBlock = opts.materialise ? T : Math.min(T, blockRows(T));
  const scratch = probs ? undefined : new Float32Array(rowsPerBlock * T); // (rows, T), reused
  const kernel = getKernel();
  for (let h = 0; h < H; h++) {
    await opts.checkpoint?.();
    const g = opts.kvHeads[h];
    const qh = select(q, 0, h); // (T, hd) view
    const kh = select(k, 0, g);
    for (let r0 = 0; r0 < T; r0 += rowsPerBlock) {
      const r1 = Math.min(T, r0 + rowsPerBlock);
      const target = probs ? probs.subarray((h * T + r0) * T, (h * T + r1) * T) : scratch!;
      const p = headRows(qh, kh, opts.mask, opts.scale, r0, r1, target, opts.softcap); // (R, T)
      // (R, T) · v_g (T, hdv) → context rows r0..r1 of head h
      kernel.gemm({
        m: r1 - r0,
        n: hdv,
        k: T,
        a: p,
        aOff: 0,
        lda: T,
        b: v.data,
        bOff: g * T * hdv,
        ldb: hdv,
        transB: false,
        c: context,
        cOff: (h * T + r0) * hdv,
        ldc: hdv,
      });
    }
  }
  return { context: { data: context, shape: [H, T, hdv] }, ...(probs ? { probs: { data: probs, shape: [H, T, T] } } : {}) };
}
