// The heatmap renderer's pure core: area-average downsampling (checked against the engine's own thumbnail
// code, written independently), the pixel ↔ cell mapping shared by drawing and hit testing, and the pixels
// themselves (every pixel has the colour of its cell, or the marker of a special value).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { thumbnails } from '../../../src/models/session';
import { type ThemePalette, makePalette, rampIndex } from '../../../webview/colour-scale';
import { bands, downsample } from '../../../webview/downsample';
import { cellAtPixel, cellSpan, drawnMatrix, pack, renderHeatmapPixels } from '../../../webview/heatmap-pixels';

const palette: ThemePalette = makePalette('dark', [30, 30, 30]);
const px32 = (bytes: Uint8ClampedArray) => new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);

function softmaxRows(rows: number, cols: number, seed: number): Float32Array {
  const out = new Float32Array(rows * cols);
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += out[i * cols + j] = Math.exp(4 * rand());
    for (let j = 0; j < cols; j++) out[i * cols + j] /= sum;
  }
  return out;
}

describe('webview heatmap pixels', () => {
  describe('downsample', () => {
    it('agrees with the engine’s run thumbnails (an independent area average) on attention weights', () => {
      for (const [T, size] of [
        [5, 3],
        [48, 48],
        [100, 48],
        [512, 48],
        [7, 1],
      ]) {
        const w = softmaxRows(T, T, T * 31 + size);
        const mine = downsample(w, T, T, size, size);
        const engine = thumbnails(w, 1, T, size);
        for (let i = 0; i < size * size; i++) assert.ok(Math.abs(mine[i] - engine[i]) < 1e-6, `T=${T} size=${size} cell ${i}: ${mine[i]} vs ${engine[i]}`);
      }
    });

    it('averages by hand-checkable blocks, keeps NaN, and marks blocks with no finite cell as -inf', () => {
      const v = [1, 3, -Infinity, -Infinity, 5, 7, -Infinity, 2, 0, NaN, 4, 4, 0, 0, 4, Infinity];
      const out = Array.from(downsample(v, 4, 4, 2, 2));
      assert.deepEqual(out.slice(0, 2), [4, 2]); // (1+3+5+7)/4, and the one finite cell 2
      assert.ok(Number.isNaN(out[2]));
      assert.equal(out[3], Infinity);
      assert.equal(downsample([-Infinity, -Infinity], 1, 2, 1, 1)[0], -Infinity);
    });

    it('maps every input to one band, bands in order, none empty', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (size, n0) => {
          const n = Math.min(size, n0);
          const b = bands(size, n);
          const counts = new Array(n).fill(0);
          for (let i = 0; i < size; i++) {
            counts[b[i]]++;
            if (i > 0 && b[i] < b[i - 1]) return false;
          }
          return counts.every((c) => c > 0);
        }),
      );
    });

    it('says what is wrong with bad sizes', () => {
      assert.throws(() => downsample([1, 2, 3], 2, 2, 1, 1), /3 values do not make a 2×2 matrix/);
      assert.throws(() => downsample([1, 2, 3, 4], 2, 2, 3, 1), /cannot grow/);
      assert.throws(() => downsample([1], 1, 1, 0, 1), /outRows must be a positive integer/);
    });
  });

  describe('cells and pixels', () => {
    it('cellSpan tiles the pixels and agrees with cellAtPixel', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 900 }), (n, size0) => {
          const size = Math.max(n, size0);
          let next = 0;
          for (let i = 0; i < n; i++) {
            const [a, b] = cellSpan(i, n, size);
            if (a !== next || b <= a) return false;
            for (const p of [a, b - 1]) if (cellAtPixel(p, 0, 1, n, size, 1)?.col !== i) return false;
            next = b;
          }
          return next === size;
        }),
      );
      assert.equal(cellAtPixel(-1, 0, 2, 2, 10, 10), undefined);
      assert.equal(cellAtPixel(10, 0, 2, 2, 10, 10), undefined);
    });

    it('colours each pixel as its cell, with background gaps between large cells', () => {
      const rows = 3,
        cols = 4,
        width = 40,
        height = 30;
      const values = Float32Array.from({ length: 12 }, (_, i) => i / 11);
      const scale = { kind: 'sequential' as const, lo: 0, hi: 1 };
      const px = px32(renderHeatmapPixels({ values, rows, cols, width, height, palette, scale, gapFrom: 8 }));
      const bg = pack(palette.background);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const { row, col } = cellAtPixel(x, y, rows, cols, width, height)!;
          const lastX = x === cellSpan(col, cols, width)[1] - 1,
            lastY = y === cellSpan(row, rows, height)[1] - 1;
          const want = lastX || lastY ? bg : pack(palette.sequential.colours[rampIndex(values[row * cols + col], scale)]);
          assert.equal(px[y * width + x], want, `pixel (${x}, ${y})`);
        }
      }
    });

    it('stripes -inf cells and gives NaN and +inf their own colours', () => {
      const scale = { kind: 'diverging' as const, hi: 1 };
      const px = px32(renderHeatmapPixels({ values: [-Infinity, NaN, Infinity, 0], rows: 1, cols: 4, width: 32, height: 8, palette, scale, gapFrom: 0 }));
      const stripe = pack(palette.maskedStripe),
        bg = pack(palette.background);
      const first = new Set<number>();
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) first.add(px[y * 32 + x]);
      assert.deepEqual([...first].sort(), [stripe, bg].sort(), 'the -inf cell is striped');
      assert.equal(px[12], pack(palette.nan));
      assert.equal(px[20], pack(palette.posInf));
      assert.equal(px[28], pack(palette.diverging.colours[rampIndex(0, scale)]));
    });

    it('area-averages when there are more cells than pixels', () => {
      const values = softmaxRows(64, 64, 3);
      const drawn = drawnMatrix({ values, rows: 64, cols: 64, width: 16, height: 16 });
      assert.equal(drawn.rows, 16);
      const scale = { kind: 'sequential' as const, lo: 0, hi: 0.2 };
      const px = px32(renderHeatmapPixels({ values, rows: 64, cols: 64, width: 16, height: 16, palette, scale }));
      const avg = downsample(values, 64, 64, 16, 16);
      for (let i = 0; i < 256; i++) assert.equal(px[i], pack(palette.sequential.colours[rampIndex(avg[i], scale)]));
    });

    it('refuses bad output sizes and mismatched buffers', () => {
      const base = { values: [1], rows: 1, cols: 1, palette, scale: { kind: 'sequential' as const, lo: 0, hi: 1 } };
      assert.throws(() => renderHeatmapPixels({ ...base, width: 0, height: 1 }), /positive integers/);
      assert.throws(() => renderHeatmapPixels({ ...base, width: 2, height: 2 }, new Uint8ClampedArray(4)), /expected 16/);
      assert.throws(() => renderHeatmapPixels({ ...base, values: [1, 2], width: 2, height: 2 }), /2 values do not make a 1×1/);
    });
  });
});
