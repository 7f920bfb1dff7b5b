import { strict as assert } from 'node:assert';
import { tsKernel } from '../../src/engine/kernels';

/** Naive float64 reference: C = A·op(B). */
function refGemm(m: number, n: number, k: number, a: Float32Array, b: Float32Array, transB: boolean): Float64Array {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a[i * k + p] * (transB ? b[j * k + p] : b[p * n + j]);
      c[i * n + j] = s;
    }
  return c;
}

function randomArray(len: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(len);
  for (let i = 0; i < len; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  return out;
}

describe('ts kernel', () => {
  for (const transB of [false, true]) {
    it(`gemm matches a float64 reference (transB=${transB})`, () => {
      const [m, n, k] = [7, 5, 9];
      const a = randomArray(m * k, 1);
      const b = randomArray(k * n, 2);
      const c = new Float32Array(m * n).fill(NaN);
      tsKernel.gemm({ m, n, k, a, aOff: 0, lda: k, b, bOff: 0, ldb: transB ? k : n, transB, c, cOff: 0, ldc: n });
      const ref = refGemm(m, n, k, a, b, transB);
      for (let i = 0; i < m * n; i++) assert.ok(Math.abs(c[i] - ref[i]) < 1e-5, `c[${i}] = ${c[i]}, want ${ref[i]}`);
    });
  }

  it('softmaxRows is stable and treats fully masked rows as asked', () => {
    const x = Float32Array.from([1000, 1001, 1002, -Infinity, -Infinity, -Infinity]);
    const y = x.slice();
    tsKernel.softmaxRows({ x, off: 0, rows: 2, cols: 3, ld: 3, fullyMasked: 'zero' });
    tsKernel.softmaxRows({ x: y, off: 0, rows: 2, cols: 3, ld: 3, fullyMasked: 'nan' });
    const e = [Math.exp(-2), Math.exp(-1), 1];
    const z = e[0] + e[1] + e[2];
    for (let j = 0; j < 3; j++) assert.ok(Math.abs(x[j] - e[j] / z) < 1e-6);
    assert.deepEqual(Array.from(x.subarray(3)), [0, 0, 0]);
    assert.ok(Array.from(y.subarray(3)).every(Number.isNaN));
  });
});
