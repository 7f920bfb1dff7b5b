// Session 38, eng-xfile-s38: facts lost when code moves into a helper or another file (issue 11: "evidence in another
// file", "the helper imported from utils.py"). The same code and the same call must give the same facts whether the
// statement is written in the caller, in a helper of the same file, or in a helper of another file.
//
// 1. A helper of another file whose site reads its parameters (`def scores(q, k): return q @ k.transpose(-1, -2)`) is
//    judged as the files importing it call it, whatever the site, as a helper of the same file is judged in its callers'
//    contexts (before: only for a few questions, a mask's meaning or a scale's width).
// 2. Scores cut to a triangle (`torch.triu(scores)`) stay that cut through a helper's parameter or result, in the same
//    file or across files: the value itself shows it is the cut unchanged (identity), not a name.
// 3. A mask site in a helper reached through several levels of calls of its own file (a masking helper called by a
//    scaled-attention module that the file's multi-head module calls) is judged as the files importing the outermost
//    caller call it.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const H = 'import torch\nimport torch.nn as nn\n';

describe('lint: a helper of another file judged as its importers call it, whatever its site (xfile38)', () => {
  // (B, T, H, hd) queries and keys: the heads after the tokens, so kᵀ of the last two axes pairs heads with features.
  const model = (layout: string, imp = 'from .ops import scores'): string => `${H}${imp}


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).unbind(2)  # each (B, T, H, hd)
${layout}        w = torch.softmax(scores(q, k) / (C // self.heads) ** 0.5, dim=-1)
        return (w @ v).reshape(B, T, C)
`;
  const ops = `${H}

def scores(q, k):
    return q @ k.transpose(-1, -2)
`;
  const files = (layout: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/ops.py': ops, 'pkg/model.py': model(layout) });

  it('keys (B, T, H, hd) passed to a helper of another file that swaps their last two axes: reported in the helper', async () => {
    assert.deepEqual(await workspaceFindingLines(files(''), 'pkg/ops.py', 'ATT005'), [6]);
  });
  it('the same helper in the same file: reported there too', async () => {
    const one = `${ops}

${model('', '').replace(`${H}\n\n\n`, '')}`;
    assert.deepEqual(await findingLines(one, 'ATT005'), [6]);
  });
  it('correct form: the caller moves the heads before the tokens first (B, H, T, hd): silent in both files', async () => {
    const heads = '        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # each (B, H, T, hd)\n';
    assert.deepEqual(await workspaceFindingLines(files(heads), 'pkg/ops.py', 'ATT005'), []);
    assert.deepEqual(await workspaceFindingLines(files(heads), 'pkg/model.py', 'ATT005'), []);
  });
  it('the helper with no importing file calling it: its layout is unknown, silent', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'pkg/__init__.py': '', 'pkg/ops.py': ops }, 'pkg/ops.py', 'ATT005'), []);
  });
  it('an importing file that never calls it (it only imports it): silent', async () => {
    const other = `${H}from .ops import scores\n\nHELPERS = [scores]\n`;
    assert.deepEqual(await workspaceFindingLines({ 'pkg/__init__.py': '', 'pkg/ops.py': ops, 'pkg/other.py': other }, 'pkg/ops.py', 'ATT005'), []);
  });
});

describe('lint: scores cut to a triangle stay that cut through a helper, in the file or across files (xfile38, ATT002)', () => {
  // `torch.triu(scores)` keeps the upper triangle (the future keys) and zeroes the past: `!= 0` of it is True at the
  // keys to ignore, but torch.where's condition keeps where it is True.
  const block = (cut: string, where: string, extra = ''): string => `${H}${extra}

class Causal(nn.Module):
    def forward(self, q, k, v):
        weights = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, T, T)
        blocked = torch.ones_like(weights) * float("-inf")
        weights = ${cut}
        weights = ${where}
        return weights.softmax(dim=-1) @ v
`;
  const WHERE = 'torch.where(weights != 0, weights, blocked)';
  const cutHelper = (fn = 'triu'): string => `def cut(weights):\n    return torch.${fn}(weights)\n`;
  const whereHelper = 'def keep_nonzero(weights, blocked):\n    return torch.where(weights != 0, weights, blocked)\n';

  it('written in one function: reported (the form the helpers must keep)', async () => {
    assert.deepEqual(await findingLines(block('torch.triu(weights)', WHERE), 'ATT002'), [10]);
  });
  it('the cut made by a helper of the same file: reported at the comparison', async () => {
    assert.deepEqual(await findingLines(block('cut(weights)', WHERE, `\n\n${cutHelper()}`), 'ATT002'), [14]);
  });
  it('the comparison in a helper of the same file, handed the cut: reported in the helper', async () => {
    assert.deepEqual(await findingLines(block('torch.triu(weights)', 'keep_nonzero(weights, blocked)', `\n\n${whereHelper}`), 'ATT002'), [6]);
  });
  it('the cut made by a helper of another file: reported at the comparison', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/ops.py': `${H}\n\n${cutHelper()}`, 'pkg/model.py': block('cut(weights)', WHERE, 'from .ops import cut\n') };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT002'), [11]);
  });
  it('the comparison in a helper of another file, handed the cut: reported in the helper', async () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/ops.py': `${H}\n\n${whereHelper}`,
      'pkg/model.py': block('torch.triu(weights)', 'keep_nonzero(weights, blocked)', 'from .ops import keep_nonzero\n'),
    };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/ops.py', 'ATT002'), [6]);
  });
  it('both helpers: the cut returned by one and handed to the other, in one file and across files: reported', async () => {
    const both = (fn: string): string => `${cutHelper(fn)}\n\n${whereHelper}`;
    assert.deepEqual(await findingLines(block('cut(weights)', 'keep_nonzero(weights, blocked)', `\n\n${both('triu')}`), 'ATT002'), [10]);
    const files = (fn: string): Record<string, string> => ({
      'pkg/__init__.py': '',
      'pkg/ops.py': `${H}\n\n${both(fn)}`,
      'pkg/model.py': block('cut(weights)', 'keep_nonzero(weights, blocked)', 'from .ops import cut, keep_nonzero\n'),
    });
    assert.deepEqual(await workspaceFindingLines(files('triu'), 'pkg/ops.py', 'ATT002'), [10]);
    assert.deepEqual(await workspaceFindingLines(files('tril'), 'pkg/ops.py', 'ATT002'), []);
  });
  it('correct form: the lower triangle kept (tril), through either helper and in either file: silent', async () => {
    assert.deepEqual(await findingLines(block('torch.tril(weights)', WHERE), 'ATT002'), []);
    assert.deepEqual(await findingLines(block('cut(weights)', WHERE, `\n\n${cutHelper('tril')}`), 'ATT002'), []);
    const files = {
      'pkg/__init__.py': '',
      'pkg/ops.py': `${H}\n\n${whereHelper}`,
      'pkg/model.py': block('torch.tril(weights)', 'keep_nonzero(weights, blocked)', 'from .ops import keep_nonzero\n'),
    };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/ops.py', 'ATT002'), []);
  });
  it('a helper that changes the cut before handing it back (`torch.triu(w) + 1`): no longer the cut, silent', async () => {
    const changed = 'def cut(weights):\n    return torch.triu(weights) + 1.0\n';
    assert.deepEqual(await findingLines(block('cut(weights)', WHERE, `\n\n${changed}`), 'ATT002'), []);
    const files = { 'pkg/__init__.py': '', 'pkg/ops.py': `${H}\n\n${changed}`, 'pkg/model.py': block('cut(weights)', WHERE, 'from .ops import cut\n') };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT002'), []);
  });
  it('the cut changed in the caller before the comparison (`weights.exp()`): silent', async () => {
    assert.deepEqual(await findingLines(block('cut(weights).exp()', WHERE, `\n\n${cutHelper()}`), 'ATT002'), []);
  });
});

describe('lint: a masking helper reached through several calls of its own file (xfile38, ATT002)', () => {
  // attention.py: fill(scores, mask) ← Scaled.forward ← MultiHead.forward; the mask is built in model.py, which
  // imports MultiHead: the mask's meaning is there, two calls of attention.py away from the fill.
  const attention = (fillLine: string): string => `${H}

def fill(scores, mask):
    ${fillLine}


class Scaled(nn.Module):
    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if mask is not None:
            scores = fill(scores, mask)
        return scores.softmax(dim=-1) @ v


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Scaled()

    def forward(self, q, k, v, mask=None):
        return self.attn(q, k, v, mask)
`;
  const model = `${H}from .attention import MultiHead


class Model(nn.Module):
    def __init__(self, pad):
        super().__init__()
        self.pad = pad
        self.mha = MultiHead()

    def forward(self, x, ids):
        keep = (ids != self.pad)[:, None, None, :]  # True at real tokens
        return self.mha(x, x, x, keep)
`;
  const files = (fillLine: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/attention.py': attention(fillLine), 'pkg/model.py': model });

  it('a keep mask (True at real tokens) filled where it is True: reported in the helper', async () => {
    assert.deepEqual(await workspaceFindingLines(files('return scores.masked_fill(mask, -1e9)'), 'pkg/attention.py', 'ATT002'), [6]);
  });
  it('correct form: filled where it is False (`~mask`): silent', async () => {
    assert.deepEqual(await workspaceFindingLines(files('return scores.masked_fill(~mask, -1e9)'), 'pkg/attention.py', 'ATT002'), []);
  });
  it('linted alone (no importing file): the mask is unknown, silent', async () => {
    assert.deepEqual(await findingLines(attention('return scores.masked_fill(mask, -1e9)'), 'ATT002'), []);
  });
});
