// Random weights for the benches (GPT-2 small, the Qwen2.5-0.5B-shaped folder).
/** A fast deterministic N(0, std²) fill (xorshift32 + Box–Muller) for the benches' random weights; the values only need to be plausible. */
export function fillNormal(out: Float32Array, std: number, state: { s: number }): void {
  const uniform = () => {
    let x = state.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    state.s = x >>> 0;
    return (state.s + 0.5) / 4294967296;
  };
  for (let i = 0; i < out.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(uniform())) * std;
    const t = 2 * Math.PI * uniform();
    out[i] = r * Math.cos(t);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(t);
  }
}
