// The lint worker's open documents over a workspace on disk (src/worker/lint-workspaces.ts, src/cli/lint-workspace.ts):
// an open document's text wins over the file, and its version token changes with every edit and with every
// opening, since the editor numbers a reopened document's versions from 1 again (the cached analyses and text
// facts of imported files are kept by these tokens).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtendedLinter, WorkspaceFiles } from '../../../src/lint';
import { WorkspaceLinters } from '../../../src/worker/lint-workspaces';

describe('lint worker workspaces: open documents over the disk', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'ai-lint-ws-'));
    writeFileSync(join(root, 'train.py'), 'import model\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('gives a reopened document new version tokens, though the editor counts its versions from 1 again', async () => {
    let files: WorkspaceFiles | undefined;
    const invalidated: string[] = [];
    const linters = new WorkspaceLinters(async (f) => {
      files = f;
      return { invalidateWorkspaceFile: (p: string) => invalidated.push(p) } as unknown as ExtendedLinter;
    });
    linters.entry(root);
    assert.ok(files);
    const onDisk = files.version('train.py');
    assert.equal(files.read('train.py'), 'import model\n');

    linters.open(root, 'train.py', 'import model\n', 1);
    const first = files.version('train.py');
    linters.open(root, 'train.py', 'import model  # edited\n', 2);
    const firstEdit = files.version('train.py');
    assert.equal(files.read('train.py'), 'import model  # edited\n', 'the open text wins');
    assert.equal(new Set([onDisk, first, firstEdit]).size, 3);

    linters.close(root, 'train.py');
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(invalidated, ['train.py']);
    assert.equal(files.version('train.py'), onDisk, 'closed: the file on disk again');

    linters.open(root, 'train.py', 'import model\n', 1);
    const second = files.version('train.py');
    linters.open(root, 'train.py', 'import other\n', 2);
    const secondEdit = files.version('train.py');
    assert.equal(files.read('train.py'), 'import other\n');
    assert.equal(new Set([onDisk, first, firstEdit, second, secondEdit]).size, 5, `tokens ${String([first, firstEdit, second, secondEdit])}`);
  });
});
