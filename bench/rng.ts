// Micro-benchmark of the PyTorch-compatible generator: prints draws per second for the raw engine, rand,
// and both randn paths. Numbers only, no assertions (the machine is shared and noisy).
// Run: npx tsx bench/rng.ts
import { MT19937, TorchGenerator } from '../src/engine/random';

function rate(label: string, draws: number, run: () => void): void {
  run(); // warm up the JIT
  const reps = 5;
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(reps / 2)];
  const perSecond = draws / (median / 1000);
  console.log(`${label.padEnd(40)} ${(perSecond / 1e6).toFixed(2).padStart(8)} M draws/s   (median of ${reps}: ${median.toFixed(1)} ms for ${draws} draws)`);
}

const N = 1 << 20;
const mt = new MT19937(0);
rate('MT19937.nextUint32', N, () => {
  let x = 0;
  for (let i = 0; i < N; i++) x ^= mt.nextUint32();
  if (x === 0.5) console.log(x); // keep the loop alive
});
const gen = new TorchGenerator(0);
rate('rand(N)', N, () => void gen.rand(N));
rate('randn(N), N >= 16 (AVX2 block path)', N, () => void gen.randn(N));
const small = 1 << 16;
rate('randn(8) x many (scalar Box-Muller path)', small * 8, () => {
  for (let i = 0; i < small; i++) gen.randn(8);
});
const buf = new Float32Array(768 * 768);
rate('fillNormal 768x768 (one d_model^2 matrix)', buf.length, () => void gen.fillNormal(buf));
