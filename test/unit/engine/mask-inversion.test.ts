// The key_padding_mask → SDPA inversion bug (mask_inversion.json): the same padding through
// nn.MultiheadAttention, through SDPA un-inverted (wrong), inverted (right) and as a float mask.
import { strict as assert } from 'node:assert';
import {
  boolMaskToAdditive,
  invertMask,
  linear,
  multiheadAttention,
  permute,
  projectHeads,
  reshape,
  scaledDotProductAttention,
  select,
  contiguous,
  traceAttention,
  type AttnMask,
  type Tensor,
  type TraceWarningId,
} from '../../../src/engine';
import { assertClose, loadFixture, maxAbsDiff, toBool, toFloat, type JsonTensor } from '../helpers/fixtures';

const f = loadFixture<{
  params: { B: number; L: number; S: number; embed_dim: number; num_heads: number; head_dim: number; valid_lengths: number[] };
  weights: Record<'in_proj_weight' | 'in_proj_bias' | 'out_proj_weight' | 'out_proj_bias', JsonTensor>;
  inputs: Record<'x' | 'key_padding_mask' | 'sdpa_bool_mask_uninverted' | 'sdpa_bool_mask_inverted' | 'q_heads' | 'k_heads' | 'v_heads', JsonTensor>;
  expected: Record<string, JsonTensor>;
  checks: { batch_elements_without_padding: number[] };
}>('mask_inversion');

const { B, L, S, embed_dim: E, num_heads: H } = f.params;
const W = {
  inProjWeight: toFloat(f.weights.in_proj_weight),
  inProjBias: toFloat(f.weights.in_proj_bias),
  outProjWeight: toFloat(f.weights.out_proj_weight),
  outProjBias: toFloat(f.weights.out_proj_bias),
};
const [q, k, v] = [f.inputs.q_heads, f.inputs.k_heads, f.inputs.v_heads].map(toFloat); // (B, H, L, hd)
const kpm = toBool(f.inputs.key_padding_mask); // (B, S), True = pad

/** SDPA on the MHA's own head projections, then merge heads and apply out_proj. */
function sdpaThroughOutProj(mask: AttnMask): { pre: Tensor; out: Tensor } {
  const { out: pre } = scaledDotProductAttention(q, k, v, { attnMask: mask }); // (B, H, L, hd)
  const merged = reshape(permute(pre, [0, 2, 1, 3]), [B, L, E]); // (B, L, H, hd) → (B, L, E)
  return { pre, out: linear(merged, W.outProjWeight, W.outProjBias) };
}

describe('mask inversion: key_padding_mask handed to SDPA (mask_inversion.json)', () => {
  it('the fixture masks are kpm[:, None, None, :] and its inverse', () => {
    const un = toBool(f.inputs.sdpa_bool_mask_uninverted);
    assert.deepEqual(un.shape, [B, 1, 1, S]);
    assert.deepEqual(Array.from(un.data), Array.from(kpm.data));
    assert.deepEqual(Array.from(invertMask(un).data), Array.from(toBool(f.inputs.sdpa_bool_mask_inverted).data));
  });

  it('un-inverted (wrong): matches torch, attends only to padding, and outputs out_proj.bias where nothing is padded', () => {
    const r = sdpaThroughOutProj(toBool(f.inputs.sdpa_bool_mask_uninverted));
    assertClose(r.pre, f.expected.sdpa_uninverted_pre_out_proj, { label: 'pre_out_proj' });
    assertClose(r.out, f.expected.sdpa_uninverted_output, { label: 'output' });
    assert.ok(maxAbsDiff(r.out.data, toFloat(f.expected.mha_attn_output).data) > 1, 'differs from MHA');
    for (const b of f.checks.batch_elements_without_padding) {
      for (let l = 0; l < L; l++) {
        const row = r.out.data.subarray((b * L + l) * E, (b * L + l + 1) * E);
        assert.deepEqual(Array.from(row), Array.from(W.outProjBias.data), `element ${b} row ${l} = out_proj.bias`);
      }
    }
  });

  it('inverted (~mask) and float (-inf at pads) match torch and MHA', () => {
    const inv = sdpaThroughOutProj(toBool(f.inputs.sdpa_bool_mask_inverted));
    assertClose(inv.pre, f.expected.sdpa_inverted_pre_out_proj, { label: 'inverted pre_out_proj' });
    assertClose(inv.out, f.expected.sdpa_inverted_output, { label: 'inverted output' });
    assertClose(inv.out, f.expected.mha_attn_output, { label: 'inverted vs MHA' });
    const additive = boolMaskToAdditive(toBool(f.inputs.sdpa_bool_mask_uninverted), 'ignore'); // (B, 1, 1, S)
    const flt = sdpaThroughOutProj(additive);
    assertClose(flt.out, f.expected.sdpa_float_mask_output, { label: 'float output' });
  });

  it('nn.MultiheadAttention with key_padding_mask matches torch (output and per-head weights)', () => {
    const x = toFloat(f.inputs.x);
    const r = multiheadAttention(x, x, x, { numHeads: H, ...W }, { keyPaddingMask: kpm, averageAttnWeights: false });
    assertClose(r.out, f.expected.mha_attn_output, { label: 'mha output' });
    assertClose(r.weights!, f.expected.mha_attn_weights_per_head, { label: 'mha weights' });
  });

  /** The warnings about masking (score-size warnings depend on these weights, not on the mask). */
  const maskWarnings = (t: { warnings: { id: TraceWarningId }[] }) =>
    t.warnings.map((w) => w.id).filter((id) => id !== 'saturated-rows' && id !== 'score-variance-high');

  it("the debugger's padding switches reproduce all three torch results head by head, and warn only for the inverted one", () => {
    const headOf = (t: Tensor, b: number, h: number) => contiguous(select(select(t, 0, b), 0, h)); // (L, hd)
    const expected = {
      uninverted: toFloat(f.expected.sdpa_uninverted_pre_out_proj),
      inverted: toFloat(f.expected.sdpa_inverted_pre_out_proj),
      mhaWeights: toFloat(f.expected.mha_attn_weights_per_head),
    };
    for (let b = 0; b < B; b++) {
      const padLast = S - f.params.valid_lengths[b];
      for (let h = 0; h < H; h++) {
        const [qh, kh, vh] = [q, k, v].map((t) => headOf(t, b, h));
        const run = (builtAs: 'true-means-pad' | 'true-means-keep', passedTo: 'sdpa' | 'mha') =>
          traceAttention(qh, kh, vh, { mask: { kind: 'padding', padLast, builtAs, passedTo }, fullyMaskedRows: 'zero' });
        const wrong = run('true-means-pad', 'sdpa'); // key_padding_mask handed to SDPA as is
        assertClose(wrong.output, headOf(expected.uninverted, b, h), { label: `uninverted [${b},${h}]` });
        const wrongIds: TraceWarningId[] = padLast === 0 ? ['fully-masked-zero-rows'] : ['attends-only-padding'];
        assert.deepEqual(maskWarnings(wrong), wrongIds, `element ${b} (padLast ${padLast})`);
        const right = run('true-means-keep', 'sdpa'); // ~mask
        assertClose(right.output, headOf(expected.inverted, b, h), { label: `inverted [${b},${h}]` });
        const viaMha = run('true-means-pad', 'mha'); // key_padding_mask to MHA
        assertClose(viaMha.probs, headOf(expected.mhaWeights, b, h), { label: `MHA weights [${b},${h}]` });
        assert.deepEqual(maskWarnings(right), []);
        assert.deepEqual(maskWarnings(viaMha), []);
      }
    }
  });

  it('projectHeads reproduces the MHA head projections per batch element', () => {
    const x = toFloat(f.inputs.x);
    for (let b = 0; b < B; b++) {
      const heads = projectHeads(select(x, 0, b), W.inProjWeight, W.inProjBias, H); // each (H, L, hd)
      assertClose(heads.q, contiguous(select(q, 0, b)), { label: `q[${b}]` });
      assertClose(heads.k, contiguous(select(k, 0, b)), { label: `k[${b}]` });
      assertClose(heads.v, contiguous(select(v, 0, b)), { label: `v[${b}]` });
    }
  });
});
