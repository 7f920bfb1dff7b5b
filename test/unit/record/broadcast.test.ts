import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { contiguous, expand } from '../../../src/engine/tensor';
import { broadcastsTo, broadcastTo, transposeLast } from '../../../src/record/broadcast';
import { andCausal } from '../../../src/record/view';

/** A target shape and a shape that broadcasts to it (some dims 1, maybe fewer axes, maybe extra leading 1s). */
const broadcastPair = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }).chain((target) =>
  fc.tuple(fc.array(fc.boolean(), { minLength: target.length, maxLength: target.length }), fc.nat(target.length - 1), fc.nat(2)).map(([ones, drop, extra]) => {
    const shape = [...new Array<number>(extra).fill(1), ...target.slice(drop).map((d, i) => (ones[i + drop] ? 1 : d))];
    return { shape, target };
  }),
);

describe('record/broadcast', () => {
  it('broadcastTo copies what the engine reads through a broadcast view, for float and bool data', () => {
    fc.assert(
      fc.property(broadcastPair, ({ shape, target }) => {
        assert.ok(broadcastsTo(shape, target));
        const n = shape.reduce((a, b) => a * b, 1);
        const data = Float32Array.from({ length: n }, (_, i) => i + 1);
        const core = shape.slice(shape.length - Math.min(shape.length, target.length)); // expand takes no extra leading 1s
        const want = contiguous(expand({ data, shape: core }, target)).data;
        assert.deepEqual(Array.from(broadcastTo(data, shape, target)), Array.from(want));
        const bools = Uint8Array.from(data, (x) => x % 2);
        const got = broadcastTo(bools, shape, target);
        assert.ok(got instanceof Uint8Array);
        assert.deepEqual(
          Array.from(got),
          Array.from(want, (x) => x % 2),
        );
      }),
    );
  });

  it('transposeLast swaps the last two axes of every matrix', () => {
    const data = Float32Array.from({ length: 12 }, (_, i) => i); // [2, 2, 3]
    assert.deepEqual(Array.from(transposeLast(data, [2, 2, 3])), [0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11]);
  });

  it('refuses shapes it cannot read, naming them', () => {
    assert.throws(() => transposeLast(new Float32Array(3), [3]), /transposeLast: shape \[3\] has fewer than two axes/);
    assert.throws(() => broadcastTo(new Float32Array(6), [2, 3], [3]), /broadcastTo: shape \[2, 3\] has more axes than \[3\]/);
    assert.throws(() => andCausal(null, [4], 0), /andCausal: the target \[4\] has no \(T, S\) axes/);
  });

  it('andCausal keeps key s of query t where s ≤ t + shift, in every slice', () => {
    const got = andCausal(null, [2, 2, 3], 1); // T = 2 queries, S = 3 keys, the queries the last two keys
    assert.deepEqual(Array.from(got), [1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1]);
  });
});
