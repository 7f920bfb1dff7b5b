// Random gemm cases shared by the kernel tests: shapes, views (offsets, leading dimensions wider than the matrix),
// transB, alpha, beta, NaN-filled C, and NaN/±Inf operands placed anywhere.
import fc from 'fast-check';
import type { GemmArgs, Kernel } from '../../../src/engine/kernels';
import { expectGemmClose, randomArray, referenceGemm } from './reference';

export interface Special {
  operand: 'a' | 'b' | 'c';
  /** position in the operand's array, as a fraction of its length */
  at: number;
  value: number;
}

export interface Case {
  m: number;
  n: number;
  k: number;
  transB: boolean;
  aOff: number;
  bOff: number;
  cOff: number;
  ldaExtra: number;
  ldbExtra: number;
  ldcExtra: number;
  alpha: number;
  beta: 0 | 1;
  /** fill C with NaN before the call (beta 0 must ignore it) */
  nanC: boolean;
  seed: number;
  specials: Special[];
}

/** Builds the arrays of a case: every element (also outside the views) random, then the specials. */
export function build(cs: Case): GemmArgs {
  const { m, n, k, transB } = cs;
  const lda = k + cs.ldaExtra;
  const [bRows, bCols] = transB ? [n, k] : [k, n];
  const ldb = bCols + cs.ldbExtra;
  const ldc = n + cs.ldcExtra;
  const a = randomArray(cs.aOff + (m - 1) * lda + k + 2, cs.seed);
  const b = randomArray(cs.bOff + (bRows - 1) * ldb + bCols + 3, cs.seed + 1);
  const c = cs.nanC ? new Float32Array(cs.cOff + (m - 1) * ldc + n + 1).fill(NaN) : randomArray(cs.cOff + (m - 1) * ldc + n + 1, cs.seed + 2);
  for (const s of cs.specials) {
    const arr = s.operand === 'a' ? a : s.operand === 'b' ? b : c;
    arr[Math.min(arr.length - 1, Math.floor(s.at * arr.length))] = s.value;
  }
  return { m, n, k, a, aOff: cs.aOff, lda, b, bOff: cs.bOff, ldb, transB, c, cOff: cs.cOff, ldc, alpha: cs.alpha, beta: cs.beta };
}

export function check(kernel: Kernel, args: GemmArgs, label: string): void {
  const ref = referenceGemm(args);
  const c = args.c.slice();
  kernel.gemm({ ...args, c });
  expectGemmClose(c, ref, args, `${kernel.name} ${label}`);
}

export const caseArb = (maxDim: number): fc.Arbitrary<Case> =>
  fc.record({
    m: fc.integer({ min: 1, max: maxDim }),
    n: fc.integer({ min: 1, max: maxDim }),
    k: fc.integer({ min: 1, max: maxDim }),
    transB: fc.boolean(),
    aOff: fc.integer({ min: 0, max: 7 }),
    bOff: fc.integer({ min: 0, max: 7 }),
    cOff: fc.integer({ min: 0, max: 7 }),
    ldaExtra: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
    ldbExtra: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
    ldcExtra: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
    alpha: fc.constantFrom(1, 0.125, -2.5, 0, 0.3),
    beta: fc.constantFrom(0 as const, 1 as const),
    nanC: fc.boolean(),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    specials: fc.constant([] as Special[]),
  });

export const specialsArb = fc.array(
  fc.record({
    operand: fc.constantFrom('a' as const, 'b' as const, 'c' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    value: fc.constantFrom(NaN, Infinity, -Infinity, 0),
  }),
  { minLength: 1, maxLength: 4 },
);

export const label = (cs: Case): string =>
  `m=${cs.m} n=${cs.n} k=${cs.k} transB=${cs.transB} offs=${cs.aOff},${cs.bOff},${cs.cOff} ` +
  `ld+=${cs.ldaExtra},${cs.ldbExtra},${cs.ldcExtra} alpha=${cs.alpha} beta=${cs.beta}`;

export const base: Case = {
  m: 1,
  n: 1,
  k: 1,
  transB: false,
  aOff: 0,
  bOff: 0,
  cOff: 0,
  ldaExtra: 0,
  ldbExtra: 0,
  ldcExtra: 0,
  alpha: 1,
  beta: 0,
  nanC: false,
  seed: 1,
  specials: [],
};
