// softmaxRows of every kernel against a float64 reference (relative 1e-6), and the wasm exp polynomial
// against Math.exp.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createWasmSimdKernel, tsKernel } from '../../../src/engine/kernels';
import type { Kernel, WasmSimdKernel } from '../../../src/engine/kernels';
import { expectSoftmaxClose, randomArray, referenceSoftmax } from './reference';

function run(kernel: Kernel, x: Float32Array, off: number, rows: number, cols: number, ld: number, fullyMasked: 'nan' | 'zero'): Float32Array {
  const y = x.slice();
  kernel.softmaxRows({ x: y, off, rows, cols, ld, fullyMasked });
  return y;
}

describe('kernels: softmaxRows', () => {
  const kernels: Kernel[] = [tsKernel];
  let wasm: WasmSimdKernel;
  before(async () => {
    wasm = await createWasmSimdKernel();
    kernels.push(wasm);
  });

  it('matches the float64 softmax on random rows, views and value ranges, with -inf masks', () => {
    fc.assert(
      fc.property(
        fc.record({
          rows: fc.integer({ min: 1, max: 9 }),
          cols: fc.integer({ min: 1, max: 70 }),
          off: fc.integer({ min: 0, max: 5 }),
          ldExtra: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 7 })),
          spread: fc.constantFrom(1, 10, 100, 1e4, 1e30),
          maskEvery: fc.constantFrom(0, 2, 3, 7),
          fullyMasked: fc.constantFrom('nan' as const, 'zero' as const),
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
        ({ rows, cols, off, ldExtra, spread, maskEvery, fullyMasked, seed }) => {
          const ld = cols + ldExtra;
          const x = randomArray(off + rows * ld + 2, seed, -spread, spread);
          if (maskEvery > 0) for (let i = 0; i < x.length; i += maskEvery) x[i] = -Infinity;
          const want = referenceSoftmax(x, off, rows, cols, ld, fullyMasked === 'nan' ? NaN : 0);
          for (const kernel of kernels) {
            expectSoftmaxClose(run(kernel, x, off, rows, cols, ld, fullyMasked), want, `${kernel.name} ${rows}x${cols} ld=${ld} spread=${spread}`);
          }
        },
      ),
      { numRuns: 200, seed: 0x50f7 },
    );
  });

  it('handles long rows (attention over 2048 and 8193 keys)', () => {
    for (const cols of [2048, 8193]) {
      const x = randomArray(3 * cols, cols, -12, 12);
      const want = referenceSoftmax(x, 0, 3, cols, cols, 0);
      for (const kernel of kernels) expectSoftmaxClose(run(kernel, x, 0, 3, cols, cols, 'zero'), want, `${kernel.name} cols=${cols}`);
    }
  });

  it('handles more rows than the wasm kernel stages at once (1M floats), through a view', () => {
    const rows = 300;
    const cols = 4001;
    const ld = 4003;
    const x = randomArray(5 + rows * ld, 99, -20, 20);
    for (let r = 7; r < rows; r += 50) x.fill(-Infinity, 5 + r * ld, 5 + r * ld + cols); // fully masked rows
    const want = referenceSoftmax(x, 5, rows, cols, ld, NaN);
    for (const kernel of kernels) expectSoftmaxClose(run(kernel, x, 5, rows, cols, ld, 'nan'), want, `${kernel.name} ${rows}x${cols}`);
  });

  it("turns a fully masked row into zeros ('zero') or NaN ('nan') and leaves the other rows alone", () => {
    const x = Float32Array.from([1, 2, 3, -Infinity, -Infinity, -Infinity, -Infinity, 0, -Infinity]);
    for (const kernel of kernels) {
      const z = run(kernel, x, 0, 3, 3, 3, 'zero');
      const n = run(kernel, x, 0, 3, 3, 3, 'nan');
      assert.deepEqual(Array.from(z.subarray(3, 6)), [0, 0, 0], kernel.name);
      assert.ok(Array.from(n.subarray(3, 6)).every(Number.isNaN), kernel.name);
      assert.deepEqual(Array.from(z.subarray(6)), [0, 1, 0], kernel.name);
      expectSoftmaxClose(z.subarray(0, 3), referenceSoftmax(x, 0, 1, 3, 3, 0).subarray(0, 3), kernel.name);
    }
  });

  it('makes a row with a NaN (or +Inf) all NaN, as torch does, without touching other rows', () => {
    const x = Float32Array.from([1, NaN, 3, 4, 0, Infinity, 2, 2, 1, 1, 1, 1]);
    for (const kernel of kernels) {
      const y = run(kernel, x, 0, 3, 4, 4, 'zero');
      assert.ok(Array.from(y.subarray(0, 8)).every(Number.isNaN), `${kernel.name}: ${Array.from(y)}`);
      assert.deepEqual(Array.from(y.subarray(8)), [0.25, 0.25, 0.25, 0.25], kernel.name);
    }
  });

  it('stays stable for huge values (no overflow) and gives 1 for a single column', () => {
    const x = Float32Array.from([3e38, 3e38, -3e38, 1e30, 1e30 - 1e24, 0, 7, -Infinity, NaN, 5]);
    for (const kernel of kernels) {
      const y = run(kernel, x, 0, 2, 3, 3, 'zero');
      assert.deepEqual(Array.from(y.subarray(0, 3)), [0.5, 0.5, 0], kernel.name);
      expectSoftmaxClose(y.subarray(3, 6), referenceSoftmax(x, 3, 1, 3, 3, 0).subarray(3, 6), kernel.name);
      const single = run(kernel, x, 6, 4, 1, 1, 'zero');
      assert.deepEqual(Array.from(single.subarray(6, 8)), [1, 0], kernel.name);
      assert.ok(Number.isNaN(single[8]) && single[9] === 1, kernel.name);
    }
  });

  it('rows = 0 or cols = 0 change nothing', () => {
    const x = Float32Array.from([1, 2, 3]);
    for (const kernel of kernels) {
      kernel.softmaxRows({ x, off: 0, rows: 0, cols: 3, ld: 3, fullyMasked: 'nan' });
      kernel.softmaxRows({ x, off: 1, rows: 2, cols: 0, ld: 1, fullyMasked: 'nan' });
      assert.deepEqual(Array.from(x), [1, 2, 3], kernel.name);
    }
  });

  it('the wasm exp polynomial is within 5e-7 relative of Math.exp on [-104, 0] (subnormals within 2 ulps)', () => {
    const n = 200_000;
    const x = new Float32Array(n);
    // dense near 0, where softmax weights live, and across the whole range down to the flush point
    for (let i = 0; i < n; i++) x[i] = i < n / 2 ? -(i / (n / 2)) * 8 : -104 * ((i - n / 2) / (n / 2));
    const special = Float32Array.from([0, -0, -1e-30, -87.33655, -103.9, -104.5, -Infinity, NaN]);
    const all = new Float32Array(n + special.length);
    all.set(x);
    all.set(special, n);
    const y = wasm.expPolynomial(all);
    let worst = 0;
    for (let i = 0; i < all.length; i++) {
      const t = Math.exp(all[i]);
      if (Number.isNaN(t)) {
        assert.ok(Number.isNaN(y[i]), `exp(NaN) = ${y[i]}`);
      } else if (t >= 2 ** -126) {
        worst = Math.max(worst, Math.abs(y[i] - t) / t);
      } else {
        assert.ok(Math.abs(y[i] - t) <= 2 * 2 ** -149, `exp(${all[i]}) = ${y[i]}, want ${t}`);
      }
    }
    assert.ok(worst < 5e-7, `worst relative error ${worst}`); // documented in simd-kernel.wat
    assert.equal(y[n + 6], 0, 'exp(-inf)');
    assert.equal(y[n + 5], 0, 'exp(-104.5)');
  });
});
