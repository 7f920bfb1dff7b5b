// What the panel shows of one head when the run is long: above FULL_VIEW_MAX_TOKENS tokens the head view
// asks for a block-averaged matrix of at most VIEW_MAX_SIDE cells per side (the engine averages
// block × block squares, see AttentionRequest), says so, and names the token ranges of the hovered cell.
// The lines view and the step-through debugger have their own limits. Pure.
import type { HeadMatrix } from './data';
import { fmt, tokenLabel } from './format';
import { t } from './l10n';

/** Up to this many tokens the head view fetches every weight; beyond, a block-averaged view. */
export const FULL_VIEW_MAX_TOKENS = 1024;
/** Largest side of a block-averaged head view. */
export const VIEW_MAX_SIDE = 1024;
/** The lines view draws a line per weight: at most this many tokens. */
export const LINES_MAX_TOKENS = 1024;
/** The step-through debugger draws (T, T) matrices for five steps and a row of statistics per token. */
export const DEBUGGER_MAX_TOKENS = 1024;

/** The `downsample` a head request carries for a run of T tokens (undefined: every weight). */
export function downsampleFor(T: number): number | undefined {
  return T > FULL_VIEW_MAX_TOKENS ? VIEW_MAX_SIDE : undefined;
}

/** The tokens [start, end) that cell index `i` covers along an axis starting at `first` and ending at `limit`. */
export function cellSpan(i: number, block: number, first: number, limit: number): { start: number; end: number } {
  const start = first + i * block;
  return { start, end: Math.min(limit, start + block) };
}

/** The sentence above a block-averaged head view; '' for a view of the weights themselves. */
export function blockNote(m: HeadMatrix, T: number): string {
  if (m.block === 1) return '';
  return t('Showing {0} tokens as {1}×{2} blocks: each cell is the mean of {3}×{3} weights.', T, m.rows, m.cols, m.block);
}

/** The axis label of a cell: its token, or the first token of its range. */
export function cellLabels(m: HeadMatrix, tokens: readonly string[], axis: 'rows' | 'cols'): string[] {
  const n = axis === 'rows' ? m.rows : m.cols;
  const first = axis === 'rows' ? m.rowStart : 0;
  return Array.from({ length: n }, (_, i) => tokens[first + i * m.block] ?? '');
}

/** Tooltip lines of cell (row, col): the query and key tokens, or for a block the ranges of tokens it covers.
 * `queries` are the row tokens when they are not the keys (a recorded KV-cache step). */
export function describeHeadCell(m: HeadMatrix, tokens: readonly string[], row: number, col: number, queries: readonly string[] = tokens): string[] {
  const S = tokens.length;
  const v = m.values[row * m.cols + col];
  if (m.block === 1) {
    const q = m.rowStart + row;
    return [t('Query {0} “{1}” → key {2} “{3}”', q, tokenLabel(queries[q] ?? '', 24), col, tokenLabel(tokens[col] ?? '', 24)), t('weight {0}', fmt(v))];
  }
  const qs = cellSpan(row, m.block, m.rowStart, m.rowEnd);
  const ks = cellSpan(col, m.block, 0, S);
  const range = (s: { start: number; end: number }, list: readonly string[]) =>
    `“${tokenLabel(list[s.start] ?? '', 12)}” … “${tokenLabel(list[s.end - 1] ?? '', 12)}”`;
  return [
    t('Queries {0} → keys {1}', spanText(qs), spanText(ks)),
    `${range(qs, queries)} → ${range(ks, tokens)}`,
    t('mean weight {0} over {1}×{2} weights', fmt(v), qs.end - qs.start, ks.end - ks.start),
  ];
}

/** A range of token indices as text: "8–11", or "19" for one token. */
function spanText(s: { start: number; end: number }): string {
  return s.end - s.start === 1 ? String(s.start) : `${s.start}–${s.end - 1}`;
}

/** The token a click on row `row` of the view points at (the first of its range). */
export function rowToken(m: HeadMatrix, row: number): number {
  return m.rowStart + row * m.block;
}
