// `attention-inspector lint DIR`: a directory argument is a workspace, so a mask helper imported from another
// file of it is followed; a file argument is linted alone. In-process, through the CLI's dispatcher.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { collectFiles, lintFiles, workspaceLinter } from '../../../src/cli/lint';
import { diskWorkspace } from '../../../src/cli/lint-workspace';

const UTILS = (cmp: string) => `import torch


def make_pad_mask(input_ids, pad_id=0):
    pad = input_ids ${cmp} pad_id
    return pad[:, None, None, :]
`;

const MODEL = `import torch.nn.functional as F
from .utils import make_pad_mask


def attend(q, k, v, input_ids):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=make_pad_mask(input_ids))
`;

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('attention-inspector lint DIR (a workspace)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-ws-'));
    for (const [name, cmp] of [
      ['buggy', '=='],
      ['fixed', '!='],
    ]) {
      mkdirSync(join(dir, name, 'pkg'), { recursive: true });
      writeFileSync(join(dir, name, 'pkg', '__init__.py'), '');
      writeFileSync(join(dir, name, 'pkg', 'utils.py'), UTILS(cmp));
      writeFileSync(join(dir, name, 'pkg', 'model.py'), MODEL);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('follows the import into utils.py: the finding names it (exit 1); the fixed helper is clean (exit 0)', async () => {
    const buggy = await run('lint', '--format', 'json', join(dir, 'buggy'));
    assert.equal(buggy.code, 1, buggy.err);
    const findings = JSON.parse(buggy.out) as { path: string; line: number; code: string; message: string }[];
    assert.deepEqual(
      findings.map((f) => [f.path.endsWith('buggy/pkg/model.py'), f.line, f.code]),
      [[true, 6, 'ATT002']],
    );
    assert.match(findings[0].message, /from `make_pad_mask` in pkg\/utils\.py:5/);
    const fixed = await run('lint', join(dir, 'fixed'));
    assert.equal(fixed.code, 0, fixed.out + fixed.err);
  });

  it('a file argument is linted alone (its imports are not followed)', async () => {
    const r = await run('lint', join(dir, 'buggy', 'pkg', 'model.py'));
    assert.equal(r.code, 0, r.out + r.err);
  });

  it('related locations carry the other file as the linted files are displayed', async () => {
    const root = join(dir, 'buggy');
    const linter = await workspaceLinter(root);
    const r = lintFiles(
      linter,
      collectFiles(root, (m) => assert.fail(m)),
      {},
      root,
    );
    assert.equal(r.findings.length, 1);
    const shown = relative(process.cwd(), join(root, 'pkg', 'utils.py'))
      .split('\\')
      .join('/');
    assert.deepEqual(
      r.findings[0].related?.filter((x) => x.path !== undefined && !x.path.endsWith('model.py')),
      [
        {
          path: shown.startsWith('..') ? join(root, 'pkg', 'utils.py') : shown,
          line: 5,
          column: 11,
          message: 'the mask is built in `make_pad_mask` (pkg/utils.py:5)',
          messageParts: { template: 'the mask is built in {0} ({1})', args: ['`make_pad_mask`', 'pkg/utils.py:5'] },
        },
      ],
    );
  });
});

describe('diskWorkspace: directories beside the linted file (for importers in sibling directories)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-dirs-'));
    for (const d of ['models', 'scripts', '.venv', 'node_modules', '__pycache__', 'models/layers']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'models', '__init__.py'), '');
    writeFileSync(
      join(dir, 'models', 'attention.py'),
      `import torch


def attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(mask == 0, -1e9)
    return torch.softmax(scores, dim=-1) @ v
`,
    );
    writeFileSync(join(dir, 'scripts', 'train.py'), 'from models.attention import attend\n\nscaler = torch.cuda.amp.GradScaler()\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists project directories only (no hidden ones, caches, node_modules), and the CLI finds the trainer in scripts/', async () => {
    const ws = diskWorkspace(dir, { snapshot: true });
    assert.deepEqual(ws.listDirs?.(''), ['models', 'scripts']);
    assert.deepEqual(ws.listDirs?.('models'), ['models/layers']);
    const r = await run('lint', '--format', 'json', dir);
    const found = (JSON.parse(r.out) as { path: string; line: number; code: string; related?: { path: string; line: number }[] }[]).map((f) => [
      relative(dir, f.path),
      f.line,
      f.code,
      (f.related ?? []).map((x) => `${relative(dir, x.path)}:${x.line}`),
    ]);
    assert.deepEqual(found, [[join('models', 'attention.py'), 6, 'ATT007', [`${join('scripts', 'train.py')}:3`]]]);
  });
});
