// The heatmap renderer's pure core: a row-major matrix → RGBA pixels of a given size (one ImageData,
// no DOM element per cell). Cells are blocks of pixels; when there are more cells than pixels the matrix
// is area-averaged first. -inf cells are striped, NaN and +inf cells get their own colours, and large
// cells are separated by a 1-pixel line of the background.
import { type Rgb, type ThemePalette, type ValueScale, rampIndex } from './colour-scale';
import { downsample } from './downsample';

export interface HeatmapImageInput {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  /** Output size in pixels. */
  width: number;
  height: number;
  palette: ThemePalette;
  scale: ValueScale;
  /** Separate cells at least this many pixels wide by a background line (0: never). Default 8. */
  gapFrom?: number;
}

const littleEndian = new Uint8Array(new Uint32Array([0x01020304]).buffer)[0] === 0x04;

/** Packs a colour for a Uint32Array view of RGBA bytes (alpha 255). */
export function pack([r, g, b]: Rgb): number {
  return littleEndian ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}

/** The packed colours of a ramp (cached per ramp array). */
const packedCache = new WeakMap<readonly Rgb[], Uint32Array>();
function packedRamp(colours: readonly Rgb[]): Uint32Array {
  let p = packedCache.get(colours);
  if (!p) {
    p = Uint32Array.from(colours, pack);
    packedCache.set(colours, p);
  }
  return p;
}

/** The matrix actually drawn: the input, or its area average when it has more cells than pixels. */
export function drawnMatrix(input: Pick<HeatmapImageInput, 'values' | 'rows' | 'cols' | 'width' | 'height'>): {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
} {
  const { values, rows, cols, width, height } = input;
  if (cols <= width && rows <= height) return { values, rows, cols };
  const r = Math.min(rows, height),
    c = Math.min(cols, width);
  return { values: downsample(values, rows, cols, r, c), rows: r, cols: c };
}

/**
 * Cell i of n drawn over `size` pixels covers pixels [cellSpan(i)[0], cellSpan(i)[1]): exactly the pixels p
 * with floor(p · n / size) = i (the rule cellAtPixel uses), so drawing and hit testing agree.
 */
export function cellSpan(i: number, n: number, size: number): [number, number] {
  return [Math.ceil((i * size) / n), Math.ceil(((i + 1) * size) / n)];
}

/** The cell index of every pixel: floor(p · n / size). */
function cellOfPixel(n: number, size: number): Uint32Array {
  const out = new Uint32Array(size);
  for (let p = 0; p < size; p++) out[p] = Math.min(n - 1, Math.floor((p * n) / size));
  return out;
}

/** Renders into `out` (width × height × 4 RGBA bytes), or a fresh array. */
export function renderHeatmapPixels(input: HeatmapImageInput, out?: Uint8ClampedArray): Uint8ClampedArray {
  const { width, height, palette, scale } = input;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`renderHeatmapPixels: width and height must be positive integers, got ${width}×${height}`);
  }
  if (input.values.length !== input.rows * input.cols) {
    throw new Error(`renderHeatmapPixels: ${input.values.length} values do not make a ${input.rows}×${input.cols} matrix`);
  }
  const bytes = out ?? new Uint8ClampedArray(width * height * 4);
  if (bytes.length !== width * height * 4) throw new Error(`renderHeatmapPixels: out holds ${bytes.length} bytes, expected ${width * height * 4}`);
  const px = new Uint32Array(bytes.buffer, bytes.byteOffset, width * height);
  const { values, rows, cols } = drawnMatrix(input);
  const ramp = packedRamp(scale.kind === 'sequential' ? palette.sequential.colours : palette.diverging.colours);
  const bg = pack(palette.background);
  const stripe = pack(palette.maskedStripe);
  const nan = pack(palette.nan);
  const posInf = pack(palette.posInf);
  const gapFrom = input.gapFrom ?? 8;
  const cellW = width / cols,
    cellH = height / rows;
  const gapX = gapFrom > 0 && cellW >= gapFrom;
  const gapY = gapFrom > 0 && cellH >= gapFrom;
  // Column of each pixel x, and whether x is a cell's last pixel.
  const colOf = cellOfPixel(cols, width);
  const lastX = new Uint8Array(width);
  for (let x = 0; x < width; x++) lastX[x] = x === width - 1 || colOf[x + 1] !== colOf[x] ? 1 : 0;
  const rowColours = new Uint32Array(cols);
  const rowKinds = new Uint8Array(cols); // 0 colour, 1 -inf stripes
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    for (let c = 0; c < cols; c++) {
      const v = values[base + c];
      if (v !== v) {
        rowColours[c] = nan;
        rowKinds[c] = 0;
      } else if (v === -Infinity) {
        rowKinds[c] = 1;
      } else if (v === Infinity) {
        rowColours[c] = posInf;
        rowKinds[c] = 0;
      } else {
        rowColours[c] = ramp[rampIndex(v, scale)];
        rowKinds[c] = 0;
      }
    }
    const [y0, y1] = cellSpan(r, rows, height);
    for (let y = y0; y < y1; y++) {
      const o = y * width;
      if (gapY && y === y1 - 1) {
        px.fill(bg, o, o + width);
        continue;
      }
      for (let x = 0; x < width; x++) {
        const c = colOf[x];
        if (gapX && lastX[x]) px[o + x] = bg;
        else if (rowKinds[c] === 1) px[o + x] = ((x + y) & 4) === 0 ? stripe : bg;
        else px[o + x] = rowColours[c];
      }
    }
  }
  return bytes;
}

/** Which cell (row, col) of a rows × cols matrix drawn over width × height pixels holds pixel (x, y). */
export function cellAtPixel(x: number, y: number, rows: number, cols: number, width: number, height: number): { row: number; col: number } | undefined {
  if (!(x >= 0 && y >= 0 && x < width && y < height)) return undefined;
  return { row: Math.min(rows - 1, Math.floor((y * rows) / height)), col: Math.min(cols - 1, Math.floor((x * cols) / width)) };
}
