// The recorder's element loops over recorded tensors, kept apart from the shape checks around them (a kernel file
// for the strict index check: see KERNELS in scripts/typecheck-strict-index.mjs): broadcast and transposed copies,
// masks as 0/1 arrays, block means, row sums, the scale regression's rows, and the scans of a view's (query, key)
// pairs. Callers check the shapes and pass matching lengths.

/** out[i] = data at the source offset of target index i, walking the target row-major (strides 0 along broadcast
 * dims): `data` broadcast to `target`. */
export function gatherBroadcast<T extends Float32Array | Uint8Array>(data: T, strides: readonly number[], target: readonly number[], out: T): T {
  const idx = new Array<number>(target.length).fill(0);
  let srcOff = 0;
  for (let i = 0; i < out.length; i++) {
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

/** out = each (rows, cols) matrix of `data` transposed to (cols, rows). */
export function transposeMatrices<T extends Float32Array | Uint8Array>(data: T, rows: number, cols: number, out: T): T {
  const mats = data.length / (rows * cols);
  for (let m = 0; m < mats; m++) {
    const base = m * rows * cols;
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[base + j * rows + i] = data[base + i * cols + j];
  }
  return out;
}

/** 1 where `mask` is 0, else 0 (a bool mask of masked pairs as allowed pairs). */
export function notMask(mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = mask[i] ? 0 : 1;
  return out;
}

/** Allowed pairs of a bool mask: 1 where (value ≠ 0) is `trueMeansAttend`. */
export function allowedFromBools(mask: Uint8Array, trueMeansAttend: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = (mask[i] !== 0) === trueMeansAttend ? 1 : 0;
  return out;
}

/** Allowed pairs of an additive float mask: 1 where the value is above `threshold` (NaN masks nothing: 0). */
export function allowedFromFloats(mask: Float32Array, threshold: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = mask[i] > threshold ? 1 : 0;
  return out;
}

/** Zeroes, in every (T, S) slice of `allowed`, key s of query t where s > t + shift (a causal mask), in place. */
export function zeroAboveDiagonal(allowed: Uint8Array, T: number, S: number, shift: number): void {
  for (let base = 0; base < allowed.length; base += T * S) {
    for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) if (s > t + shift) allowed[base + t * S + s] = 0;
  }
}

/** a & b element-wise over a's length. */
export function andMasks(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] & b[i];
  return out;
}

/** Whether pred(t, s, allowed) holds for every pair of every (T, S) slice of `allowed`. */
export function everyPair(allowed: Uint8Array, T: number, S: number, pred: (t: number, s: number, allowed: number) => boolean): boolean {
  for (let base = 0; base < allowed.length; base += T * S) {
    for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) if (!pred(t, s, allowed[base + t * S + s])) return false;
  }
  return true;
}

/**
 * Means of rows [rowStart, rowEnd) of a row-major (·, cols) array in (br, bc) blocks, the last ones partial (as the
 * recorder averages): ⌈(rowEnd − rowStart)/br⌉ × ⌈cols/bc⌉, row-major.
 */
export function blockMeansOfRows(data: Float32Array, rowStart: number, rowEnd: number, cols: number, br: number, bc: number): Float32Array {
  const R = Math.ceil((rowEnd - rowStart) / br);
  const C = Math.ceil(cols / bc);
  const out = new Float32Array(R * C);
  for (let a = 0; a < R; a++) {
    for (let b = 0; b < C; b++) {
      let sum = 0;
      let n = 0;
      for (let r = rowStart + a * br; r < Math.min(rowEnd, rowStart + (a + 1) * br); r++) {
        for (let c = b * bc; c < Math.min(cols, (b + 1) * bc); c++, n++) sum += data[r * cols + c];
      }
      out[a * C + b] = sum / n;
    }
  }
  return out;
}

/**
 * size × size means of each of `count` (T, S) heads of `all`: cell (a, b) the mean of the queries and keys it
 * covers, an axis shorter than `size` stretched (its positions repeat).
 */
export function stretchedMeans(all: Float32Array, count: number, T: number, S: number, size: number): Float32Array {
  const span = (i: number, n: number): [number, number] => {
    const lo = Math.floor((i * n) / size);
    return [lo, Math.max(lo + 1, Math.floor(((i + 1) * n) / size))];
  };
  const data = new Float32Array(count * size * size);
  for (let h = 0; h < count; h++) {
    const base = h * T * S;
    for (let a = 0; a < size; a++) {
      const [r0, r1] = span(a, T);
      for (let b = 0; b < size; b++) {
        const [c0, c1] = span(b, S);
        let sum = 0;
        for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) sum += all[base + r * S + c];
        data[(h * size + a) * size + b] = sum / ((r1 - r0) * (c1 - c0));
      }
    }
  }
  return data;
}

/**
 * The user's tensor against the reference, cell by cell over the reference's length: cells agree when both are NaN,
 * both are masked (≤ maskThreshold, -inf included), or both are finite and within atol + rtol·|reference|.
 * `maxAbsDiff` is over the cells where both are finite and not masked; `first` the first disagreeing cell.
 */
export function compareCells(
  own: Float32Array,
  ref: Float32Array,
  atol: number,
  rtol: number,
  maskThreshold: number,
): { maxAbsDiff: number; differing: number; first: { index: number; own: number; reference: number } | null } {
  let maxAbsDiff = 0;
  let differing = 0;
  let first: { index: number; own: number; reference: number } | null = null;
  for (let i = 0; i < ref.length; i++) {
    const a = own[i];
    const b = ref[i];
    let same: boolean;
    if (Number.isNaN(a) || Number.isNaN(b)) same = Number.isNaN(a) && Number.isNaN(b);
    else if (a <= maskThreshold || b <= maskThreshold) same = a <= maskThreshold && b <= maskThreshold;
    else if (!Number.isFinite(a) || !Number.isFinite(b)) same = a === b;
    else {
      const d = Math.abs(a - b);
      if (d > maxAbsDiff) maxAbsDiff = d;
      same = d <= atol + rtol * Math.abs(b);
    }
    if (!same) {
      differing++;
      first ??= { index: i, own: a, reference: b };
    }
  }
  return { maxAbsDiff, differing, first };
}

/** The smallest and largest finite sum of the rows of S values of `data` (Infinity, -Infinity when none is finite). */
export function rowSumRange(data: Float32Array, S: number): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let r = 0; r < data.length / S; r++) {
    let s = 0;
    for (let j = 0; j < S; j++) s += data[r * S + j];
    if (Number.isFinite(s)) {
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
  }
  return { lo, hi };
}

/**
 * Rows of S weights `w` changed after the softmax against the softmax's own rows `p`: among the rows the softmax
 * normalised (|Σp − 1| ≤ tol) with a finite Σw, how many sum neither to 0 nor to 1 (within tol), and the range of
 * those sums.
 */
export function unnormalisedRows(w: Float32Array, p: Float32Array, S: number, tol: number): { bad: number; rows: number; lo: number; hi: number } {
  let bad = 0;
  let rows = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let r = 0; r < w.length / S; r++) {
    let sw = 0;
    let sp = 0;
    for (let j = 0; j < S; j++) {
      sw += w[r * S + j];
      sp += p[r * S + j];
    }
    if (!Number.isFinite(sw) || Math.abs(sp - 1) > tol) continue; // rows the softmax itself did not normalise
    rows++;
    if (Math.abs(sw) > tol && Math.abs(sw - 1) > tol) {
      bad++;
      lo = Math.min(lo, sw);
      hi = Math.max(hi, sw);
    }
  }
  return { bad, rows, lo, hi };
}

/**
 * Per row of C cells (rows of them): the least-squares slope of the softmax input y against q·kᵀ (qk) over the cells
 * that are unmasked (masked[i] = 0, or no mask) and finite in both; rows with fewer than two such cells or no spread
 * in qk are skipped. Null as soon as a row is not exactly linear in q·kᵀ (a position bias, a nonlinearity).
 */
export function rowSlopes(qk: Float32Array, y: Float32Array, masked: Uint8Array | null, rows: number, C: number): number[] | null {
  const used = (i: number) => !(masked && masked[i]) && Number.isFinite(qk[i]) && Number.isFinite(y[i]);
  const slopes: number[] = [];
  for (let r = 0; r < rows; r++) {
    const row = r * C;
    let n = 0;
    let sx = 0;
    let sy = 0;
    for (let i = row; i < row + C; i++) {
      if (!used(i)) continue;
      n++;
      sx += qk[i];
      sy += y[i];
    }
    if (n < 2) continue;
    const mx = sx / n;
    const my = sy / n;
    let sxy = 0;
    let sxx = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = row; i < row + C; i++) {
      if (!used(i)) continue;
      const dx = qk[i] - mx;
      sxy += dx * (y[i] - my);
      sxx += dx * dx;
      if (qk[i] < lo) lo = qk[i];
      if (qk[i] > hi) hi = qk[i];
    }
    if (sxx < 1e-12 * n) continue;
    const slope = sxy / sxx;
    let worst = 0;
    for (let i = row; i < row + C; i++) if (used(i)) worst = Math.max(worst, Math.abs(y[i] - my - slope * (qk[i] - mx)));
    if (worst > 1e-2 * Math.abs(slope) * (hi - lo) + 1e-6) return null;
    slopes.push(slope);
  }
  return slopes;
}

/** A view's pairs and the keys' token ids, as the padding and masked-row scans read them. */
export interface PairScan {
  /** [slices, T, S] 1 = allowed. */
  allowed: Uint8Array;
  /** [slices, T, S] weights, or null. */
  probs: Float32Array | null;
  /** [B, S] key token ids and the padding id. */
  ids: Float32Array;
  paddingIdx: number | null;
  T: number;
  S: number;
  /** Slices per batch element (slice sl is batch element ⌊sl / perB⌋). */
  perB: number;
}

/**
 * The padding scan of a view (query t is key position t + off): over the slices holding both padding and real keys
 * and at least one real query, whether a real query may attend padding, whether a real query's own past is masked,
 * how many slices no real query sees a real key in, the weight real queries give padding, and the first slice
 * with a problem (its batch element and padding positions).
 */
export function scanPadding(
  v: PairScan,
  off: number,
): {
  padAllowed: boolean;
  realPastMasked: boolean;
  slicesBlind: number;
  slicesWithPad: number;
  padWeight: number;
  realRows: number;
  example: { b: number; pads: number[] } | null;
} {
  const { allowed, probs, ids, paddingIdx, T, S, perB } = v;
  const nSlices = allowed.length / (T * S);
  let padAllowed = false;
  let realPastMasked = false;
  let slicesBlind = 0; // slices where no real query sees any real key
  let slicesWithPad = 0;
  let padWeight = 0;
  let realRows = 0;
  let example: { b: number; pads: number[] } | null = null;
  for (let sl = 0; sl < nSlices; sl++) {
    const b = Math.floor(sl / perB);
    const pad = (s: number) => ids[b * S + s] === paddingIdx;
    const pads: number[] = [];
    for (let s = 0; s < S; s++) if (pad(s)) pads.push(s);
    if (pads.length === 0 || pads.length === S) continue;
    let realQueries = 0;
    for (let t = 0; t < T; t++) if (!pad(t + off)) realQueries++;
    if (realQueries === 0) continue; // a KV-cache step whose new tokens are all padding: nothing to judge
    slicesWithPad++;
    let anyRealSeesReal = false;
    for (let t = 0; t < T; t++) {
      if (pad(t + off)) continue;
      const row = sl * T * S + t * S;
      let seesReal = false;
      for (let s = 0; s < S; s++) {
        const a = allowed[row + s];
        if (pad(s)) {
          if (a) padAllowed = true;
        } else if (a) {
          seesReal = true;
        } else if (s <= t + off) {
          realPastMasked = true;
        }
      }
      if (seesReal) anyRealSeesReal = true;
      if (probs) {
        let w = 0;
        for (const s of pads) w += probs[row + s];
        if (Number.isFinite(w)) {
          padWeight += w;
          realRows++;
        }
      }
    }
    if (!anyRealSeesReal) slicesBlind++;
    if (!example && (padAllowed || !anyRealSeesReal)) example = { b, pads };
  }
  return { padAllowed, realPastMasked, slicesBlind, slicesWithPad, padWeight, realRows, example };
}

/**
 * Rows of a view with every key masked: how many hold NaN (in the weights, or in the output `out` of Ev values per
 * row when given), how many of the others are real queries (query t is key position t + queryOffset; padding
 * known only with ids and a padding id), and the first row of either kind.
 */
export function scanMaskedRows(
  v: Omit<PairScan, 'ids' | 'paddingIdx'> & { ids: PairScan['ids'] | null; paddingIdx: number | null },
  out: { data: Float32Array; Ev: number } | null,
  queryOffset: number | null,
): { nanRows: number; blindRealRows: number; first: { kind: 'nan' | 'real'; t: number; b: number } | null } {
  const { allowed, probs, ids, paddingIdx, T, S, perB } = v;
  const nSlices = allowed.length / (T * S);
  let nanRows = 0;
  let blindRealRows = 0;
  let first: { kind: 'nan' | 'real'; t: number; b: number } | null = null;
  for (let sl = 0; sl < nSlices; sl++) {
    const b = Math.floor(sl / perB);
    for (let t = 0; t < T; t++) {
      const row = sl * T * S + t * S;
      let any = false;
      for (let s = 0; s < S && !any; s++) any = allowed[row + s] === 1;
      if (any) continue;
      // Every key masked: NaN in the weights (softmax of all -inf) or, with finite fills, uniform weights.
      let nan = false;
      if (probs) for (let s = 0; s < S && !nan; s++) nan = Number.isNaN(probs[row + s]);
      if (!nan && out) for (let e = 0; e < out.Ev && !nan; e++) nan = Number.isNaN(out.data[(sl * T + t) * out.Ev + e]);
      const realQuery = queryOffset !== null && ids && paddingIdx !== null ? ids[b * S + t + queryOffset] !== paddingIdx : null;
      if (nan) {
        nanRows++;
        first ??= { kind: 'nan', t, b };
      } else if (realQuery === true) {
        blindRealRows++;
        first ??= { kind: 'real', t, b };
      }
    }
  }
  return { nanRows, blindRealRows, first };
}
