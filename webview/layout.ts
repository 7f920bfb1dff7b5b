// Layout maths for the panel's canvases, in CSS pixels. Pure: the views measure the space and the text,
// these functions decide sizes, and map pointer positions back to cells.

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface HeatmapLayoutInput {
  rows: number;
  cols: number;
  /** Width available for the whole canvas (labels + matrix). */
  availableWidth: number;
  /** Height the matrix may take at most (default: unlimited). */
  maxHeight?: number;
  /** Widest row label and widest column label, in px at the label font (0 when there are none). */
  rowLabelWidth: number;
  colLabelWidth: number;
  /** Cells narrower than this hide the axis labels (they show on hover instead). Default 12. */
  minLabelledCell?: number;
  /** Largest cell side. Default 32. */
  maxCell?: number;
}

export interface HeatmapLayout {
  /** Canvas size. */
  width: number;
  height: number;
  /** Where the matrix is drawn. */
  matrix: Rect;
  /** Cell size (may be fractional when there are more cells than pixels). */
  cellW: number;
  cellH: number;
  /** Whether the axes carry token labels (left: queries / rows; top: keys / columns, drawn vertically). */
  rowLabels: boolean;
  colLabels: boolean;
  /** Label font size in px. */
  font: number;
}

const LABEL_PAD = 8;
/** Labels are cut to this width (with an ellipsis) so one long token cannot squeeze the matrix. */
export const MAX_LABEL_WIDTH = 120;

export function heatmapLayout(input: HeatmapLayoutInput): HeatmapLayout {
  const { rows, cols } = input;
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
    throw new Error(`heatmapLayout: rows and cols must be positive integers, got ${rows}×${cols}`);
  }
  const avail = Math.max(40, Math.floor(input.availableWidth));
  const maxH = input.maxHeight === undefined ? Infinity : Math.max(40, Math.floor(input.maxHeight));
  const minLabelled = input.minLabelledCell ?? 12;
  const maxCell = input.maxCell ?? 32;
  const rowGutter = input.rowLabelWidth > 0 ? Math.min(MAX_LABEL_WIDTH, Math.ceil(input.rowLabelWidth)) + LABEL_PAD : 0;
  const colGutter = input.colLabelWidth > 0 ? Math.min(MAX_LABEL_WIDTH, Math.ceil(input.colLabelWidth)) + LABEL_PAD : 0;

  const fit = (left: number, top: number): number => {
    const byWidth = (avail - left - 1) / cols;
    const byHeight = (maxH - top - 1) / rows;
    const cell = Math.min(maxCell, byWidth, byHeight);
    // Whole-pixel cells while cells are a few pixels wide; below that, fractional cells fill the space.
    return cell >= 3 ? Math.floor(cell) : cell;
  };
  let labelled = rowGutter > 0 || colGutter > 0;
  let cell = fit(rowGutter, colGutter);
  if (labelled && cell < minLabelled) {
    labelled = false;
    cell = fit(0, 0);
  }
  const left = labelled ? rowGutter : 0;
  const top = labelled ? colGutter : 0;
  const w = Math.max(1, Math.floor(cell * cols));
  const h = Math.max(1, Math.floor(cell * rows));
  return {
    width: left + w + 1,
    height: top + h + 1,
    matrix: { x: left, y: top, w, h },
    cellW: w / cols,
    cellH: h / rows,
    rowLabels: labelled && rowGutter > 0,
    colLabels: labelled && colGutter > 0,
    font: labelled ? Math.max(10, Math.min(13, Math.floor(Math.min(w / cols, h / rows) * 0.8))) : 11,
  };
}

/** The cell under a point of the canvas (CSS px), or undefined outside the matrix. */
export function cellAt(layout: HeatmapLayout, rows: number, cols: number, x: number, y: number): { row: number; col: number } | undefined {
  const { matrix } = layout;
  const mx = x - matrix.x,
    my = y - matrix.y;
  if (!(mx >= 0 && my >= 0 && mx < matrix.w && my < matrix.h)) return undefined;
  return { row: Math.min(rows - 1, Math.floor((my * rows) / matrix.h)), col: Math.min(cols - 1, Math.floor((mx * cols) / matrix.w)) };
}

/** The rectangle of cell (row, col) on the canvas (CSS px). */
export function cellRect(layout: HeatmapLayout, rows: number, cols: number, row: number, col: number): Rect {
  const { matrix } = layout;
  const x0 = matrix.x + (col * matrix.w) / cols,
    x1 = matrix.x + ((col + 1) * matrix.w) / cols;
  const y0 = matrix.y + (row * matrix.h) / rows,
    y1 = matrix.y + ((row + 1) * matrix.h) / rows;
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Moves a cursor cell by a key press; undefined for keys that do not move it. */
export function moveCursor(
  cursor: { row: number; col: number },
  key: string,
  rows: number,
  cols: number,
  opts: { ctrl?: boolean; page?: number } = {},
): { row: number; col: number } | undefined {
  const page = opts.page ?? 10;
  const clamp = (v: number, n: number) => Math.max(0, Math.min(n - 1, v));
  let { row, col } = cursor;
  switch (key) {
    case 'ArrowUp':
      row--;
      break;
    case 'ArrowDown':
      row++;
      break;
    case 'ArrowLeft':
      col--;
      break;
    case 'ArrowRight':
      col++;
      break;
    case 'PageUp':
      row -= page;
      break;
    case 'PageDown':
      row += page;
      break;
    case 'Home':
      if (opts.ctrl) row = 0;
      col = 0;
      break;
    case 'End':
      if (opts.ctrl) row = rows - 1;
      col = cols - 1;
      break;
    default:
      return undefined;
  }
  return { row: clamp(row, rows), col: clamp(col, cols) };
}

// ----- heads grid -------------------------------------------------------------------------------------

export interface GridLayout {
  /** Side of one head's thumbnail (CSS px). */
  thumb: number;
  gap: number;
  /** Width of the layer labels column. */
  labelWidth: number;
  /** Whole grid's size. */
  width: number;
  height: number;
}

/** One row per layer, one column per head; thumbnails as large as fit (between 24 and 96 px). */
export function gridLayout(nLayer: number, nHead: number, availableWidth: number, labelWidth = 36): GridLayout {
  if (!Number.isInteger(nLayer) || !Number.isInteger(nHead) || nLayer < 1 || nHead < 1) {
    throw new Error(`gridLayout: nLayer and nHead must be positive integers, got ${nLayer}, ${nHead}`);
  }
  const gap = 4;
  const fit = Math.floor((availableWidth - labelWidth - gap * nHead) / nHead);
  const thumb = Math.max(24, Math.min(96, fit));
  return { thumb, gap, labelWidth, width: labelWidth + nHead * (thumb + gap), height: 20 + nLayer * (thumb + gap) };
}

/** Moves the focused head in the grid with arrow keys, Home and End. */
export function moveInGrid(at: { layer: number; head: number }, key: string, nLayer: number, nHead: number): { layer: number; head: number } | undefined {
  const m = moveCursor({ row: at.layer, col: at.head }, key, nLayer, nHead, { page: nLayer });
  return m && { layer: m.row, head: m.col };
}

// ----- lines view -------------------------------------------------------------------------------------

export interface LinesLayout {
  width: number;
  height: number;
  /** Height of one token's slot. */
  rowH: number;
  /** x where the left labels end and the right labels start (lines run between). */
  leftX: number;
  rightX: number;
  labels: boolean;
  font: number;
}

/** Query tokens on the left, key tokens on the right, one slot per token; labels when slots are tall enough. */
export function linesLayout(tokens: number, availableWidth: number, labelWidth: number, maxHeight = 2400): LinesLayout {
  if (!Number.isInteger(tokens) || tokens < 1) throw new Error(`linesLayout: tokens must be a positive integer, got ${tokens}`);
  const rowH = Math.max(2, Math.min(22, Math.floor(maxHeight / tokens)));
  const labels = rowH >= 12;
  const gutter = labels ? Math.min(MAX_LABEL_WIDTH, Math.ceil(labelWidth)) + LABEL_PAD : 4;
  const width = Math.max(160, Math.min(Math.floor(availableWidth), 2 * gutter + 360));
  return { width, height: tokens * rowH + 8, rowH, leftX: gutter, rightX: width - gutter, labels, font: Math.max(10, Math.min(13, rowH - 6)) };
}

/** The token slot under y in the lines view. */
export function lineSlotAt(layout: LinesLayout, tokens: number, y: number): number | undefined {
  const i = Math.floor((y - 4) / layout.rowH);
  return i >= 0 && i < tokens ? i : undefined;
}
