// A large heatmap on one canvas: the matrix as one ImageData, token labels on both axes (drawn with
// fillText, never HTML), the hovered row and column highlighted, a tooltip that follows the pointer, and
// a keyboard cursor (arrow keys, Page Up/Down, Home/End, Enter) announced to screen readers.
import type { ThemeColours } from './theme';
import { type ValueScale } from './colour-scale';
import { h } from './dom';
import { STACK_LINE, labelOrientation, labelsExtent } from './axis-labels';
import { tokenLabel } from './format';
import { renderHeatmapPixels } from './heatmap-pixels';
import { type HeatmapLayout, cellAt, cellRect, heatmapLayout, moveCursor } from './layout';
import { MatrixTable } from './matrix-table';
import type { Tooltip } from './tooltip';
import { itemAt } from './checked';

export interface HeatmapData {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  scale: ValueScale;
  /** Axis labels (token displays, or dimension numbers); drawn cut to a few characters. */
  rowLabels: readonly string[];
  colLabels: readonly string[];
}

export interface HeatmapOptions {
  /** Accessible name of the canvas. */
  label: string;
  tooltip: Tooltip;
  /** Tooltip / announcement lines for a cell. */
  describe: (row: number, col: number) => string[];
  /** Enter on a cell, or a click on it. */
  onActivate?: (row: number, col: number) => void;
  onCursor?: (row: number, col: number) => void;
  /** Largest matrix height in CSS px (default: a square as wide as the space). */
  maxHeight?: () => number;
}

export class HeatmapView {
  readonly el: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly live: HTMLElement;
  /** The same matrix as a table (screen readers, exact numbers). */
  readonly table = new MatrixTable();
  private readonly base = document.createElement('canvas');
  private data: HeatmapData | undefined;
  private theme: ThemeColours | undefined;
  private layout: HeatmapLayout | undefined;
  private hover: { row: number; col: number } | undefined;
  private cursor: { row: number; col: number } | undefined;
  private flagged = new Set<number>();
  private width = 600;
  private dpr = 1;
  /** Milliseconds the last full render took (the benchmark reads it). */
  lastRenderMs = 0;

  constructor(private readonly opts: HeatmapOptions) {
    this.canvas = h('canvas', { class: 'heatmap-canvas', attrs: { tabindex: 0, role: 'img', 'aria-label': opts.label } });
    this.live = h('div', { class: 'sr-only', attrs: { 'aria-live': 'polite' } });
    this.el = h('div', { class: 'heatmap' }, this.canvas, this.live, this.table.el);
    this.canvas.addEventListener('pointermove', (e) => this.onPointer(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.hover = undefined;
      this.opts.tooltip.hide();
      this.paint();
    });
    this.canvas.addEventListener('click', (e) => {
      const cell = this.cellFromEvent(e);
      if (!cell) return;
      this.setCursor(cell, false);
      this.opts.onActivate?.(cell.row, cell.col);
    });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('blur', () => {
      if (!this.hover) this.opts.tooltip.hide();
    });
  }

  setTheme(theme: ThemeColours): void {
    this.theme = theme;
    this.render();
  }

  setData(data: HeatmapData, label?: string): void {
    this.data = data;
    if (label) this.canvas.setAttribute('aria-label', label);
    this.table.set({
      values: data.values,
      rows: data.rows,
      cols: data.cols,
      rowLabels: data.rowLabels,
      colLabels: data.colLabels,
      caption: label ?? this.opts.label,
    });
    if (this.cursor && (this.cursor.row >= data.rows || this.cursor.col >= data.cols)) this.cursor = undefined;
    this.hover = undefined;
    this.render();
  }

  /** Rows to mark (e.g. the rows a warning is about). */
  setFlaggedRows(rows: readonly number[]): void {
    this.flagged = new Set(rows);
    this.paint();
  }

  setWidth(width: number): void {
    if (Math.abs(width - this.width) < 1) return;
    this.width = width;
    this.render();
  }

  get cursorCell(): { row: number; col: number } | undefined {
    return this.cursor;
  }

  /** Moves the cursor (and announces the cell); `show` puts the tooltip on it. */
  setCursor(cell: { row: number; col: number } | undefined, show = true): void {
    this.cursor = cell;
    this.paint();
    if (!cell || !this.layout || !this.data) return;
    const lines = this.opts.describe(cell.row, cell.col);
    this.live.textContent = lines.join('. ');
    this.opts.onCursor?.(cell.row, cell.col);
    if (show) {
      const r = cellRect(this.layout, this.data.rows, this.data.cols, cell.row, cell.col);
      const box = this.canvas.getBoundingClientRect();
      this.opts.tooltip.show(lines, box.left + r.x + r.w, box.top + r.y + r.h);
    }
  }

  /** Full render: layout, labels and the matrix image; then the overlays. */
  render(): void {
    const { data, theme } = this;
    if (!data || !theme) return;
    const started = performance.now();
    const ctx0 = this.base.getContext('2d');
    if (!ctx0) return;
    const font = (px: number) => `${px}px ${theme.font}`;
    ctx0.font = font(12);
    const rowLabels = data.rowLabels.map((l) => tokenLabel(l, 16));
    const colLabels = data.colLabels.map((l) => tokenLabel(l, 16));
    const widest = (labels: string[]) => labels.reduce((m, l) => Math.max(m, ctx0.measureText(l).width), 0);
    const layoutWith = (colLabelWidth: number) =>
      heatmapLayout({
        rows: data.rows,
        cols: data.cols,
        availableWidth: this.width,
        maxHeight: this.opts.maxHeight?.(),
        rowLabelWidth: widest(rowLabels),
        colLabelWidth,
      });
    // Column labels stand upright when they fit (or are CJK): lay out once with every label turned, then
    // again with the height the labels take in the orientation that cell width gives them.
    let layout = layoutWith(widest(colLabels));
    if (layout.colLabels) {
      const measureAt = (px: number) => {
        ctx0.font = font(px);
        return colLabels.map((l) => ctx0.measureText(l).width);
      };
      const second = layoutWith(Math.max(1, labelsExtent(colLabels, measureAt(layout.font), layout.cellW, layout.font)));
      if (second.colLabels) layout = second;
    }
    const colWidths = colLabels.map((l) => {
      ctx0.font = font(layout.font);
      return ctx0.measureText(l).width;
    });
    this.layout = layout;
    const dpr = (this.dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1)));
    for (const c of [this.base, this.canvas]) {
      c.width = Math.round(layout.width * dpr);
      c.height = Math.round(layout.height * dpr);
    }
    this.canvas.style.width = `${layout.width}px`;
    this.canvas.style.height = `${layout.height}px`;
    const ctx = this.base.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, this.base.width, this.base.height);
    // The matrix, in device pixels.
    const m = layout.matrix;
    const px = { x: Math.round(m.x * dpr), y: Math.round(m.y * dpr), w: Math.max(1, Math.round(m.w * dpr)), h: Math.max(1, Math.round(m.h * dpr)) };
    const image = ctx.createImageData(px.w, px.h);
    renderHeatmapPixels(
      { values: data.values, rows: data.rows, cols: data.cols, width: px.w, height: px.h, palette: theme.palette, scale: data.scale, gapFrom: 10 * dpr },
      image.data,
    );
    ctx.putImageData(image, px.x, px.y);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.strokeStyle = theme.foreground;
    ctx.globalAlpha = 0.35;
    ctx.lineWidth = 1;
    ctx.strokeRect(m.x - 0.5, m.y - 0.5, m.w + 1, m.h + 1);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.foreground;
    ctx.font = font(layout.font);
    if (layout.rowLabels) {
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      rowLabels.forEach((l, i) => ctx.fillText(l, m.x - 6, m.y + (i + 0.5) * layout.cellH, m.x - 8));
    }
    if (layout.colLabels) {
      colLabels.forEach((l, j) => {
        const x = m.x + (j + 0.5) * layout.cellW;
        const orientation = labelOrientation(l, itemAt(colWidths, j, 'column label widths'), layout.cellW, layout.font);
        ctx.save();
        if (orientation === 'rotated') {
          ctx.textAlign = 'left';
          ctx.textBaseline = 'middle';
          ctx.translate(x, m.y - 4);
          ctx.rotate(-Math.PI / 2);
          ctx.fillText(l, 0, 0, m.y - 6);
        } else {
          ctx.textAlign = 'center';
          ctx.textBaseline = 'alphabetic';
          const chars = orientation === 'stacked' ? [...l] : [l];
          const line = layout.font * STACK_LINE;
          // Bottom line just above the matrix; earlier characters above it.
          chars.forEach((ch, k) => ctx.fillText(ch, x, m.y - 5 - (chars.length - 1 - k) * line));
        }
        ctx.restore();
      });
    }
    this.lastRenderMs = performance.now() - started;
    this.paint();
  }

  /** Base image + overlays (hovered row/column, flagged rows, cursor). Cheap: called on every pointer move. */
  private paint(): void {
    const { layout, data, theme } = this;
    if (!layout || !data || !theme) return;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const dpr = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const m = layout.matrix;
    const rect = (row: number, col: number) => cellRect(layout, data.rows, data.cols, row, col);
    ctx.lineWidth = 1;
    // Flagged rows: a mark in the gutter left of the matrix, and an outline when only a few rows are flagged.
    const outline = this.flagged.size <= 8;
    for (const row of this.flagged) {
      if (row >= data.rows) continue;
      const r = rect(row, 0);
      ctx.fillStyle = theme.error;
      ctx.fillRect(Math.max(0, m.x - 4), r.y, 3, Math.max(1, r.h - (r.h > 3 ? 1 : 0)));
      if (outline) {
        ctx.strokeStyle = theme.error;
        ctx.strokeRect(m.x + 0.5, r.y + 0.5, m.w - 1, Math.max(1, r.h - 1));
      }
    }
    const hv = this.hover;
    if (hv) {
      const r = rect(hv.row, hv.col);
      ctx.fillStyle = theme.highlight;
      ctx.globalAlpha = 0.35;
      ctx.fillRect(m.x, r.y, m.w, r.h); // the query's row
      ctx.fillRect(r.x, m.y, r.w, m.h); // the key's column
      if (layout.rowLabels) ctx.fillRect(0, r.y, m.x, r.h);
      if (layout.colLabels) ctx.fillRect(r.x, 0, r.w, m.y);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = theme.foreground;
      ctx.strokeRect(r.x + 0.5, r.y + 0.5, Math.max(1, r.w - 1), Math.max(1, r.h - 1));
    }
    const cur = this.cursor;
    if (cur) {
      const r = rect(cur.row, cur.col);
      ctx.strokeStyle = theme.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(r.x - 1, r.y - 1, r.w + 2, r.h + 2);
      ctx.lineWidth = 1;
    }
  }

  private cellFromEvent(e: MouseEvent): { row: number; col: number } | undefined {
    if (!this.layout || !this.data) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return cellAt(this.layout, this.data.rows, this.data.cols, e.clientX - box.left, e.clientY - box.top);
  }

  private onPointer(e: PointerEvent): void {
    const cell = this.cellFromEvent(e);
    const same = cell && this.hover && cell.row === this.hover.row && cell.col === this.hover.col;
    if (!cell) {
      if (this.hover) {
        this.hover = undefined;
        this.paint();
      }
      this.opts.tooltip.hide();
      return;
    }
    if (!same) {
      this.hover = cell;
      this.paint();
    }
    this.opts.tooltip.show(this.opts.describe(cell.row, cell.col), e.clientX, e.clientY);
  }

  private onKey(e: KeyboardEvent): void {
    const data = this.data;
    if (!data) return;
    if (e.key === 'Enter' || e.key === ' ') {
      if (this.cursor) {
        e.preventDefault();
        this.opts.onActivate?.(this.cursor.row, this.cursor.col);
      }
      return;
    }
    if (e.key === 'Escape') {
      this.opts.tooltip.hide();
      return;
    }
    const from = this.cursor ?? { row: 0, col: 0 };
    const next = this.cursor
      ? moveCursor(from, e.key, data.rows, data.cols, { ctrl: e.ctrlKey || e.metaKey })
      : /^(Arrow|Page|Home|End)/.test(e.key)
        ? from
        : undefined;
    if (!next) return;
    e.preventDefault();
    e.stopPropagation();
    this.setCursor(next, true);
  }

  /** The canvas as a PNG (base64, no data: prefix). */
  pngBase64(): string {
    return this.canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  }

  get currentLayout(): HeatmapLayout | undefined {
    return this.layout;
  }
}
