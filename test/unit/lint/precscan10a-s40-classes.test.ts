// Session 40, eng-prec-s40a: classes from the precision scan precscan10a (2026-12-06), each from real false findings.
//
// 1. ATT006, "q * k broadcast pairwise and modulated by edge features before the sum" (graph transformers with edge
//    features: `(Q[:, :, :, None, :] * K[:, :, None, :, :] * E).sum(-1)`). The pairwise product times a tensor of
//    unknown meaning was no longer read as the scores' precursor, so its sum was not the scores: the additive mask
//    added to it before the softmax was not seen, and zeroing the padded queries' rows after the softmax was reported
//    as the only mask. The product modulated elementwise stays the precursor (an opaque step), so the sum is the
//    scores, masked before the softmax.
// 2. ATT004, "softmax-free attention" (SimA: normalised q and k, `q @ k.T * c`, masked with 0, then `@ v`): no softmax
//    normalises the scores, so the factor is a gain on the output, not a temperature of logits; which width it holds
//    is not judged.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const edgeLayer = (scores: string): string => `import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeAttention(nn.Module):
    def __init__(self, n_hidden, n_head):
        super().__init__()
        self.n_head = n_head
        self.dim_head = n_hidden // n_head
        self.Q = nn.Linear(n_hidden, n_hidden)
        self.K = nn.Linear(n_hidden, n_hidden)
        self.V = nn.Linear(n_hidden, n_hidden)
        self.E = nn.Linear(n_hidden, n_hidden)

    def forward(self, x, e, attention_mask, padding_mask):
        b = x.size(0)
        n = e.size(1)
        q = self.Q(x).view(b, -1, self.n_head, self.dim_head).permute((0, 2, 1, 3))
        k = self.K(x).view(b, -1, self.n_head, self.dim_head).permute((0, 2, 1, 3))
        v = self.V(x).view(b, -1, self.n_head, self.dim_head).permute((0, 2, 1, 3))
        ee = self.E(e).view(b, n, n, self.n_head, self.dim_head).permute((0, 3, 1, 2, 4))
        inter = (q[:, :, :, np.newaxis, :] * k[:, :, np.newaxis, :, :] * ee) / np.sqrt(self.dim_head)
        w = F.softmax(${scores}, dim=-1) * padding_mask
        return torch.matmul(w, v)


class Layer(nn.Module):
    def __init__(self, n_hidden, n_head):
        super().__init__()
        self.attention = EdgeAttention(n_hidden, n_head)
        self.ff = nn.Linear(n_hidden, n_hidden)

    def forward(self, x, e, attention_mask, padding_mask):
        return self.ff(x + self.attention(x, e, attention_mask, padding_mask))
`;

const edgeModel = (padding: string): string => `import torch.nn as nn

from .layers import Layer


class Net(nn.Module):
    def __init__(self, n_hidden, n_head, n_layers):
        super().__init__()
        self.n_head = n_head
        self.blocks = nn.ModuleList([Layer(n_hidden, n_head) for _ in range(n_layers)])

    def forward(self, x, e, adj, keep):
        attention_mask = (1.0 - adj).unsqueeze(1).repeat(1, self.n_head, 1, 1) * (-100)
        padding_mask = ${padding}
        for block in self.blocks:
            x = block(x, e, attention_mask, padding_mask)
        return x
`;

describe('ATT006: scores of q * k modulated by edge features before the sum (precscan10a, session 40)', () => {
  it('is silent on padded query rows zeroed after a softmax of scores masked before it', async () => {
    assert.deepEqual(await findingLines(edgeLayer('attention_mask + inter.sum(-1)'), 'ATT006'), []);
  });

  it('still reports the mask after the softmax when nothing masks the scores before it', async () => {
    assert.deepEqual(await findingLines(edgeLayer('inter.sum(-1)'), 'ATT006'), [25]);
  });

  it('reads the masks built in another file: silent with the additive mask before, reported with a key mask after only', async () => {
    const files = (scores: string, padding: string): Record<string, string> => ({
      'pkg/__init__.py': '',
      'pkg/layers.py': edgeLayer(scores),
      'pkg/models.py': edgeModel(padding),
    });
    const rowMask = 'keep.unsqueeze(1).repeat(1, self.n_head, 1).unsqueeze(-1)';
    assert.deepEqual(await workspaceFindingLines(files('attention_mask + inter.sum(-1)', rowMask), 'pkg/layers.py', 'ATT006'), []);
    assert.deepEqual(await workspaceFindingLines(files('inter.sum(-1)', 'keep[:, None, None, :]'), 'pkg/layers.py', 'ATT006'), [25]);
  });

  it('makes the summed product scores whose scale ATT004 judges: a division by the head width is reported', async () => {
    const divided = edgeLayer('attention_mask + inter.sum(-1)').replace('/ np.sqrt(self.dim_head)', '/ self.dim_head');
    assert.deepEqual(await findingLines(divided, 'ATT004'), [24]);
    assert.deepEqual(await findingLines(edgeLayer('attention_mask + inter.sum(-1)'), 'ATT004'), []);
  });
});

const simaHead = (normalise: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class SimAHead(nn.Module):
    def __init__(self, head_size, block_size, n_embd):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = F.normalize(self.key(x), dim=-1)
        q = F.normalize(self.query(x), dim=-1)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        ${normalise}
        v = self.value(x)
        return wei @ v
`;

const maskedToZero = 'wei = wei.masked_fill(self.tril[:T, :T] == 0, 0)';
const softmaxed = 'wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf")).softmax(dim=-1)';

describe('ATT004: softmax-free attention (precscan10a, session 40)', () => {
  it('is silent on the width of the projection input scaling scores that no softmax normalises', async () => {
    assert.deepEqual(await findingLines(simaHead(maskedToZero), 'ATT004'), []);
  });

  it('still reports the same factor when a softmax normalises the scores', async () => {
    assert.deepEqual(await findingLines(simaHead(softmaxed), 'ATT004'), [18]);
  });

  it('judges the head built in another file the same way', async () => {
    const model = `import torch
import torch.nn as nn

from .heads import SimAHead


class MultiHead(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.heads = nn.ModuleList([SimAHead(n_embd // n_head, block_size, n_embd) for _ in range(n_head)])

    def forward(self, x):
        return torch.cat([h(x) for h in self.heads], dim=-1)
`;
    const files = (normalise: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/heads.py': simaHead(normalise), 'pkg/model.py': model });
    assert.deepEqual(await workspaceFindingLines(files(maskedToZero), 'pkg/heads.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files(softmaxed), 'pkg/heads.py', 'ATT004'), [18]);
  });
});
