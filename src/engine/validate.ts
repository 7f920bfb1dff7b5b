// Input checks shared by the engine's public functions. Every error names the function, the argument
// and the shape or value that was wrong.
import { type AnyTensor, type TensorLike, formatShape, isView } from './tensor';

/** Throws unless `t` is a well-formed float tensor or view (typed array, integer shape, data long enough). */
export function checkFloat(fn: string, name: string, t: TensorLike | undefined | null): void {
  if (!t || !(t.data instanceof Float32Array) || !Array.isArray(t.shape)) {
    throw new Error(`${fn}: ${name} must be a float32 tensor ({data: Float32Array, shape}), got ${describe(t)}`);
  }
  checkShapeValues(fn, name, t.shape);
  if (isView(t)) {
    checkViewBounds(fn, name, t.data.length, t.shape, t.strides, t.offset);
  } else if (t.data.length !== product(t.shape)) {
    throw new Error(`${fn}: ${name} has ${t.data.length} elements but its shape ${formatShape(t.shape)} needs ${product(t.shape)}`);
  }
}

/** Throws unless `t` is a float32 tensor or a bool tensor with consistent data. */
export function checkMaskTensor(fn: string, name: string, t: AnyTensor): void {
  if (typeof t !== 'object' || t === null) {
    throw new Error(`${fn}: ${name} must be a bool or float32 tensor, got ${t === null ? 'null' : typeof t}`);
  }
  if (t.dtype === 'bool') {
    if (!(t.data instanceof Uint8Array) || !Array.isArray(t.shape)) {
      throw new Error(`${fn}: ${name} must be a bool tensor ({data: Uint8Array, shape, dtype: 'bool'}) or a float32 tensor`);
    }
    checkShapeValues(fn, name, t.shape);
    if (t.data.length !== product(t.shape)) {
      throw new Error(`${fn}: ${name} has ${t.data.length} elements but its shape ${formatShape(t.shape)} needs ${product(t.shape)}`);
    }
    return;
  }
  checkFloat(fn, name, t);
}

function checkShapeValues(fn: string, name: string, shape: readonly number[]): void {
  if (!shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new Error(`${fn}: ${name} has an invalid shape ${formatShape(shape)} (dims must be non-negative integers)`);
  }
}

function checkViewBounds(fn: string, name: string, len: number, shape: readonly number[], strides: readonly number[], offset: number): void {
  if (!Array.isArray(strides) || strides.length !== shape.length || !Number.isInteger(offset) || offset < 0) {
    throw new Error(`${fn}: ${name} is a malformed view (shape ${formatShape(shape)}, strides [${String(strides)}], offset ${offset})`);
  }
  if (shape.some((d) => d === 0)) return;
  let lo = offset;
  let hi = offset;
  shape.forEach((d, i) => {
    const s = strides[i];
    if (!Number.isInteger(s)) throw new Error(`${fn}: ${name} has a non-integer stride ${s}`);
    if (s > 0) hi += s * (d - 1);
    else lo += s * (d - 1);
  });
  if (lo < 0 || hi >= len) {
    throw new Error(`${fn}: ${name} (shape ${formatShape(shape)}, strides [${strides.join(', ')}], offset ${offset}) reads outside its ${len}-element buffer`);
  }
}

/** Throws unless the shape has no zero-size dim (zero-length sequences have no attention to compute). */
export function checkNonEmpty(fn: string, name: string, shape: readonly number[], dimNames?: readonly string[]): void {
  const i = shape.findIndex((d) => d === 0);
  if (i < 0) return;
  const label = dimNames ? ` (${dimNames[i]} = 0)` : '';
  throw new Error(`${fn}: ${name} of shape ${formatShape(shape)} has a zero-size dim${label}; zero-length inputs are not supported`);
}

export function checkScale(fn: string, name: string, scale: number | undefined): void {
  if (scale === undefined) return;
  if (typeof scale !== 'number' || !Number.isFinite(scale)) {
    throw new Error(`${fn}: ${name} must be a finite number, got ${String(scale)}`);
  }
}

/**
 * Throws when materialising `cells` float32 values would be unreasonable (over `limit`), naming what to
 * use instead. Keeps a long input from ending in an out-of-memory crash of the worker.
 */
export function checkMaterialisable(fn: string, what: string, shape: readonly number[], limit: number, instead: string): void {
  const cells = product(shape);
  if (cells > limit) {
    const gb = (cells * 4) / 2 ** 30;
    throw new Error(
      `${fn}: ${what} of shape ${formatShape(shape)} would hold ${cells} values (${gb.toFixed(1)} GiB), more than the ${limit} this function materialises; ${instead}`,
    );
  }
}

function product(shape: readonly number[]): number {
  return shape.reduce((p, d) => p * d, 1);
}

function describe(t: unknown): string {
  if (t === null || t === undefined) return String(t);
  if (typeof t !== 'object') return typeof t;
  const data = (t as { data?: unknown }).data;
  return `an object with data ${data === undefined ? 'missing' : Object.prototype.toString.call(data)}`;
}
