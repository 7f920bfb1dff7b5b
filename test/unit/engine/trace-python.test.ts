// The debugger's switches as PyTorch. What each line computes was checked against traceAttention for all
// 768 combinations of the switches by running the snippet under a NumPy stand-in for the few torch calls
// it uses (by hand: CI has neither torch nor NumPy); these tests pin the lines each switch produces.
import { strict as assert } from 'node:assert';
import { pythonSteps, type TraceOptions } from '../../../src/engine';

const lines = (o: TraceOptions, seeded = false) => pythonSteps(o, { head: 2, seeded }).split('\n');
const has = (o: TraceOptions, re: RegExp, seeded = false) =>
  assert.ok(
    lines(o, seeded).some((l) => re.test(l)),
    `${JSON.stringify(o)}: no line matches ${re}`,
  );
const hasNot = (o: TraceOptions, re: RegExp) => assert.ok(!lines(o).some((l) => re.test(l)), `${JSON.stringify(o)}: a line matches ${re}`);

describe('the debugger switches as PyTorch', () => {
  it('the defaults: 1/sqrt(d_k), no mask, softmax over the keys', () => {
    const o: TraceOptions = {};
    has(o, /^scale = 1 \/ math\.sqrt\(d_k\)/);
    has(o, /^scaled = scores \* scale +# 2$/);
    has(o, /^weights = torch\.softmax\(masked, dim=-1\)/);
    hasNot(o, /masked_fill/);
    hasNot(o, /nan_to_num/);
  });

  it("each scale, the temperature, the softmax dim and SDPA's safe softmax", () => {
    has({ scale: { kind: 'inv-dk' } }, /^scale = 1 \/ d_k +# the bug/);
    has({ scale: { kind: 'none' } }, /^scale = 1\.0 /);
    has({ scale: { kind: 'custom', value: 2 } }, /^scale = 2\.0$/);
    has({ scale: { kind: 'custom', value: 0.3 } }, /^scale = 0\.3$/);
    has({ temperature: 10 }, /^scaled = scores \* scale \/ 10\.0 /);
    has({ softmaxDim: -2 }, /^weights = torch\.softmax\(masked, dim=-2\) +# 4 · the bug/);
    has({ fullyMaskedRows: 'zero' }, /^weights = weights\.nan_to_num\(0\.0\)/);
  });

  it('causal masks in both alignments, and padding masks read the way they were built or the other way round', () => {
    has({ mask: { kind: 'causal', align: 'top-left' } }, /\.triu\(1\), float\("-inf"\)\)$/);
    has({ mask: { kind: 'causal', align: 'bottom-right' } }, /\.triu\(1 \+ S - L\), float\("-inf"\)\)$/);
    for (const [builtAs, passedTo, fill, inverted] of [
      ['true-means-pad', 'mha', 'padding_mask[None, :]', false],
      ['true-means-pad', 'sdpa', '~padding_mask[None, :]', true],
      ['true-means-keep', 'mha', 'padding_mask[None, :]', true],
      ['true-means-keep', 'sdpa', '~padding_mask[None, :]', false],
    ] as const) {
      const o: TraceOptions = {
        mask: [
          { kind: 'causal', align: 'top-left' },
          { kind: 'padding', padLast: 3, builtAs, passedTo },
        ],
      };
      has(o, /^is_pad = torch\.arange\(S\) >= S - 3 /);
      has(o, builtAs === 'true-means-pad' ? /^padding_mask = is_pad / : /^padding_mask = ~is_pad /);
      has(o, new RegExp(`^mask = mask\\.masked_fill\\(${fill.replace(/[[\]().~]/g, '\\$&')}, float\\("-inf"\\)\\)$`));
      (inverted ? has : hasNot)(o, /every query sees only the padding/);
    }
  });

  it("on a seeded model the head's q, k, v are sliced from the in-projection; otherwise they are the user's", () => {
    has({}, /^q = \(x @ W_q\.T\)\[:, h \* d_k:\(h \+ 1\) \* d_k\]/, true);
    has({}, /^h = 2$/, true);
    has({}, /^# q: \(L, d_k\), k: \(S, d_k\), v: \(S, d_v\)/);
    has({}, /^out = weights @ v /);
  });
});
