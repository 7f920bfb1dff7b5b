// A PyTorch-compatible random generator: `new TorchGenerator(seed).randn(2, 3)` gives the same float32 bits
// as `torch.manual_seed(seed); torch.randn(2, 3)` on an x86-64 CPU build of PyTorch (checked against
// torch 2.14.1 in test/unit/random). The algorithms, from ATen's CPU generator and distribution kernels:
//
// - Engine: MT19937 seeded with the low 32 bits of the (64-bit) seed. `random()` is one 32-bit output;
//   `random64()` is two, the first being the high word.
// - Float uniform in [0, 1): `(random() & (2^24 − 1)) · 2^-24`. Double uniform: `(random64() & (2^53 − 1)) · 2^-53`.
// - `rand(shape)`: one float uniform per element, in row-major order.
// - `randn(shape)` with fewer than 16 elements: one double-precision Box–Muller normal per element, cast to
//   float32. Each Box–Muller step draws u1, u2 (double uniforms) and yields r·cos θ and r·sin θ with
//   r = sqrt(−2·log1p(−u2)), θ = 2π·u1; it returns the cosine and keeps the sine in the generator, and the
//   next small normal draw consumes that cached value first. The cache survives between calls and is cleared
//   only by `manualSeed`.
// - `randn(shape)` with 16 or more elements (a contiguous float32 tensor): first N float uniforms, then, for
//   each whole block of 16, Box–Muller in float32 over the pairs (j, j+8), j = 0..7, with u1 = 1 − d[j],
//   u2 = d[j+8], radius = sqrt(−2·log(u1)), θ = float32(2π)·u2, d[j] = radius·cos θ, d[j+8] = radius·sin θ.
//   If N is not a multiple of 16, 16 fresh uniforms replace the last 16 elements and that block is redone.
//   log and sincos are the AVX2 polynomial approximations (./avx2-mathfun.ts), not libm. This path neither
//   reads nor clears the cached small-path normal.
//
// Limits of the bit-for-bit claim: the small path uses the JS engine's log1p/cos/sin, which may differ from
// glibc's in the last float64 bit; that can change the float32 result only when the float64 value also lies
// within about one float64 ulp of a float32 rounding boundary (at most about 1 in 2^28 elements). PyTorch
// builds that do not run the AVX2 kernel (ARM, or other x86 capability levels) use libm for the large path
// and give slightly different numbers for N ≥ 16.
import { numel, type Tensor } from '../tensor';
import { logAvx2 as log32, sincosAvx2 as sincos32 } from './avx2-mathfun';
import { MT19937 } from './mt19937';

// Module-local bindings for the hot loop (see avx2-mathfun.ts: imported names cost a getter call under a
// CommonJS transform).
const logAvx2 = log32;
const sincosAvx2 = sincos32;

/** Anything `torch.manual_seed` accepts: an integer in [−2^63, 2^64 − 1] (as a number it must be a safe integer). */
export type TorchSeed = number | bigint;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
/** Below this many elements `randn` uses the scalar double-precision Box–Muller path. */
export const RANDN_VECTOR_THRESHOLD = 16;
/** The largest number of elements one call may draw (2^31 − 1, i.e. 8 GiB of float32): a guard against absurd shapes. */
export const MAX_DRAW_ELEMENTS = 2 ** 31 - 1;

const TWO_POW_MINUS_24 = 2 ** -24;
const TWO_POW_MINUS_53 = 2 ** -53;
const TWO_POW_32 = 2 ** 32;
const TWO_PI_F32 = Math.fround(2 * Math.PI);

/**
 * Converts a seed to the unsigned 64-bit value PyTorch stores: non-negative seeds as they are, negative ones
 * as their two's complement (2^64 + seed), which is what `torch.manual_seed` does.
 */
export function normalizeTorchSeed(seed: TorchSeed, argName = 'seed'): bigint {
  let big: bigint;
  if (typeof seed === 'bigint') {
    big = seed;
  } else if (typeof seed === 'number') {
    if (!Number.isInteger(seed)) throw new Error(`${argName} must be an integer, got ${seed}`);
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`${argName} ${seed} is beyond 2^53 and cannot be represented exactly as a number; pass it as a bigint`);
    }
    big = BigInt(seed);
  } else {
    throw new Error(`${argName} must be an integer number or a bigint, got ${typeof seed}`);
  }
  if (big < INT64_MIN || big > UINT64_MAX) {
    throw new Error(`${argName} must be in [-2^63, 2^64 - 1] (the range torch.manual_seed accepts), got ${big}`);
  }
  return big < 0n ? big + (1n << 64n) : big;
}

/** Validates a shape given as `randn(2, 3)` or `randn([2, 3])` and returns it as a fresh array. */
function parseShape(fnName: string, dims: ReadonlyArray<number | readonly number[]>): number[] {
  const shape = dims.length === 1 && Array.isArray(dims[0]) ? [...(dims[0] as readonly number[])] : [...(dims as number[])];
  for (const d of shape) {
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 0) {
      throw new Error(`${fnName}: every dimension must be a non-negative integer, got [${shape.join(', ')}]`);
    }
  }
  const n = numel(shape);
  if (n > MAX_DRAW_ELEMENTS) {
    throw new Error(`${fnName}: shape [${shape.join(', ')}] has ${n} elements, more than the ${MAX_DRAW_ELEMENTS} one call may draw`);
  }
  return shape;
}

export class TorchGenerator {
  private engine: MT19937;
  private seed64: bigint;
  /** The cached second value of the last scalar (double) Box–Muller pair, if not consumed yet. */
  private nextDoubleNormal: number | undefined;
  private readonly sincosOut = new Float64Array(2);

  /** `seed` defaults to torch's default CPU seed, 67280421310721 (what an unseeded torch process uses). */
  constructor(seed: TorchSeed = 67280421310721n) {
    this.seed64 = normalizeTorchSeed(seed);
    this.engine = new MT19937(Number(this.seed64 & 0xffffffffn));
  }

  /** Like `torch.manual_seed(seed)`: re-seeds the engine and clears the cached normal value. */
  manualSeed(seed: TorchSeed): this {
    this.seed64 = normalizeTorchSeed(seed);
    this.engine.seed(Number(this.seed64 & 0xffffffffn));
    this.nextDoubleNormal = undefined;
    return this;
  }

  /** Like `torch.initial_seed()`: the seed as the unsigned 64-bit integer torch keeps (negative seeds wrapped). */
  initialSeed(): bigint {
    return this.seed64;
  }

  /** A generator in exactly this state (engine position and cached normal): both continue identically. */
  clone(): TorchGenerator {
    const copy = new TorchGenerator(this.seed64);
    copy.engine = this.engine.clone();
    copy.nextDoubleNormal = this.nextDoubleNormal;
    return copy;
  }

  /** One raw 32-bit output of the engine (torch's `random()`). */
  random32(): number {
    return this.engine.nextUint32();
  }

  /** A float32 uniform in [0, 1) from one 32-bit draw (torch's `uniform_real_distribution<float>(0, 1)`). */
  uniformFloat32(): number {
    return (this.engine.nextUint32() & 0xffffff) * TWO_POW_MINUS_24;
  }

  /** A float64 uniform in [0, 1) from two 32-bit draws (torch's `uniform_real_distribution<double>(0, 1)`). */
  uniformFloat64(): number {
    const hi = this.engine.nextUint32();
    const lo = this.engine.nextUint32();
    // (hi·2^32 + lo) & (2^53 − 1), then · 2^-53; both steps exact in float64.
    return ((hi & 0x1fffff) * TWO_POW_32 + lo) * TWO_POW_MINUS_53;
  }

  /** One standard normal in float64, by the scalar Box–Muller step with the cache (torch's `normal_distribution<double>`). */
  normalFloat64(): number {
    const cached = this.nextDoubleNormal;
    if (cached !== undefined) {
      this.nextDoubleNormal = undefined;
      return cached + 0; // torch applies `x·std + mean` with std 1, mean 0, which turns −0 into +0
    }
    const u1 = this.uniformFloat64();
    const u2 = this.uniformFloat64();
    const r = Math.sqrt(-2 * Math.log1p(-u2));
    const theta = 2 * Math.PI * u1;
    this.nextDoubleNormal = r * Math.sin(theta);
    return r * Math.cos(theta) + 0;
  }

  /** Like `torch.rand(*shape)` (float32): uniforms in [0, 1). Accepts `rand(2, 3)` or `rand([2, 3])`. */
  rand(...dims: Array<number | readonly number[]>): Tensor {
    const shape = parseShape('rand', dims);
    const data = new Float32Array(numel(shape));
    this.fillUniform(data);
    return { data, shape };
  }

  /** Like `torch.randn(*shape)` (float32): standard normals. Accepts `randn(2, 3)` or `randn([2, 3])`. */
  randn(...dims: Array<number | readonly number[]>): Tensor {
    const shape = parseShape('randn', dims);
    const data = new Float32Array(numel(shape));
    this.fillNormal(data);
    return { data, shape };
  }

  /** Fills `out` in order with float32 uniforms in [0, 1), as `torch.Tensor.uniform_()` does on a contiguous tensor. */
  fillUniform(out: Float32Array): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = this.uniformFloat32();
    return out;
  }

  /**
   * Fills `out` with standard normals as `torch.Tensor.normal_()` does on a contiguous float32 tensor of
   * `out.length` elements (the scalar path below 16 elements, the vectorised block path from 16 on).
   */
  fillNormal(out: Float32Array): Float32Array {
    const n = out.length;
    if (n < RANDN_VECTOR_THRESHOLD) {
      for (let i = 0; i < n; i++) out[i] = this.normalFloat64();
      return out;
    }
    this.fillUniform(out);
    for (let start = 0; start + 16 <= n; start += 16) this.boxMuller16(out, start);
    if (n % 16 !== 0) {
      // Redraw the last 16 elements (overwriting part of the last whole block) and transform them again.
      const start = n - 16;
      for (let i = start; i < n; i++) out[i] = this.uniformFloat32();
      this.boxMuller16(out, start);
    }
    return out;
  }

  /**
   * Box–Muller on the 16 float32 uniforms at out[start .. start+15], in place, as the AVX2 kernel does it:
   * lane j (0..7) pairs u1 = 1 − out[start+j] with u2 = out[start+j+8].
   */
  private boxMuller16(out: Float32Array, start: number): void {
    const sc = this.sincosOut;
    for (let j = 0; j < 8; j++) {
      const u1 = Math.fround(1 - out[start + j]);
      const u2 = out[start + j + 8];
      const radius = Math.fround(Math.sqrt(Math.fround(-2 * logAvx2(u1))));
      const theta = Math.fround(TWO_PI_F32 * u2);
      sincosAvx2(theta, sc);
      // fmadd(n, std = 1, mean = 0) is exact except that it turns −0 into +0.
      out[start + j] = Math.fround(radius * sc[1]) + 0;
      out[start + j + 8] = Math.fround(radius * sc[0]) + 0;
    }
  }
}
