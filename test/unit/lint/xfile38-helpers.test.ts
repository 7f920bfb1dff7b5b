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

describe("lint: what a helper of another file shows of the scores' axes crosses with them (xfile38, ATT001)", () => {
  // SAGAN-style self-attention over the pixels of a feature map: q (B, N, C'), k (B, C', N), v (B, C, N).
  const sagan = (product: string, imp = 'from .ops import energy_of'): string => `${H}${imp}


class SelfAttn(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.q = nn.Conv2d(c, c // 8, 1)
        self.k = nn.Conv2d(c, c // 8, 1)
        self.v = nn.Conv2d(c, c, 1)

    def forward(self, x):
        B, C, W, H = x.size()
        N = W * H
        q = self.q(x).view(B, -1, N).permute(0, 2, 1)  # (B, N, C')
        k = self.k(x).view(B, -1, N)  # (B, C', N)
        v = self.v(x).view(B, -1, N)  # (B, C, N)
        attention = torch.softmax(energy_of(q, k), dim=-1)  # (B, N, N), each row one query
        out = ${product}
        return out.view(B, C, W, H)
`;
  const ops = `${H}\n\ndef energy_of(q, k):\n    return torch.bmm(q, k)\n`;
  const files = (product: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/ops.py': ops, 'pkg/model.py': sagan(product) });
  const WRONG = 'torch.bmm(v, attention)';
  const RIGHT = 'torch.bmm(v, attention.permute(0, 2, 1))';

  it('weights of scores formed by a helper of another file, summed over their query axis: reported at the product', async () => {
    assert.deepEqual(await workspaceFindingLines(files(WRONG), 'pkg/model.py', 'ATT001'), [20]);
  });
  it('the same helper in the same file: reported', async () => {
    const one = `${ops}\n\n${sagan(WRONG, '').replace(`${H}\n\n\n`, '')}`;
    assert.deepEqual(await findingLines(one, 'ATT001'), [23]);
  });
  it('correct form: the weights transposed before the product (sums over the keys): silent', async () => {
    assert.deepEqual(await workspaceFindingLines(files(RIGHT), 'pkg/model.py', 'ATT001'), []);
  });

  // NumPy heads laid out after the tokens, (B, T, H, hd), keys turned by a full permutation: q @ kᵀ pairs heads.
  const numpyModel = (split: string, imp = 'from ops import scores_of'): string => `import numpy as np
${imp}

B, T, H, D = 1, 3, 4, 8


def split_heads(t):
    ${split}


def attend(q, k, v):
    s = scores_of(q, k) / np.sqrt(q.shape[-1])
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v


x = np.ones((T, D))
out = attend(split_heads(x), split_heads(x), split_heads(x))
`;
  const numpyOps = 'import numpy as np\n\n\ndef scores_of(q, k):\n    return q @ k.transpose(0, 1, 3, 2)\n';
  const AFTER = 'return t.reshape(B, H, T, D // H).transpose(0, 2, 1, 3)  # (B, T, H, hd)';
  const BEFORE = 'return t.reshape(B, T, H, D // H).transpose(0, 2, 1, 3)  # (B, H, T, hd)';
  it('heads after the tokens, scores formed by a helper of another file: the softmax over the heads is reported', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'ops.py': numpyOps, 'model.py': numpyModel(AFTER) }, 'model.py', 'ATT001'), [14]);
  });
  it('correct form: heads before the tokens: silent', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'ops.py': numpyOps, 'model.py': numpyModel(BEFORE) }, 'model.py', 'ATT001'), []);
  });
});

describe("lint: a helper of another file called by a layer that its own file's callers call with the mask (xfile38, ATT002)", () => {
  // model.py: run() builds a keep mask (True at real tokens) and calls the encoder, whose forward calls each attention
  // layer, whose forward calls the helper of ops.py: the mask's meaning is two calls of model.py above the helper's call.
  const model = (imp = 'from .ops import fill'): string => `${H}${imp}


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        sim = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if mask is not None:
            sim = fill(sim, mask[:, None, :], -torch.finfo(sim.dtype).max)
        return sim.softmax(dim=-1) @ v


class Encoder(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.layers = nn.ModuleList([Attention(dim) for _ in range(depth)])

    def forward(self, x, keep=None):
        for layer in self.layers:
            x = layer(x, mask=keep) + x
        return x


def run(x, lengths):
    encoder = Encoder(64, 2)
    keep = torch.arange(x.shape[1])[None, :] < lengths[:, None]  # True at real tokens
    return encoder(x, keep=keep)
`;
  const ops = (fill: string): string => `${H}\n\ndef fill(sim, mask, value):\n    return sim.masked_fill(${fill}, value)\n`;
  const files = (fill: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/ops.py': ops(fill), 'pkg/model.py': model() });

  it('the keep mask filled where it is True: reported in the helper', async () => {
    assert.deepEqual(await workspaceFindingLines(files('mask'), 'pkg/ops.py', 'ATT002'), [6]);
  });
  it('the same helper in the same file: reported', async () => {
    const one = `${ops('mask')}\n\n${model('').replace(`${H}\n\n\n`, '')}`;
    assert.deepEqual(await findingLines(one, 'ATT002'), [6]);
  });
  it('correct form: filled where it is False (`~mask`): silent', async () => {
    assert.deepEqual(await workspaceFindingLines(files('~mask'), 'pkg/ops.py', 'ATT002'), []);
  });
  it('no function of the model file calls the encoder with a mask: the mask is unknown, silent', async () => {
    const noRun = model().slice(0, model().indexOf('\n\ndef run('));
    assert.deepEqual(await workspaceFindingLines({ 'pkg/__init__.py': '', 'pkg/ops.py': ops('mask'), 'pkg/model.py': noRun }, 'pkg/ops.py', 'ATT002'), []);
  });
});

describe('lint: two minimum-filled planes added, one cut by a helper of the same file (xfile38, ATT007)', () => {
  const build = (cut: string, sum: string): string => `import torch


def cut_future(plane):
    return ${cut}


def build_mask(keep, dtype):
    S = keep.shape[-1]
    floor = torch.finfo(dtype).min
    causal = torch.full((S, S), floor, dtype=dtype)
    causal = cut_future(causal)
    pad = (1.0 - keep.to(dtype)) * floor
    return ${sum}
`;
  const SUM = 'causal[None, None] + pad[:, None, None, :]';
  it('the causal plane cut by the helper, added to the padding plane: reported at the sum, as when the cut is written in place', async () => {
    assert.deepEqual(await findingLines(build('torch.triu(plane, diagonal=1)', SUM), 'ATT007'), [14]);
    const inPlace = build('torch.triu(plane, diagonal=1)', SUM).replace('causal = cut_future(causal)', 'causal = torch.triu(causal, diagonal=1)');
    assert.deepEqual(await findingLines(inPlace, 'ATT007'), [14]);
  });
  it('correct form: the sum clamped back to the floor: silent', async () => {
    assert.deepEqual(await findingLines(build('torch.triu(plane, diagonal=1)', `(${SUM}).clamp(min=floor)`), 'ATT007'), []);
  });
  it('a helper that hands back the plane in float32 (another dtype than the padding plane): silent', async () => {
    assert.deepEqual(await findingLines(build('torch.triu(plane, diagonal=1).to(torch.float32)', SUM), 'ATT007'), []);
  });
  it('a helper that hands back something else than the plane (`torch.zeros_like(plane)`): silent', async () => {
    assert.deepEqual(await findingLines(build('torch.zeros_like(plane)', SUM), 'ATT007'), []);
  });
});
