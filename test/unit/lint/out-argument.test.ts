// A library call given `out=` writes its result into that tensor (`torch.div(scores, scale, out=scores)`,
// `torch.where(m, fill, scores, out=scores)`, `torch.mul(weights, keep, out=weights)`): the name holds the result
// afterwards, as if it were assigned. Each `out=` form below gives exactly the findings of its assigned twin (no
// scale lost, no mask lost, nothing read as discarded), and a cross-file pair: the scores built by a helper of
// another file, scaled with `out=` in the caller.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const SELECT = ['ATT002', 'ATT003', 'ATT004', 'ATT006', 'ATT007'];

async function lint(source: string): Promise<string[]> {
  const fs = (await linter()).lintPython(source, { select: SELECT });
  return fs.map((f) => `${f.line} ${f.code}`);
}

const attention = (before: string, after = '') => `import math
import torch


def attention(q, k, v, ids, pad_id):
    keep = (ids != pad_id)[:, None, None, :]
    scores = q @ k.transpose(-2, -1)
    ${before}
    weights = torch.softmax(scores, dim=-1)
    ${after}
    return weights @ v


def block(x, w_q, w_k, w_v, ids):
    return attention(x @ w_q, x @ w_k, x @ w_v, ids, 0)
`;

// [what, the out= statement, its assigned twin, where it goes, the findings both must give]
const cases: [string, string, string, 'before' | 'after', string[]][] = [
  ['a scale by torch.div', 'torch.div(scores, math.sqrt(q.size(-1)), out=scores)', 'scores = torch.div(scores, math.sqrt(q.size(-1)))', 'before', []],
  ['a scale by torch.mul', 'torch.mul(scores, q.size(-1) ** -0.5, out=scores)', 'scores = torch.mul(scores, q.size(-1) ** -0.5)', 'before', []],
  [
    'an inverted torch.where fill',
    'torch.where(keep, float("-inf"), scores / math.sqrt(q.size(-1)), out=scores)',
    'scores = torch.where(keep, float("-inf"), scores / math.sqrt(q.size(-1)))',
    'before',
    ['8 ATT002'],
  ],
  [
    'a correct torch.where fill',
    'torch.where(keep, scores / math.sqrt(q.size(-1)), float("-inf"), out=scores)',
    'scores = torch.where(keep, scores / math.sqrt(q.size(-1)), float("-inf"))',
    'before',
    [],
  ],
  ['weights masked after the softmax by torch.mul', 'torch.mul(weights, keep, out=weights)', 'weights = torch.mul(weights, keep)', 'after', ['10 ATT006']],
];

describe('out= is read as an assignment to that name', () => {
  for (const [what, out, assigned, where, expected] of cases) {
    it(`${what}: the out= form and its assigned twin give the same findings`, async () => {
      const scale = where === 'after' ? 'scores = scores / math.sqrt(q.size(-1))' : '';
      const src = (stmt: string) => (where === 'before' ? attention(stmt) : attention(scale, stmt));
      assert.deepEqual(await lint(src(assigned)), expected);
      assert.deepEqual(await lint(src(out)), expected);
    });
  }

  it('the scale written into another tensor does not scale the scores', async () => {
    assert.deepEqual(await lint(attention('buf = torch.empty_like(scores)\n    torch.div(scores, math.sqrt(q.size(-1)), out=buf)')), ['10 ATT003']);
  });

  describe('cross-file: the keep mask built by a helper of another file, applied with out= in the caller', () => {
    const helper = `def keep_mask(ids, pad_id):
    # True at the real tokens
    return (ids != pad_id)[:, None, None, :]
`;
    const caller = (stmt: string) => `import math
import torch
from masks import keep_mask


def attend(q, k, v, ids, pad_id):
    m = keep_mask(ids, pad_id)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    w = torch.softmax(s, dim=-1)
    torch.mul(w, m, out=w)
    return w @ v
`;
    async function lintCaller(stmt: string): Promise<string[]> {
      const files = { 'masks.py': helper, 'model.py': caller(stmt) };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      const fs: Finding[] = l.lintPython(files['model.py'], { path: 'model.py', select: SELECT });
      return fs.map((f) => `${f.line} ${f.code}`);
    }

    it('the weights masked with out= after the softmax, the scores never masked: masked after softmax', async () => {
      assert.deepEqual(await lintCaller('pass'), ['11 ATT006']);
    });

    it('the scores masked with out= before the softmax: the zeroing after it only cleans, nothing reported', async () => {
      assert.deepEqual(await lintCaller('torch.where(m, s, float("-inf"), out=s)'), []);
    });

    it('the scores masked with out= by the inverted condition: the polarity, from the other file', async () => {
      assert.deepEqual(await lintCaller('torch.where(m, float("-inf"), s, out=s)'), ['9 ATT002']);
    });
  });
});
