// Session 48 weak-source audit of ATT004 (eng-s48a): "built from the number of heads" was decided by a name alone when
// the count's value could not be followed (`self.h = config.h`: `h` is read as a head count, though code as often uses
// it for a hidden width). Of the readable sets' three true findings on this path, none rests on the name alone: two
// divide a width by the count and split the heads with it, one reads the count off the keys' head axis (`k.size(1)` of
// `(B, H, T, d)`). The class: a name is no evidence that a scale counts heads; the code must use it as a count (a width
// divided by it, a reshape or einops size), here or in a workspace file this one imports, or read it off a head axis.
// Written fresh: the unsplit layer (silent), its twin that splits q and k into that many heads (reported), the split in
// an imported base class (reported) or absent from it (silent), and the count read off a head axis (reported).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (split: boolean, base = 'nn.Module', imports = ''): string => `import math

import torch.nn as nn
${imports}

class Attention(${base}):
    def __init__(self, config):
        super().__init__()
        self.h = config.h
        self.q = nn.Linear(config.dim, config.dim)
        self.k = nn.Linear(config.dim, config.dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x)${split ? '.view(B, T, self.h, -1).transpose(1, 2)' : ''}
        k = self.k(x)${split ? '.view(B, T, self.h, -1).transpose(1, 2)' : ''}
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.h)
        return scores.softmax(dim=-1)
`;

const BASE = (split: boolean): string => `import torch.nn as nn


class HeadSplitter(nn.Module):
    def split(self, x):
        B, T, _ = x.shape
        return ${split ? 'x.view(B, T, self.h, -1).transpose(1, 2)' : 'x.unsqueeze(1)'}
`;

const CROSS = `import math

import torch.nn as nn
from splitter import HeadSplitter


class Attention(HeadSplitter):
    def __init__(self, config):
        super().__init__()
        self.h = config.h
        self.q = nn.Linear(config.dim, config.dim)
        self.k = nn.Linear(config.dim, config.dim)

    def forward(self, x):
        q = self.split(self.q(x))
        k = self.split(self.k(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.h)
        return scores.softmax(dim=-1)
`;

const HEAD_AXIS = `import math

import torch
from einops import rearrange


def attend(q, k, v):
    d_k = k.size(1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    return torch.softmax(scores, dim=-1) @ v


class Block(torch.nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(width, 3 * width)

    def forward(self, x):
        q, k, v = (rearrange(t, "b s (h d) -> b h s d", h=self.heads) for t in self.qkv(x).chunk(3, dim=-1))
        return attend(q, k, v)
`;

describe('ATT004: a head count known by its name alone (session 48)', () => {
  it('says nothing of sqrt(self.h) when the code never uses h as a count', async () => {
    assert.deepEqual(await findingLines(LAYER(false), 'ATT004'), []);
  });

  it('reports it when q and k are split into self.h heads', async () => {
    assert.deepEqual(await findingLines(LAYER(true), 'ATT004'), [17]);
  });

  it('reports it when an imported base class splits the heads by self.h', async () => {
    const files = { 'splitter.py': BASE(true), 'model.py': CROSS };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT004'), [17]);
  });

  it('says nothing when the imported base class splits nothing', async () => {
    const files = { 'splitter.py': BASE(false), 'model.py': CROSS };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT004'), []);
  });

  it('reports a count read off the head axis of the keys', async () => {
    assert.deepEqual(await findingLines(HEAD_AXIS, 'ATT004'), [9]);
  });
});
