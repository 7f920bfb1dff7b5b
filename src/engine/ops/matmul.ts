// Batched matrix product on the kernel's gemm. Operands may be strided views: a matrix whose rows are
// contiguous (or whose columns are, for the right operand) is passed to gemm with its leading dimension,
// so a per-head slice such as q[b, :, h*hd:(h+1)*hd] or a transposed kᵀ is never copied.
import { getKernel } from '../kernels';
import { type Tensor, type TensorLike, type TensorView, contiguous, forEachIndex, formatShape, numel, tryBroadcastShapes, view } from '../tensor';

/** How gemm reads one [rows, cols] matrix of a view: row-major with a leading dim, or transposed. */
export interface MatrixLayout {
  /** true: element (r, c) at off + r*ld + c. false: at off + c*ld + r (a column-major / transposed matrix). */
  rowMajor: boolean;
  ld: number;
}

/**
 * The gemm layout of the last two dims of `v`, or null when gemm cannot read it in place: neither rows
 * nor columns are contiguous, or the leading dimension is narrower than a row (overlapping or broadcast
 * rows, as in an expanded view), which BLAS-style kernels reject.
 */
export function matrixLayout(v: TensorView): MatrixLayout | null {
  const rank = v.shape.length;
  const [rows, cols] = [v.shape[rank - 2], v.shape[rank - 1]];
  const [rs, cs] = [v.strides[rank - 2], v.strides[rank - 1]];
  // Row-major: element (r, c) at r*ld + c.
  if (cs === 1 || cols === 1) {
    const ld = rows === 1 ? Math.max(cols, 1) : rs;
    if (rows === 1 || ld >= cols) return { rowMajor: true, ld };
  }
  // Column-major: element (r, c) at c*ld + r.
  if (rs === 1 || rows === 1) {
    const ld = cols === 1 ? Math.max(rows, 1) : cs;
    if (cols === 1 || ld >= rows) return { rowMajor: false, ld };
  }
  return null;
}

/** `v` unchanged if gemm can read it as is, else a dense copy (as a view). */
function gemmReadable(v: TensorView, needRowMajor: boolean): TensorView {
  const layout = matrixLayout(v);
  if (layout && (layout.rowMajor || !needRowMajor)) return v;
  return view(contiguous(v));
}

/**
 * torch.matmul for operands of rank ≥ 1: a [..., M, K] · b [..., K, N] → [..., M, N], batch dims broadcast.
 * A 1-D `a` is a row vector [K] and a 1-D `b` a column vector [K]; their added dim is removed again.
 */
export function matmul(a: TensorLike, b: TensorLike): Tensor {
  let av = view(a);
  let bv = view(b);
  if (av.shape.length === 0 || bv.shape.length === 0) {
    throw new Error(`matmul: operands must have rank ≥ 1, got ${formatShape(av.shape)} and ${formatShape(bv.shape)}`);
  }
  const aVector = av.shape.length === 1;
  const bVector = bv.shape.length === 1;
  // [K] → [1, K] and [K] → [K, 1].
  if (aVector) av = { ...av, shape: [1, av.shape[0]], strides: [0, av.strides[0]] };
  if (bVector) bv = { ...bv, shape: [bv.shape[0], 1], strides: [bv.strides[0], 0] };
  const out = batchedMatmul(av, bv);
  // Drop the dims the vector promotion added.
  const shape = [...out.shape];
  if (bVector) shape.splice(shape.length - 1, 1);
  if (aVector) shape.splice(shape.length - (bVector ? 1 : 2), 1);
  return { data: out.data, shape };
}

function batchedMatmul(a: TensorView, b: TensorView): Tensor {
  const ra = a.shape.length;
  const rb = b.shape.length;
  const [m, k] = [a.shape[ra - 2], a.shape[ra - 1]];
  const [k2, n] = [b.shape[rb - 2], b.shape[rb - 1]];
  if (k !== k2) {
    throw new Error(`matmul: inner dims differ: a ${formatShape(a.shape)} has ${k} columns but b ${formatShape(b.shape)} has ${k2} rows`);
  }
  const aBatch = a.shape.slice(0, ra - 2);
  const bBatch = b.shape.slice(0, rb - 2);
  const batch = tryBroadcastShapes(aBatch, bBatch);
  if (!batch) {
    throw new Error(`matmul: batch dims of a ${formatShape(a.shape)} and b ${formatShape(b.shape)} do not broadcast`);
  }
  const A = gemmReadable(a, true);
  const B = gemmReadable(b, false);
  const aLayout = matrixLayout(A)!;
  const bLayout = matrixLayout(B)!;
  const c = new Float32Array(numel(batch) * m * n);
  const kernel = getKernel();
  forEachIndex(batch, [batchStrides(A, batch), batchStrides(B, batch)], [A.offset, B.offset], (i, [aOff, bOff]) => {
    if (m === 0 || n === 0) return;
    kernel.gemm({
      m,
      n,
      k,
      a: A.data,
      aOff,
      lda: aLayout.ld,
      b: B.data,
      bOff,
      ldb: bLayout.ld,
      transB: !bLayout.rowMajor,
      c,
      cOff: i * m * n,
      ldc: n,
    });
  });
  return { data: c, shape: [...batch, m, n] };
}

/** Strides of the batch dims of a matrix view, aligned to `batch` (0 where the view broadcasts). */
export function batchStrides(v: TensorView, batch: readonly number[]): number[] {
  const own = v.shape.length - 2;
  const lead = batch.length - own;
  return batch.map((_, d) => (d < lead || v.shape[d - lead] === 1 ? 0 : v.strides[d - lead]));
}
