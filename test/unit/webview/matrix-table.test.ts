// The table view of a matrix: token text as headers (made visible, never HTML), every value, and a note
// when a large matrix is cut.
import { strict as assert } from 'node:assert';
import { setStrings } from '../../../webview/l10n';
import { tableModel } from '../../../webview/matrix-table';

describe('matrix table view', () => {
  before(() => setStrings({}));

  it('heads columns with key tokens and rows with query tokens, with every value', () => {
    const m = tableModel({ values: [0.25, 0.75, 1, 0], rows: 2, cols: 2, rowLabels: ['我', ' '], colLabels: ['我', '<b>'], caption: 'layer 0, head 1' });
    assert.deepEqual(m.columns, ['0 我', '1 <b>']);
    assert.deepEqual(m.rows, [
      { header: '0 我', cells: ['0.25', '0.75'] },
      { header: '1 ␣', cells: ['1', '0'] },
    ]);
    assert.equal(m.caption, 'layer 0, head 1');
    assert.equal(m.note, '');
  });

  it('cuts a large matrix and says so', () => {
    const n = 100;
    const m = tableModel({ values: new Float32Array(n * n), rows: n, cols: n, rowLabels: [], colLabels: [], caption: '' }, 64);
    assert.equal(m.rows.length, 64);
    assert.equal(m.columns.length, 64);
    assert.match(m.note, /first 64 rows and 64 columns of 100 × 100/);
  });
});
