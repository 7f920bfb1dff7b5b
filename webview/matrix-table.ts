// The current matrix as an HTML table, for screen readers and for reading exact numbers: a caption, the
// key (column) tokens as column headers, each query's token as its row header, one cell per value. Token
// text goes in as text nodes, never HTML. Built only while the table is open; large matrices are cut to
// their first MAX_TABLE_SIDE rows and columns (with a note saying so).
import { h } from './dom';
import { fmt, visibleToken } from './format';
import { t } from './l10n';

export const MAX_TABLE_SIDE = 64;

export interface TableSource {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  rowLabels: readonly string[];
  colLabels: readonly string[];
  caption: string;
}

export interface TableModel {
  caption: string;
  /** Set when the matrix is larger than the table shows. */
  note: string;
  columns: string[];
  rows: { header: string; cells: string[] }[];
}

/** What the table shows, as text (pure). */
export function tableModel(src: TableSource, max = MAX_TABLE_SIDE): TableModel {
  const r = Math.min(src.rows, max),
    c = Math.min(src.cols, max);
  const label = (labels: readonly string[], i: number) => `${i} ${visibleToken(labels[i] ?? '')}`;
  const columns = Array.from({ length: c }, (_, j) => label(src.colLabels, j));
  const rows = Array.from({ length: r }, (_, i) => ({
    header: label(src.rowLabels, i),
    cells: Array.from({ length: c }, (_, j) => fmt(src.values[i * src.cols + j], 3)),
  }));
  const note =
    r < src.rows || c < src.cols
      ? t('The table shows the first {0} rows and {1} columns of {2} × {3}; export CSV for all of them.', r, c, src.rows, src.cols)
      : '';
  return { caption: src.caption, note, columns, rows };
}

export class MatrixTable {
  readonly el: HTMLDetailsElement;
  private readonly body = h('div', { class: 'table-scroll matrix-table-scroll' });
  private source: TableSource | undefined;

  constructor() {
    this.el = h('details', { class: 'matrix-table' }, h('summary', { text: t('Table view (for screen readers and exact numbers)') }), this.body);
    this.el.addEventListener('toggle', () => this.build());
  }

  set(src: TableSource | undefined): void {
    this.source = src;
    this.el.hidden = !src;
    this.build();
  }

  private build(): void {
    if (!this.el.open || !this.source) {
      this.body.replaceChildren();
      return;
    }
    const m = tableModel(this.source);
    const thead = h(
      'thead',
      {},
      h('tr', {}, h('th', { attrs: { scope: 'col' }, text: t('Query \\ key') }), ...m.columns.map((c) => h('th', { attrs: { scope: 'col' }, text: c }))),
    );
    const tbody = h(
      'tbody',
      {},
      ...m.rows.map((row) => h('tr', {}, h('th', { attrs: { scope: 'row' }, text: row.header }), ...row.cells.map((v) => h('td', { text: v })))),
    );
    const table = h('table', { class: 'stats-table matrix-values' }, h('caption', { text: m.caption }), thead, tbody);
    this.body.replaceChildren(...(m.note ? [h('p', { class: 'note', text: m.note })] : []), table);
  }
}
