// Rotary position embeddings (RoPE) as HF transformers computes them, in float32 like torch:
//   inv_freq[i] = 1 / theta^(2i / rotaryDim)            i = 0 .. rotaryDim/2 − 1   (then scaled, below)
//   angle[t, i] = position[t] · inv_freq[i];  cos/sin tables (T, rotaryDim) repeat the rotaryDim/2 angles twice
//   x_rot = x·cos + rotate_half(x)·sin,  rotate_half([x1, x2]) = [−x2, x1]   (halves of the rotary dims)
// Dims past rotaryDim (partial rotary, e.g. Phi's partial_rotary_factor < 1) pass through unchanged.
// Scalings: 'linear' divides every frequency by factor; 'llama3' (Llama 3.1+) divides the low frequencies
// (wavelength > original_max / low_freq_factor) by factor, keeps the high ones (wavelength < original_max /
// high_freq_factor) and interpolates smoothly between. Pure.

export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositions: number };

export interface RopeSpec {
  /** Base θ of the frequencies (rope_theta). */
  theta: number;
  /** Leading dims of each head that rotate (even, ≤ head_dim). */
  rotaryDim: number;
  scaling: RopeScaling;
}

const f = Math.fround;

/** The rotaryDim/2 inverse frequencies, float32 as torch computes them, after the spec's scaling. */
export function ropeInverseFrequencies(spec: RopeSpec): Float32Array {
  const { theta, rotaryDim } = spec;
  if (!Number.isInteger(rotaryDim) || rotaryDim < 2 || rotaryDim % 2 !== 0)
    throw new Error(`RoPE: the rotary dims must be an even number ≥ 2, got ${rotaryDim}`);
  if (!(theta > 0) || !Number.isFinite(theta)) throw new Error(`RoPE: rope_theta must be a positive number, got ${theta}`);
  const half = rotaryDim / 2;
  const inv = new Float32Array(half);
  // torch: 1.0 / (base ** (arange(0, dim, 2).float() / dim)), each step in float32
  for (let i = 0; i < half; i++) inv[i] = f(1 / f(theta ** f((2 * i) / rotaryDim)));
  const s = spec.scaling;
  if (s.type === 'linear') {
    for (let i = 0; i < half; i++) inv[i] = f(inv[i] / s.factor);
  } else if (s.type === 'llama3') {
    const lowFreqWavelen = s.originalMaxPositions / s.lowFreqFactor;
    const highFreqWavelen = s.originalMaxPositions / s.highFreqFactor;
    for (let i = 0; i < half; i++) {
      const wavelen = f((2 * Math.PI) / inv[i]);
      if (wavelen > lowFreqWavelen)
        inv[i] = f(inv[i] / s.factor); // low frequencies: interpolated
      else if (wavelen >= highFreqWavelen) {
        // medium: a smooth blend of the two
        const smooth = f((s.originalMaxPositions / wavelen - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor));
        inv[i] = f(f(((1 - smooth) * inv[i]) / s.factor) + f(smooth * inv[i]));
      }
    }
  }
  return inv;
}

export interface RopeTables {
  /** (T, rotaryDim) each: cos/sin of position·inv_freq, the rotaryDim/2 angles repeated twice. */
  cos: Float32Array;
  sin: Float32Array;
  rotaryDim: number;
}

/** cos and sin tables for the given positions (float32 angles, as torch's float32 product gives). */
export function ropeTables(invFreq: Float32Array, positions: ArrayLike<number>): RopeTables {
  const half = invFreq.length;
  const D = 2 * half;
  const T = positions.length;
  const cos = new Float32Array(T * D);
  const sin = new Float32Array(T * D);
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < half; i++) {
      const angle = f(positions[t] * invFreq[i]);
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      cos[t * D + i] = c;
      cos[t * D + half + i] = c;
      sin[t * D + i] = s;
      sin[t * D + half + i] = s;
    }
  }
  return { cos, sin, rotaryDim: D };
}

/**
 * Rotates x (H, T, hd) in place: the first rotaryDim dims of every head at every position by that
 * position's angles (tables from ropeTables for the same T positions).
 */
export function applyRopeInPlace(x: Float32Array, H: number, T: number, hd: number, tables: RopeTables): void {
  const { cos, sin, rotaryDim: D } = tables;
  if (D > hd) throw new Error(`RoPE: ${D} rotary dims exceed the head dim ${hd}`);
  if (x.length !== H * T * hd || cos.length !== T * D)
    throw new Error(`RoPE: x has ${x.length} values for (${H}, ${T}, ${hd}), tables cover ${cos.length / D} positions`);
  const half = D / 2;
  for (let h = 0; h < H; h++) {
    for (let t = 0; t < T; t++) {
      const o = (h * T + t) * hd;
      const c = t * D;
      for (let i = 0; i < half; i++) {
        const x1 = x[o + i];
        const x2 = x[o + half + i];
        // [x1, x2]·cos + [−x2, x1]·sin, each product rounded to float32 as torch does
        x[o + i] = f(x1 * cos[c + i]) - f(x2 * sin[c + i]);
        x[o + half + i] = f(x2 * cos[c + half + i]) + f(x1 * sin[c + half + i]);
      }
    }
  }
}

/**
 * The inverse rotation: x_rot (T, hd) of one head back to x before RoPE, a fresh array (the debugger shows
 * q and k before and after the rotation; exact up to float32 rounding).
 */
export function unrotateRope(xRot: Float32Array, T: number, hd: number, tables: RopeTables): Float32Array {
  const { cos, sin, rotaryDim: D } = tables;
  const half = D / 2;
  const x = new Float32Array(xRot);
  for (let t = 0; t < T; t++) {
    const o = t * hd;
    const c = t * D;
    for (let i = 0; i < half; i++) {
      const a = xRot[o + i];
      const b = xRot[o + half + i];
      x[o + i] = a * cos[c + i] + b * sin[c + i];
      x[o + half + i] = b * cos[c + half + i] - a * sin[c + half + i];
    }
  }
  return x;
}
