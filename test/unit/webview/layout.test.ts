// Layout maths of the canvases: sizes that fit the space, labels only where they fit, and pointer
// positions that map back to the cell drawn there.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MAX_LABEL_WIDTH, cellAt, cellRect, gridLayout, heatmapLayout, lineSlotAt, linesLayout, moveCursor, moveInGrid } from '../../../webview/layout';

describe('webview layout', () => {
  it('fits the heatmap into the available width, square cells, labels when cells are large enough', () => {
    const l = heatmapLayout({ rows: 9, cols: 9, availableWidth: 600, rowLabelWidth: 50, colLabelWidth: 60 });
    assert.ok(l.width <= 600);
    assert.equal(l.cellW, l.cellH);
    assert.ok(l.rowLabels && l.colLabels);
    assert.equal(l.matrix.x, 50 + 8);
    assert.equal(l.matrix.y, 60 + 8);
    assert.ok(l.cellW <= 32, 'cells are capped');
  });

  it('drops the labels (hover shows tokens) when cells get small, and uses fractional cells past one pixel', () => {
    const l = heatmapLayout({ rows: 512, cols: 512, availableWidth: 600, rowLabelWidth: 50, colLabelWidth: 50 });
    assert.equal(l.rowLabels, false);
    assert.equal(l.matrix.x, 0);
    assert.ok(l.cellW > 1 && l.cellW < 1.2);
    const tiny = heatmapLayout({ rows: 2048, cols: 2048, availableWidth: 500, rowLabelWidth: 10, colLabelWidth: 10 });
    assert.ok(tiny.width <= 500 && tiny.cellW < 1);
  });

  it('caps a very long label so it cannot squeeze the matrix', () => {
    const l = heatmapLayout({ rows: 4, cols: 4, availableWidth: 400, rowLabelWidth: 5000, colLabelWidth: 5000 });
    assert.equal(l.matrix.x, MAX_LABEL_WIDTH + 8);
  });

  it('respects a height limit for tall matrices', () => {
    const l = heatmapLayout({ rows: 100, cols: 10, availableWidth: 1000, maxHeight: 300, rowLabelWidth: 0, colLabelWidth: 0 });
    assert.ok(l.matrix.h <= 300);
  });

  it('maps the centre of every cell back to that cell', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 100, max: 1600 }), (rows, cols, width) => {
        const l = heatmapLayout({ rows, cols, availableWidth: width, rowLabelWidth: 30, colLabelWidth: 30 });
        for (const [r, c] of [
          [0, 0],
          [rows - 1, cols - 1],
          [Math.floor(rows / 2), Math.floor(cols / 3)],
        ]) {
          const rect = cellRect(l, rows, cols, r, c);
          const hit = cellAt(l, rows, cols, rect.x + rect.w / 2, rect.y + rect.h / 2);
          if (!hit || hit.row !== r || hit.col !== c) return false;
        }
        return cellAt(l, rows, cols, l.matrix.x - 1, l.matrix.y) === undefined && cellAt(l, rows, cols, l.matrix.x + l.matrix.w, l.matrix.y) === undefined;
      }),
    );
  });

  it('moves the cursor with the keyboard and clamps at the edges', () => {
    assert.deepEqual(moveCursor({ row: 0, col: 0 }, 'ArrowUp', 5, 5), { row: 0, col: 0 });
    assert.deepEqual(moveCursor({ row: 0, col: 0 }, 'ArrowRight', 5, 5), { row: 0, col: 1 });
    assert.deepEqual(moveCursor({ row: 2, col: 2 }, 'PageDown', 5, 5), { row: 4, col: 2 });
    assert.deepEqual(moveCursor({ row: 2, col: 2 }, 'End', 5, 5), { row: 2, col: 4 });
    assert.deepEqual(moveCursor({ row: 2, col: 2 }, 'End', 5, 5, { ctrl: true }), { row: 4, col: 4 });
    assert.deepEqual(moveCursor({ row: 2, col: 2 }, 'Home', 5, 5, { ctrl: true }), { row: 0, col: 0 });
    assert.equal(moveCursor({ row: 0, col: 0 }, 'x', 5, 5), undefined);
    assert.deepEqual(moveInGrid({ layer: 0, head: 11 }, 'ArrowRight', 12, 12), { layer: 0, head: 11 });
    assert.deepEqual(moveInGrid({ layer: 0, head: 3 }, 'ArrowDown', 12, 12), { layer: 1, head: 3 });
  });

  it('sizes the heads grid between 24 and 96 px per head', () => {
    assert.equal(gridLayout(12, 12, 300).thumb, 24);
    assert.equal(gridLayout(1, 2, 3000).thumb, 96);
    const g = gridLayout(2, 4, 300);
    assert.ok(g.width <= 300 && g.thumb > 24 && g.thumb < 96);
    assert.throws(() => gridLayout(0, 4, 500), /positive integers/);
  });

  it('lays the lines view out with one slot per token and finds the slot under the pointer', () => {
    const l = linesLayout(10, 800, 40);
    assert.ok(l.labels && l.rowH >= 12);
    assert.ok(l.leftX < l.rightX && l.rightX <= l.width);
    assert.equal(lineSlotAt(l, 10, 4 + 3.5 * l.rowH), 3);
    assert.equal(lineSlotAt(l, 10, 0), undefined);
    assert.equal(lineSlotAt(l, 10, 4 + 10 * l.rowH + 1), undefined);
    const long = linesLayout(1000, 800, 40);
    assert.equal(long.labels, false);
  });
});
