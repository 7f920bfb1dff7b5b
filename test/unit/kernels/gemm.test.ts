// gemm of every kernel against an independent float64 reference (and so against each other): random shapes,
// views (offsets, leading dimensions wider than the matrix), transB, alpha, beta, NaN/±Inf operands.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createWasmSimdKernel, tsKernel, wasmSimdSupported } from '../../../src/engine/kernels';
import type { GemmArgs, Kernel } from '../../../src/engine/kernels';
import { randomArray } from './reference';
import { base, build, caseArb, check, label, specialsArb } from './cases';

describe('kernels: gemm', () => {
  const kernels: Kernel[] = [tsKernel];
  before(async () => {
    assert.ok(wasmSimdSupported(), 'this Node.js supports WebAssembly SIMD, so the wasm kernel must be tested');
    kernels.push(await createWasmSimdKernel());
    // the wasm kernel with A always packed (by default only from n = 256 on), and one that may stage only a few
    // floats, so that products are split along m, n and k
    for (const options of [{ packAMinN: 0 }, { maxStagedFloats: 700 }]) {
      const variant = await createWasmSimdKernel(options);
      kernels.push({ name: 'wasm-simd', gemm: variant.gemm, softmaxRows: variant.softmaxRows });
    }
  });

  it('matches the float64 reference on random shapes, views, alpha and beta (m, n, k in 1..70)', () => {
    fc.assert(
      fc.property(caseArb(70), (cs) => {
        const args = build(cs);
        for (const kernel of kernels) check(kernel, args, label(cs));
      }),
      { numRuns: 150, seed: 0x5eed },
    );
  });

  it('propagates NaN and ±Inf operands like IEEE arithmetic (0·Inf = NaN, Inf - Inf = NaN)', () => {
    fc.assert(
      fc.property(caseArb(24), specialsArb, (cs, specials) => {
        const withSpecials = { ...cs, specials };
        const args = build(withSpecials);
        for (const kernel of kernels) check(kernel, args, label(withSpecials));
      }),
      { numRuns: 150, seed: 0xbad },
    );
  });

  it('sends a NaN or Inf through exactly the elements of C it reaches', () => {
    for (const transB of [false, true]) {
      const cs = { ...base, m: 9, n: 11, k: 13, transB, seed: 7 };
      const args = build(cs);
      args.a[2 * args.lda + 5] = NaN; // A[2, 5]: row 2 of C becomes NaN
      const bAt = transB ? 3 * args.ldb + 4 : 4 * args.ldb + 3; // B[4, 3]: column 3 of C becomes ±Inf
      args.b[bAt] = Infinity;
      for (const kernel of kernels) {
        const c = args.c.slice();
        kernel.gemm({ ...args, c });
        for (let i = 0; i < 9; i++)
          for (let j = 0; j < 11; j++) {
            const v = c[i * args.ldc + j];
            if (i === 2) assert.ok(Number.isNaN(v), `${kernel.name}: C[2, ${j}] = ${v}`);
            else if (j === 3) assert.equal(Math.abs(v), Infinity, `${kernel.name}: C[${i}, 3] = ${v}`);
            else assert.ok(Number.isFinite(v), `${kernel.name}: C[${i}, ${j}] = ${v}`);
          }
      }
    }
  });

  it('matches the reference on shapes that cross the cache blocks and tiles', async () => {
    const readsAInPlace = await createWasmSimdKernel({ packAMinN: Infinity });
    const shapes: [number, number, number, boolean][] = [
      [259, 1030, 37, false], // n crosses the 1024-column block
      [259, 1030, 37, true],
      [133, 77, 700, false], // k crosses two 256-deep blocks
      [133, 77, 700, true],
      [300, 64, 300, false], // m crosses the 128-row block
      [512, 512, 64, true], // Q·Kᵀ of one head, L = 512
      [512, 64, 512, false], // weights·V of one head
    ];
    for (const [m, n, k, transB] of shapes) {
      const cs = { ...base, m, n, k, transB, alpha: 0.125, beta: (m % 2) as 0 | 1, seed: m * n + k };
      const args = build(cs);
      for (const kernel of [...kernels.slice(0, 3), readsAInPlace]) check(kernel, args, label(cs));
    }
  });

  it('reads one head out of a [L, heads·hd] projection through offsets and leading dimensions', () => {
    const L = 37;
    const heads = 3;
    const hd = 16;
    const q = randomArray(L * heads * hd, 11);
    const kMat = randomArray(L * heads * hd, 12);
    for (let h = 0; h < heads; h++) {
      const args: GemmArgs = {
        m: L,
        n: L,
        k: hd,
        a: q,
        aOff: h * hd,
        lda: heads * hd,
        b: kMat,
        bOff: h * hd,
        ldb: heads * hd,
        transB: true,
        c: randomArray(heads * L * L, 13),
        cOff: h * L * L,
        ldc: L,
        alpha: 0.25,
      };
      for (const kernel of kernels) check(kernel, args, `head ${h}`);
    }
  });

  it('k = 0 gives beta·C (zeros for beta 0, even over NaN); m = 0 or n = 0 changes nothing', () => {
    for (const kernel of kernels) {
      const c = Float32Array.from([NaN, 5, 6, 7]);
      kernel.gemm({ m: 2, n: 2, k: 0, a: new Float32Array(0), aOff: 0, lda: 0, b: new Float32Array(0), bOff: 0, ldb: 2, transB: false, c, cOff: 0, ldc: 2 });
      assert.deepEqual(Array.from(c), [0, 0, 0, 0], kernel.name);
      const d = Float32Array.from([NaN, 5, 6, 7]);
      kernel.gemm({
        m: 2,
        n: 2,
        k: 0,
        a: new Float32Array(0),
        aOff: 0,
        lda: 0,
        b: new Float32Array(0),
        bOff: 0,
        ldb: 2,
        transB: false,
        c: d,
        cOff: 0,
        ldc: 2,
        beta: 1,
      });
      assert.ok(Number.isNaN(d[0]) && d[1] === 5 && d[3] === 7, kernel.name);
      const e = Float32Array.from([1, 2]);
      kernel.gemm({ m: 0, n: 2, k: 3, a: new Float32Array(0), aOff: 0, lda: 3, b: new Float32Array(6), bOff: 0, ldb: 2, transB: false, c: e, cOff: 0, ldc: 2 });
      kernel.gemm({ m: 1, n: 0, k: 3, a: new Float32Array(3), aOff: 0, lda: 3, b: new Float32Array(0), bOff: 0, ldb: 0, transB: false, c: e, cOff: 0, ldc: 0 });
      assert.deepEqual(Array.from(e), [1, 2], kernel.name);
    }
  });

  it('the wasm kernel reuses its memory across calls of different sizes', async () => {
    const kernel = await createWasmSimdKernel();
    for (const [m, n, k] of [
      [64, 64, 64],
      [3, 5, 7],
      [200, 9, 130],
      [1, 1, 1],
    ]) {
      const cs = { ...base, m, n, k, seed: m + n + k };
      check(kernel, build(cs), label(cs));
    }
    assert.ok(kernel.memoryBytes > 0);
  });
});
