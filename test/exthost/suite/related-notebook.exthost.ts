// Related information in an open notebook: a mask built in one cell and handed to SDPA in another gives an
// ATT002 diagnostic on the second cell whose related information points at the first cell's document, at the
// line and column where the mask is built (lines relative to that cell), and at the SDPA call in its own cell.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, codeOf, describeDiagnostics, hasCodes, resetLintSettings, waitForDiagnostics, workspaceFile } from './helpers';

const BUILD = 'import torch.nn.functional as F\n\npad_mask = input_ids == pad_id  # True at padding';
const USE = 'out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask[:, None, None, :])';

function notebookJson(): string {
  const code = (source: string) => ({ cell_type: 'code', source: source.split(/(?<=\n)/), metadata: {}, outputs: [], execution_count: null });
  return JSON.stringify({
    cells: [{ cell_type: 'markdown', source: ['# the mask is built in one cell and used in another'], metadata: {} }, code(BUILD), code(USE)],
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

describe('related information in an open notebook', function () {
  let nb: vscode.NotebookDocument;

  before(async function () {
    await resetLintSettings();
    const uri = workspaceFile('exthost-related/cross_cell.ipynb');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(notebookJson()));
    nb = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(nb);
  });

  after(async function () {
    await closeAllEditors();
  });

  it('points ATT002 on one cell at the cell where its mask was built', async function () {
    const build = nb.cellAt(1).document;
    const use = nb.cellAt(2).document;
    assert.equal(use.languageId, 'python', `cell 2 is ${use.languageId}`);
    const list = await waitForDiagnostics(use.uri, hasCodes('ATT002'), 'ATT002 on the cell that uses the mask');
    const d = list.find((x) => codeOf(x) === 'ATT002')!;
    const related = d.relatedInformation ?? [];
    const describe = related
      .map((r) => `${r.location.uri.toString()} ${r.location.range.start.line + 1}:${r.location.range.start.character + 1} ${r.message}`)
      .join('; ');
    const built = related.find((r) => /built here/.test(r.message));
    assert.ok(built, `no "built here" among ${describe} (${describeDiagnostics(list)})`);
    assert.equal(built.location.uri.toString(), build.uri.toString(), `the mask's cell: ${describe}`);
    const expected = build.positionAt(BUILD.indexOf('input_ids == pad_id'));
    assert.ok(
      built.location.range.start.isEqual(expected),
      `at ${built.location.range.start.line + 1}:${built.location.range.start.character + 1}, expected ${expected.line + 1}:${expected.character + 1}`,
    );
    const api = related.find((r) => /reads attn_mask/.test(r.message));
    assert.ok(api && api.location.uri.toString() === use.uri.toString() && api.location.range.start.line === 0, `the SDPA call in its own cell: ${describe}`);
  });
});
