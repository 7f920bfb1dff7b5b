// The kernel registry (initKernels / getKernel) and the argument checks every kernel shares.
// Numerical tests of each kernel: test/unit/kernels/*.test.ts.
import { strict as assert } from 'node:assert';
import { availableKernels, createWasmSimdKernel, getKernel, initKernels, setKernel, tsKernel, wasmSimdSupported } from '../../src/engine/kernels';
import type { GemmArgs, Kernel, KernelPreference } from '../../src/engine/kernels';

describe('kernels: registry', () => {
  let saved: Kernel;
  beforeEach(() => {
    saved = getKernel();
  });
  afterEach(() => {
    setKernel(saved);
  });

  it("'auto' picks wasm-simd where WebAssembly SIMD validates, 'ts' and 'wasm-simd' force one", async () => {
    assert.ok(wasmSimdSupported(), 'Node.js 20 supports WebAssembly SIMD');
    assert.deepEqual(availableKernels(), ['wasm-simd', 'ts']);
    assert.equal((await initKernels('auto')).name, 'wasm-simd');
    assert.equal(getKernel().name, 'wasm-simd');
    assert.equal((await initKernels('ts')).name, 'ts');
    assert.equal(getKernel(), tsKernel);
    const wasm = await initKernels('wasm-simd');
    assert.equal(wasm.name, 'wasm-simd');
    assert.equal(await initKernels('wasm-simd'), wasm, 'the module is instantiated once');
  });

  it("without WebAssembly SIMD, 'auto' falls back to ts and 'wasm-simd' fails with a clear error", async () => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = () => false;
    try {
      assert.equal(wasmSimdSupported(), false);
      assert.deepEqual(availableKernels(), ['ts']);
      assert.equal((await initKernels('auto')).name, 'ts');
      await assert.rejects(initKernels('wasm-simd'), /'wasm-simd' is not available: .*WebAssembly SIMD/);
      await assert.rejects(createWasmSimdKernel(), /'wasm-simd' is not available/);
      assert.equal(getKernel(), tsKernel);
    } finally {
      WebAssembly.validate = validate;
    }
  });

  it('every test runs on the kernel ATTN_KERNEL and ATTN_THREADS name (test/unit/kernels-setup.ts; ts when unset)', () => {
    const requested = process.env.ATTN_KERNEL || 'ts';
    const expected = requested === 'auto' ? availableKernels()[0] : requested;
    assert.equal(getKernel().name, expected);
    const threads = expected === 'wasm-simd' ? Number(process.env.ATTN_THREADS || 1) : 1;
    assert.equal(getKernel().threads ?? 1, threads);
  });

  it('rejects an unknown preference, naming the accepted ones', async () => {
    await assert.rejects(initKernels('gpu' as KernelPreference), /unknown kernel 'gpu' \(expected auto, wasm-simd, ts\)/);
  });
});

describe('kernels: argument checks', () => {
  const kernels: Kernel[] = [tsKernel];
  before(async () => {
    kernels.push(await createWasmSimdKernel());
  });

  const good = (): GemmArgs => ({
    m: 2,
    n: 3,
    k: 4,
    a: new Float32Array(8),
    aOff: 0,
    lda: 4,
    b: new Float32Array(12),
    bOff: 0,
    ldb: 3,
    transB: false,
    c: new Float32Array(6),
    cOff: 0,
    ldc: 3,
  });

  const badGemm: [string, Partial<GemmArgs> | Record<string, unknown>, RegExp][] = [
    ['negative m', { m: -1 }, /gemm: m must be a non-negative integer, got -1/],
    ['fractional k', { k: 1.5 }, /gemm: k must be a non-negative integer, got 1.5/],
    ['lda narrower than k', { lda: 3 }, /gemm: lda = 3 is smaller than the 4 columns of a/],
    ['A past its array', { aOff: 1 }, /gemm: a is viewed as 2x4 at offset 1 with lda = 4, which needs 9 elements, but the array has 8/],
    ['B past its array (transB)', { transB: true, ldb: 5 }, /gemm: b is viewed as 3x4 at offset 0 with ldb = 5, which needs 14 elements, but the array has 12/],
    ['C past its array', { ldc: 4 }, /gemm: c is viewed as 2x3 at offset 0 with ldc = 4, which needs 7 elements, but the array has 6/],
    ['a Float64Array', { a: new Float64Array(8) }, /gemm: a must be a Float32Array/],
    ['beta 2', { beta: 2 }, /gemm: beta must be 0 or 1, got 2/],
    ['transB missing', { transB: undefined }, /gemm: transB must be a boolean/],
  ];
  for (const [what, patch, message] of badGemm) {
    it(`gemm rejects ${what}`, () => {
      for (const kernel of kernels) {
        const args = { ...good(), ...patch };
        const before = args.c.slice();
        assert.throws(() => kernel.gemm(args), message, kernel.name);
        assert.deepEqual(args.c, before, `${kernel.name} left C alone`);
      }
    });
  }

  it('softmaxRows rejects bad views and modes', () => {
    for (const kernel of kernels) {
      const x = new Float32Array(6);
      assert.throws(
        () => kernel.softmaxRows({ x, off: 0, rows: 2, cols: 3, ld: 2, fullyMasked: 'nan' }),
        /softmaxRows: ld = 2 is smaller than the 3 columns of x/,
      );
      assert.throws(
        () => kernel.softmaxRows({ x, off: 1, rows: 2, cols: 3, ld: 3, fullyMasked: 'nan' }),
        /softmaxRows: x is viewed as 2x3 at offset 1 .* needs 7 elements, but the array has 6/,
      );
      assert.throws(() => kernel.softmaxRows({ x, off: 0, rows: -2, cols: 3, ld: 3, fullyMasked: 'nan' }), /softmaxRows: rows must be a non-negative integer/);
      assert.throws(
        () => kernel.softmaxRows({ x, off: 0, rows: 2, cols: 3, ld: 3, fullyMasked: 'none' as 'nan' }),
        /softmaxRows: fullyMasked must be 'nan' or 'zero', got none/,
      );
    }
  });
});
