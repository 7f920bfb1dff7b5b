// ATT005, class "a view/reshape used where a transpose is needed": token-major keys (a Linear output, features last)
// viewed as (B, H, hd, -1) for q @ kᵀ. A view keeps the order of the elements, so the per-head feature size placed
// before the tokens does not move the tokens last. Decided from the layouts the code states; keys already transposed,
// channel-first keys and views that split the heads with the tokens first stay silent.
import { strict as assert } from 'node:assert';
import type { ExtendedLinter } from '../../../src/lint';
import { linter } from './helpers';

const VIT = `import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        # x: (B, N, dim)
        b = x.size(0)
        q = self.to_q(x).view(b, self.heads, -1, self.head_dim)
        k = self.to_k(x).view(b, self.heads, self.head_dim, -1)
        v = self.to_v(x).view(b, self.heads, -1, self.head_dim)
        attn = torch.softmax(q @ k / self.head_dim**0.5, dim=-1)
        return attn @ v
`;

async function att005(src: string, l?: ExtendedLinter): Promise<number[]> {
  return (l ?? (await linter()))
    .lintPython(src)
    .filter((f) => f.code === 'ATT005')
    .map((f) => f.line);
}

describe('lint: keys viewed with their features before the tokens for q @ kᵀ (ATT005)', () => {
  it('a Linear output viewed as (B, H, hd, -1) is reported at the view, with the product as related', async () => {
    const [f] = (await linter()).lintPython(VIT).filter((x) => x.code === 'ATT005');
    assert.ok(f);
    assert.equal(f.line, 18);
    assert.match(f.message, /not a transpose/);
    assert.match(f.message, /view\(b, -1, self\.heads, self\.head_dim\)\.permute\(0, 2, 3, 1\)/);
    assert.ok(f.related?.some((r) => r.line === 20));
    assert.equal(f.fix, undefined);
  });
  it('the same view through a name (`kt = k.view(...)`) and with reshape is reported', async () => {
    const src = VIT.replace(
      'k = self.to_k(x).view(b, self.heads, self.head_dim, -1)',
      'k = self.to_k(x)\n        kt = k.reshape(b, self.heads, self.head_dim, -1)',
    ).replace('q @ k /', 'q @ kt /');
    assert.deepEqual(await att005(src), [19]);
  });
  it('fixed: the heads split with the tokens first, then permuted, is silent', async () => {
    const fixed = VIT.replace('self.to_k(x).view(b, self.heads, self.head_dim, -1)', 'self.to_k(x).view(b, -1, self.heads, self.head_dim).permute(0, 2, 3, 1)')
      .replace('self.to_q(x).view(b, self.heads, -1, self.head_dim)', 'self.to_q(x).view(b, -1, self.heads, self.head_dim).transpose(1, 2)')
      .replace('self.to_v(x).view(b, self.heads, -1, self.head_dim)', 'self.to_v(x).view(b, -1, self.heads, self.head_dim).transpose(1, 2)');
    assert.deepEqual(await att005(fixed), []);
  });
  it('keys transposed before the view (features already before the tokens) are silent', async () => {
    const src = VIT.replace('self.to_k(x).view(b, self.heads, self.head_dim, -1)', 'self.to_k(x).transpose(1, 2).reshape(b, self.heads, self.head_dim, -1)');
    assert.deepEqual(await att005(src), []);
  });
  it('channel-first keys from a convolution viewed as (B, H, hd, N) are silent', async () => {
    const src = `import torch
import torch.nn as nn


class ConvAttention(nn.Module):
    def __init__(self, c, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = c // heads
        self.qkv = nn.Conv2d(c, 3 * c, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=1)
        q = q.reshape(b, self.heads, self.head_dim, h * w).transpose(-2, -1)
        k = k.reshape(b, self.heads, self.head_dim, h * w)
        v = v.reshape(b, self.heads, self.head_dim, h * w)
        attn = torch.softmax(q @ k / self.head_dim**0.5, dim=-1)
        return v @ attn.transpose(-2, -1)
`;
    assert.deepEqual(await att005(src), []);
  });
  it('a helper whose caller (same file) passes Linear outputs is reported at its view; alone it is silent', async () => {
    const ops = `import torch
import torch.nn as nn


def attend(q, k, v, heads, head_dim):
    b = q.size(0)
    q = q.view(b, heads, -1, head_dim)
    k = k.view(b, heads, head_dim, -1)
    v = v.view(b, heads, -1, head_dim)
    return torch.softmax(q @ k / head_dim**0.5, dim=-1) @ v
`;
    const caller = `

class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        return attend(self.to_q(x), self.to_k(x), self.to_v(x), self.heads, x.size(-1) // self.heads)
`;
    assert.deepEqual(await att005(ops + caller), [8]);
    // Alone, the helper's parameters are of unknown layout (they could be (B, D, N) already): silent.
    assert.deepEqual(await att005(ops), []);
    const fixed = ops.replace('k.view(b, heads, head_dim, -1)', 'k.view(b, -1, heads, head_dim).permute(0, 2, 3, 1)');
    assert.deepEqual(await att005(fixed + caller), []);
  });
});
