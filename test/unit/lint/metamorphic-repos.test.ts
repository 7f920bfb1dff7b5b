// The metamorphic harness's repos mode (test/lint-metamorphic/repos.ts): a directory of repositories becomes
// unlabelled workspace cases, one per repository, holding only its attention files; the rest of the repository
// stays readable to the linter through the case's context.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMetamorphic } from '../../lint-metamorphic/harness';
import { caseLinter } from '../../lint-metamorphic/linter';
import { holdsAttentionCode, loadRepoCases, seededOrder } from '../../lint-metamorphic/repos';
import { REWRITES } from '../../lint-metamorphic/rewrites';
import { createPyParser } from '../../lint-metamorphic/syntax';
import { grammar, linter } from './helpers';

const ATTEND = `import torch


def attend(q, k, v, mask):
    s = torch.matmul(q, k.transpose(-2, -1)) * q.size(-1) ** -0.5
    s = s.masked_fill(mask == 0, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
`;
// the softmax normalises over the queries, with the scale taken from a helper in a file that is not attention code
const WRONG_AXIS = `import torch
from .scales import inv_sqrt


def attend(q, k, v):
    s = torch.matmul(q, k.transpose(-2, -1)) * inv_sqrt(q.size(-1))
    return torch.softmax(s, dim=-2) @ v
`;
const SCALES = `import math


def inv_sqrt(d):
    return 1.0 / math.sqrt(d)
`;

function write(root: string, rel: string, text: string): void {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

describe('lint metamorphic harness: repos mode', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'meta-repos-'));
    write(dir, 'alice+tiny/model/attn.py', ATTEND);
    write(dir, 'alice+tiny/model/__init__.py', '');
    write(dir, 'alice+tiny/train.py', 'import torch\n\nopt = torch.optim.AdamW([])\n');
    write(dir, 'bob+wrong/pkg/attn.py', WRONG_AXIS);
    write(dir, 'bob+wrong/pkg/scales.py', SCALES);
    write(dir, 'bob+wrong/pkg/__init__.py', '');
    write(dir, 'carol+none/util.py', 'def f(x):\n    return x + 1\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('tells attention code from other code', () => {
    assert.equal(holdsAttentionCode(ATTEND), true);
    assert.equal(holdsAttentionCode(WRONG_AXIS), true);
    assert.equal(holdsAttentionCode(SCALES), false);
    assert.equal(holdsAttentionCode('y = torch.softmax(logits, -1)\n'), false);
  });

  it('makes one case per repository holding attention code, with the rest of the repository as context', () => {
    const { cases, repos } = loadRepoCases(dir);
    assert.deepEqual(repos, ['alice+tiny', 'bob+wrong', 'carol+none']);
    assert.deepEqual(
      cases.map((c) => [c.name, c.files.map((f) => f.path), c.label, c.expected.size]),
      [
        ['alice+tiny', ['model/attn.py'], 'correct', 0],
        ['bob+wrong', ['pkg/attn.py'], 'correct', 0],
      ],
    );
    assert.deepEqual(cases[1].context.pythonPaths, ['pkg/__init__.py', 'pkg/attn.py', 'pkg/scales.py']);
    assert.equal(cases[1].context.root, join(dir, 'bob+wrong'));
  });

  it('samples in a seeded order and filters by name', () => {
    assert.deepEqual(seededOrder([1, 2, 3, 4, 5], 7), seededOrder([1, 2, 3, 4, 5], 7));
    assert.deepEqual(loadRepoCases(dir, { limit: 3 }).repos, ['alice+tiny', 'bob+wrong', 'carol+none']);
    assert.equal(loadRepoCases(dir, { limit: 1 }).repos.length, 1);
    assert.deepEqual(loadRepoCases(dir, { grep: /^bob/ }).repos, ['bob+wrong']);
  });

  it('lints a case with its context files readable and keeps the finding under a rewrite', async () => {
    await linter();
    const parser = await createPyParser(grammar().python);
    const { cases } = loadRepoCases(dir, { grep: /^bob/ });
    const run = await runMetamorphic(
      cases,
      parser,
      caseLinter(grammar()),
      REWRITES.filter((r) => r.name === 'softmax-form'),
    );
    assert.equal(run.originalFindings, 1);
    assert.deepEqual(run.perRewrite.get('softmax-form'), { applied: 1, unsafe: 0, kept: 1, moved: 0, lost: 0, gained: 0 });
  });
});
