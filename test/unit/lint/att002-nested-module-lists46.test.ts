// Session 46, eng-s46c: ATT002 (and every rule judged through a module's callers), class "a module list of module
// lists, unpacked by the loop that runs it" (the regression group's `b37-03-mask`, a Fastformer-style model:
// `self.blocks = nn.ModuleList([])`, then `self.blocks.append(nn.ModuleList([norm, Attention(...), norm, ff]))` in a
// loop of `__init__`, and `for norm1, attn, norm2, ff in self.blocks: x = attn(norm1(x), mask=mask) + x` in forward).
//
// The linter followed `for layer in self.layers` over `nn.ModuleList([Block(d) for _ in range(depth)])` to the block's
// forward with the caller's mask, but lost the attention module when each item of the list was itself a module list:
// the comprehension's item (a tuple of modules) was not kept as "every item", the appended items of an empty
// `nn.ModuleList([])` were not read at all, and only the loop's first name was taken as a module call. Now every item
// is the module list the comprehension or the single `append` builds, unpacked by the loop's names, so the block is
// judged with the mask its caller passes. An empty list that the function appends to at more than one place, rebinds
// or extends stays unknown.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const POOLING = (fill: string): string => `import torch
from torch import nn


class PooledHeadAttention(nn.Module):
    def __init__(self, width, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (width // heads) ** -0.5
        self.to_qkv = nn.Linear(width, width * 3, bias=False)
        self.to_out = nn.Linear(width, width)

    def forward(self, x, mask=None):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).view(b, n, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        if mask is not None:
            dots = dots.masked_fill(${fill}, -torch.finfo(dots.dtype).max)
        weights = dots.softmax(dim=-1)
        return self.to_out(torch.matmul(weights, v).transpose(1, 2).reshape(b, n, -1))
`;

const BUILT_IN_ONE = `        self.stages = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(width), PooledHeadAttention(width), nn.Linear(width, width)]) for _ in range(depth)]
        )
`;

const APPENDED = `        self.stages = nn.ModuleList([])
        for _ in range(depth):
            self.stages.append(
                nn.ModuleList(
                    [
                        nn.LayerNorm(width),
                        PooledHeadAttention(width),
                        nn.Linear(width, width),
                    ]
                )
            )
`;

const TOKEN_MODEL = (stages: string): string => `

class TokenStack(nn.Module):
    def __init__(self, vocab, width, depth):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
${stages}
    def forward(self, tokens):
        keep = tokens != 0
        h = self.embed(tokens)
        for pre_norm, attend, mix in self.stages:
            h = attend(pre_norm(h), mask=keep) + h
            h = mix(h) + h
        return h
`;

const file = (fill: string, stages: string): string => POOLING(fill) + TOKEN_MODEL(stages);

describe('ATT002: module lists of module lists, unpacked by the loop that runs them (session 46)', () => {
  it('reports a keep mask filled where True, through a comprehension of module lists', async () => {
    assert.deepEqual(await findingLines(file('mask[:, None, None, :]', BUILT_IN_ONE), 'ATT002'), [18]);
  });

  it('reports it through an empty module list filled by one append in a loop', async () => {
    assert.deepEqual(await findingLines(file('mask[:, None, None, :]', APPENDED), 'ATT002'), [18]);
  });

  it('is silent on the fixed fill (where the keep mask is False), both ways of building the list', async () => {
    assert.deepEqual(await findingLines(file('~mask[:, None, None, :]', BUILT_IN_ONE), 'ATT002'), []);
    assert.deepEqual(await findingLines(file('~mask[:, None, None, :]', APPENDED), 'ATT002'), []);
  });

  it('leaves a list appended to at two places unknown (which item is which is not read)', async () => {
    const twoKinds = `        self.stages = nn.ModuleList([])
        for i in range(depth):
            if i % 2 == 0:
                self.stages.append(nn.ModuleList([nn.LayerNorm(width), PooledHeadAttention(width), nn.Identity()]))
            else:
                self.stages.append(nn.ModuleList([nn.LayerNorm(width), nn.Identity(), nn.Linear(width, width)]))
`;
    assert.deepEqual(await findingLines(file('mask[:, None, None, :]', twoKinds), 'ATT002'), []);
  });

  it('leaves a list of single modules filled by append unknown, as before (not a module list of module lists)', async () => {
    const flat = `
class FlatStack(nn.Module):
    def __init__(self, vocab, width, depth):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(PooledHeadAttention(width))

    def forward(self, tokens):
        keep = tokens != 0
        h = self.embed(tokens)
        for block in self.blocks:
            h = block(h, mask=keep) + h
        return h
`;
    assert.deepEqual(await findingLines(POOLING('mask[:, None, None, :]') + flat, 'ATT002'), []);
  });

  it('judges the block of another file as the importing file builds and runs its module lists', async () => {
    const files = (fill: string): Record<string, string> => ({
      'pool/attention.py': POOLING(fill),
      'pool/model.py':
        `import torch
from torch import nn

from pool.attention import PooledHeadAttention
` + TOKEN_MODEL(APPENDED),
    });
    assert.deepEqual(await workspaceFindingLines(files('mask[:, None, None, :]'), 'pool/attention.py', 'ATT002'), [18]);
    assert.deepEqual(await workspaceFindingLines(files('~mask[:, None, None, :]'), 'pool/attention.py', 'ATT002'), []);
  });
});
