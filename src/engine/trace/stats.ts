// Per-row statistics of one head's attention, computed in float64 from the float32 trace tensors.

/** Mean and unbiased (n - 1) variance, as torch.var; the variance of fewer than 2 values is 0. */
export function meanAndVariance(values: ArrayLike<number>, start = 0, end = values.length, step = 1): { mean: number; variance: number } {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  // Welford's update: stable for large offsets.
  for (let i = start; i < end; i += step) {
    const x = values[i];
    n++;
    const d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
  }
  return { mean: n ? mean : NaN, variance: n > 1 ? m2 / (n - 1) : 0 };
}

/** −Σ p ln p over the entries of one row (0·ln 0 = 0); NaN if the row holds NaN. */
export function entropyNats(p: ArrayLike<number>, start: number, end: number): number {
  let h = 0;
  for (let j = start; j < end; j++) {
    const x = p[j];
    if (Number.isNaN(x)) return NaN;
    if (x > 0) h -= x * Math.log(x);
  }
  return h;
}

export interface OverallScoreStats {
  /** The head dim, the variance's reference: q·k of unit-variance vectors has variance d_k. */
  dk: number;
  rawMean: number;
  rawVariance: number;
  /** After scale and temperature (before the mask). About 1 with 1/sqrt(d_k) on unit-variance inputs. */
  scaledMean: number;
  scaledVariance: number;
  rawVarianceOverDk: number;
}

export interface TraceStats {
  /** Σ_j probs[i, j] per query row (1 when the softmax ran over keys). */
  rowSums: number[];
  /** Σ_i probs[i, j] per key column (1 when it ran over queries). */
  colSums: number[];
  /** Keys each row may see (not masked), and ln of that: the largest entropy the row can have. */
  visibleKeys: number[];
  lnVisible: number[];
  /** Softmax entropy per row in nats. */
  entropy: number[];
  maxWeight: number[];
  /** Key of the largest weight, -1 for a NaN or all-zero row. */
  argmax: number[];
  rawMean: number[];
  rawVariance: number[];
  scaledMean: number[];
  scaledVariance: number[];
  overall: OverallScoreStats;
  /** Weight each row gives to padded keys, and to future keys under the causal intent. */
  paddingWeight: number[];
  futureWeight: number[];
  saturationThreshold: number;
  saturatedRows: number[];
  fullyMaskedRows: number[];
  nanRows: number[];
  paddingOnlyRows: number[];
  futureRows: number[];
}

export interface StatsInput {
  L: number;
  S: number;
  dk: number;
  raw: Float32Array; // (L, S) q·kᵀ
  scaled: Float32Array; // (L, S) after scale / temperature
  bias: Float32Array; // (L, S) additive mask
  probs: Float32Array; // (L, S)
  paddedKeys: readonly number[];
  /** Query i's future keys are j > i + futureShift; null when no causal intent. */
  futureShift: number | null;
  saturationThreshold: number;
  negligibleWeight: number;
}

export function computeStats(input: StatsInput): TraceStats {
  const { L, S, dk, raw, scaled, bias, probs, paddedKeys, futureShift, saturationThreshold, negligibleWeight } = input;
  const isPadded = new Uint8Array(S);
  for (const j of paddedKeys) isPadded[j] = 1;
  const s: TraceStats = {
    rowSums: [],
    colSums: new Array<number>(S).fill(0),
    visibleKeys: [],
    lnVisible: [],
    entropy: [],
    maxWeight: [],
    argmax: [],
    rawMean: [],
    rawVariance: [],
    scaledMean: [],
    scaledVariance: [],
    overall: overallStats(raw, scaled, dk),
    paddingWeight: [],
    futureWeight: [],
    saturationThreshold,
    saturatedRows: [],
    fullyMaskedRows: [],
    nanRows: [],
    paddingOnlyRows: [],
    futureRows: [],
  };
  for (let i = 0; i < L; i++) {
    const start = i * S;
    const end = start + S;
    let sum = 0,
      max = -Infinity,
      argmax = -1,
      visible = 0,
      padW = 0,
      realW = 0,
      futureW = 0,
      hasNaN = false;
    for (let j = 0; j < S; j++) {
      const p = probs[start + j];
      if (Number.isNaN(p)) hasNaN = true;
      sum += p;
      s.colSums[j] += p;
      if (p > max) {
        max = p;
        argmax = j;
      }
      if (bias[start + j] !== -Infinity) visible++;
      if (isPadded[j]) padW += p;
      else realW += p;
      if (futureShift !== null && j > i + futureShift) futureW += p;
    }
    if (hasNaN) max = NaN;
    if (hasNaN || max <= 0) argmax = -1;
    const rawMV = meanAndVariance(raw, start, end);
    const scaledMV = meanAndVariance(scaled, start, end);
    s.rowSums.push(sum);
    s.visibleKeys.push(visible);
    s.lnVisible.push(visible > 0 ? Math.log(visible) : NaN);
    s.entropy.push(entropyNats(probs, start, end));
    s.maxWeight.push(max);
    s.argmax.push(argmax);
    s.rawMean.push(rawMV.mean);
    s.rawVariance.push(rawMV.variance);
    s.scaledMean.push(scaledMV.mean);
    s.scaledVariance.push(scaledMV.variance);
    s.paddingWeight.push(padW);
    s.futureWeight.push(futureW);
    if (visible === 0) s.fullyMaskedRows.push(i);
    if (hasNaN) {
      s.nanRows.push(i);
      continue;
    }
    if (max >= saturationThreshold && visible > 1) s.saturatedRows.push(i);
    if (paddedKeys.length > 0 && padW > negligibleWeight && realW <= negligibleWeight) s.paddingOnlyRows.push(i);
    if (futureW > negligibleWeight) s.futureRows.push(i);
  }
  return s;
}

function overallStats(raw: Float32Array, scaled: Float32Array, dk: number): OverallScoreStats {
  const r = meanAndVariance(raw);
  const sc = meanAndVariance(scaled);
  return {
    dk,
    rawMean: r.mean,
    rawVariance: r.variance,
    scaledMean: sc.mean,
    scaledVariance: sc.variance,
    rawVarianceOverDk: r.variance / dk,
  };
}
