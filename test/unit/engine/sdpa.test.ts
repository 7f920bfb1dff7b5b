// Every case of sdpa.json through scaledDotProductAttention: out and probs within 1e-5 of torch.
import { strict as assert } from 'node:assert';
import { causalLowerRight, causalMask, scaledDotProductAttention } from '../../../src/engine';
import type { AnyTensor } from '../../../src/engine/tensor';
import { assertClose, loadFixture, toBool, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';

interface SdpaCase {
  name: string;
  params: { L: number; S: number; scale: number | null; is_causal: boolean; enable_gqa: boolean; mask_kind: string | null };
  inputs: { q: JsonTensor; k: JsonTensor; v: JsonTensor; attn_mask?: JsonTensor };
  expected: { out: JsonTensor; probs: JsonTensor };
  checks: { fully_masked_query_rows: number; fully_masked_row_indices_b_h_l?: number[][] };
}

const fixture = loadFixture<{ cases: SdpaCase[] }>('sdpa');

/** The case's inputs as engine tensors and SDPA options. */
export function sdpaInputs(c: SdpaCase) {
  return {
    q: toFloat(c.inputs.q),
    k: toFloat(c.inputs.k),
    v: toFloat(c.inputs.v),
    options: {
      attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
      isCausal: c.params.is_causal,
      scale: c.params.scale ?? undefined,
      enableGqa: c.params.enable_gqa,
    },
  };
}

describe('scaledDotProductAttention vs torch (sdpa.json)', () => {
  it('has the 17 documented cases', () => {
    assert.equal(fixture.cases.length, 17);
  });

  for (const c of fixture.cases) {
    it(`${c.name}: out and probs`, () => {
      const { q, k, v, options } = sdpaInputs(c);
      const { out, probs } = scaledDotProductAttention(q, k, v, options);
      assertClose(out, c.expected.out, { label: `${c.name} out` });
      assertClose(probs, c.expected.probs, { label: `${c.name} probs` });
    });
  }

  it('fully masked rows give 0 in out and probs (bool and float masks), not NaN', () => {
    for (const name of ['fully_masked_row_bool', 'fully_masked_row_float']) {
      const c = fixture.cases.find((x) => x.name === name)!;
      const { q, k, v, options } = sdpaInputs(c);
      const { out, probs } = scaledDotProductAttention(q, k, v, options);
      const [L, S, Ev] = [c.params.L, c.params.S, out.shape[out.shape.length - 1]];
      const H = q.shape[1];
      assert.ok(c.checks.fully_masked_query_rows > 0);
      for (const [b, h, l] of c.checks.fully_masked_row_indices_b_h_l!) {
        const row = (b * H + h) * L + l;
        assert.ok(
          probs.data.subarray(row * S, (row + 1) * S).every((x) => x === 0),
          `${name} probs row ${b},${h},${l}`,
        );
        assert.ok(
          out.data.subarray(row * Ev, (row + 1) * Ev).every((x) => x === 0),
          `${name} out row ${b},${h},${l}`,
        );
      }
    }
  });

  it('causalLowerRight(L, S) is the mask torch materialised from causal_lower_right', () => {
    const c = fixture.cases.find((x) => x.name === 'causal_lower_right_L_lt_S')!;
    const expected = toBool(c.inputs.attn_mask!);
    const built = causalLowerRight(c.params.L, c.params.S);
    assert.deepEqual(built.shape, expected.shape);
    assert.deepEqual(Array.from(built.data), Array.from(expected.data));
  });

  it('isCausal equals an explicit top-left causalMask(L, S) for L < S, L = S and L > S', () => {
    for (const name of ['causal_square', 'causal_L_lt_S', 'causal_L_gt_S']) {
      const c = fixture.cases.find((x) => x.name === name)!;
      const { q, k, v } = sdpaInputs(c);
      const viaMask = scaledDotProductAttention(q, k, v, { attnMask: causalMask(c.params.L, c.params.S) });
      assertClose(viaMask.out, c.expected.out, { label: `${name} out via causalMask` });
      assertClose(viaMask.probs, c.expected.probs, { label: `${name} probs via causalMask` });
    }
  });

  it('2-D inputs and broadcast batch dims give the per-head slices of the full result', () => {
    const c = fixture.cases.find((x) => x.name === 'no_mask_L_ne_S')!;
    const { q, k, v } = sdpaInputs(c);
    const full = scaledDotProductAttention(q, k, v); // (B, H, L, Ev)
    const [, H, L, E] = q.shape;
    const [S, Ev] = [k.shape[2], v.shape[3]];
    const slice = (t: typeof q, bh: number, rows: number, width: number) => ({
      data: t.data.subarray(bh * rows * width, (bh + 1) * rows * width),
      shape: [rows, width],
    });
    const bh = 1 * H + 2;
    const one = scaledDotProductAttention(slice(q, bh, L, E), slice(k, bh, S, E), slice(v, bh, S, Ev)); // (L, Ev)
    assert.deepEqual(one.out.shape, [L, Ev]);
    assertClose(one.out, slice(full.out, bh, L, Ev), { atol: 0 });
    // One k/v head shared by every query head and batch element: k [S, E] against q [B, H, L, E].
    const shared = scaledDotProductAttention(q, slice(k, bh, S, E), slice(v, bh, S, Ev));
    assert.deepEqual(shared.out.shape, [...q.shape.slice(0, 3), Ev]);
    assertClose(slice(shared.out, bh, L, Ev), one.out, { atol: 0 });
  });

  it('GQA uses repeat_interleave (h → h // (H/H_kv)), not tiling', () => {
    const c = fixture.cases.find((x) => x.name === 'gqa')!;
    const { q, k, v, options } = sdpaInputs(c);
    // Materialise repeat_interleave by hand and run plain (non-GQA) SDPA on it.
    const [B, Hkv, S, E] = k.shape;
    const H = q.shape[1];
    const G = H / Hkv;
    const repeat = (t: typeof k, width: number) => {
      const data = new Float32Array(B * H * S * width);
      for (let b = 0; b < B; b++)
        for (let h = 0; h < H; h++)
          data.set(t.data.subarray((b * Hkv + Math.floor(h / G)) * S * width, (b * Hkv + Math.floor(h / G) + 1) * S * width), (b * H + h) * S * width);
      return { data, shape: [B, H, S, width] };
    };
    const plain = scaledDotProductAttention(q, repeat(k, E), repeat(v, v.shape[3]));
    const gqa = scaledDotProductAttention(q, k, v, options);
    assertClose(gqa.out, plain.out, { atol: 0, label: 'gqa vs materialised repeat_interleave' });
    assertClose(gqa.out, c.expected.out, { label: 'gqa out' });
  });
});
