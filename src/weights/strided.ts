// Strided views (offset + shape + strides, counted in elements, as torch and NumPy describe arrays) and
// their materialisation into the contiguous row-major layout a Tensor requires.

/** Column-major (Fortran order) strides for `shape`. */
export function fortranOrderStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = 0; i < shape.length; i++) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

/** True when the view is already row-major contiguous (dims of size 1 may carry any stride). */
export function isCOrderContiguous(shape: readonly number[], strides: readonly number[]): boolean {
  let expected = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] === 1) continue;
    if (strides[i] !== expected) return false;
    expected *= shape[i];
  }
  return true;
}

/**
 * One past the largest element index the view touches (0 for an empty view). Strides are
 * non-negative here (torch and NumPy files never store negative ones), so the extreme is at the last
 * index of every dim.
 */
export function viewEnd(offset: number, shape: readonly number[], strides: readonly number[]): number {
  let last = offset;
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 0) return 0;
    last += (shape[i] - 1) * strides[i];
  }
  return last + 1;
}

/**
 * Copies the view (offset, shape, strides) of `src` into a new contiguous row-major Float32Array.
 * The caller has checked `viewEnd(...) <= src.length`.
 */
export function materializeStrided(src: Float32Array, offset: number, shape: readonly number[], strides: readonly number[]): Float32Array {
  let count = 1;
  for (const d of shape) count *= d;
  const out = new Float32Array(count);
  if (count === 0) return out;
  const rank = shape.length;
  if (rank === 0) {
    out[0] = src[offset];
    return out;
  }
  const inner = shape[rank - 1];
  const innerStride = strides[rank - 1];
  const index = new Array<number>(rank - 1).fill(0); // counter over the outer dims
  let base = offset;
  let o = 0;
  for (;;) {
    for (let j = 0, p = base; j < inner; j++, p += innerStride) out[o++] = src[p];
    // Advance the outer counter, odometer style.
    let d = rank - 2;
    while (d >= 0) {
      index[d]++;
      base += strides[d];
      if (index[d] < shape[d]) break;
      base -= strides[d] * shape[d];
      index[d] = 0;
      d--;
    }
    if (d < 0) return out;
  }
}
