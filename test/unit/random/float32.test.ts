import { strict as assert } from 'node:assert';
import { float32Bits, float32FromBits, fmaF32 } from '../../../src/engine/random/float32';

// Independent reference: exact rational arithmetic with BigInt, then round-to-nearest-even to float32.

/** A finite float32 as m · 2^e with integer m (exact). */
function decompose(x: number): { m: bigint; e: number } {
  const bits = float32Bits(x);
  const sign = bits >>> 31 ? -1n : 1n;
  const expField = (bits >>> 23) & 0xff;
  const frac = BigInt(bits & 0x7fffff);
  if (expField === 0) return { m: sign * frac, e: -149 };
  return { m: sign * (frac | 0x800000n), e: expField - 150 };
}

/** Rounds the exact value n · 2^e (n integer) to float32, ties to even, with subnormals and overflow. */
function roundToFloat32(n: bigint, e: number, zeroSign: number): number {
  if (n === 0n) return zeroSign < 0 ? -0 : 0;
  const neg = n < 0n;
  let mag = neg ? -n : n;
  // Bring the value to the form mag · 2^e with mag having exactly 24 bits (or fewer at the subnormal floor),
  // keeping the discarded bits for rounding.
  const bitLen = mag.toString(2).length;
  let shift = bitLen - 24; // right shift needed for 24 significant bits
  if (e + shift < -149) shift = -149 - e; // subnormal: the last kept bit has weight 2^-149
  if (shift > 0) {
    const big = BigInt(shift);
    const kept = mag >> big;
    const rem = mag - (kept << big);
    const half = 1n << (big - 1n);
    let q = kept;
    if (rem > half || (rem === half && (kept & 1n) === 1n)) q += 1n;
    mag = q;
    e += shift;
  } else if (shift < 0) {
    // exact: fewer than 24 bits
  }
  const result = Number(mag) * 2 ** e; // exact unless it overflows float32
  const f = Math.fround(result);
  if (f !== result) {
    // Only possible by overflow (mag·2^e ≥ 2^128): the rounded value is beyond the largest float32.
    return neg ? -Infinity : Infinity;
  }
  return neg ? -result : result;
}

function exactFma(a: number, b: number, c: number): number {
  const A = decompose(a);
  const B = decompose(b);
  const C = decompose(c);
  const pm = A.m * B.m;
  const pe = A.e + B.e;
  const e = Math.min(pe, C.e);
  const sum = (pm << BigInt(pe - e)) + (C.m << BigInt(C.e - e));
  // Sign of an exact zero: +0 unless both addends are −0 (round to nearest).
  const prodNegZero = pm === 0n && (Math.sign(a) * Math.sign(b) < 0 || Object.is(a * b, -0));
  const zeroSign = prodNegZero && Object.is(c, -0) ? -1 : 1;
  return roundToFloat32(sum, e, zeroSign);
}

/** A deterministic stream of float32 values with a controlled exponent range (xorshift32). */
function makeFloat32Source(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return (minExp: number, maxExp: number): number => {
    const exp = minExp + (next() % (maxExp - minExp + 1));
    const frac = next() & 0x7fffff;
    const sign = next() & 1 ? 0x80000000 : 0;
    return float32FromBits(sign | ((exp + 127) << 23) | frac);
  };
}

const same = (x: number, y: number) => Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y));

describe('fmaF32 (exact float32 fused multiply-add)', () => {
  it('rounds once where float64 double rounding lands on a float32 midpoint', () => {
    // Exact a·b + c = 1 + 2^-23 + 2^-24 − 2^-70: just below the midpoint, so the answer is 1 + 2^-23.
    const a = Math.fround(1 + 2 ** -23);
    const b = Math.fround(2 ** -24 * (1 - 2 ** -23));
    const c = Math.fround(1 + 2 ** -23);
    const naive = Math.fround(a * b + c);
    assert.equal(naive, 1 + 2 ** -22, 'the naive float64 route should show the double-rounding error');
    assert.equal(fmaF32(a, b, c), 1 + 2 ** -23);
    assert.equal(exactFma(a, b, c), 1 + 2 ** -23);
    // Mirror image: just above a midpoint whose tie would go down to even.
    const c2 = Math.fround(1 + 2 ** -22);
    const b2 = Math.fround(2 ** -24 * (1 + 2 ** -23));
    const a2 = Math.fround(1 + 2 ** -23); // a2·b2 = 2^-24 + 2^-46 + 2^-70
    assert.equal(fmaF32(a2, b2, c2), exactFma(a2, b2, c2));
  });

  it('matches exact rational arithmetic on crafted near-midpoint cases in both directions', () => {
    // a·b = ulp(c)/2 · (1 − 2^-46): the exact sum sits 2^-47 ulp from a float32 midpoint, which float64
    // rounds onto the midpoint. The signs of a and c choose whether the exact value is just inside or just
    // outside the midpoint relative to |c|.
    let checked = 0;
    let naiveWrong = 0;
    for (let k = 0; k < 200; k++) {
      const cBase = Math.fround((1 + (2 * k + 1) * 2 ** -23) * 2 ** ((k % 7) - 3));
      const ulp = 2 ** (Math.floor(Math.log2(cBase)) - 23);
      for (const signA of [-1, 1]) {
        for (const signC of [-1, 1]) {
          const a = signA * Math.fround(1 + 2 ** -23);
          const b = Math.fround((ulp / 2) * (1 - 2 ** -23));
          const c = signC * cBase;
          const want = exactFma(a, b, c);
          const got = fmaF32(a, b, c);
          assert.ok(same(got, want), `fma(${a}, ${b}, ${c}) = ${got}, exact ${want}`);
          if (!same(Math.fround(a * b + c), want)) naiveWrong++;
          checked++;
        }
      }
    }
    assert.equal(checked, 800);
    assert.ok(naiveWrong > 0, 'these cases should include ones the naive float64 route gets wrong');
  });

  it('matches exact rational arithmetic on random inputs (wide exponent gaps, cancellation, subnormals)', () => {
    const rnd = makeFloat32Source(12345);
    const ranges: Array<[number, number]> = [
      [-3, 3], // similar magnitudes: cancellation
      [-30, 30], // wide gaps between a·b and c
      [-126, -100], // subnormal results
    ];
    let mismatches = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const [lo, hi] = ranges[i % ranges.length];
      const a = rnd(lo, hi);
      const b = rnd(Math.max(lo, -60), Math.min(hi + 10, 60));
      const c = i % 5 === 0 ? Math.fround(-a * b) : rnd(lo, hi);
      const want = exactFma(a, b, c);
      if (!same(fmaF32(a, b, c), want)) mismatches++;
    }
    assert.equal(mismatches, 0);
  });

  it('handles signed zeros, infinities, NaN and the overflow threshold', () => {
    assert.ok(Object.is(fmaF32(-0, 1, -0), -0));
    assert.ok(Object.is(fmaF32(1, -0, 0), 0));
    assert.ok(Object.is(fmaF32(2, 3, -6), 0));
    assert.equal(fmaF32(Infinity, 1, 5), Infinity);
    assert.ok(Number.isNaN(fmaF32(Infinity, 0, 1)));
    assert.ok(Number.isNaN(fmaF32(NaN, 1, 1)));
    const max = float32FromBits(0x7f7fffff); // 2^128 − 2^104
    // max + 2^103 − 2^57: just below the overflow threshold 2^128 − 2^103, which float64 rounds onto.
    const a = Math.fround(1 + 2 ** -23);
    const b = Math.fround(2 ** 103 * (1 - 2 ** -23));
    assert.equal(Math.fround(a * b + max), Infinity, 'the naive route overflows');
    assert.equal(fmaF32(a, b, max), max);
    assert.equal(exactFma(a, b, max), max);
    assert.equal(fmaF32(-a, b, -max), -max);
    assert.equal(fmaF32(1, Math.fround(2 ** 103), max), Infinity); // exactly on the threshold: ties to even, overflow
    assert.equal(fmaF32(2, max, -max), max);
  });
});
