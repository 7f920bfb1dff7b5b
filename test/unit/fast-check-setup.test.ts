import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DEFAULT_FC_SEED } from './fast-check-setup';

describe('fast-check global configuration (test/unit/fast-check-setup.ts)', () => {
  const fuzz = process.env.FC_FUZZ === '1' || process.env.FC_FUZZ === 'true';
  const envSeed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

  it('fixes the seed of every property unless fuzzing (FC_SEED overrides it)', () => {
    const { seed } = fc.readConfigureGlobal();
    if (fuzz) assert.equal(seed, envSeed);
    else assert.equal(seed, envSeed ?? DEFAULT_FC_SEED);
  });

  it('draws the same cases twice with a fixed seed; fuzzing, gives properties FC_NUM_RUNS runs', () => {
    const { seed, numRuns } = fc.readConfigureGlobal();
    if (seed === undefined) {
      assert.equal(numRuns, process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 1000);
      return;
    }
    const draw = () => fc.sample(fc.string({ unit: 'grapheme', maxLength: 8 }), 20);
    assert.deepEqual(draw(), draw());
  });
});
