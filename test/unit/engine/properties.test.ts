// Randomised agreement between the engine's independent paths: flashAttention vs SDPA vs attentionRows
// vs the per-head trace, over random shapes, masks (broadcast shapes included), causal flags and blocks.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { attentionRows, contiguous, flashAttention, scaledDotProductAttention, select, traceAttention, type BoolTensor } from '../../../src/engine';
import { assertClose } from '../helpers/fixtures';
import { randn } from './util';

const problem = fc.record({
  B: fc.integer({ min: 1, max: 2 }),
  H: fc.integer({ min: 1, max: 3 }),
  L: fc.integer({ min: 1, max: 9 }),
  S: fc.integer({ min: 1, max: 9 }),
  E: fc.integer({ min: 1, max: 6 }),
  Ev: fc.integer({ min: 1, max: 5 }),
  mask: fc.constantFrom('none', 'causal', 'LS', 'B1LS', 'BHLS', '1S'),
  blockSize: fc.integer({ min: 1, max: 10 }),
  seed: fc.integer({ min: 0, max: 1e6 }),
  density: fc.double({ min: 0, max: 1, noNaN: true }),
});

function maskOf(kind: string, B: number, H: number, L: number, S: number, seed: number, density: number): BoolTensor | undefined {
  const shape = { LS: [L, S], B1LS: [B, 1, L, S], BHLS: [B, H, L, S], '1S': [1, S] }[kind];
  if (!shape) return undefined;
  const u = randn([shape.reduce((p, d) => p * d, 1)], seed + 1);
  // Φ-ish threshold on normals: True (attend) with probability about `density`; some rows end fully masked.
  return { data: Uint8Array.from(u.data, (x) => (x < (density - 0.5) * 3 ? 1 : 0)), shape, dtype: 'bool' };
}

describe('properties: flash = SDPA = attentionRows = trace', () => {
  it('on random problems', () => {
    fc.assert(
      fc.property(problem, ({ B, H, L, S, E, Ev, mask, blockSize, seed, density }) => {
        const q = randn([B, H, L, E], seed);
        const k = randn([B, H, S, E], seed + 2);
        const v = randn([B, H, S, Ev], seed + 3);
        const attnMask = maskOf(mask, B, H, L, S, seed, density);
        const isCausal = mask === 'causal';
        const ref = scaledDotProductAttention(q, k, v, { attnMask, isCausal });
        assertClose(flashAttention(q, k, v, { attnMask, isCausal, blockSize }).out, ref.out, { label: 'flash' });
        const rows = [L - 1, 0];
        const picked = attentionRows(q, k, { attnMask, isCausal, rows });
        for (let bh = 0; bh < B * H; bh++)
          rows.forEach((i, r) =>
            assertClose(picked.data.subarray((bh * 2 + r) * S, (bh * 2 + r + 1) * S), ref.probs.data.subarray((bh * L + i) * S, (bh * L + i + 1) * S), {
              label: 'rows',
            }),
          );
        // One head through the trace.
        const b = B - 1;
        const h = H - 1;
        const head = (t: typeof q) => contiguous(select(select(t, 0, b), 0, h));
        let headMask: BoolTensor | undefined;
        if (attnMask) {
          const full = attnMask.shape.length === 4 ? attnMask : undefined;
          const off = full ? (full.shape[1] === 1 ? b : b * H + h) * L * S : 0;
          headMask = full ? { data: full.data.subarray(off, off + L * S), shape: [L, S], dtype: 'bool' } : attnMask;
        }
        const t = traceAttention(head(q), head(k), head(v), {
          mask: isCausal ? { kind: 'causal', align: 'top-left' } : headMask ? { kind: 'explicit', mask: headMask } : { kind: 'none' },
          fullyMaskedRows: 'zero',
        });
        const bh = b * H + h;
        assertClose(t.probs.data, ref.probs.data.subarray(bh * L * S, (bh + 1) * L * S), { label: 'trace probs' });
        assertClose(t.output.data, ref.out.data.subarray(bh * L * Ev, (bh + 1) * L * Ev), { label: 'trace out' });
        // SDPA rows sum to 1 or (fully masked) to 0.
        for (let r = 0; r < B * H * L; r++) {
          let s = 0;
          for (let j = 0; j < S; j++) s += ref.probs.data[r * S + j];
          assert.ok(Math.abs(s - 1) < 1e-5 || s === 0);
        }
      }),
      { numRuns: 150, seed: 20240601 },
    );
  });
});
