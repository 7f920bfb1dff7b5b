// Session 29, training batch j: the classes behind its false findings and misses, as unit tests.
//
// ATT003, class "a fused kernel's scale= chosen by a flag, one branch SDPA's default": `scale=None if self.scale
// else 1.0` (or a name set to None on one path and 1.0 on the other) leaves SDPA's own 1/sqrt(E) on the paths where
// it is None. scale=1.0 is an unscaled softmax only when every path gives 1.0 and nothing scales q or k, so a scale
// that may be None is no evidence; a plain `scale=1.0` (or 1.0 on every branch) still is.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

const FLAGGED = `import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_x, d_k, scale=True):
        super().__init__()
        self.q = nn.Linear(d_x, d_k, bias=False)
        self.k = nn.Linear(d_x, d_k, bias=False)
        self.v = nn.Linear(d_x, d_k, bias=False)
        self.scale = scale

    def forward(self, x):
        return F.scaled_dot_product_attention(self.q(x), self.k(x), self.v(x), scale=None if self.scale else 1.0)
`;

const BRANCHED = `import torch.nn.functional as F


def attend(query, key, value, unscaled=False):
    scale = None
    if unscaled:
        scale = 1.0
    return F.scaled_dot_product_attention(query, key, value, scale=scale)
`;

describe('trainj29: ATT003, a fused kernel scale= that may be SDPA default on some path', () => {
  it('is silent when a flag picks between None (the default 1/sqrt(E)) and 1.0', async () => {
    assert.deepEqual(await findingLines(FLAGGED, 'ATT003'), []);
    assert.deepEqual(await findingLines(FLAGGED.replace('None if self.scale else 1.0', '1.0 if not self.scale else None'), 'ATT003'), []);
  });

  it('is silent when a name is None on one path and 1.0 on another', async () => {
    assert.deepEqual(await findingLines(BRANCHED, 'ATT003'), []);
  });

  it('still reports scale=1.0 on every path with q and k unscaled', async () => {
    assert.deepEqual(await findingLines(FLAGGED.replace('None if self.scale else 1.0', '1.0'), 'ATT003'), [14]);
    assert.deepEqual(await findingLines(BRANCHED.replace('scale = None\n', 'scale = 1.0\n'), 'ATT003'), [8]);
  });

  it('is silent when the flag is set in another file (cross-file pair)', async () => {
    const model = `import torch.nn as nn
from .layers import SelfAttention


class Encoder(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = nn.ModuleList([SelfAttention(d, d // heads, scale=True) for _ in range(heads)])

    def forward(self, x):
        return [h(x) for h in self.heads]
`;
    const files = { 'pkg/__init__.py': '', 'pkg/layers.py': FLAGGED, 'pkg/model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/layers.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT003'), []);
  });
});

// ATT005 + ATT001, class "a batch axis added by the module that calls the attention": the attention module's own
// file does not show its input's rank, and the model in another file adds a leading batch axis (`unsqueeze(0)` on a
// position table, `x[None]`) before calling it. There `k.T` reverses all three axes (batch and features swapped)
// and `softmax(scores, dim=1)` on (B, T, T) scores normalises over the queries. Decided from the rank the caller's
// argument carries; `k.transpose(-2, -1)` with `dim=-1` stays silent, as does a caller whose input is 2-D.
const ATTENTION = `import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)

    def forward(self, x):
        q = self.q_proj(x)
        k = self.k_proj(x)
        v = self.v_proj(x)
        scores = q @ k.T
        weights = torch.softmax(scores / k.shape[-1] ** 0.5, dim=1)
        return weights @ v
`;

const MODEL = `import torch
import torch.nn as nn
from .attention import SelfAttention


def positions(n, d):
    table = torch.zeros(n, d)
    table[:, 0::2] = torch.sin(torch.arange(n)[:, None] / 10000 ** (torch.arange(0, d, 2) / d))
    table[:, 1::2] = torch.cos(torch.arange(n)[:, None] / 10000 ** (torch.arange(0, d, 2) / d))
    return table.unsqueeze(0)


class TinyLM(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        self.attention = SelfAttention(d)

    def forward(self, ids):
        x = self.embedding(ids)
        x = x + positions(x.shape[0], x.shape[-1])
        return self.attention(x)
`;

describe('trainj29: ATT005 and ATT001, a batch axis added by the module that calls the attention', () => {
  const files = (attention: string, model: string): Record<string, string> => ({ 'lm/__init__.py': '', 'lm/attention.py': attention, 'lm/model.py': model });

  it('reports k.T and softmax(dim=1) in one file where the rank is shown (the same class, no import)', async () => {
    const one = `${ATTENTION}\n\n${MODEL.replace('from .attention import SelfAttention\n', '').replace(/^import .*\n/gm, '')}`;
    assert.deepEqual(await findingLines(one, 'ATT005'), [16]);
    assert.deepEqual(await findingLines(one, 'ATT001'), [17]);
  });

  it('reports them when the caller in another file adds the batch axis (cross-file pair)', async () => {
    assert.deepEqual(await workspaceFindingLines(files(ATTENTION, MODEL), 'lm/attention.py', 'ATT005'), [16]);
    assert.deepEqual(await workspaceFindingLines(files(ATTENTION, MODEL), 'lm/attention.py', 'ATT001'), [17]);
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files(ATTENTION, MODEL)), onInternalError: (e) => assert.fail(String(e)) });
    const [t] = l.lintPython(ATTENTION, { path: 'lm/attention.py' }).filter((f) => f.code === 'ATT005');
    assert.match(t?.message ?? '', /as called at lm\/model\.py:22/);
    assert.ok(t?.related?.some((r) => r.path === 'lm/model.py' && r.line === 22));
    const indexed = MODEL.replace('return table.unsqueeze(0)', 'return table').replace('return self.attention(x)', 'return self.attention(x[None])');
    assert.deepEqual(await workspaceFindingLines(files(ATTENTION, indexed), 'lm/attention.py', 'ATT005'), [16]);
  });

  it('is silent on the correct form and when the caller passes 2-D input or is not in view', async () => {
    const fixed = ATTENTION.replace('k.T', 'k.transpose(-2, -1)').replace('dim=1', 'dim=-1');
    assert.deepEqual(await workspaceFindingLines(files(fixed, MODEL), 'lm/attention.py', 'ATT005'), []);
    assert.deepEqual(await workspaceFindingLines(files(fixed, MODEL), 'lm/attention.py', 'ATT001'), []);
    const flat = MODEL.replace('return table.unsqueeze(0)', 'return table');
    assert.deepEqual(
      await workspaceFindingLines(files(ATTENTION, flat.replace('self.embedding(ids)', 'self.embedding(ids[0])')), 'lm/attention.py', 'ATT005'),
      [],
    );
    assert.deepEqual(await findingLines(ATTENTION, 'ATT005'), []);
    assert.deepEqual(await findingLines(ATTENTION, 'ATT001'), []);
  });
});
