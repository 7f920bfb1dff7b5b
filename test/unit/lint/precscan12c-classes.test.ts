// Session 42 (eng-prec-s42c), scan precscan12c (classic NLP attention, graph attention, time series, captioning,
// efficient attention, medical ViTs, late interaction, slot and set attention; written fresh here):
//  1. ATT004, a miss met in the scan (TransUNet-from-scratch's ViT, copied into a cross-attention variant): q, k and v
//     unpacked from a fused projection through `tuple(...)`, `query, key, value = tuple(rearrange(qkv, 'b t (d k h) ->
//     k b h t d', k=3, h=heads))`. `tuple(t)` of a tensor was read as an unknown value, so the slices lost what the code
//     shows of them (projections of the data, their layout); and scores whose queries carry no role name (`tquery`, the
//     queries of the second fused projection `tqkv_layer(tx)`) multiplied by `(dim // heads) ** 0.5` were judged only when
//     the factor was the very size their product sums over. Now `tuple(t)` / `list(t)` of a tensor holds its slices
//     along the first axis, as unpacking the tensor itself does, and scores of two projections of the data (no learned
//     matrix), softmaxed, whose weights a later product sums over the normalised axis (the ·V step) are attention by
//     what the code does with them: a positive power of a dimension on them is reported whatever the operands are called
//     (not on cosine logits, where it is a temperature).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** A cross-attention block: queries of the second input against keys and values of the first; `scale` on the energy. */
const crossAttention = (scale: string, split = "tuple(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.head_num))"): string => `import torch
import torch.nn as nn
from einops import rearrange


class CrossAttention(nn.Module):
    def __init__(self, embedding_dim, head_num):
        super().__init__()
        self.head_num = head_num
        self.dk = (embedding_dim // head_num) ** (1 / 2)
        self.qkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)
        self.tqkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)

    def forward(self, x, tx):
        qkv = self.qkv_layer(x)
        tqkv = self.tqkv_layer(tx)
        query, key, value = ${split}
        tquery, tkey, tvalue = ${split.replace('qkv,', 'tqkv,')}
        energy = torch.einsum("... i d, ... j d -> ... i j", tquery, key) ${scale}
        attention = torch.softmax(energy, dim=-1)
        x = torch.einsum("... i j, ... j d -> ... i d", attention, value)
        return rearrange(x, "b h t d -> b t (h d)")
`;

/** The self-attention form of the same block (q/k names), for comparison. */
const selfAttention = (scale: string): string => `import torch
import torch.nn as nn
from einops import rearrange


class MultiHeadAttention(nn.Module):
    def __init__(self, embedding_dim, head_num):
        super().__init__()
        self.head_num = head_num
        self.dk = (embedding_dim // head_num) ** (1 / 2)
        self.qkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)

    def forward(self, x):
        qkv = self.qkv_layer(x)
        query, key, value = tuple(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.head_num))
        energy = torch.einsum("... i d, ... j d -> ... i j", query, key) ${scale}
        attention = torch.softmax(energy, dim=-1)
        return torch.einsum("... i j, ... j d -> ... i d", attention, value)
`;

describe('precscan12c 1. ATT004: slices of a fused projection unpacked through tuple(), and scores attention by use', () => {
  it('cross attention of unnamed queries multiplied by sqrt(head_dim): reported; divided: silent', async () => {
    assert.deepEqual(await findingLines(crossAttention('* self.dk'), 'ATT004'), [19]);
    assert.deepEqual(await findingLines(crossAttention('/ self.dk'), 'ATT004'), []);
    assert.deepEqual(await findingLines(crossAttention('/ self.dk'), 'ATT003'), []);
  });
  it('the same split written as `list(...)` or unpacked directly: the same finding', async () => {
    const list = "list(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.head_num))";
    const bare = "rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.head_num)";
    assert.deepEqual(await findingLines(crossAttention('* self.dk', list), 'ATT004'), [19]);
    assert.deepEqual(await findingLines(crossAttention('* self.dk', bare), 'ATT004'), [19]);
  });
  it('self-attention through tuple(): reported as before; the fixed form silent', async () => {
    assert.deepEqual(await findingLines(selfAttention('* self.dk'), 'ATT004'), [16]);
    assert.deepEqual(await findingLines(selfAttention('/ self.dk'), 'ATT004'), []);
  });
  it('unnamed queries against a learned matrix of memory slots (not a projection of the data): silent', async () => {
    const src = crossAttention('* self.dk')
      .replace(
        'self.tqkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)',
        'self.tqkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)\n        self.slots = nn.Parameter(torch.randn(16, embedding_dim // head_num))',
      )
      .replace('"... i d, ... j d -> ... i j", tquery, key', '"... i d, j d -> ... i j", tquery, self.slots')
      .replace('"... i j, ... j d -> ... i d", attention, value', '"... i j, j d -> ... i d", attention, self.slots');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('unit-normalised unnamed operands (cosine logits) times sqrt(d): a temperature, silent', async () => {
    const src = crossAttention('* self.dk').replace(
      '        energy =',
      '        tquery = tquery / tquery.norm(dim=-1, keepdim=True)\n        key = key / key.norm(dim=-1, keepdim=True)\n        energy =',
    );
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('cross-file: the head width imported from a config module; times its root reported, divided silent', async () => {
    const model = (op: string): string =>
      crossAttention(`${op} self.dk`)
        .replace('from einops import rearrange\n', 'from einops import rearrange\n\nfrom .config import HEAD_DIM\n')
        .replace('self.dk = (embedding_dim // head_num) ** (1 / 2)', 'self.dk = HEAD_DIM ** 0.5');
    const config = 'HEAD_DIM = 64\nN_HEADS = 8\n';
    const files = (op: string): Record<string, string> => ({ 'vit/__init__.py': '', 'vit/config.py': config, 'vit/model.py': model(op) });
    assert.deepEqual(await workspaceFindingLines(files('*'), 'vit/model.py', 'ATT004'), [21]);
    assert.deepEqual(await workspaceFindingLines(files('/'), 'vit/model.py', 'ATT004'), []);
  });
});
