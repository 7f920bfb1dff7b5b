// "Attention Inspector: Lint Workspace" in a real VS Code (code-server + Chromium), with no file open: it
// shows its progress, reports the findings of files nobody opened (a closed notebook's under the .ipynb,
// naming the cell), leaves clean files without rows, and ends with a summary that agrees with the Problems
// view and with the number of Python files on disk. The workspace is examples/ plus enough clean copies of
// examples/attention_fixed.py that the progress notification stays up long enough to be seen.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProblemRow } from './driver/workbench';
import { useWorkbench } from './session';
import { repoRoot } from './support/paths';
import { positionOf } from './support/text';

const SOURCE = 'attention-inspector';
const CLEAN_COPIES = 80;

const examples = join(repoRoot, 'examples');
const readExample = (name: string) => readFileSync(join(examples, name), 'utf8');

const cleanCopies: Record<string, string> = {};
for (let i = 0; i < CLEAN_COPIES; i++) cleanCopies[`models/block_${String(i).padStart(2, '0')}.py`] = readExample('attention_fixed.py');

/** Files Lint Workspace searches (.py, .pyi, .ipynb), found by walking the folder. */
function pythonFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(py|pyi|ipynb)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const describeRows = (rows: ProblemRow[]) => JSON.stringify(rows.map((r) => `${r.file} ${r.code} ${r.line}:${r.column} ${r.message.slice(0, 40)}`));

describe('the linter in VS Code: Lint Workspace', function () {
  const session = useWorkbench({ folder: 'examples', files: cleanCopies });

  it('lints files that are not open, with progress, and sums them up', async function () {
    this.timeout(300_000);
    const workbench = session.workbench;
    const files = pythonFiles(workbench.folder);
    assert.ok(files.length > CLEAN_COPIES, `only ${files.length} Python files in ${workbench.folder}`);

    await workbench.runCommand('Attention Inspector: Lint Workspace');
    const progress = await workbench.waitForNotification(/linting the workspace: \d+\/\d+ /, 60_000);
    await workbench.screenshot('lint-workspace-progress');
    const [, done, total] = /: (\d+)\/(\d+) /.exec(progress.message)!;
    assert.equal(Number(total), files.length, `the progress counts ${total} files, the folder has ${files.length}: ${progress.message}`);
    assert.ok(Number(done) < files.length, progress.message);

    const summary = await workbench.waitForNotification(/^Attention Inspector: \d+ problems? in \d+ files?/, 240_000);
    const [, problems, linted] = /(\d+) problems? in (\d+) files?/.exec(summary.message)!;
    assert.equal(summary.severity, 'info', `the run reported trouble: ${summary.message}`);
    assert.equal(Number(linted), files.length, summary.message);
    // The progress toast has closed by the time the summary shows (it used to stand beside it, at a stale count).
    const stale = (await workbench.notifications()).filter((n) => /linting the workspace/.test(n.message));
    assert.deepEqual(stale, [], 'the progress notification is still shown beside the summary');

    const rows = (await workbench.problems()).filter((r) => r.source === SOURCE);
    await workbench.screenshot('lint-workspace-summary');
    assert.equal(rows.length, Number(problems), `the summary says ${problems}, the Problems view shows ${describeRows(rows)}`);

    const padding = readExample('padding_masks.py');
    const mask = positionOf(padding, 'attn_mask=key_padding_mask[', 'key_padding_mask[');
    const bug = readExample('attention_bug.py');
    const softmaxDim = positionOf(bug, 'torch.softmax(scores', 'dim=-2');
    const dividedByDk = positionOf(bug, 'k.transpose(-2, -1) / d_k', 'd_k  #');
    const found = (file: string) =>
      rows
        .filter((r) => r.file === file)
        .map((r) => `${r.code} ${r.line}:${r.column}`)
        .sort();
    assert.deepEqual(found('padding_masks.py'), [`ATT002 ${mask.line}:${mask.column}`], describeRows(rows));
    assert.deepEqual(
      found('attention_bug.py'),
      [`ATT001 ${softmaxDim.line}:${softmaxDim.column}`, `ATT004 ${dividedByDk.line}:${dividedByDk.column}`].sort(),
      describeRows(rows),
    );
    assert.deepEqual(found('attention_fixed.py'), [], describeRows(rows));
    assert.deepEqual(
      rows.filter((r) => r.file.startsWith('block_')),
      [],
      'a clean copy got a finding',
    );

    // A closed notebook: its finding sits on the .ipynb file and names the cell (1-based, as VS Code counts).
    const notebook = JSON.parse(readExample('attention_notebook.ipynb')) as { cells: Array<{ source: string | string[] }> };
    const sources = notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source));
    const cell = sources.findIndex((s) => s.includes('def attend(')) + 1;
    const scores = positionOf(sources[cell - 1], 'F.softmax(scores', 'scores, dim');
    const notebookRows = rows.filter((r) => r.file === 'attention_notebook.ipynb');
    assert.deepEqual(
      notebookRows.map((r) => r.code),
      ['ATT003'],
      describeRows(rows),
    );
    assert.ok(notebookRows[0].message.startsWith(`cell ${cell}, line ${scores.line}: `), notebookRows[0].message);

    assert.deepEqual(await workbench.extensionHostErrors(), []);
    assert.deepEqual(
      (await workbench.extensionHostConsole()).filter((m) => m.text.includes('[attention-inspector]')),
      [],
      'the linter reported an internal error',
    );
  });
});
