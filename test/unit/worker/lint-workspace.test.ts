// The editor's path for cross-file analysis: the lint worker (src/worker/lint-worker.ts) linting documents
// that name their workspace, reading imported files from disk through the bounded reader, with an open
// document's text winning over the file on disk until it is closed; and the CLI's worker pool linting a
// directory workspace (dist/cli.js with two threads).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LintWorkerClient } from '../../../src/worker/lint-client';

const ROOT = join(__dirname, '..', '..', '..');
const grammar = {
  treeSitterPath: join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm'),
  pythonPath: join(ROOT, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm'),
};

const UTILS = (cmp: string, note = '') => `import torch
${note}

def make_pad_mask(input_ids, pad_id=0):
    pad = input_ids ${cmp} pad_id
    return pad[:, None, None, :]
`;

const MODEL = `import torch.nn.functional as F
from .utils import make_pad_mask


def attend(q, k, v, input_ids):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=make_pad_mask(input_ids))
`;

describe('lint worker: workspace documents', function () {
  this.timeout(120_000);
  let dir: string;
  let c: LintWorkerClient | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-ws-worker-'));
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', '__init__.py'), '');
    writeFileSync(join(dir, 'pkg', 'utils.py'), UTILS('=='));
    writeFileSync(join(dir, 'pkg', 'model.py'), MODEL);
  });
  after(() => {
    c?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows imports from disk, lets an open document win, and reads the disk again once it is closed', async () => {
    c = new LintWorkerClient({ workerPath: join(ROOT, 'src', 'worker', 'lint-worker.ts'), workerData: grammar, execArgv: ['--require', 'tsx/cjs'] });
    const model = { root: dir, path: 'pkg/model.py' };
    const lintModel = () => c!.request('lintPython', { source: MODEL, workspace: model });

    const first = await lintModel();
    assert.deepEqual(
      first.result.map((f) => `${f.code}@${f.line}`),
      ['ATT002@6'],
    );
    assert.match(first.result[0].message, /pkg\/utils\.py:5/);
    assert.deepEqual(
      first.result[0].related?.filter((r) => r.path !== undefined).map((r) => r.path),
      ['pkg/utils.py'],
    );
    assert.deepEqual(first.dependencies, ['pkg/utils.py']);

    // utils.py opened and fixed in the editor (unsaved): its text wins over the file on disk.
    const opened = await c.request('lintPython', { source: UTILS('!='), workspace: { root: dir, path: 'pkg/utils.py', version: 7 } });
    assert.deepEqual(opened.result, []);
    assert.deepEqual((await lintModel()).result, []);

    // Closed without saving: the file on disk (still buggy) is read again.
    await c.request('closeDocument', { workspace: { root: dir, path: 'pkg/utils.py' } });
    assert.deepEqual(
      (await lintModel()).result.map((f) => f.code),
      ['ATT002'],
    );

    // Fixed on disk: the next lint sees it.
    writeFileSync(join(dir, 'pkg', 'utils.py'), UTILS('!=', '# fixed: True where the token is kept'));
    assert.deepEqual((await lintModel()).result, []);

    // The same text without a workspace: a file alone.
    assert.deepEqual((await c.request('lintPython', { source: MODEL })).result, []);
  });

  it('refuses a workspace reference that is not an absolute root with a path inside it', async () => {
    c ??= new LintWorkerClient({ workerPath: join(ROOT, 'src', 'worker', 'lint-worker.ts'), workerData: grammar, execArgv: ['--require', 'tsx/cjs'] });
    await assert.rejects(c.request('lintPython', { source: MODEL, workspace: { root: 'relative/dir', path: 'pkg/model.py' } }), /absolute path/);
    await assert.rejects(c.request('lintPython', { source: MODEL, workspace: { root: dir, path: '../outside.py' } }), /inside the workspace root/);
  });

  it('the CLI lints a directory workspace on two threads (dist/cli.js)', () => {
    const cli = join(ROOT, 'dist', 'cli.js');
    if (!existsSync(cli)) {
      const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `build failed: ${build.stderr}`);
    }
    const ws = join(dir, 'many');
    mkdirSync(join(ws, 'pkg'), { recursive: true });
    writeFileSync(join(ws, 'pkg', '__init__.py'), '');
    writeFileSync(join(ws, 'pkg', 'utils.py'), UTILS('=='));
    for (let i = 0; i < 12; i++) writeFileSync(join(ws, 'pkg', `model_${i}.py`), MODEL);
    const r = spawnSync(process.execPath, [cli, 'lint', '--format', 'json', ws], {
      encoding: 'utf8',
      env: { ...process.env, ATTENTION_INSPECTOR_THREADS: '2' },
    });
    assert.equal(r.status, 1, r.stderr);
    const findings = JSON.parse(r.stdout) as { path: string; code: string; message: string }[];
    assert.equal(findings.length, 12);
    assert.ok(findings.every((f) => f.code === 'ATT002' && /pkg\/utils\.py:5/.test(f.message)));
  });
});
