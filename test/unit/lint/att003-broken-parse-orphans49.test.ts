// Session 49 (eng-s49d2): ATT003 and statements a broken parse cut off from their function.
//
// Class: a file that does not parse because a triple-quoted string sits at column 0 in the middle of a function's
// `try:` body (code commented out by quoting it, pasted without its indentation). Python rejects the file; tree-sitter
// recovers by ending the function there and leaving the indented statements after the break at module level, apart
// from the function whose parameters and earlier statements bound their names. The Nyström attention of the fixture
// folds 1/sqrt(d_k) into q and k before the break (`query = query * scaling` with `scaling = d_k ** -0.25`); read at
// module level, `query` is unbound, and "no scale folded into `query`" had no evidence behind it. Found on first
// contact with fresh public code (2026-12-08-fresh-ledger-s49-d2.md, rows 4-15: one file and its two Jupyter
// checkpoint copies, 12 false findings). The example is written for the class, not taken from that file.
//
// Decided by the tree and the text only: a module-level statement whose line is indented (impossible in valid Python)
// in a tree with syntax errors, after a function or class defined at column 0. Silence there either way (the scaled
// fixture and its unscaled variant alike): the evidence is missing, not present. Code the parse kept inside the
// function is judged as before, and so is an indented fragment with no definition before it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findingLines, workspaceFindingLines } from './helpers';

const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'ATT003', 'broken_parse_orphaned_scaled_ok.py'), 'utf8');
const TWIN = readFileSync(join(__dirname, 'fixtures', 'ATT003', 'broken_parse_unscaled_before_break.py'), 'utf8');
const SCALING = '        query = query * scaling\n        key = key * scaling\n';
/** The fixture with the quoted block indented as its body is: the same code, and it parses. */
const PARSED = FIXTURE.replace("'''\n            k_landmarks = sample", "            '''\n            k_landmarks = sample").replace(
  "self.num_landmarks)\n'''\n",
  "self.num_landmarks)\n            '''\n",
);
const unscaled = (src: string): string => {
  assert.ok(src.includes(SCALING), 'the fixture no longer folds the scale into query and key');
  return src.replace(SCALING, '');
};
/** 1-based lines of the four softmaxes of the Nyström kernels and the fallback, in `src`. */
const softmaxLines = (src: string): number[] =>
  src
    .split('\n')
    .map((l, i) => (l.includes('F.softmax(torch.matmul(') ? i + 1 : 0))
    .filter((n) => n > 0);

describe('ATT003 statements a broken parse cut off from their function (session 49)', () => {
  it('is silent on the scores after the break, whose q and k the function scaled before it', async () => {
    assert.notEqual(PARSED, FIXTURE, 'the quoted block was not indented');
    assert.deepEqual(await findingLines(FIXTURE, 'ATT003'), []);
  });

  it('judges the same code as before once it parses: scaled is silent, unscaled is reported at every kernel', async () => {
    assert.deepEqual(await findingLines(PARSED, 'ATT003'), []);
    const bare = unscaled(PARSED);
    assert.deepEqual(await findingLines(bare, 'ATT003'), softmaxLines(bare));
    assert.equal(softmaxLines(bare).length, 4);
  });

  it('is silent when the recovery gathers the statements after the break into one error node (a compound one first)', async () => {
    const line = '            q_landmarks = query.reshape(batch_size, self.num_landmarks, segments, -1).mean(dim=2)\n';
    assert.ok(FIXTURE.includes(line), 'the fixture no longer pools the query landmarks');
    const branched = FIXTURE.replace(line, '            if segments > 1:\n    ' + line + '            else:\n                q_landmarks = query\n');
    assert.deepEqual(await findingLines(branched, 'ATT003'), []);
    const parsed = branched
      .replace("'''\n            k_landmarks = sample", "            '''\n            k_landmarks = sample")
      .replace("self.num_landmarks)\n'''\n", "self.num_landmarks)\n            '''\n");
    assert.deepEqual(await findingLines(unscaled(parsed), 'ATT003'), softmaxLines(unscaled(parsed)));
  });

  it('stays silent after the break without the scale too: the evidence is missing there, not present', async () => {
    assert.deepEqual(await findingLines(unscaled(FIXTURE), 'ATT003'), []);
  });

  it('reports unscaled scores in the part of the function the parse kept (the buggy twin)', async () => {
    const line = TWIN.split('\n').findIndex((l) => l.includes('full = F.softmax(')) + 1;
    assert.ok(line > 0);
    assert.deepEqual(await findingLines(TWIN, 'ATT003'), [line]);
  });

  it('reports an indented fragment with no definition before it, as before', async () => {
    const fragment = [
      '        scores = torch.matmul(query, key.transpose(-1, -2))',
      '        weights = F.softmax(scores, dim=-1)',
      '        out = weights @ value',
      '',
    ].join('\n');
    assert.deepEqual(await findingLines(fragment, 'ATT003'), [2]);
  });

  it('in a workspace: the broken file imported by a model file is silent; the parsed unscaled one is reported', async () => {
    const MODEL = [
      'import torch.nn as nn',
      '',
      'from layers import NystromAttention',
      '',
      '',
      'class Encoder(nn.Module):',
      '    def __init__(self, d_model):',
      '        super().__init__()',
      '        self.attn = NystromAttention(d_model, num_landmarks=16)',
      '',
      '    def forward(self, x):',
      '        return x + self.attn(x)',
      '',
    ].join('\n');
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': FIXTURE, 'model.py': MODEL }, 'layers.py', 'ATT003'), []);
    const bare = unscaled(PARSED);
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': bare, 'model.py': MODEL }, 'layers.py', 'ATT003'), softmaxLines(bare));
  });
});
