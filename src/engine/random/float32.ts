// Exact float32 arithmetic in JavaScript, for emulating C++ float code bit for bit.
//
// JS numbers are float64. For float32 inputs a and b, `Math.fround(a op b)` is the correctly rounded float32
// result of +, -, *, / and `Math.fround(Math.sqrt(a))` that of sqrt: rounding twice (to 53 bits, then to 24)
// is harmless when the wide format has at least 2·24 + 2 = 50 bits (Figueroa, "When is double rounding
// innocuous?", 1995). A fused multiply-add is different: a·b + c must be rounded ONCE, and the wide sum
// a·b + c generally needs more than 53 bits, so `Math.fround(a * b + c)` can be wrong. See `fmaF32`.

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** The IEEE-754 bit pattern of a float32 value (the argument is rounded to float32 first). */
export function float32Bits(x: number): number {
  f32Scratch[0] = x;
  return u32Scratch[0];
}

/** The float32 value whose bit pattern is `bits` (taken as an unsigned 32-bit integer). */
export function float32FromBits(bits: number): number {
  u32Scratch[0] = bits >>> 0;
  return f32Scratch[0];
}

/** Largest finite float32, 2^128 − 2^104. */
const FLOAT32_MAX = 3.4028234663852886e38;
/** The rounding threshold to infinity: halfway between FLOAT32_MAX and 2^128 (exactly representable in float64). */
const FLOAT32_OVERFLOW_MIDPOINT = 3.4028235677973366e38;

/**
 * The float32 fused multiply-add `fma(a, b, c) = round_f32(a·b + c)` with a single rounding, exactly as the
 * x86 `vfmadd` instructions compute it (round to nearest, ties to even). `a`, `b` and `c` must already be
 * float32 values (results of `Math.fround`); the result is a float32 value.
 *
 * Why this is exact:
 * 1. `p = a * b` is exact in float64: two 24-bit significands give at most 48 bits, and the exponent range of
 *    float32 products (down to 2^-298) lies well inside float64's normal range.
 * 2. `s = p + c` rounds once, to float64. TwoSum (Knuth) recovers the exact error `err = (p + c) − s`, so the
 *    exact sum is `s + err`.
 * 3. Rounding `s` to float32 (`Math.fround`) is the correct answer for `s + err` unless double rounding bites.
 *    It can bite only when `err ≠ 0` AND `s` lies exactly on a float32 midpoint (halfway between two adjacent
 *    float32 values): float32 midpoints are float64 numbers, so the first rounding never carries the value
 *    across a midpoint, but it can land *on* one, and then `Math.fround` breaks the (false) tie to even while
 *    the exact value lies strictly on one side. Example: a = 1 + 2^-23, b = 2^-24·(1 − 2^-23), c = 1 + 2^-23
 *    gives the exact 1 + 2^-23 + 2^-24 − 2^-70, which must round down to 1 + 2^-23; float64 first gives the
 *    midpoint 1 + 2^-23 + 2^-24, which ties to even, up, to 1 + 2^-22.
 *    In that case we pick the neighbour on the side of `err`'s sign. The same reasoning covers the overflow
 *    threshold (the "midpoint" between FLOAT32_MAX and 2^128) and the subnormal range, where the float32 grid
 *    is uniform and its midpoints are still float64 numbers.
 * Overflow of the float64 intermediate is impossible (|a·b| < 2^256), so `err` is always finite for finite
 * inputs. NaN and infinite inputs follow IEEE semantics through ordinary float64 arithmetic.
 */
export function fmaF32(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  // Fast path: s is not a float32 midpoint, so rounding it is correct whatever the float64 error was.
  const diff = s - r; // exact: s and r are within one float32 ulp of each other
  const other = r + 2 * diff; // the float32 on the other side of s, if s is the midpoint between r and it
  if (diff === 0 || Math.fround(other) !== other) {
    // diff === 0: s is a float32 value, and s + err rounds to s since |err| is at most half a float64 ulp.
    // NaN and ±Infinity (from the inputs, or s overflowing float64, impossible for finite float32 inputs)
    // land here too and are returned as IEEE arithmetic gives them.
    if (r === r && Math.abs(r) !== Infinity) return r;
    if (!Number.isFinite(s)) return r;
    return roundedToInfinity(s, p, c, r);
  }
  // s is a float32 midpoint: the correct result is the neighbour on the side of the exact value.
  const err = twoSumError(p, c, s);
  if (err === 0) return r; // a true tie, which Math.fround already broke to even
  return err > 0 ? Math.max(r, other) : Math.min(r, other);
}

/** The exact error of the float64 sum s = fl(p + c): p + c = s + err (Knuth's TwoSum). */
function twoSumError(p: number, c: number, s: number): number {
  const cVirtual = s - p;
  return p - (s - cVirtual) + (c - cVirtual);
}

/** Finite s rounded to ±Infinity in float32: wrong only on the overflow threshold when the exact sum is inside it. */
function roundedToInfinity(s: number, p: number, c: number, r: number): number {
  if (Math.abs(s) === FLOAT32_OVERFLOW_MIDPOINT) {
    const err = twoSumError(p, c, s);
    if (err !== 0 && Math.sign(err) !== Math.sign(s)) return Math.sign(s) * FLOAT32_MAX;
  }
  return r;
}
