// Building blocks checked against independent references: strided materialisation against per-element
// index arithmetic, CRC-32 against the standard check value and a bitwise implementation.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { crc32 } from '../../../src/weights/crc32';
import { fortranOrderStrides, isCOrderContiguous, materializeStrided, viewEnd } from '../../../src/weights/strided';

/** Element i of the row-major result, by unravelling i and dotting with the strides. */
function naiveStrided(src: Float32Array, offset: number, shape: number[], strides: number[]): number[] {
  const n = shape.reduce((a, b) => a * b, 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let rest = i;
    let p = offset;
    for (let d = shape.length - 1; d >= 0; d--) {
      p += (rest % shape[d]) * strides[d];
      rest = Math.floor(rest / shape[d]);
    }
    out.push(src[p]);
  }
  return out;
}

function bitwiseCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('weights: internals', () => {
  it('materializeStrided equals per-element index arithmetic for random views', () => {
    const view = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }).chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        strides: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: shape.length, maxLength: shape.length }),
        offset: fc.integer({ min: 0, max: 5 }),
      }),
    );
    fc.assert(
      fc.property(view, ({ shape, strides, offset }) => {
        const end = Math.max(viewEnd(offset, shape, strides), offset + 1);
        const src = Float32Array.from({ length: end }, (_, i) => i * 1.5 - 3);
        assert.deepEqual([...materializeStrided(src, offset, shape, strides)], naiveStrided(src, offset, shape, strides));
      }),
      { numRuns: 300 },
    );
  });

  it('contiguity and Fortran strides', () => {
    assert.ok(isCOrderContiguous([2, 3], [3, 1]));
    assert.ok(isCOrderContiguous([2, 1, 3], [3, 99, 1]));
    assert.ok(!isCOrderContiguous([3, 2], [1, 3]));
    assert.deepEqual(fortranOrderStrides([2, 3, 4]), [1, 2, 6]);
    assert.equal(viewEnd(0, [2, 0], [1, 1]), 0);
  });

  it('CRC-32 gives the standard check value and matches a bitwise implementation', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (b) => assert.equal(crc32(b), bitwiseCrc32(b))),
      { numRuns: 300 },
    );
  });
});
