// Classes from training folder l (session 30), written fresh.
//
// 1. A projection that keeps the width (`nn.Linear(n_embed, n_embed)`), its queries and keys split into several heads
//    (`view(B, T, n_heads, head_size).transpose(1, 2)`), scaled by the last axis read off the projection's input
//    (`_, T, C = x.shape` then `C ** -0.5`): C is the width of all heads together, not each head's (t19l-04-scale: the
//    manual fallback next to an SDPA call). Decided from the shapes: the input's last axis, the head axis of the
//    queries and a per-head feature axis of another size. Silent on one head (no split), on the head's own width
//    (`k.size(-1) ** -0.5`, `self.head_size ** -0.5`), on a scale from a config field, and on a temperature.
// 2. A head count floor-divided by the width the code splits into those heads (`np.sqrt(self.heads // self.channels)`
//    beside `dh = self.channels // self.heads`): the quotient is 0, so the scores are multiplied by 0 (t19l-01-scale).
//    Silent on true division (`np.sqrt(self.heads / self.channels)`, 1/sqrt(head_dim)), on the head width itself, and
//    when the code never divides that width by the head count (no evidence that it is the heads' total width).
// 3. A (B, S) padding mask spread to four axes by two positive unsqueezes, `(tgt != pad).unsqueeze(1).unsqueeze(3)`:
//    the second counts from the three axes of the first, so the padding sits on the query axis (B, 1, S, 1), as
//    `.unsqueeze(1).unsqueeze(-1)` and `[:, None, :, None]` already read; filled with -inf, every padded query row is
//    fully masked and its softmax is NaN (ATT007, t18k-04-fill, the mask built in another file). Silent on the key
//    mask `.unsqueeze(1).unsqueeze(2)`, on a finite fill (-1e9 in float32, t18k-05-fill; a finfo minimum).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const GPT = (scale: string, split = true): string => `import torch
import torch.nn as nn
from torch.nn import functional as F


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.query = nn.Linear(cfg.n_embed, cfg.n_embed)
        self.key = nn.Linear(cfg.n_embed, cfg.n_embed)
        self.value = nn.Linear(cfg.n_embed, cfg.n_embed)
        self.n_heads = cfg.n_heads
        self.head_size = cfg.n_embed // cfg.n_heads
        self.scale = cfg.head_dim ** -0.5
        self.temperature = nn.Parameter(torch.ones(1))
        self.register_buffer("tril", torch.tril(torch.ones(cfg.block_size, cfg.block_size)))

    def _split(self, t):
        B, T, _ = t.size()
        return ${split ? 't.view(B, T, self.n_heads, self.head_size).transpose(1, 2)' : 't'}

    def forward(self, x):
        _, T, C = x.shape
        q = self._split(self.query(x))
        k = self._split(self.key(x))
        v = self._split(self.value(x))
        att = q @ k.transpose(-2, -1) * ${scale}
        att = att.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        return att @ v
`;

const UNITS = (scale: string, split = 'self.channels // self.heads'): string => `import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GlobalAttention2d(nn.Module):
    def __init__(self, channels, heads=4):
        super().__init__()
        self.channels, self.heads = channels, heads
        self.q = nn.Conv2d(channels, channels, 1, groups=heads)
        self.k = nn.Conv2d(channels, channels, 1, groups=heads)
        self.v = nn.Conv2d(channels, channels, 1, groups=heads)

    def forward(self, x):
        b, _, h, w = x.size()
        dh = ${split}
        q = self.q(x).view(b, self.heads, dh, h * w).transpose(-2, -1)
        k = self.k(x).view(b, self.heads, dh, h * w)
        v = self.v(x).view(b, self.heads, dh, h * w).transpose(-2, -1)
        att = torch.matmul(q, k) * ${scale}
        att = F.softmax(att, dim=-1)
        return torch.matmul(att, v).transpose(-2, -1).reshape(b, -1, h, w)
`;

describe('trainkl30: the model width read off the input of a width-keeping projection split into heads', () => {
  it('reports C ** -0.5 with C the last axis of the input', async () => {
    assert.deepEqual(await findingLines(GPT('C**-0.5'), 'ATT004'), [27]);
    assert.deepEqual(await findingLines(GPT('(1.0 / math.sqrt(C))').replace('import torch\n', 'import math\nimport torch\n'), 'ATT004'), [28]);
  });

  it('stays silent on one head, the head width, a config field and a temperature', async () => {
    assert.deepEqual(await findingLines(GPT('C**-0.5', false), 'ATT004'), []);
    assert.deepEqual(await findingLines(GPT('k.size(-1) ** -0.5'), 'ATT004'), []);
    assert.deepEqual(await findingLines(GPT('self.head_size ** -0.5'), 'ATT004'), []);
    assert.deepEqual(await findingLines(GPT('self.scale'), 'ATT004'), []);
    assert.deepEqual(await findingLines(GPT('self.temperature'), 'ATT004'), []);
  });

  it('reports it with the widths in a config module of another file', async () => {
    const config = `from dataclasses import dataclass


@dataclass
class GPTConfig:
    n_embed: int = 768
    n_heads: int = 12
    head_dim: int = 64
    block_size: int = 1024
`;
    const model = (scale: string): string =>
      GPT(scale)
        .replace('from torch.nn import functional as F\n', 'from torch.nn import functional as F\n\nfrom .config import GPTConfig\n')
        .replace('def __init__(self, cfg):', 'def __init__(self, cfg: GPTConfig):');
    const files = (scale: string) => ({ 'pkg/__init__.py': '', 'pkg/config.py': config, 'pkg/model.py': model(scale) });
    assert.deepEqual(await workspaceFindingLines(files('C**-0.5'), 'pkg/model.py', 'ATT004'), [29]);
    assert.deepEqual(await workspaceFindingLines(files('k.size(-1) ** -0.5'), 'pkg/model.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files('self.scale'), 'pkg/model.py', 'ATT004'), []);
  });
});

describe('trainkl30: a head count floor-divided by the width split into heads', () => {
  it('reports the zero scale', async () => {
    assert.deepEqual(await findingLines(UNITS('np.sqrt((self.heads // self.channels))'), 'ATT004'), [21]);
    assert.deepEqual(await findingLines(UNITS('(self.heads // self.channels) ** 0.5'), 'ATT004'), [21]);
  });

  it('reads true division as one over the head width: its root is right, itself is 1/d', async () => {
    assert.deepEqual(await findingLines(UNITS('(self.heads / self.channels)'), 'ATT004'), [21]);
  });

  it('stays silent on true division under a root, the head width and a width never split', async () => {
    assert.deepEqual(await findingLines(UNITS('np.sqrt(self.heads / self.channels)'), 'ATT004'), []);
    assert.deepEqual(await findingLines(UNITS('(self.channels // self.heads) ** -0.5'), 'ATT004'), []);
    assert.deepEqual(await findingLines(UNITS('dh ** -0.5'), 'ATT004'), []);
    assert.deepEqual(
      await findingLines(
        UNITS('self.temperature').replace(
          'self.channels, self.heads = channels, heads',
          'self.channels, self.heads = channels, heads\n        self.temperature = nn.Parameter(torch.ones(1))',
        ),
        'ATT004',
      ),
      [],
    );
    assert.deepEqual(await findingLines(UNITS('np.sqrt(self.heads // self.channels)', '16'), 'ATT004'), []);
  });
});

const DECODER = (fill: string, spread = '.unsqueeze(1).unsqueeze(3)'): string => `import torch


def attend(q, k, v, tgt, pad_id):
    keep = (tgt != pad_id)${spread}
    scores = torch.matmul(q, k.transpose(-2, -1)) / (q.size(-1) ** 0.5)
    scores = scores.masked_fill(keep == 0, ${fill})
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, v)
`;

const ATTN = (fill: string): string => `import torch
from torch import nn


class ScaledAttention(nn.Module):
    def forward(self, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.size(-1) ** 0.5)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, ${fill})
        return torch.matmul(torch.softmax(scores, dim=-1), v)
`;

const MODEL = (spread: string): string => `import torch
from torch import nn

from .attention import ScaledAttention


class Decoder(nn.Module):
    def __init__(self, pad_id):
        super().__init__()
        self.pad_id = pad_id
        self.attn = ScaledAttention()

    def tgt_mask(self, tgt):
        pad = (tgt != self.pad_id)${spread}
        length = tgt.shape[1]
        sub = torch.tril(torch.ones(length, length, device=tgt.device)).type(torch.uint8)
        return pad & sub

    def forward(self, q, k, v, tgt):
        return self.attn(q, k, v, self.tgt_mask(tgt))
`;

describe('trainkl30: a padding mask spread to the query axis by two positive unsqueezes', () => {
  it('reports a -inf fill', async () => {
    assert.deepEqual(await findingLines(DECODER('float("-inf")'), 'ATT007'), [7]);
    assert.deepEqual(await findingLines(DECODER('float("-inf")', '[:, None, :].unsqueeze(3)'), 'ATT007'), [7]);
  });

  it('stays silent on the key mask and on finite fills', async () => {
    assert.deepEqual(await findingLines(DECODER('float("-inf")', '.unsqueeze(1).unsqueeze(2)'), 'ATT007'), []);
    assert.deepEqual(await findingLines(DECODER('-1e9'), 'ATT007'), []);
    assert.deepEqual(await findingLines(DECODER('torch.finfo(scores.dtype).min'), 'ATT007'), []);
    const guarded = DECODER('float("-inf")').replace('weights = torch.softmax(scores, dim=-1)', 'weights = torch.nan_to_num(torch.softmax(scores, dim=-1))');
    assert.deepEqual(await findingLines(guarded, 'ATT007'), []);
  });

  it('reports it with the mask built in another file, and not its finite fix', async () => {
    const files = (fill: string, spread = '.unsqueeze(1).unsqueeze(3)') => ({
      'nmt/__init__.py': '',
      'nmt/attention.py': ATTN(fill),
      'nmt/model.py': MODEL(spread),
    });
    assert.deepEqual(await workspaceFindingLines(files('float("-inf")'), 'nmt/attention.py', 'ATT007'), [9]);
    assert.deepEqual(await workspaceFindingLines(files('-1e9'), 'nmt/attention.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines(files('float("-inf")', '.unsqueeze(1).unsqueeze(2)'), 'nmt/attention.py', 'ATT007'), []);
  });
});
