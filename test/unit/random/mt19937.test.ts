import { strict as assert } from 'node:assert';
import { MT19937 } from '../../../src/engine/random/mt19937';

describe('MT19937', () => {
  it('gives the reference outputs for seed 5489', () => {
    // Matsumoto & Nishimura's reference generator (mt19937ar.c) seeded with init_genrand(5489), the default
    // seed of C++ std::mt19937.
    const mt = new MT19937(5489);
    const first = Array.from({ length: 10 }, () => mt.nextUint32());
    assert.deepEqual(first, [3499211612, 581869302, 3890346734, 3586334585, 545404204, 4161255391, 3922919429, 949333985, 2715962298, 1323567403]);
  });

  it('gives 4123659995 as its 10000th output for seed 5489 (the C++ standard check for std::mt19937)', () => {
    const mt = new MT19937(5489);
    let v = 0;
    for (let i = 0; i < 10000; i++) v = mt.nextUint32();
    assert.equal(v, 4123659995);
  });

  it('uses the seed modulo 2^32 and re-seeding restarts the sequence', () => {
    const a = new MT19937(2 ** 32 + 7);
    const b = new MT19937(7);
    for (let i = 0; i < 5; i++) assert.equal(a.nextUint32(), b.nextUint32());
    a.seed(7);
    const c = new MT19937(7);
    for (let i = 0; i < 700; i++) assert.equal(a.nextUint32(), c.nextUint32()); // crosses a twist
  });

  it('clone continues the same sequence independently', () => {
    const a = new MT19937(1);
    for (let i = 0; i < 1000; i++) a.nextUint32();
    const b = a.clone();
    const fromA = Array.from({ length: 300 }, () => a.nextUint32());
    const fromB = Array.from({ length: 300 }, () => b.nextUint32());
    assert.deepEqual(fromA, fromB);
  });
});
