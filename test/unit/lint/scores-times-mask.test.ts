// Class learnt from the training set (test/lint-train/a, t8a-05): the scores multiplied by a 0/1 mask and, in a
// later statement, pushed to a large negative value where it is 0 (`scores * m` then `scores - 1e4 * (1 - m)`:
// Megatron-style code that avoids masked_fill). The product keeps the scores where the mask is 1, so the mask must be
// a keep mask; one that its construction shows True at the positions to ignore zeroes every real score (ATT002 at the
// product). A blend written as one expression (`scores * m + (1 - m) * -1e9`) is judged once, at its fill term.
// The mask may be built in a model of a sibling directory (models/ importing layers/): the layer's forward is judged
// as that file builds and calls it. Small examples written fresh, each with its fixed form.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const BUGGY = `import torch


def masked_scores(q, k, v, token_ids):
    keep = (token_ids != 0).float()
    pair = keep[:, None, :] * keep[:, :, None]
    drop = (pair <= 0.5).float().unsqueeze(1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    scores = torch.mul(scores, drop)
    scores = scores - 10000.0 * (1.0 - drop)
    return torch.softmax(scores, dim=-1) @ v
`;

async function att002(src: string): Promise<string[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT002')
    .map((f) => `${f.line}:${f.column}`);
}

describe('lint: scores multiplied by a mask that is True at the positions to ignore (ATT002)', () => {
  it('torch.mul(scores, mask) of an outer product of keep masks compared <= 0.5 is reported at the mask', async () => {
    assert.deepEqual(await att002(BUGGY), ['9:32']);
  });
  it('fixed: the same outer product compared > 0.5 (a keep mask) is silent', async () => {
    assert.deepEqual(await att002(BUGGY.replace('(pair <= 0.5)', '(pair > 0.5)')), []);
  });
  it('the operator form `scores * mask` is read the same way', async () => {
    const src = BUGGY.replace('torch.mul(scores, drop)', 'scores * drop');
    assert.deepEqual(await att002(src), ['9:23']);
  });
  it('a mask whose meaning is known from nothing in view (a parameter) is silent', async () => {
    const src = `import torch


def masked_scores(q, k, v, m):
    scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    scores = scores * m
    scores = scores - 10000.0 * (1.0 - m)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await att002(src), []);
  });
  it('a one-expression blend with an inverted mask is reported once, at its fill term', async () => {
    const src = `import torch


def blended(q, k, v, token_ids):
    pad = (token_ids == 0)[:, None, None, :].float()
    scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    scores = scores * pad + (1 - pad) * -1e9
    return torch.softmax(scores, dim=-1) @ v
`;
    const found = await att002(src);
    assert.equal(found.length, 1);
  });
});

const LAYER = `import torch
import torch.nn as nn


class Mixer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, attn_mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
        if attn_mask is not None:
            scores = scores * attn_mask
            scores = scores - 1e4 * (1.0 - attn_mask)
        return torch.softmax(scores, dim=-1) @ v
`;

const MODEL = `import torch.nn as nn

from layers.mixer import Mixer


class Net(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mixers = nn.ModuleList([Mixer(dim) for _ in range(2)])

    def forward(self, x, token_ids):
        drop = (token_ids == 0)[:, None, :].float()
        for mixer in self.mixers:
            x = x + mixer(x, drop)
        return x
`;

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

describe('lint: scores × mask with the mask built in a sibling directory (ATT002, cross-file)', () => {
  it('models/net.py builds a mask True at padding and passes it to layers/mixer.py: reported in the layer, the call related', async () => {
    const l = await workspaceLinter({ 'layers/mixer.py': LAYER, 'models/net.py': MODEL });
    const fs = l.lintPython(LAYER, { path: 'layers/mixer.py' }).filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      fs.map((f) => f.line),
      [14],
    );
    assert.ok(fs[0]?.related?.some((r) => r.path === 'models/net.py'));
  });
  it('fixed: the keep mask (token_ids != 0) is silent', async () => {
    const fixed = MODEL.replace('(token_ids == 0)', '(token_ids != 0)');
    const l = await workspaceLinter({ 'layers/mixer.py': LAYER, 'models/net.py': fixed });
    assert.deepEqual(
      l.lintPython(LAYER, { path: 'layers/mixer.py' }).filter((f) => f.code === 'ATT002'),
      [],
    );
  });
});
