// Mocha setup (registered in .mocharc.json "require"): fast-check's global configuration for every property test
// of the unit suite, so that a clean-clone `npm test` draws the same cases on every run and machine.
//
//   (unset)        every property runs with the fixed seed below and its own numRuns (fast-check's default 100)
//   FC_SEED=N      every property runs with seed N instead
//   FC_FUZZ=1      fresh random seeds, and FC_NUM_RUNS runs (default 1000) for properties that do not set their
//                  own numRuns: `npm run test:fuzz` (the files that use fast-check, 10-minute test timeout), a
//                  nightly-style search for new counterexamples
//
// A failing property prints its seed and path (fast-check's "{ seed: N, path: ... }"): rerun with FC_SEED=N to
// reproduce it, and keep the counterexample as a unit test. Properties that pass their own `seed` keep it.
import fc from 'fast-check';

/** The seed of a deterministic run (any fixed integer; changing it changes every drawn case). */
export const DEFAULT_FC_SEED = 20261202;

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return n;
}

const fuzz = process.env.FC_FUZZ === '1' || process.env.FC_FUZZ === 'true';
const seed = intFromEnv('FC_SEED');
if (fuzz) {
  const numRuns = intFromEnv('FC_NUM_RUNS') ?? 1000;
  fc.configureGlobal({ numRuns, ...(seed !== undefined ? { seed } : {}) });
  console.log(`fast-check: fuzzing with ${seed !== undefined ? `seed ${seed}` : 'fresh random seeds'}, ${numRuns} runs per property without its own numRuns`);
} else {
  fc.configureGlobal({ seed: seed ?? DEFAULT_FC_SEED });
  if (seed !== undefined) console.log(`fast-check: seed ${seed} (FC_SEED)`);
}
