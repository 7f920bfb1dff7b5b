// nn.MultiheadAttention(batch_first=True) slow path vs torch (mha.json), including fully masked rows.
import { strict as assert } from 'node:assert';
import { multiheadAttention, type MhaParams } from '../../../src/engine';
import type { AnyTensor } from '../../../src/engine/tensor';
import { assertClose, loadFixture, toBool, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';

interface MhaWeights {
  in_proj_weight: JsonTensor;
  in_proj_bias: JsonTensor;
  out_proj_weight: JsonTensor;
  out_proj_bias: JsonTensor;
}
interface MhaCase {
  name: string;
  params: { num_heads: number; need_weights: boolean; average_attn_weights: boolean };
  weights: MhaWeights;
  inputs: { query: JsonTensor; key: JsonTensor; value: JsonTensor; key_padding_mask?: JsonTensor; attn_mask?: JsonTensor };
  expected: { attn_output: JsonTensor; attn_weights?: JsonTensor };
}
interface PathResult {
  attn_output: JsonTensor;
  attn_weights?: JsonTensor;
}
interface MhaFixture {
  cases: MhaCase[];
  fully_masked_behaviour: {
    params: { num_heads: number };
    weights: MhaWeights;
    inputs: { query: JsonTensor; key_padding_mask: JsonTensor };
    expected: Record<'slow_path_need_weights_true' | 'slow_path_need_weights_false', PathResult>;
    summary: {
      slow_path_need_weights_true: { output_all_nan: boolean; weights_all_nan: boolean };
      slow_path_need_weights_false: { output_all_nan: boolean; output_equals_out_proj_bias: boolean };
    };
  };
}

const fixture = loadFixture<MhaFixture>('mha');

function params(w: MhaWeights, numHeads: number): MhaParams {
  return {
    numHeads,
    inProjWeight: toFloat(w.in_proj_weight),
    inProjBias: toFloat(w.in_proj_bias),
    outProjWeight: toFloat(w.out_proj_weight),
    outProjBias: toFloat(w.out_proj_bias),
  };
}

describe('multiheadAttention vs torch (mha.json)', () => {
  it('has the 8 documented cases', () => assert.equal(fixture.cases.length, 8));

  for (const c of fixture.cases) {
    it(`${c.name}: attn_output${c.expected.attn_weights ? ' and attn_weights' : ''}`, () => {
      const result = multiheadAttention(toFloat(c.inputs.query), toFloat(c.inputs.key), toFloat(c.inputs.value), params(c.weights, c.params.num_heads), {
        keyPaddingMask: c.inputs.key_padding_mask ? (toTensor(c.inputs.key_padding_mask) as AnyTensor) : undefined,
        attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
        needWeights: c.params.need_weights,
        averageAttnWeights: c.params.average_attn_weights,
      });
      assertClose(result.out, c.expected.attn_output, { label: `${c.name} attn_output` });
      if (c.expected.attn_weights) {
        assert.ok(result.weights, 'weights returned when needWeights');
        assertClose(result.weights, c.expected.attn_weights, { label: `${c.name} attn_weights` });
      } else {
        assert.equal(result.weights, undefined, 'no weights when needWeights is false');
      }
    });
  }

  describe('fully masked batch element (slow path)', () => {
    const f = fixture.fully_masked_behaviour;
    const x = toFloat(f.inputs.query);
    const kpm = toBool(f.inputs.key_padding_mask);
    const p = params(f.weights, f.params.num_heads);
    const [, L, E] = x.shape;

    it('needWeights=true: output and weights are NaN on the fully padded element, as torch', () => {
      const r = multiheadAttention(x, x, x, p, { keyPaddingMask: kpm, needWeights: true, averageAttnWeights: false });
      const exp = f.expected.slow_path_need_weights_true;
      assertClose(r.out, exp.attn_output, { label: 'attn_output' });
      assertClose(r.weights!, exp.attn_weights!, { label: 'attn_weights' });
      assert.equal(f.summary.slow_path_need_weights_true.output_all_nan, true);
      assert.ok(r.out.data.subarray(L * E).every(Number.isNaN), 'element 1 output is all NaN');
      assert.ok(r.out.data.subarray(0, L * E).every(Number.isFinite), 'element 0 output is finite');
    });

    it('needWeights=false: routes to SDPA, so the fully padded element outputs exactly out_proj.bias', () => {
      const r = multiheadAttention(x, x, x, p, { keyPaddingMask: kpm, needWeights: false });
      assertClose(r.out, f.expected.slow_path_need_weights_false.attn_output, { label: 'attn_output' });
      assert.equal(r.weights, undefined);
      assert.equal(f.summary.slow_path_need_weights_false.output_equals_out_proj_bias, true);
      const bias = p.outProjBias!.data;
      for (let l = 0; l < L; l++) {
        assert.deepEqual(Array.from(r.out.data.subarray((L + l) * E, (L + l + 1) * E)), Array.from(bias), `row ${l} = out_proj.bias`);
      }
    });
  });

  it('unbatched input [L, E] gives the batched result without the batch dim', () => {
    const c = fixture.cases.find((x) => x.name === 'cross_kpm_per_head')!;
    const [q, k, v] = [c.inputs.query, c.inputs.key, c.inputs.value].map(toFloat);
    const kpm = toBool(c.inputs.key_padding_mask!);
    const p = params(c.weights, c.params.num_heads);
    const full = multiheadAttention(q, k, v, p, { keyPaddingMask: kpm, averageAttnWeights: false });
    const [, L, E] = q.shape;
    const S = k.shape[1];
    const take = (t: typeof q, b: number, n: number) => ({ data: t.data.slice(b * n, (b + 1) * n), shape: t.shape.slice(1) });
    const one = multiheadAttention(take(q, 1, L * E), take(k, 1, S * E), take(v, 1, S * E), p, {
      keyPaddingMask: { data: kpm.data.slice(S, 2 * S), shape: [S], dtype: 'bool' },
      averageAttnWeights: false,
    });
    assert.deepEqual(one.out.shape, [L, E]);
    assertClose(one.out, take(full.out, 1, L * E), { atol: 0 });
    const H = c.params.num_heads;
    assertClose(one.weights!, take(full.weights!, 1, H * L * S), { atol: 0 });
  });
});
