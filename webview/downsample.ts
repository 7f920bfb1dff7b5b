// Area-average downsampling of a row-major matrix, for drawing more cells than there are pixels. Input
// row i falls in output band floor(i · outRows / rows) (the rule the engine's run thumbnails use too).
// Non-finite cells are kept visible: a block with any NaN is NaN; a block whose cells are all -inf
// (masked) is -inf; otherwise the mean of its finite cells (so a partly masked block shows its weights).
// Pure.

/** The output band of each of `size` inputs when they are averaged into `n` bands: floor(i · n / size). */
export function bands(size: number, n: number): Uint32Array {
  const out = new Uint32Array(size);
  for (let i = 0; i < size; i++) out[i] = Math.min(n - 1, Math.floor((i * n) / size));
  return out;
}

/**
 * (rows, cols) → (outRows, outCols). outRows ≤ rows and outCols ≤ cols; equal sizes copy.
 */
export function downsample(values: ArrayLike<number>, rows: number, cols: number, outRows: number, outCols: number): Float32Array {
  for (const [name, v] of [
    ['rows', rows],
    ['cols', cols],
    ['outRows', outRows],
    ['outCols', outCols],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`downsample: ${name} must be a positive integer, got ${v}`);
  }
  if (values.length !== rows * cols) throw new Error(`downsample: ${values.length} values do not make a ${rows}×${cols} matrix`);
  if (outRows > rows || outCols > cols) throw new Error(`downsample: cannot grow ${rows}×${cols} to ${outRows}×${outCols}`);
  const out = new Float32Array(outRows * outCols);
  const sum = new Float64Array(outCols);
  const finite = new Uint32Array(outCols);
  const nan = new Uint8Array(outCols);
  const posInf = new Uint8Array(outCols);
  const colBand = bands(cols, outCols);
  const rowBand = bands(rows, outRows);
  let i = 0;
  for (let a = 0; a < outRows; a++) {
    sum.fill(0);
    finite.fill(0);
    nan.fill(0);
    posInf.fill(0);
    for (; i < rows && rowBand[i] === a; i++) {
      const base = i * cols;
      for (let j = 0; j < cols; j++) {
        const v = values[base + j];
        const b = colBand[j];
        if (v !== v) nan[b] = 1;
        else if (v === -Infinity) continue;
        else if (v === Infinity) posInf[b] = 1;
        else {
          sum[b] += v;
          finite[b]++;
        }
      }
    }
    const o = a * outCols;
    for (let b = 0; b < outCols; b++) {
      out[o + b] = nan[b] ? NaN : posInf[b] ? Infinity : finite[b] > 0 ? sum[b] / finite[b] : -Infinity;
    }
  }
  return out;
}
