// Tensor views, broadcasting and the basic ops, each against an independent float64 computation.
import { strict as assert } from 'node:assert';
import {
  add,
  broadcastShapes,
  contiguous,
  erf,
  erfc,
  expand,
  gatherRows,
  gelu,
  geluNew,
  layerNorm,
  linear,
  matmul,
  mean,
  narrow,
  permute,
  reshape,
  select,
  softmax,
  transpose,
  type Tensor,
} from '../../../src/engine';
import { assertClose } from '../helpers/fixtures';

/** Deterministic values in [-1, 1) (an LCG; independent of the engine). */
function rand(shape: number[], seed: number): Tensor {
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 2 ** 32) * 2 - 1;
  }
  return { data, shape };
}

/** Element at a multi-index of a dense tensor. */
function at(t: Tensor, idx: number[]): number {
  let off = 0;
  for (let d = 0; d < idx.length; d++) off = off * t.shape[d] + idx[d];
  return t.data[off];
}

describe('tensor views', () => {
  const x = rand([2, 3, 4], 1);

  it('transpose and permute are views that contiguous() lays out row-major', () => {
    const t = contiguous(transpose(x, 0, 2)); // (4, 3, 2)
    assert.deepEqual(t.shape, [4, 3, 2]);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) assert.equal(at(t, [k, j, i]), at(x, [i, j, k]));
    const p = permute(x, [1, 2, 0]); // (3, 4, 2)
    assert.equal(p.data, x.data, 'shares data');
    const pc = contiguous(p);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) assert.equal(at(pc, [j, k, i]), at(x, [i, j, k]));
  });

  it('reshape shares data when contiguous, infers -1, and rejects a wrong element count', () => {
    const r = reshape(x, [6, -1]);
    assert.deepEqual(r.shape, [6, 4]);
    assert.equal(r.data, x.data);
    assert.throws(() => reshape(x, [5, 5]), /cannot view a tensor of shape \[2, 3, 4\] \(24 elements\) as \[5, 5\]/);
  });

  it('narrow and select slice without copying', () => {
    const n = contiguous(narrow(x, 2, 1, 2)); // (2, 3, 2)
    assert.equal(at(n, [1, 2, 0]), at(x, [1, 2, 1]));
    const s = contiguous(select(x, 1, -1)); // (2, 4)
    assert.equal(at(s, [1, 3]), at(x, [1, 2, 3]));
  });

  it('broadcasting is right-aligned with size-1 dims stretching', () => {
    assert.deepEqual(broadcastShapes([3, 1, 5], [4, 1], [5]), [3, 4, 5]);
    assert.throws(() => broadcastShapes([3, 2], [3]), /do not broadcast/);
    const e = contiguous(expand({ data: Float32Array.from([1, 2]), shape: [2, 1] }, [3, 2, 4]));
    assert.deepEqual(Array.from(e.data.subarray(0, 8)), [1, 1, 1, 1, 2, 2, 2, 2]);
    assert.throws(() => expand(x, [3, 4]), /\[2, 3, 4\] does not broadcast to \[3, 4\]/);
    const sum = add(rand([2, 1, 4], 2), rand([3, 1], 3)); // (2, 3, 4)
    assert.deepEqual(sum.shape, [2, 3, 4]);
    assert.equal(sum.data[1 * 12 + 2 * 4 + 3], Math.fround(rand([2, 1, 4], 2).data[4 + 3] + rand([3, 1], 3).data[2]));
  });
});

describe('matmul', () => {
  function naive(a: Tensor, b: Tensor): Float64Array {
    // a (Ba, M, K), b (Bb, K, N) with Ba, Bb ∈ {1, batch}
    const [Ba, M, K] = a.shape;
    const [Bb, , N] = b.shape;
    const batch = Math.max(Ba, Bb);
    const out = new Float64Array(batch * M * N);
    for (let t = 0; t < batch; t++)
      for (let i = 0; i < M; i++)
        for (let j = 0; j < N; j++) {
          let s = 0;
          for (let p = 0; p < K; p++) s += at(a, [Ba === 1 ? 0 : t, i, p]) * at(b, [Bb === 1 ? 0 : t, p, j]);
          out[(t * M + i) * N + j] = s;
        }
    return out;
  }

  it('batched, broadcast and transposed-view operands', () => {
    const a = rand([3, 4, 5], 4);
    const b = rand([1, 5, 6], 5);
    assertClose(matmul(a, b), naive(a, b), { atol: 1e-6 });
    // kᵀ as a view: b' (3, 6, 5) transposed → (3, 5, 6) read with transB.
    const bt = rand([3, 6, 5], 6);
    const btDense = contiguous(transpose(bt, 1, 2));
    assertClose(matmul(a, transpose(bt, 1, 2)), naive(a, btDense), { atol: 1e-6 });
    // a transposed view (columns contiguous) is copied first.
    const at_ = rand([3, 5, 4], 7);
    assertClose(matmul(transpose(at_, 1, 2), b), naive(contiguous(transpose(at_, 1, 2)), b), { atol: 1e-6 });
  });

  it('per-head slices of a [B, T, H*hd] projection multiply without copies', () => {
    const x = rand([2, 3, 8], 8); // (B, T, H*hd) with H=2, hd=4
    const heads = permute(reshape(x, [2, 3, 2, 4]), [0, 2, 1, 3]); // (B, H, T, hd) view
    const scores = matmul(heads, transpose(heads, -1, -2)); // (B, H, T, T)
    const dense = contiguous(heads);
    const flat = { data: dense.data, shape: [4, 3, 4] };
    const flatT = contiguous(transpose(flat, 1, 2));
    assertClose(scores.data, naive(flat, flatT), { atol: 1e-6 });
  });

  it('1-D operands and shape errors', () => {
    const a = rand([4], 9);
    const m = rand([4, 3], 10);
    const r = matmul(a, m);
    assert.deepEqual(r.shape, [3]);
    assert.throws(() => matmul(rand([2, 3], 1), rand([4, 2], 2)), /inner dims differ/);
    assert.throws(() => matmul(rand([2, 2, 3], 1), rand([3, 3, 2], 2)), /batch dims .* do not broadcast/);
  });
});

describe('softmax, linear, layerNorm, gelu', () => {
  it('softmax over dim 1 of a 3-D tensor equals the float64 formula and is stable for large inputs', () => {
    const x = rand([2, 3, 4], 11);
    const big = { data: x.data.map((v) => v * 50 + 1000), shape: x.shape };
    const p = softmax(big, 1);
    for (let i = 0; i < 2; i++)
      for (let k = 0; k < 4; k++) {
        const col = [0, 1, 2].map((j) => at(big, [i, j, k]));
        const m = Math.max(...col);
        const z = col.reduce((s, v) => s + Math.exp(v - m), 0);
        for (let j = 0; j < 3; j++) assert.ok(Math.abs(at(p, [i, j, k]) - Math.exp(col[j] - m) / z) < 1e-6);
      }
  });

  it('linear is x·Wᵀ + b', () => {
    const x = rand([2, 3, 5], 12);
    const w = rand([4, 5], 13);
    const b = rand([4], 14);
    const y = linear(x, w, b);
    assert.deepEqual(y.shape, [2, 3, 4]);
    for (let r = 0; r < 6; r++)
      for (let o = 0; o < 4; o++) {
        let s = b.data[o];
        for (let i = 0; i < 5; i++) s += x.data[r * 5 + i] * w.data[o * 5 + i];
        assert.ok(Math.abs(y.data[r * 4 + o] - s) < 1e-6);
      }
    assert.throws(() => linear(x, rand([4, 6], 1)), /has 5 features but weight \[4, 6\] expects 6/);
  });

  it('layerNorm uses the biased variance and eps', () => {
    const x = rand([3, 6], 15);
    const w = rand([6], 16);
    const b = rand([6], 17);
    const y = layerNorm(x, { weight: w, bias: b, eps: 1e-5 });
    for (let r = 0; r < 3; r++) {
      const row = Array.from(x.data.subarray(r * 6, r * 6 + 6));
      const mu = row.reduce((s, v) => s + v, 0) / 6;
      const variance = row.reduce((s, v) => s + (v - mu) ** 2, 0) / 6;
      for (let j = 0; j < 6; j++) {
        const e = ((row[j] - mu) / Math.sqrt(variance + 1e-5)) * w.data[j] + b.data[j];
        assert.ok(Math.abs(y.data[r * 6 + j] - e) < 1e-5);
      }
    }
  });

  it('erf matches known values to 1e-14 and gelu / gelu_new follow their formulas', () => {
    // Reference values of erf from Abramowitz & Stegun table 7.1 / high-precision computation.
    const table: Array<[number, number]> = [
      [0.1, 0.1124629160182849],
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [2, 0.9953222650189527],
      [3, 0.9999779095030014],
      [-1.5, -0.9661051464753108],
    ];
    for (const [x, e] of table) assert.ok(Math.abs(erf(x) - e) < 1e-14, `erf(${x}) = ${erf(x)}`);
    assert.ok(Math.abs(erfc(5) - 1.5374597944280349e-12) < 1e-24);
    // Series and continued fraction agree across their boundary.
    assert.ok(Math.abs(erf(2.9999999) - erf(3.0000001)) < 1e-10);
    const x = { data: Float32Array.from([-3, -0.5, 0, 0.7, 2]), shape: [5] };
    const exact = gelu(x);
    const tanh = geluNew(x);
    x.data.forEach((v, i) => {
      assert.ok(Math.abs(exact.data[i] - 0.5 * v * (1 + erf(v / Math.SQRT2))) < 1e-7);
      const t = 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));
      assert.ok(Math.abs(tanh.data[i] - t) < 1e-7);
    });
    assert.ok(Math.abs(exact.data[3] - tanh.data[3]) > 1e-6, 'the two forms differ');
  });

  it('mean over a dim and gatherRows', () => {
    const x = rand([2, 3, 4], 18);
    const m = mean(x, 1); // (2, 4)
    assert.ok(Math.abs(at(m, [1, 2]) - (at(x, [1, 0, 2]) + at(x, [1, 1, 2]) + at(x, [1, 2, 2])) / 3) < 1e-6);
    const table = rand([5, 3], 19);
    const g = gatherRows(table, [4, 0]);
    assert.deepEqual(Array.from(g.data), [...table.data.subarray(12, 15), ...table.data.subarray(0, 3)]);
    assert.throws(() => gatherRows(table, [5]), /id 5 at position 0 is outside the table's 5 rows/);
  });
});
