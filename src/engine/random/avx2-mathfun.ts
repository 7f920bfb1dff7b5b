// Lane-by-lane emulation of the float32 `log` and `sincos` approximations that PyTorch's AVX2 normal
// sampler uses (ATen's `native/cpu/avx_mathfun.h`, Giovanni Garberoglio's AVX port of Julien Pommier's SSE
// versions of the Cephes `logf`, `sinf` and `cosf`). Re-implemented here for one lane at a time: to match
// bit for bit the steps and the Cephes coefficients have to be the same, the code is our own.
//
// Bit-exactness rules:
// - every float32 operation is rounded with `Math.fround` (float64 then float32 rounding is exact for
//   +, −, ×, /, sqrt; see ./float32.ts);
// - GCC compiles PyTorch with `-ffp-contract=fast` and FMA enabled for the AVX2 kernels, so a multiply whose
//   only consumers are additions/subtractions is fused into them (`fmaF32`, one rounding). Where an addition
//   has two multiplied operands, GCC fuses the multiply that comes first in program order and rounds the other
//   one separately; the comments below say which operand that is at each such place.
//
// Verification: torch's own numbers (test/unit/random: torch_rng.json, scaling_stats.json), and, during
// development, the same intrinsic sequence compiled by GCC 12 (-O2 -mavx2 -mfma) for every input the sampler
// can produce (all 2^24 values of u1 for log and of u2 for sincos): identical bits everywhere. The fusing
// choices matter; over those inputs the alternatives differ from GCC's code on: the sine's last step unfused
// 0.9%, the cosine's `yc·z − z/2` fused the other way 0.1%, the log's `y·z + e·Q1` fused the other way 0.04%,
// the Horner steps unfused 0.08%, the range reduction unfused 3 inputs.
import { float32Bits as bitsOf, float32FromBits as fromBits, fmaF32 as fusedMultiplyAdd } from './float32';

// Module-local bindings: when this file is loaded through a CommonJS transform (tsx, mocha), every use of an
// imported name goes through a getter, which costs more than the arithmetic in these hot loops.
const float32Bits = bitsOf;
const float32FromBits = fromBits;
const fmaF32 = fusedMultiplyAdd;
const f = Math.fround;

// --- log ---------------------------------------------------------------------------------------------------
const ONE = 1;
const HALF = 0.5;
const MIN_NORM_POS = float32FromBits(0x00800000); // smallest normal float32, 2^-126
const SQRT_HALF = f(0.707106781186547524);
const LOG_P0 = f(7.0376836292e-2);
const LOG_P1 = f(-1.151461031e-1);
const LOG_P2 = f(1.167699874e-1);
const LOG_P3 = f(-1.2420140846e-1);
const LOG_P4 = f(1.4249322787e-1);
const LOG_P5 = f(-1.6668057665e-1);
const LOG_P6 = f(2.0000714765e-1);
const LOG_P7 = f(-2.4999993993e-1);
const LOG_P8 = f(3.3333331174e-1);
/** ln 2 split in two: LOG_Q2 (few bits, so e·LOG_Q2 is exact) + LOG_Q1 (the small remainder). */
const LOG_Q1 = f(-2.1219444e-4);
const LOG_Q2 = f(0.693359375);

/**
 * Natural logarithm of a float32 `x` as the AVX2 `log256_ps` computes it (one lane). NaN for x ≤ 0;
 * subnormal inputs are clamped to the smallest normal float32, and a NaN input yields log(2^-126), both as
 * the vector code does (`max_ps` returns its second operand when the first is NaN).
 */
export function logAvx2(x: number): number {
  const invalid = x <= 0;
  let v = x > MIN_NORM_POS ? x : MIN_NORM_POS;

  // Split v = m · 2^k with m in [0.5, 1): k from the biased exponent, m by forcing the exponent of 0.5.
  const bits = float32Bits(v);
  let e = f((bits >>> 23) - 0x7f + ONE); // exact small integer
  v = float32FromBits((bits & ~0x7f800000) | 0x3f000000);

  // If m < sqrt(1/2): e -= 1, v = 2m − 1; else v = m − 1.
  const small = v < SQRT_HALF;
  const tmp = small ? v : 0;
  v = f(v - ONE);
  e = f(e - (small ? ONE : 0));
  v = f(v + tmp);

  const z = f(v * v);
  // Horner in v: each y·v + p is one fused multiply-add.
  let y = fmaF32(LOG_P0, v, LOG_P1);
  y = fmaF32(y, v, LOG_P2);
  y = fmaF32(y, v, LOG_P3);
  y = fmaF32(y, v, LOG_P4);
  y = fmaF32(y, v, LOG_P5);
  y = fmaF32(y, v, LOG_P6);
  y = fmaF32(y, v, LOG_P7);
  y = fmaF32(y, v, LOG_P8);
  y = f(y * v); // feeds a multiply: not fused
  // y·z + e·Q1: y·z comes first in program order and is fused; e·Q1 is rounded on its own.
  y = fmaF32(y, z, f(e * LOG_Q1));
  // y − z·0.5 (z·0.5 is exact, so fusing does not matter).
  y = fmaF32(-z, HALF, y);
  // (v + y) + e·Q2 (e·Q2 is exact).
  v = fmaF32(e, LOG_Q2, f(v + y));
  return invalid ? NaN : v;
}

// --- sincos ------------------------------------------------------------------------------------------------
/** −π/4 split in three parts (extended-precision range reduction). DP1, DP2 have few bits. */
const MINUS_DP1 = f(-0.78515625);
const MINUS_DP2 = f(-2.4187564849853515625e-4);
const MINUS_DP3 = f(-3.77489497744594108e-8);
const SIN_P0 = f(-1.9515295891e-4);
const SIN_P1 = f(8.3321608736e-3);
const SIN_P2 = f(-1.6666654611e-1);
const COS_P0 = f(2.443315711809948e-5);
const COS_P1 = f(-1.388731625493765e-3);
const COS_P2 = f(4.166664568298827e-2);
const FOUR_OVER_PI = f(1.27323954473516);

/** Flips the sign bit of a float32 value (an XOR with 0x80000000), −0 ↔ +0 included. */
const flipSign = (v: number): number => -v;

/**
 * sin and cos of a float32 `x` as the AVX2 `sincos256_ps` computes them (one lane). Accurate range
 * reduction only for |x| < 8192, like the original; |x|·4/π must fit in an int32. Writes into `out`
 * (`out[0]` = sin, `out[1]` = cos) to avoid allocating in the sampler's inner loop.
 */
export function sincosAvx2(x: number, out: Float64Array | number[]): void {
  let signSin = x < 0 || Object.is(x, -0);
  let v = Math.abs(x);

  // Octant: j = (trunc(|x|·4/π) + 1) & ~1, an even integer; yj = j as float32.
  const scaled = f(v * FOUR_OVER_PI);
  const j = ((Math.trunc(scaled) | 0) + 1) & ~1;
  const yj = j; // small integer, exact in float32
  if (j & 4) signSin = !signSin;
  const usePolySinForSin = (j & 2) === 0;
  const signCos = (~(j - 2) & 4) !== 0;

  // v = ((v − yj·DP1) − yj·DP2) − yj·DP3, each step one fused multiply-add.
  v = fmaF32(yj, MINUS_DP1, v);
  v = fmaF32(yj, MINUS_DP2, v);
  v = fmaF32(yj, MINUS_DP3, v);

  const z = f(v * v);

  // Cosine polynomial on [−π/4, π/4]: 1 − z/2 + z²·(c2 + z·(c1 + z·c0)).
  let yc = fmaF32(COS_P0, z, COS_P1);
  yc = fmaF32(yc, z, COS_P2);
  yc = f(yc * z); // feeds a multiply: not fused
  // yc·z − z·0.5: yc·z comes first in program order and is fused; z·0.5 is exact anyway.
  yc = fmaF32(yc, z, -f(z * HALF));
  yc = f(yc + ONE);

  // Sine polynomial: v + v·z·(s2 + z·(s1 + z·s0)).
  let ys = fmaF32(SIN_P0, z, SIN_P1);
  ys = fmaF32(ys, z, SIN_P2);
  ys = f(ys * z); // feeds a multiply: not fused
  ys = fmaF32(ys, v, v);

  // Select with masks, exactly as the vector code combines them (the masked-out value is +0).
  const sinFromSinPoly = usePolySinForSin ? ys : 0;
  const sinFromCosPoly = usePolySinForSin ? 0 : yc;
  const cosFromSinPoly = f(ys - sinFromSinPoly);
  const cosFromCosPoly = f(yc - sinFromCosPoly);
  const sinValue = f(sinFromCosPoly + sinFromSinPoly);
  const cosValue = f(cosFromCosPoly + cosFromSinPoly);

  out[0] = signSin ? flipSign(sinValue) : sinValue;
  out[1] = signCos ? flipSign(cosValue) : cosValue;
}
