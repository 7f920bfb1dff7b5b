// Broadcasting element-wise arithmetic and reductions.
import {
  type Tensor,
  type TensorLike,
  contiguous,
  expand,
  formatShape,
  forEachIndex,
  isContiguous,
  normalizeDim,
  numel,
  sameShape,
  tryBroadcastShapes,
  view,
} from '../tensor';

function broadcastBinary(a: TensorLike, b: TensorLike, fn: string, op: (x: number, y: number) => number): Tensor {
  const av = view(a);
  const bv = view(b);
  const shape = tryBroadcastShapes(av.shape, bv.shape);
  if (!shape) throw new Error(`${fn}: shapes ${formatShape(av.shape)} and ${formatShape(bv.shape)} do not broadcast`);
  if (isContiguous(av) && isContiguous(bv) && sameShape(av.shape, bv.shape)) {
    // Same shape, dense: a flat loop.
    const out = new Float32Array(numel(shape));
    for (let i = 0; i < out.length; i++) out[i] = op(av.data[av.offset + i], bv.data[bv.offset + i]);
    return { data: out, shape };
  }
  const ae = expand(av, shape);
  const be = expand(bv, shape);
  const out = new Float32Array(numel(shape));
  forEachIndex(shape, [ae.strides, be.strides], [ae.offset, be.offset], (i, [ao, bo]) => {
    out[i] = op(ae.data[ao], be.data[bo]);
  });
  return { data: out, shape };
}

/** a + b with NumPy broadcasting. */
export function add(a: TensorLike, b: TensorLike): Tensor {
  return broadcastBinary(a, b, 'add', (x, y) => x + y);
}

/** a · b (element-wise) with NumPy broadcasting. */
export function mul(a: TensorLike, b: TensorLike): Tensor {
  return broadcastBinary(a, b, 'mul', (x, y) => x * y);
}

/** x · s for a number s. */
export function mulScalar(x: TensorLike, s: number): Tensor {
  const xs = contiguous(x);
  const out = new Float32Array(xs.data.length);
  for (let i = 0; i < out.length; i++) out[i] = xs.data[i] * s;
  return { data: out, shape: [...xs.shape] };
}

/** Σ along `dim` (float64 accumulation); keepdim keeps it as size 1. */
export function sum(x: TensorLike, dim: number, keepdim = false): Tensor {
  const v = view(x);
  const rank = v.shape.length;
  const d = normalizeDim(dim, rank, 'sum: dim');
  const dense = contiguous(v);
  // Dense (outer, len, inner): out[o, i] = Σ_l x[o, l, i], read in memory order.
  const outer = numel(v.shape.slice(0, d));
  const len = v.shape[d];
  const inner = numel(v.shape.slice(d + 1));
  const acc = new Float64Array(outer * inner);
  const data = dense.data;
  for (let o = 0; o < outer; o++) {
    const a = o * inner;
    for (let l = 0; l < len; l++) {
      const src = (o * len + l) * inner;
      for (let i = 0; i < inner; i++) acc[a + i] += data[src + i];
    }
  }
  const shape = v.shape.map((n, i) => (i === d ? 1 : n)).filter((_, i) => keepdim || i !== d);
  return { data: new Float32Array(acc), shape };
}

/** Arithmetic mean along `dim`. */
export function mean(x: TensorLike, dim: number, keepdim = false): Tensor {
  const v = view(x);
  const len = v.shape[normalizeDim(dim, v.shape.length, 'mean: dim')];
  const s = sum(v, dim, keepdim);
  for (let i = 0; i < s.data.length; i++) s.data[i] /= len;
  return s;
}

/** F.embedding: rows `ids` of `table` [V, E] → [ids.length, E]. */
export function gatherRows(table: Tensor, ids: ArrayLike<number>): Tensor {
  if (table.shape.length !== 2) throw new Error(`gatherRows: table must be 2-D [V, E], got ${formatShape(table.shape)}`);
  const [vocab, width] = table.shape;
  const out = new Float32Array(ids.length * width);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= vocab) {
      throw new Error(`gatherRows: id ${id} at position ${i} is outside the table's ${vocab} rows`);
    }
    out.set(table.data.subarray(id * width, (id + 1) * width), i * width);
  }
  return { data: out, shape: [ids.length, width] };
}
