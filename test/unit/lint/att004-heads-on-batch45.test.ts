// Session 45 (eng-s45c): two ATT004 classes of heads stacked on the batch axis before a batched product.
//
// Class 1: a projection that keeps the width (`nn.Linear(emb, emb)`), its output viewed as heads (`view(b, t, h, s)`
// with `s = e // h`) and then folded into the batch axis (`.transpose(1, 2).contiguous().view(b * h, t, s)`) before
// `torch.bmm`, scaled by the width read off the input (`b, t, e = x.size()`, then `/ (e ** 0.5)`, or the queries and the
// keys each divided by `e ** (1 / 4)`): the heads are still several, so `e` is all heads' width, not each head's. Before,
// only a head axis left in the queries (`(B, H, T, s)`) showed the split; the fold to `(b * h, t, s)` hid it, and
// factors on the queries or keys themselves were never read against the split.
//
// Class 2: `torch.cat(Q.split(self.d_head, dim=2), dim=0)` (Set Transformer style, `Q.split(dim_split, 2)`) of a
// projection applied to a parameter, whose rank the code does not state: a positive split axis was not known to be the
// features, so the pieces were not read as heads. Pieces one head wide (torch's split size, `d_model // num_heads`) or
// as many as the heads (a count of sections, `tf.split(Q, num_heads, axis=2)`) cut the features, whatever the axis
// number; joined back along axis 0 they are heads on the batch, and `sqrt(d_model)` on their scores is the model width.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const FOLDED = (scaling: string, width = 'emb', view = 'h, s', folded = 's'): string => `import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, emb, heads=8):
        super().__init__()
        self.heads = heads
        self.to_k = nn.Linear(emb, ${width}, bias=False)
        self.to_q = nn.Linear(emb, ${width}, bias=False)
        self.to_v = nn.Linear(emb, ${width}, bias=False)

    def forward(self, x):
        b, t, e = x.size()
        h = self.heads
        s = e // h
        keys = self.to_k(x).view(b, t, ${view})
        queries = self.to_q(x).view(b, t, ${view})
        values = self.to_v(x).view(b, t, ${view})
        keys = keys.transpose(1, 2).contiguous().view(b * h, t, ${folded})
        queries = queries.transpose(1, 2).contiguous().view(b * h, t, ${folded})
        values = values.transpose(1, 2).contiguous().view(b * h, t, ${folded})
        ${scaling}
        dot = F.softmax(dot, dim=2)
        return torch.bmm(dot, values).view(b, h, t, ${folded})
`;

const SCORES_BY = (f: string): string => `dot = torch.bmm(queries, keys.transpose(1, 2)) / (${f} ** 0.5)`;
const EACH_BY = (f: string): string => `queries = queries / (${f} ** (1 / 4))
        keys = keys / (${f} ** (1 / 4))
        dot = torch.bmm(queries, keys.transpose(1, 2))`;

describe('ATT004 heads folded into the batch axis (session 45)', () => {
  it('reports the input width on the scores of heads folded into the batch', async () => {
    assert.deepEqual(await findingLines(FOLDED(SCORES_BY('e')), 'ATT004'), [24]);
  });

  it('reports the queries and the keys each divided by a fourth root of the input width, once, at the query', async () => {
    assert.deepEqual(await findingLines(FOLDED(EACH_BY('e')), 'ATT004'), [24]);
  });

  it('stays silent on the head width, as the scores or as fourth roots on the queries and keys', async () => {
    assert.deepEqual(await findingLines(FOLDED(SCORES_BY('s')), 'ATT004'), []);
    assert.deepEqual(await findingLines(FOLDED(EACH_BY('s')), 'ATT004'), []);
  });

  it('stays silent on wide heads, each as wide as the input (`nn.Linear(emb, emb * heads)`, `view(b, t, h, e)`)', async () => {
    assert.deepEqual(await findingLines(FOLDED(EACH_BY('e'), 'emb * heads', 'h, e', 'e'), 'ATT004'), []);
    assert.deepEqual(await findingLines(FOLDED(SCORES_BY('e'), 'emb * heads', 'h, e', 'e'), 'ATT004'), []);
  });

  it('stays silent on one head folded with no head count (`view(b, t, e)`)', async () => {
    const one = FOLDED(SCORES_BY('e'))
      .replace(/\.view\(b, t, h, s\)/g, '')
      .replace(/\.transpose\(1, 2\)\.contiguous\(\)\.view\(b \* h, t, s\)/g, '');
    assert.deepEqual(await findingLines(one, 'ATT004'), []);
  });
});

const SPLIT = (scale: string, split = 'Q.split(self.d_head, dim=2)'): string => `import torch
import torch.nn as nn


class MultiHead(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_head = d_model // num_heads
        self.d_model = d_model
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, x):
        Q, K, V = self.wq(x), self.wk(x), self.wv(x)
        Q_ = torch.cat(${split}, dim=0)
        K_ = torch.cat(${split.replace('Q', 'K')}, dim=0)
        V_ = torch.cat(${split.replace('Q', 'V')}, dim=0)
        scores = torch.bmm(Q_, K_.transpose(1, 2)) / ${scale}
        return torch.bmm(torch.softmax(scores, dim=-1), V_)
`;

describe('ATT004 pieces one head wide split off an axis of unknown rank (session 45)', () => {
  it('reports sqrt(d_model) on heads split off dim=2 and stacked on the batch', async () => {
    assert.deepEqual(await findingLines(SPLIT('(self.d_model ** 0.5)'), 'ATT004'), [19]);
    assert.deepEqual(await findingLines(SPLIT('(self.d_model ** 0.5)', 'torch.split(Q, self.d_head, 2)'), 'ATT004'), [19]);
  });

  it('stays silent on the head width', async () => {
    assert.deepEqual(await findingLines(SPLIT('(self.d_head ** 0.5)'), 'ATT004'), []);
  });

  it('stays silent on blocks of the sequence stacked on the batch (a split size that is no head width)', async () => {
    assert.deepEqual(
      await findingLines(
        SPLIT('(self.d_model ** 0.5)', 'Q.split(self.block, dim=1)').replace('self.d_model = d_model', 'self.d_model = d_model\n        self.block = 16'),
        'ATT004',
      ),
      [],
    );
  });

  it('reports the Set Transformer form alone as with its caller in view, and not its fixed form', async () => {
    const attn = `import math

import torch
import torch.nn as nn


class MAB(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads):
        super().__init__()
        self.dim_out = dim_out
        self.num_heads = num_heads
        self.fc_q = nn.Linear(dim_in, dim_out)
        self.fc_k = nn.Linear(dim_in, dim_out)
        self.fc_v = nn.Linear(dim_in, dim_out)

    def forward(self, X, Y):
        Q, K, V = self.fc_q(X), self.fc_k(Y), self.fc_v(Y)
        dim_split = self.dim_out // self.num_heads
        Q_ = torch.cat(Q.split(dim_split, 2), 0)
        K_ = torch.cat(K.split(dim_split, 2), 0)
        V_ = torch.cat(V.split(dim_split, 2), 0)
        A = torch.softmax(Q_.bmm(K_.transpose(1, 2)) / math.sqrt(SCALE), 2)
        return torch.cat(A.bmm(V_).split(Q.size(0), 0), 2)
`;
    const model = `import torch.nn as nn

from blocks import MAB


class Encoder(nn.Module):
    def __init__(self, dim_in, dim_hidden, heads=4):
        super().__init__()
        self.first = MAB(dim_in, dim_hidden, heads)
        self.second = MAB(dim_hidden, dim_hidden, heads)

    def forward(self, X):
        H = self.first(X, X)
        return self.second(H, H)
`;
    const bad = { 'blocks.py': attn.replace('SCALE', 'self.dim_out'), 'model.py': model };
    const good = { 'blocks.py': attn.replace('SCALE', 'dim_split'), 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(bad, 'blocks.py', 'ATT004'), [22]);
    assert.deepEqual(await workspaceFindingLines(good, 'blocks.py', 'ATT004'), []);
    // Alone (the caller cut away), the split size still says the pieces are heads.
    assert.deepEqual(await findingLines(bad['blocks.py'], 'ATT004'), [22]);
    assert.deepEqual(await findingLines(good['blocks.py'], 'ATT004'), []);
  });

  it('stays silent on the input width of a widening projection whose pieces are stacked on a new axis (GST style)', async () => {
    // `key_dim` is bound by the caller to `E // num_heads`, one head's width: the input width says nothing here. Since
    // session 45 a stack of split pieces claims no rank (ATT005's class), so this guards GST's silence as a whole; the
    // concatenated form, which reaches the stacked-on-batch check, is fixture catted_pieces_input_width_ok.py.
    const gst = `import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenAttention(nn.Module):
    def __init__(self, query_dim, key_dim, num_units, num_heads):
        super().__init__()
        self.num_units = num_units
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.W_query = nn.Linear(query_dim, num_units, bias=False)
        self.W_key = nn.Linear(key_dim, num_units, bias=False)
        self.W_value = nn.Linear(key_dim, num_units, bias=False)

    def forward(self, query, key):
        q = self.W_query(query)
        k = self.W_key(key)
        v = self.W_value(key)
        split = self.num_units // self.num_heads
        q = torch.stack(torch.split(q, split, dim=2), dim=0)
        k = torch.stack(torch.split(k, split, dim=2), dim=0)
        v = torch.stack(torch.split(v, split, dim=2), dim=0)
        scores = torch.matmul(q, k.transpose(2, 3)) / (SCALE ** 0.5)
        scores = F.softmax(scores, dim=3)
        return torch.cat(torch.split(torch.matmul(scores, v), 1, dim=0), dim=3).squeeze(0)
`;
    assert.deepEqual(await findingLines(gst.replace('SCALE', 'self.key_dim'), 'ATT004'), []);
    assert.deepEqual(await findingLines(gst.replace('SCALE', 'split'), 'ATT004'), []);
    assert.deepEqual(await findingLines(gst.replace('SCALE', 'self.num_units'), 'ATT004'), [24]);
  });
});
