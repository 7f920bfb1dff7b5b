// GELU, exact (erf) and tanh-approximated ("gelu_new" in GPT-2), plus the erf they need.
import { type Tensor, type TensorLike, contiguous } from '../tensor';

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/**
 * erf(x) in float64, accurate to ~1e-15 absolute: a Taylor series for |x| < 3 and the complement's
 * continued fraction beyond (see erfc).
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  if (a >= 3) return Math.sign(x) * (1 - erfcLarge(a));
  // erf(x) = 2/√π Σ_n (-1)^n x^(2n+1) / (n! (2n+1))
  const x2 = x * x;
  let term = x; // (-1)^n x^(2n+1) / n!
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= -x2 / n;
    const add = term / (2 * n + 1);
    sum += add;
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * sum;
}

/** erfc(x) = 1 - erf(x), without cancellation for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= 3) return erfcLarge(x);
  if (x <= -3) return 2 - erfcLarge(-x);
  return 1 - erf(x);
}

/**
 * erfc(x) for x ≥ 3 by the continued fraction
 * erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), evaluated bottom-up.
 */
function erfcLarge(x: number): number {
  if (x > 27) return 0; // e^{-x²} underflows
  let f = x;
  for (let n = 60; n >= 1; n--) f = x + n / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Exact GELU of one number: x·Φ(x) = ½·x·erfc(-x/√2). */
export function geluScalar(x: number): number {
  return 0.5 * x * erfc(-x / Math.SQRT2);
}

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/** GELU's tanh approximation (torch's approximate='tanh', HF's "gelu_new"). */
export function geluTanhScalar(x: number): number {
  return 0.5 * x * (1 + Math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
}

/** F.gelu(x, approximate): 'none' = exact erf form (BERT), 'tanh' = gelu_new (GPT-2). */
export function gelu(x: TensorLike, approximate: 'none' | 'tanh' = 'none'): Tensor {
  const xs = contiguous(x);
  const f = approximate === 'tanh' ? geluTanhScalar : geluScalar;
  const out = new Float32Array(xs.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(xs.data[i]);
  return { data: out, shape: [...xs.shape] };
}

/** HF's "gelu_new" = gelu(x, 'tanh'). */
export function geluNew(x: TensorLike): Tensor {
  return gelu(x, 'tanh');
}
