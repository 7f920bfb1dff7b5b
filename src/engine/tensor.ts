// Dense row-major tensors. `Tensor` is float32; `BoolTensor` carries 0/1 bytes.
// These are the shapes every module exchanges (engine, loaders, models, worker protocol).

export interface Tensor {
  readonly data: Float32Array;
  readonly shape: number[];
  readonly dtype?: 'float32';
}

export interface BoolTensor {
  readonly data: Uint8Array;
  readonly shape: number[];
  readonly dtype: 'bool';
}

export type AnyTensor = Tensor | BoolTensor;

export function isBoolTensor(t: AnyTensor): t is BoolTensor {
  return t.dtype === 'bool';
}

/** Number of elements of a shape; throws on negative or non-integer dims. */
export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new Error(`invalid shape [${shape.join(', ')}]: dims must be non-negative integers`);
    n *= d;
  }
  return n;
}

/** Row-major strides of a contiguous tensor of this shape. */
export function contiguousStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

export function tensor(data: Float32Array | number[], shape: number[]): Tensor {
  const arr = data instanceof Float32Array ? data : Float32Array.from(data);
  if (arr.length !== numel(shape)) {
    throw new Error(`tensor: data has ${arr.length} elements but shape [${shape.join(', ')}] needs ${numel(shape)}`);
  }
  return { data: arr, shape: [...shape] };
}

export function boolTensor(data: Uint8Array | ArrayLike<boolean | number>, shape: number[]): BoolTensor {
  const arr = data instanceof Uint8Array ? data : Uint8Array.from(Array.from(data as ArrayLike<boolean | number>, (v) => (v ? 1 : 0)));
  if (arr.length !== numel(shape)) {
    throw new Error(`boolTensor: data has ${arr.length} elements but shape [${shape.join(', ')}] needs ${numel(shape)}`);
  }
  return { data: arr, shape: [...shape], dtype: 'bool' };
}

export function zeros(shape: number[]): Tensor {
  return { data: new Float32Array(numel(shape)), shape: [...shape] };
}

export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}
