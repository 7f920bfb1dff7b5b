// Pure-TypeScript kernel: the portable fallback and the reference the faster kernels are tested against.
import type { GemmArgs, Kernel, SoftmaxRowsArgs } from './kernel';

function gemm({ m, n, k, a, aOff, lda, b, bOff, ldb, transB, c, cOff, ldc, alpha = 1, beta = 0 }: GemmArgs): void {
  if (beta === 0) {
    for (let i = 0; i < m; i++) c.fill(0, cOff + i * ldc, cOff + i * ldc + n);
  }
  if (transB) {
    // C[i, j] += alpha · Σ_p A[i, p] · B[j, p]: both operands are read along contiguous rows.
    for (let i = 0; i < m; i++) {
      const ai = aOff + i * lda;
      const ci = cOff + i * ldc;
      for (let j = 0; j < n; j++) {
        const bj = bOff + j * ldb;
        let s = 0;
        for (let p = 0; p < k; p++) s += a[ai + p] * b[bj + p];
        c[ci + j] += alpha * s;
      }
    }
    return;
  }
  // C[i, :] += alpha · A[i, p] · B[p, :]: the i-p-j order streams rows of B and C.
  for (let i = 0; i < m; i++) {
    const ai = aOff + i * lda;
    const ci = cOff + i * ldc;
    for (let p = 0; p < k; p++) {
      const aip = alpha * a[ai + p];
      if (aip === 0 && Number.isFinite(aip)) continue;
      const bp = bOff + p * ldb;
      for (let j = 0; j < n; j++) c[ci + j] += aip * b[bp + j];
    }
  }
}

function softmaxRows({ x, off, rows, cols, ld, fullyMasked }: SoftmaxRowsArgs): void {
  for (let r = 0; r < rows; r++) {
    const start = off + r * ld;
    const end = start + cols;
    let max = -Infinity;
    // Math.max propagates NaN, so a row holding a NaN becomes all NaN, as in torch.
    for (let j = start; j < end; j++) max = Math.max(max, x[j]);
    if (max === -Infinity) {
      x.fill(fullyMasked === 'zero' ? 0 : NaN, start, end);
      continue;
    }
    let sum = 0;
    for (let j = start; j < end; j++) {
      const e = Math.exp(x[j] - max);
      x[j] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let j = start; j < end; j++) x[j] *= inv;
  }
}

export const tsKernel: Kernel = { name: 'ts', gemm, softmaxRows };
