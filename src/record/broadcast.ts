// Broadcasting of captured tensors (masks, token ids) to the shape of the attention they belong to.
import { contiguousStrides, formatShape } from '../engine/tensor';
import { gatherBroadcast, transposeMatrices } from './row-loops';

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
  if (src.length > target.length) throw new Error(`broadcastTo: shape ${formatShape(shape)} has more axes than ${formatShape(target)}`);
  // The source's dims aligned right, 1 in front: strides 0 along the dims it is broadcast over.
  const full = [...new Array<number>(target.length - src.length).fill(1), ...src];
  const strides = contiguousStrides(full).map((s, i) => (full[i] === 1 && target[i] !== 1 ? 0 : s));
  const out = new (data.constructor as { new (n: number): T })(target.reduce((n, d) => n * d, 1));
  return gatherBroadcast(data, strides, target, out);
}

/** Swaps the last two axes of a row-major array of `shape`. */
export function transposeLast<T extends Float32Array | Uint8Array>(data: T, shape: readonly number[]): T {
  const [rows, cols] = shape.slice(-2);
  if (rows === undefined || cols === undefined) throw new Error(`transposeLast: shape ${formatShape(shape)} has fewer than two axes`);
  return transposeMatrices(data, rows, cols, new (data.constructor as { new (n: number): T })(data.length));
}
