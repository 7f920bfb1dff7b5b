// Softmax over any dim, numerically stable (the kernel subtracts each row's max).
import { getKernel } from '../kernels';
import { type Tensor, type TensorLike, contiguous, normalizeDim, permute, view } from '../tensor';

export interface SoftmaxOptions {
  /** What a slice whose every entry is -inf becomes: 'nan' like torch.softmax (default) or 'zero' like SDPA. */
  fullyMasked?: 'nan' | 'zero';
}

/** torch.softmax(x, dim): exp(x - max) / Σ exp(x - max) along `dim`. */
export function softmax(x: TensorLike, dim: number, options: SoftmaxOptions = {}): Tensor {
  const v = view(x);
  const rank = v.shape.length;
  if (rank === 0) throw new Error('softmax: input must have rank ≥ 1, got a scalar');
  const d = normalizeDim(dim, rank, 'softmax: dim');
  const fullyMasked = options.fullyMasked ?? 'nan';
  if (d === rank - 1) {
    const out = contiguous(v);
    const data = out.data === v.data ? out.data.slice() : out.data; // never write into the caller's buffer
    softmaxLastDim(data, v.shape[rank - 1], fullyMasked);
    return { data, shape: [...v.shape] };
  }
  // Move `dim` last, normalise rows, move it back: perm swaps d and the last dim.
  const perm = Array.from({ length: rank }, (_, i) => i);
  perm[d] = rank - 1;
  perm[rank - 1] = d;
  const moved = contiguous(permute(v, perm)); // (..., shape[d])
  const data = moved.data === v.data ? moved.data.slice() : moved.data;
  softmaxLastDim(data, v.shape[d], fullyMasked);
  return contiguous(permute({ data, shape: moved.shape }, perm)); // back to v.shape
}

function softmaxLastDim(data: Float32Array, cols: number, fullyMasked: 'nan' | 'zero'): void {
  if (cols === 0 || data.length === 0) return;
  const rows = data.length / cols;
  getKernel().softmaxRows({ x: data, off: 0, rows, cols, ld: cols, fullyMasked });
}
