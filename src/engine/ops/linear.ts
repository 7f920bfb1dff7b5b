// Affine layers: linear (y = x·Wᵀ + b, nn.Linear's layout) and LayerNorm.
import { getKernel } from '../kernels';
import { type Tensor, type TensorLike, contiguous, formatShape, numel, sameShape } from '../tensor';

/**
 * F.linear: x [..., in] · weight [out, in]ᵀ + bias [out] → [..., out].
 * `fn` names the caller in error messages.
 */
export function linear(x: TensorLike, weight: Tensor, bias?: Tensor, fn = 'linear'): Tensor {
  const xs = contiguous(x);
  const rank = xs.shape.length;
  if (rank === 0) throw new Error(`${fn}: input must have rank ≥ 1, got a scalar`);
  if (weight.shape.length !== 2) throw new Error(`${fn}: weight must be 2-D [out, in], got ${formatShape(weight.shape)}`);
  const [outF, inF] = weight.shape;
  if (xs.shape[rank - 1] !== inF) {
    throw new Error(`${fn}: input of shape ${formatShape(xs.shape)} has ${xs.shape[rank - 1]} features but weight ${formatShape(weight.shape)} expects ${inF}`);
  }
  if (bias && !sameShape(bias.shape, [outF])) {
    throw new Error(`${fn}: bias of shape ${formatShape(bias.shape)} should be [${outF}] to match weight ${formatShape(weight.shape)}`);
  }
  const rows = numel(xs.shape.slice(0, -1));
  const out = new Float32Array(rows * outF);
  if (rows > 0 && outF > 0) {
    // (rows, in) · (out, in)ᵀ → (rows, out)
    getKernel().gemm({
      m: rows,
      n: outF,
      k: inF,
      a: xs.data,
      aOff: 0,
      lda: inF,
      b: weight.data,
      bOff: 0,
      ldb: inF,
      transB: true,
      c: out,
      cOff: 0,
      ldc: outF,
    });
  }
  if (bias) {
    for (let r = 0; r < rows; r++) for (let j = 0; j < outF; j++) out[r * outF + j] += bias.data[j];
  }
  return { data: out, shape: [...xs.shape.slice(0, -1), outF] };
}

export interface LayerNormOptions {
  /** The trailing dims normalised over; defaults to weight's shape, else the last dim. */
  normalizedShape?: readonly number[];
  weight?: Tensor;
  bias?: Tensor;
  /** Added to the (biased) variance; torch's default 1e-5 (BERT uses 1e-12). */
  eps?: number;
}

/** F.layer_norm: (x - mean) / sqrt(var + eps) · weight + bias over the trailing `normalizedShape` dims. */
export function layerNorm(x: TensorLike, options: LayerNormOptions = {}): Tensor {
  const xs = contiguous(x);
  const normShape = options.normalizedShape ?? options.weight?.shape ?? xs.shape.slice(-1);
  const eps = options.eps ?? 1e-5;
  if (!Number.isFinite(eps) || eps < 0) throw new Error(`layerNorm: eps must be a finite number ≥ 0, got ${eps}`);
  const tail = xs.shape.slice(xs.shape.length - normShape.length);
  if (normShape.length === 0 || normShape.length > xs.shape.length || !sameShape(tail, normShape)) {
    throw new Error(`layerNorm: normalizedShape ${formatShape(normShape)} is not the trailing shape of input ${formatShape(xs.shape)}`);
  }
  for (const [name, p] of [
    ['weight', options.weight],
    ['bias', options.bias],
  ] as const) {
    if (p && !sameShape(p.shape, normShape)) {
      throw new Error(`layerNorm: ${name} of shape ${formatShape(p.shape)} should be ${formatShape(normShape)}`);
    }
  }
  const width = numel(normShape);
  const rows = width === 0 ? 0 : xs.data.length / width;
  const out = new Float32Array(xs.data.length);
  for (let r = 0; r < rows; r++) {
    const o = r * width;
    let mean = 0;
    for (let j = 0; j < width; j++) mean += xs.data[o + j];
    mean /= width;
    let variance = 0; // biased, as torch
    for (let j = 0; j < width; j++) variance += (xs.data[o + j] - mean) ** 2;
    variance /= width;
    const inv = 1 / Math.sqrt(variance + eps);
    for (let j = 0; j < width; j++) {
      let y = (xs.data[o + j] - mean) * inv;
      if (options.weight) y *= options.weight.data[j];
      if (options.bias) y += options.bias.data[j];
      out[o + j] = y;
    }
  }
  return { data: out, shape: [...xs.shape] };
}
