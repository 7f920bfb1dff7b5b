// Class from training folder h: a mask parameter defaulting to None that its own function fills in with a mask it
// builds (`def forward(self, tokens, pad_mask=None):` then `if pad_mask is None: pad_mask = (tokens != PAD)...`) and
// hands on, through blocks, to the attention. Where nothing but the parameter's name says what callers give, the mask
// the code builds is what the function uses whenever none is given: its construction decides (code outranks a name),
// as the all-ones default does. Written fresh: the buggy default (a float 0/1 keep mask added by SDPA; a keep mask
// given to nn.MultiheadAttention's key_padding_mask), the fixed defaults (boolean, additive), a caller's mask known
// from code that the fill does not override, and a cross-file pair (the attention module in its own file).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTN = (fill: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.h = h
        self.d = d

    def forward(self, x, pad_mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(self.d, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)
        return y.transpose(1, 2).reshape(B, T, C)


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = Attention(d, h)

    def forward(self, x, pad_mask=None):
        return x + self.attn(x, pad_mask)


class LM(nn.Module):
    def __init__(self, vocab, d, h, n):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([Block(d, h) for _ in range(n)])

    def forward(self, tokens, pad_mask=None):
        x = self.emb(tokens)
        if pad_mask is None:
${fill}
        for block in self.blocks:
            x = block(x, pad_mask=pad_mask)
        return x
`;

const FLOAT_KEEP = `            pad_mask = (tokens != PAD).unsqueeze(1).unsqueeze(2)
            pad_mask = pad_mask.float()`;
const BOOL_KEEP = `            pad_mask = (tokens != PAD).unsqueeze(1).unsqueeze(2)`;
const ADDITIVE = `            keep = (tokens != PAD).unsqueeze(1).unsqueeze(2).float()
            pad_mask = (1.0 - keep) * -1e9`;

const MHA = (fill: string): string => `import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, d, h, pad_id=0):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)
        self.pad_id = pad_id

    def forward(self, x, ids, key_padding_mask=None):
        if key_padding_mask is None:
            key_padding_mask = ${fill}
        out, _ = self.mha(x, x, x, key_padding_mask=key_padding_mask)
        return out
`;

describe('a mask parameter defaulting to None, filled in by its own function', () => {
  it('reports the float 0/1 keep mask the default builds, passed through the blocks to SDPA', async () => {
    assert.deepEqual(await findingLines(ATTN(FLOAT_KEEP), 'ATT002'), [21]);
  });

  it('stays silent on the boolean and the additive default', async () => {
    assert.deepEqual(await findingLines(ATTN(BOOL_KEEP), 'ATT002'), []);
    assert.deepEqual(await findingLines(ATTN(ADDITIVE), 'ATT002'), []);
  });

  it('reads the default built in the function for an API that expects True = ignore', async () => {
    assert.deepEqual(await findingLines(MHA('ids != self.pad_id'), 'ATT002'), [13]);
    assert.deepEqual(await findingLines(MHA('ids == self.pad_id'), 'ATT002'), []);
  });

  it('lets a mask the caller gives, known from code, decide where it is given', async () => {
    const caller = `${MHA('ids == self.pad_id')}

def run(enc, x, ids):
    return enc(x, ids, key_padding_mask=(ids == 0))
`;
    assert.deepEqual(await findingLines(caller, 'ATT002'), []);
  });

  it('follows the default across files: the model imports the attention module', async () => {
    const src = ATTN(FLOAT_KEEP);
    const cut = src.indexOf('class Block');
    const layer = src.slice(0, cut);
    const model = `from layer import Attention, PAD\n${src.slice(0, src.indexOf('class Attention')).replace('PAD = 0\n', '')}${src.slice(cut)}`;
    assert.deepEqual(await workspaceFindingLines({ 'layer.py': layer, 'model.py': model }, 'layer.py', 'ATT002'), [21]);
    const fixed = model.replace('pad_mask = pad_mask.float()', 'pad_mask = pad_mask.bool()');
    assert.deepEqual(await workspaceFindingLines({ 'layer.py': layer, 'model.py': fixed }, 'layer.py', 'ATT002'), []);
  });
});
