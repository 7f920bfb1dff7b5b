// Small helpers shared by the engine tests (not themselves tests).
import type { Tensor } from '../../../src/engine/tensor';

/**
 * A deterministic standard-normal sampler, independent of the engine: uniforms from a Weyl sequence
 * passed through the murmur3 finaliser (good low-dimensional spread, unlike a bare LCG), then Box–Muller.
 */
export function normalSampler(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z = (z ^ (z >>> 16)) >>> 0;
    return (z + 0.5) / 4294967296;
  };
  let spare = NaN;
  return () => {
    if (spare === spare) {
      const x = spare;
      spare = NaN;
      return x;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const t = 2 * Math.PI * uniform();
    spare = r * Math.sin(t);
    return r * Math.cos(t);
  };
}

/** A tensor of standard-normal values. */
export function randn(shape: number[], seed: number): Tensor {
  const next = normalSampler(seed);
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = next();
  return { data, shape };
}

/** Row i of a dense 2-D tensor as a plain array. */
export function row(t: Tensor, i: number): number[] {
  const w = t.shape[t.shape.length - 1];
  return Array.from(t.data.subarray(i * w, (i + 1) * w));
}
