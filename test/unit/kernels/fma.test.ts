// The fused multiply-add (relaxed SIMD) WebAssembly kernel against the exact one and the PyTorch oracle.
//
// Where the runtime has relaxed SIMD (Node 22+, VS Code's Electron; Node 20 with --experimental-wasm-relaxed-simd,
// which `npm run test:kernels` passes for this file), the FMA kernel must agree with the exact kernel to a
// relative 1e-5 on gemm, with the float64 reference within the float32 error bound, and with the PyTorch
// attention fixtures to 1e-5; 'auto' must pick it, and 'wasm-simd' and `exact: true` must not. Where the runtime
// lacks relaxed SIMD, asking for it must fail with a clear error and 'auto' must stay exact. Either way the
// suite prints which runtime ran it; ATTN_REQUIRE_FMA=1 makes a runtime without relaxed SIMD a failure.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { multiheadAttention, scaledDotProductAttention, type AnyTensor } from '../../../src/engine';
import {
  createParallelWasmSimdKernel,
  createWasmSimdKernel,
  getKernel,
  initKernels,
  setKernel,
  wasmFmaSupported,
  type GemmArgs,
  type Kernel,
} from '../../../src/engine/kernels';
import { sharedSimdKernelBytes, simdKernelBytes } from '../../../src/engine/kernels/simd-module';
import { assertClose, loadFixture, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';
import { spawnKernelHelper } from './helpers/spawn';
import { expectGemmClose, randomArray, referenceGemm } from './reference';
import { build, caseArb, label, type Case } from './cases';

type FixtureCase = {
  name: string;
  params: Record<string, any>;
  inputs: Record<string, JsonTensor>;
  expected: Record<string, JsonTensor>;
  weights?: Record<string, JsonTensor>;
};

const fma = wasmFmaSupported();
const runtime = `Node.js ${process.version} (V8 ${process.versions.v8}), relaxed SIMD ${fma ? 'available' : 'NOT available'}`;

/** Occurrences of f32x4.relaxed_madd's opcode (0xfd 0x85 0x02) in a module's bytes. */
function relaxedMadds(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xfd && bytes[i + 1] === 0x85 && bytes[i + 2] === 0x02) count++;
  return count;
}

/** gemm on a copy of args.c. */
function run(kernel: Kernel, args: GemmArgs): Float32Array {
  const c = args.c.slice();
  kernel.gemm({ ...args, c });
  return c;
}

/** |fused - exact| <= 1e-5 · (|alpha|·Σ|a·b| + |beta·c|) for every element, and the same NaN/±Inf. */
function expectAgree(fused: Float32Array, exact: Float32Array, args: GemmArgs, what: string): void {
  const { scale } = referenceGemm(args);
  for (let at = 0; at < exact.length; at++) {
    const [f, e] = [fused[at], exact[at]];
    if (!Number.isFinite(e)) {
      assert.ok(Object.is(f, e), `${what}: element ${at} is ${f} with FMA, ${e} exact`);
      continue;
    }
    const tol = 1e-5 * scale[at] + 1e-30;
    assert.ok(Math.abs(f - e) <= tol, `${what}: element ${at} is ${f} with FMA, ${e} exact (tolerance ${tol})`);
  }
}

describe(`kernels: fused multiply-add (${runtime})`, () => {
  before(() => {
    console.log(`    FMA tests run on ${runtime}`);
    if (process.env.ATTN_REQUIRE_FMA === '1') assert.ok(fma, `ATTN_REQUIRE_FMA=1 but ${runtime}`);
  });

  it('the FMA modules use relaxed_madd for the 8 multiply-accumulates of each of the two micro-kernels; the exact ones never', () => {
    assert.equal(relaxedMadds(simdKernelBytes(false)), 0);
    assert.equal(relaxedMadds(sharedSimdKernelBytes(false)), 0);
    assert.equal(relaxedMadds(simdKernelBytes(true)), 16); // $micro and $microPacked, 8 each
    assert.equal(relaxedMadds(sharedSimdKernelBytes(true)), 16);
    assert.equal(WebAssembly.validate(simdKernelBytes(true)), fma, 'the probe and the FMA module agree on support');
  });

  if (!fma) {
    it('without relaxed SIMD: asking for FMA fails clearly, and auto stays exact', async () => {
      await assert.rejects(createWasmSimdKernel({ fma: true }), /fused multiply-add WebAssembly kernel is not available: .*relaxed SIMD/);
      await assert.rejects(createParallelWasmSimdKernel(spawnKernelHelper, { fma: true }), /relaxed SIMD/);
      const saved = getKernel();
      try {
        const auto = await initKernels('auto');
        assert.equal(auto.name, 'wasm-simd');
        assert.equal(auto.fma, false);
      } finally {
        setKernel(saved);
      }
    });
    return;
  }

  let exact: Kernel;
  let fused: Kernel;
  let fusedPackedA: Kernel;
  let fusedSplit: Kernel;
  before(async () => {
    exact = await createWasmSimdKernel();
    fused = await createWasmSimdKernel({ fma: true });
    fusedPackedA = await createWasmSimdKernel({ fma: true, packAMinN: 0 });
    fusedSplit = await createWasmSimdKernel({ fma: true, maxStagedFloats: 700 });
  });

  it("'auto' picks the FMA module; 'wasm-simd' and exact: true keep the exact one", async () => {
    const saved = getKernel();
    try {
      const auto = await initKernels('auto');
      assert.equal(auto.name, 'wasm-simd');
      assert.equal(auto.fma, true);
      assert.equal((await initKernels('auto', { exact: true })).fma, false);
      assert.equal((await initKernels('wasm-simd')).fma, false);
      assert.equal(await initKernels('auto'), auto, 'instantiated once');
    } finally {
      setKernel(saved);
    }
    assert.equal(exact.fma, false);
    assert.equal(fused.fma, true);
  });

  it('gemm agrees with the exact kernel to relative 1e-5, and with float64 within the float32 bound (random views)', () => {
    fc.assert(
      fc.property(caseArb(70), (cs: Case) => {
        const args = build(cs);
        const want = run(exact, args);
        const ref = referenceGemm(args);
        for (const kernel of [fused, fusedPackedA, fusedSplit]) {
          const got = run(kernel, args);
          expectGemmClose(got, ref, args, `fma ${label(cs)}`);
          expectAgree(got, want, args, `fma ${label(cs)}`);
        }
      }),
      { numRuns: 100, seed: 0xf3a },
    );
  });

  it('gemm agrees on a model-sized product (256 x 768 x 768, transB) and reports how many elements differ', () => {
    const [m, n, k] = [256, 768, 768];
    const args: GemmArgs = {
      m,
      n,
      k,
      a: randomArray(m * k, 1),
      aOff: 0,
      lda: k,
      b: randomArray(n * k, 2),
      bOff: 0,
      ldb: k,
      transB: true,
      c: new Float32Array(m * n),
      cOff: 0,
      ldc: n,
      alpha: 0.125,
      beta: 0,
    };
    const want = run(exact, args);
    const got = run(fused, args);
    expectAgree(got, want, args, 'fma 256x768x768');
    let differ = 0;
    for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) differ++;
    console.log(`    FMA vs exact, 256x768x768: ${differ} of ${want.length} elements differ in their last bits`);
  });

  it('the two-thread FMA kernel agrees with the exact one when every product is split', async () => {
    const two = await createParallelWasmSimdKernel(spawnKernelHelper, { fma: true, minParallelMulAdds: 0 });
    assert.ok(two, 'shared WebAssembly memory is available');
    try {
      assert.equal(two.fma, true);
      assert.equal(two.threads, 2);
      const [m, n, k] = [96, 200, 130];
      const args: GemmArgs = {
        m,
        n,
        k,
        a: randomArray(m * k, 3),
        aOff: 0,
        lda: k,
        b: randomArray(k * n, 4),
        bOff: 0,
        ldb: n,
        transB: false,
        c: randomArray(m * n, 5),
        cOff: 0,
        ldc: n,
        alpha: -2.5,
        beta: 1,
      };
      expectAgree(run(two, args), run(exact, args), args, 'two-thread fma');
      assert.ok(two.counters.splitGemms > 0, 'the product was split between the threads');
    } finally {
      two.dispose();
    }
  });

  describe('the PyTorch attention oracle under the FMA kernel (abs 1e-5)', () => {
    const sdpa = loadFixture<{ cases: FixtureCase[] }>('sdpa');
    const mha = loadFixture<{ cases: FixtureCase[] }>('mha');
    let saved: Kernel;
    beforeEach(() => {
      saved = getKernel();
      setKernel(fused);
    });
    afterEach(() => setKernel(saved));

    it('every sdpa.json case: out and probs', () => {
      for (const c of sdpa.cases) {
        const [q, k, v] = [c.inputs.q, c.inputs.k, c.inputs.v].map(toFloat);
        const r = scaledDotProductAttention(q, k, v, {
          attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
          isCausal: c.params.is_causal,
          scale: c.params.scale ?? undefined,
          enableGqa: c.params.enable_gqa,
        });
        assertClose(r.out, c.expected.out, { atol: 1e-5, label: `fma: ${c.name} out` });
        assertClose(r.probs, c.expected.probs, { atol: 1e-5, label: `fma: ${c.name} probs` });
      }
    });

    it('every mha.json case: output and weights', () => {
      for (const c of mha.cases) {
        const w = c.weights!;
        const r = multiheadAttention(
          toFloat(c.inputs.query),
          toFloat(c.inputs.key),
          toFloat(c.inputs.value),
          {
            numHeads: c.params.num_heads,
            inProjWeight: toFloat(w.in_proj_weight),
            inProjBias: toFloat(w.in_proj_bias),
            outProjWeight: toFloat(w.out_proj_weight),
            outProjBias: toFloat(w.out_proj_bias),
          },
          {
            keyPaddingMask: c.inputs.key_padding_mask ? (toTensor(c.inputs.key_padding_mask) as AnyTensor) : undefined,
            attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
            needWeights: c.params.need_weights,
            averageAttnWeights: c.params.average_attn_weights,
          },
        );
        assertClose(r.out, c.expected.attn_output, { atol: 1e-5, label: `fma: ${c.name} out` });
        if (c.expected.attn_weights) assertClose(r.weights!, c.expected.attn_weights, { atol: 1e-5, label: `fma: ${c.name} weights` });
      }
    });
  });
});
