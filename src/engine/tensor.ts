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
  const arr = data instanceof Uint8Array ? data : Uint8Array.from(Array.from(data, (v) => (v ? 1 : 0)));
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

// ---------------------------------------------------------------------------------------------------
// Strided views (the ndarray model: data + shape + strides + offset). Transposes, permutations,
// slices and broadcasts are views that share `data`; `contiguous()` copies into a dense Tensor.

/** A strided, read-only window onto a Float32Array. A dense Tensor is the view with contiguous strides. */
export interface TensorView {
  readonly data: Float32Array;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

/** Anything the ops accept as a float input: a dense Tensor or a strided view. */
export type TensorLike = Tensor | TensorView;

export function isView(t: TensorLike): t is TensorView {
  return (t as TensorView).strides !== undefined;
}

/** The strided view of a dense Tensor (or the view itself). Shares data. */
export function view(t: TensorLike): TensorView {
  if (isView(t)) return t;
  return { data: t.data, shape: [...t.shape], strides: contiguousStrides(t.shape), offset: 0 };
}

/** True when the view's elements lie densely in row-major order starting at `offset`. */
export function isContiguous(v: TensorLike): boolean {
  if (!isView(v)) return true;
  const expected = contiguousStrides(v.shape);
  for (let d = 0; d < v.shape.length; d++) {
    if (v.shape[d] !== 1 && v.strides[d] !== expected[d]) return false;
  }
  return true;
}

/** Normalises a possibly negative dim for a tensor of rank `rank`; throws naming `what` otherwise. */
export function normalizeDim(dim: number, rank: number, what = 'dim'): number {
  if (!Number.isInteger(dim) || dim < -rank || dim >= rank) {
    throw new Error(`${what} ${dim} is out of range for a tensor of rank ${rank} (expected ${-rank}..${rank - 1})`);
  }
  return dim < 0 ? dim + rank : dim;
}

/** Dense row-major copy of a view (no copy for a Tensor or an already contiguous view starting at 0 of a tight buffer). */
export function contiguous(x: TensorLike): Tensor {
  if (!isView(x)) return x;
  const n = numel(x.shape);
  if (isContiguous(x) && x.offset === 0 && x.data.length === n) return { data: x.data, shape: [...x.shape] };
  if (isContiguous(x)) return { data: x.data.slice(x.offset, x.offset + n), shape: [...x.shape] };
  const out = new Float32Array(n);
  copyStrided(x, out);
  return { data: out, shape: [...x.shape] };
}

/** Writes the elements of `x` in row-major order into `out`. */
function copyStrided(x: TensorView, out: Float32Array): void {
  const rank = x.shape.length;
  if (rank === 0) {
    out[0] = x.data[x.offset];
    return;
  }
  const n = out.length;
  if (n === 0) return;
  const inner = x.shape[rank - 1];
  const innerStride = x.strides[rank - 1];
  const index = new Array<number>(rank).fill(0);
  let src = x.offset;
  for (let o = 0; o < n; o += inner) {
    if (innerStride === 1) out.set(x.data.subarray(src, src + inner), o);
    else for (let j = 0; j < inner; j++) out[o + j] = x.data[src + j * innerStride];
    // Advance the multi-index over the outer dims (odometer), keeping `src` in step.
    for (let d = rank - 2; d >= 0; d--) {
      index[d]++;
      src += x.strides[d];
      if (index[d] < x.shape[d]) break;
      src -= x.strides[d] * x.shape[d];
      index[d] = 0;
    }
  }
}

/** Swaps two dims (a view, no copy). */
export function transpose(x: TensorLike, dim0: number, dim1: number): TensorView {
  const v = view(x);
  const rank = v.shape.length;
  const a = normalizeDim(dim0, rank, 'transpose: dim0');
  const b = normalizeDim(dim1, rank, 'transpose: dim1');
  const perm = Array.from({ length: rank }, (_, i) => i);
  perm[a] = b;
  perm[b] = a;
  return permute(v, perm);
}

/** Reorders dims: result dim i is input dim perm[i] (a view, no copy). */
export function permute(x: TensorLike, perm: readonly number[]): TensorView {
  const v = view(x);
  const rank = v.shape.length;
  if (perm.length !== rank) {
    throw new Error(`permute: perm [${perm.join(', ')}] has ${perm.length} entries but the tensor of shape ${formatShape(v.shape)} has rank ${rank}`);
  }
  const dims = perm.map((p) => normalizeDim(p, rank, 'permute: dim'));
  if (new Set(dims).size !== rank) throw new Error(`permute: perm [${perm.join(', ')}] repeats a dim`);
  return { data: v.data, shape: dims.map((d) => v.shape[d]), strides: dims.map((d) => v.strides[d]), offset: v.offset };
}

/**
 * Same elements, new shape (one dim may be -1). Shares data when the input is contiguous; copies a
 * non-contiguous view first.
 */
export function reshape(x: TensorLike, shape: readonly number[]): Tensor {
  const dense = contiguous(x);
  const n = dense.data.length;
  const inferred = inferShape(shape, n, dense.shape);
  return { data: dense.data, shape: inferred };
}

function inferShape(shape: readonly number[], n: number, from: readonly number[]): number[] {
  const unknown = shape.filter((d) => d === -1).length;
  if (unknown > 1) throw new Error(`reshape: shape ${formatShape(shape)} has more than one -1`);
  const known = shape.reduce((p, d) => (d === -1 ? p : p * d), 1);
  for (const d of shape) {
    if (d !== -1 && (!Number.isInteger(d) || d < 0)) throw new Error(`reshape: invalid dim ${d} in shape ${formatShape(shape)}`);
  }
  const out = shape.map((d) => (d === -1 ? (known === 0 ? 0 : n / known) : d));
  if (numel(out) !== n || out.some((d) => !Number.isInteger(d))) {
    throw new Error(`reshape: cannot view a tensor of shape ${formatShape(from)} (${n} elements) as ${formatShape(shape)}`);
  }
  return out;
}

/** The slice [start, start+length) of one dim (a view, no copy). */
export function narrow(x: TensorLike, dim: number, start: number, length: number): TensorView {
  const v = view(x);
  const d = normalizeDim(dim, v.shape.length, 'narrow: dim');
  if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 0 || start + length > v.shape[d]) {
    throw new Error(`narrow: [${start}, ${start + length}) is outside dim ${d} of size ${v.shape[d]} (shape ${formatShape(v.shape)})`);
  }
  const shape = [...v.shape];
  shape[d] = length;
  return { data: v.data, shape, strides: [...v.strides], offset: v.offset + start * v.strides[d] };
}

/** Index one dim, dropping it (a view, no copy). */
export function select(x: TensorLike, dim: number, index: number): TensorView {
  const v = view(x);
  const d = normalizeDim(dim, v.shape.length, 'select: dim');
  if (!Number.isInteger(index) || index < -v.shape[d] || index >= v.shape[d]) {
    throw new Error(`select: index ${index} is out of range for dim ${d} of size ${v.shape[d]}`);
  }
  const i = index < 0 ? index + v.shape[d] : index;
  return {
    data: v.data,
    shape: v.shape.filter((_, k) => k !== d),
    strides: v.strides.filter((_, k) => k !== d),
    offset: v.offset + i * v.strides[d],
  };
}

// ---------------------------------------------------------------------------------------------------
// NumPy-style broadcasting: shapes are right-aligned and a dim of size 1 stretches to any size.

/** The broadcast of several shapes, or null when they are incompatible. */
export function tryBroadcastShapes(...shapes: ReadonlyArray<readonly number[]>): number[] | null {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const d = rank - s.length + i;
      if (s[i] === out[d] || s[i] === 1) continue;
      if (out[d] !== 1) return null;
      out[d] = s[i];
    }
  }
  return out;
}

export function broadcastShapes(...shapes: ReadonlyArray<readonly number[]>): number[] {
  const out = tryBroadcastShapes(...shapes);
  if (!out) throw new Error(`shapes ${shapes.map(formatShape).join(', ')} do not broadcast together`);
  return out;
}

/** True when `shape` broadcasts to exactly `target` (without growing the target). */
export function broadcastsTo(shape: readonly number[], target: readonly number[]): boolean {
  if (shape.length > target.length) return false;
  const lead = target.length - shape.length;
  return shape.every((d, i) => d === target[lead + i] || d === 1);
}

/**
 * Strides that read a dense tensor of `shape` as if it had `target` shape: stride 0 along broadcast dims.
 * Throws `${what} of shape [...] does not broadcast to [...]` otherwise.
 */
export function broadcastStrides(shape: readonly number[], target: readonly number[], what = 'tensor'): number[] {
  if (!broadcastsTo(shape, target)) {
    throw new Error(`${what} of shape ${formatShape(shape)} does not broadcast to ${formatShape(target)}`);
  }
  const own = contiguousStrides(shape);
  const lead = target.length - shape.length;
  return target.map((_, d) => (d < lead || shape[d - lead] === 1 ? 0 : own[d - lead]));
}

/** A broadcast view of `x` with shape `target` (stride 0 along stretched dims; no copy). */
export function expand(x: TensorLike, target: readonly number[], what = 'tensor'): TensorView {
  const v = view(x);
  if (!broadcastsTo(v.shape, target)) {
    throw new Error(`${what} of shape ${formatShape(v.shape)} does not broadcast to ${formatShape(target)}`);
  }
  const lead = target.length - v.shape.length;
  const strides = target.map((_, d) => (d < lead || v.shape[d - lead] === 1 ? 0 : v.strides[d - lead]));
  return { data: v.data, shape: [...target], strides, offset: v.offset };
}

/** Calls fn(linearIndex, offsets) for every multi-index of `shape`, tracking one offset per stride set. */
export function forEachIndex(
  shape: readonly number[],
  strideSets: ReadonlyArray<readonly number[]>,
  baseOffsets: readonly number[],
  fn: (linear: number, offsets: readonly number[], index: readonly number[]) => void,
): void {
  const rank = shape.length;
  const n = numel(shape);
  const index = new Array<number>(rank).fill(0);
  const offsets = [...baseOffsets];
  for (let linear = 0; linear < n; linear++) {
    fn(linear, offsets, index);
    for (let d = rank - 1; d >= 0; d--) {
      index[d]++;
      for (let s = 0; s < strideSets.length; s++) offsets[s] += strideSets[s][d];
      if (index[d] < shape[d]) break;
      for (let s = 0; s < strideSets.length; s++) offsets[s] -= strideSets[s][d] * shape[d];
      index[d] = 0;
    }
  }
}

/** True when two shapes are equal. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
