// softmax over dim -1 (keys, right) vs dim -2 (queries, wrong) vs torch (softmax_dim.json).
import { strict as assert } from 'node:assert';
import { softmax, sum } from '../../../src/engine';
import { assertClose, loadFixture, toFloat, type JsonTensor } from '../helpers/fixtures';

interface SoftmaxCase {
  name: string;
  inputs: { scores: JsonTensor };
  expected: Record<string, JsonTensor>;
}

const fixture = loadFixture<{ cases: SoftmaxCase[] }>('softmax_dim');

describe('softmax over dim -1 vs -2 (softmax_dim.json)', () => {
  it('has cases', () => assert.ok(fixture.cases.length >= 2));
  for (const c of fixture.cases) {
    it(`${c.name}: probabilities, row sums and column sums for both dims`, () => {
      const scores = toFloat(c.inputs.scores);
      for (const dim of [-1, -2]) {
        const p = softmax(scores, dim);
        assertClose(p, c.expected[`softmax_dim_${dim}`], { label: `softmax dim ${dim}` });
        assertClose(sum(p, -1), c.expected[`row_sums_dim_${dim}`], { label: `row sums dim ${dim}` });
        assertClose(sum(p, -2), c.expected[`col_sums_dim_${dim}`], { label: `col sums dim ${dim}` });
      }
      // Only dim -1 normalises rows.
      const rowsOff = Math.max(...Array.from(sum(softmax(scores, -2), -1).data, (x) => Math.abs(x - 1)));
      assert.ok(rowsOff > 0.05, `dim -2 row sums are off by ${rowsOff}`);
    });
  }

  it('does not modify its input and treats all -inf rows as asked', () => {
    const x = { data: Float32Array.from([1, 2, -Infinity, -Infinity]), shape: [2, 2] };
    const copy = x.data.slice();
    const nan = softmax(x, -1);
    const zero = softmax(x, -1, { fullyMasked: 'zero' });
    assert.deepEqual(Array.from(x.data), Array.from(copy));
    assert.ok(Number.isNaN(nan.data[2]) && Number.isNaN(nan.data[3]));
    assert.deepEqual(Array.from(zero.data.subarray(2)), [0, 0]);
  });
});
