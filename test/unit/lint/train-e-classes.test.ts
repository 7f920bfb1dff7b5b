// Decisions pinned from the training set (test/lint-train/e, session 27), each with a small example written fresh,
// its other form, and a cross-file pair:
//   1. ATT007: a -inf fill by masked_fill under a padding mask that varies along the query axis, whose softmax is
//      followed by a NaN patch (`w = torch.where(torch.isnan(w), torch.zeros_like(w), w)`) in the same function, is
//      silent. The patch zeroes the NaN rows in the forward pass, and the backward stays finite as well: the softmax
//      backward of a NaN row is NaN, but masked_fill's backward (`grad.masked_fill(mask, 0)`) zeroes exactly the
//      positions it filled, and a fully masked row is all filled (checked on PyTorch 1.13: every parameter's gradient
//      finite). Without the patch the same code is reported. This is why `t12e-08-fill` (which keeps the patch) gets
//      no finding: the code guards the rows it empties. (In one file, as in that case, the parameter is known to be a
//      padding mask from its name, `padding_mask`, and varies along the queries by `.unsqueeze(-1)`; the cross-file
//      pair builds it from the ids, `ids != pad_id`, in another file.)
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const codes = findingLines;

const inWorkspace = workspaceFindingLines;

const PATCH = '        w = torch.where(torch.isnan(w), torch.zeros_like(w), w)\n';

const QUERY_PAD = (patch: boolean): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PaddedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, padding_mask):
        # padding_mask: (batch, len), True at real tokens
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        scores = scores.masked_fill(~padding_mask.unsqueeze(1).unsqueeze(-1), float("-inf"))
        w = F.softmax(scores, dim=-1)
${patch ? PATCH : ''}        return (w @ v).transpose(1, 2).reshape(b, t, c)
`;

describe('train e, class 1: a query-padding -inf fill whose NaN rows are patched after the softmax (ATT007)', () => {
  it('no patch: every padded query row is -inf and softmaxes to NaN, reported', async () => {
    assert.deepEqual(await codes(QUERY_PAD(false), 'ATT007'), [19]);
  });
  it('torch.where(isnan(w), 0, w) after the softmax: forward zeroed, masked_fill backward zeroes the filled rows, silent', async () => {
    assert.deepEqual(await codes(QUERY_PAD(true), 'ATT007'), []);
  });

  const CORE = (patch: boolean): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Core(nn.Module):
    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        w = F.softmax(scores, dim=-1)
${patch ? PATCH : ''}        return w @ v


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.core = Core()

    def forward(self, x, mask=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        return self.core(q, k, v, mask=mask).transpose(1, 2).reshape(b, t, c)
`;
  const MASKS = `def query_padding_mask(ids, pad_id=0):
    keep = ids != pad_id
    return keep[:, None, :, None]
`;
  const MODEL = `import torch.nn as nn

from layers import SelfAttention
from masks import query_padding_mask


class Encoder(nn.Module):
    def __init__(self, vocab, dim=64, heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim, heads)

    def forward(self, ids):
        b, t = ids.shape
        return self.attn(self.emb(ids), mask=query_padding_mask(ids))
`;
  it('cross-file: the query padding mask is built in another file and passed through the wrapper; no patch: reported', async () => {
    const files = { 'masks.py': MASKS, 'layers.py': CORE(false), 'model.py': MODEL };
    assert.deepEqual(await inWorkspace(files, 'layers.py', 'ATT007'), [10]);
  });
  it('cross-file: the same with the NaN patch after the softmax: silent', async () => {
    const files = { 'masks.py': MASKS, 'layers.py': CORE(true), 'model.py': MODEL };
    assert.deepEqual(await inWorkspace(files, 'layers.py', 'ATT007'), []);
  });
});
