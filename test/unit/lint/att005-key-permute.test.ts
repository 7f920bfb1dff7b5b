// ATT005, class "a permute of the keys that swaps the wrong axes": token-major keys of known rank, (B, T, H, hd),
// permuted for q @ k with the features not second to last (`k.permute(0, 2, 1, 3)`, the head split written for q and
// v, reused for the keys). Decided from the stated layout; permutations that bring the features second to last, and
// keys of unknown rank or layout, stay silent.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const SRC = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q = q.view(B, T, self.heads, self.head_dim).permute(0, 2, 1, 3)
        k = k.view(B, T, self.heads, self.head_dim)
        v = v.view(B, T, self.heads, self.head_dim).permute(0, 2, 1, 3)
        att = torch.softmax(q @ k.permute(0, 2, 1, 3) / self.head_dim**0.5, dim=-1)
        return att @ v
`;

async function att005(src: string): Promise<number[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === 'ATT005')
    .map((f) => f.line);
}

describe('lint: keys permuted over the wrong axes for q @ k (ATT005)', () => {
  it('(B, T, H, hd) keys permuted (0, 2, 1, 3) are reported at the permute, naming the right order', async () => {
    const [f] = (await linter()).lintPython(SRC).filter((x) => x.code === 'ATT005');
    assert.ok(f);
    assert.equal(f.line, 18);
    assert.match(f.message, /k\.permute\(0, 2, 3, 1\)/);
    assert.equal(f.fix, undefined);
  });
  it('the same with a tuple, through torch.permute and .contiguous() is reported', async () => {
    assert.deepEqual(await att005(SRC.replace('k.permute(0, 2, 1, 3)', 'k.permute((0, 2, 1, 3)).contiguous()')), [18]);
    assert.deepEqual(await att005(SRC.replace('k.permute(0, 2, 1, 3)', 'torch.permute(k, (0, 2, 1, 3))')), [18]);
  });
  it('fixed: permute(0, 2, 3, 1) is silent, and so is (B, H, T, hd) keys permuted (0, 1, 3, 2)', async () => {
    assert.deepEqual(await att005(SRC.replace('k.permute(0, 2, 1, 3)', 'k.permute(0, 2, 3, 1)')), []);
    const split = SRC.replace('k = k.view(B, T, self.heads, self.head_dim)', 'k = k.view(B, T, self.heads, self.head_dim).permute(0, 2, 1, 3)').replace(
      'k.permute(0, 2, 1, 3) /',
      'k.permute(0, 1, 3, 2) /',
    );
    assert.deepEqual(await att005(split), []);
  });
  it('keys of unknown rank or layout (parameters) are silent', async () => {
    const src = `import torch


def attend(q, k, v):
    return torch.softmax(q @ k.permute(0, 2, 1, 3), dim=-1) @ v
`;
    assert.deepEqual(await att005(src), []);
  });
  it('cross-file: keys split into (B, T, H, hd) by a helper of another file, permuted (0, 2, 1, 3), are reported; (0, 2, 3, 1) is silent', async () => {
    const heads = `def split_heads(x, heads):
    B, T, C = x.shape
    return x.view(B, T, heads, C // heads)
`;
    const attn = `import torch
import torch.nn as nn

from heads import split_heads


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        q = split_heads(self.to_q(x), self.heads).transpose(1, 2)
        k = split_heads(self.to_k(x), self.heads)
        v = split_heads(self.to_v(x), self.heads).transpose(1, 2)
        att = torch.softmax(q @ k.permute(0, 2, 1, 3) / q.size(-1) ** 0.5, dim=-1)
        return att @ v
`;
    const lines = async (text: string) =>
      (await createLinter(grammar(), { workspace: memoryWorkspace({ 'heads.py': heads, 'attn.py': text }), onInternalError: (e) => assert.fail(String(e)) }))
        .lintPython(text, { path: 'attn.py' })
        .filter((f) => f.code === 'ATT005')
        .map((f) => f.line);
    assert.deepEqual(await lines(attn), [19]);
    assert.deepEqual(await lines(attn.replace('k.permute(0, 2, 1, 3)', 'k.permute(0, 2, 3, 1)')), []);
  });
});
