// Broadcasting of captured tensors (masks, token ids) to the shape of the attention they belong to.

/** Whether `shape` broadcasts to `target` with torch's rules (aligned from the right). */
export function broadcastsTo(shape: readonly number[], target: readonly number[]): boolean {
  if (shape.length > target.length) {
    // Leading dims of size 1 beyond the target's rank are harmless.
    const extra = shape.length - target.length;
    if (shape.slice(0, extra).some((d) => d !== 1)) return false;
    return broadcastsTo(shape.slice(extra), target);
  }
  const off = target.length - shape.length;
  return shape.every((d, i) => d === 1 || d === target[off + i]);
}

/** Materialises `data` of `shape` broadcast to `target` (row-major). Caller checks broadcastsTo first. */
export function broadcastTo<T extends Float32Array | Uint8Array>(data: T, shape: readonly number[], target: readonly number[]): T {
  let src = [...shape];
  while (src.length > target.length && src[0] === 1) src = src.slice(1);
  const off = target.length - src.length;
  const full = target.map((_, i) => (i < off ? 1 : src[i - off]));
  // Source strides, 0 along broadcast dims.
  const strides = new Array<number>(target.length).fill(0);
  let s = 1;
  for (let i = target.length - 1; i >= 0; i--) {
    strides[i] = full[i] === 1 && target[i] !== 1 ? 0 : s;
    s *= full[i];
  }
  let n = 1;
  for (const d of target) n *= d;
  const out = new (data.constructor as { new (n: number): T })(n);
  const idx = new Array<number>(target.length).fill(0);
  let srcOff = 0;
  for (let i = 0; i < n; i++) {
    out[i] = data[srcOff];
    for (let d = target.length - 1; d >= 0; d--) {
      idx[d]++;
      srcOff += strides[d];
      if (idx[d] < target[d]) break;
      srcOff -= strides[d] * idx[d];
      idx[d] = 0;
    }
  }
  return out;
}

/** Swaps the last two axes of a row-major array of `shape`. */
export function transposeLast<T extends Float32Array | Uint8Array>(data: T, shape: readonly number[]): T {
  const r = shape.length;
  const rows = shape[r - 2];
  const cols = shape[r - 1];
  const mats = data.length / (rows * cols);
  const out = new (data.constructor as { new (n: number): T })(data.length);
  for (let m = 0; m < mats; m++) {
    const base = m * rows * cols;
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[base + j * rows + i] = data[base + i * cols + j];
  }
  return out;
}
