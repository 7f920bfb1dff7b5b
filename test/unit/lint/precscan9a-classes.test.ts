// Classes of correct code read wrongly, found by the false-positive scan of session 29 on cross-attention, Perceiver,
// diffusion and ViT code (test/lint-scan/results/2026-12-05-scan-precscan9a.md). Small examples written fresh, each
// with its buggy forms, which must still be reported.
//  1. ATT004: queries and keys split into heads by a view whose sizes are one tuple bound to a name
//     (`heads_shape = (batch_size, -1, self.n_heads, self.d_head)`, then `q.view(heads_shape)`), as latent-diffusion
//     UNets written from scratch do for cross-attention to the text context (the -1 stands for the query length or the
//     context's, which differ). The view's sizes were not read, so the queries kept their "whole d_embed-wide
//     projection" fact and `/ math.sqrt(self.d_head)` was reported as one head's width on unsplit scores. The tuple
//     bound once in the function is now read as the view's sizes (as `view(*heads_shape)` already was), and a reshape
//     whose sizes cannot be read no longer leaves the width known to be whole.
//  2. ATT004, the same class through other shape ops: any op whose effect on the axes is not known (an einops pattern
//     held in an attribute, `rearrange(t, self.split, h=h)`) drops the "still the projection's whole width" fact with
//     the rank; `unflatten(-1, (heads, -1))` of a projection output (rank not known) marks the value multi-head and
//     its width cut, as the same split by `view` does.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const codes = findingLines;

const CROSS = `import math
import torch
import torch.nn.functional as F
from torch import nn


class CrossAttention(nn.Module):
    def __init__(self, n_heads, d_embed, d_cross):
        super().__init__()
        self.q_proj = nn.Linear(d_embed, d_embed)
        self.k_proj = nn.Linear(d_cross, d_embed)
        self.v_proj = nn.Linear(d_cross, d_embed)
        self.out_proj = nn.Linear(d_embed, d_embed)
        self.n_heads = n_heads
        self.d_head = d_embed // n_heads

    def forward(self, x, context):
        # x: (B, Seq_Q, d_embed) latents; context: (B, Seq_KV, d_cross) text tokens
        input_shape = x.shape
        batch_size, seq_len, _ = input_shape
        heads_shape = (batch_size, -1, self.n_heads, self.d_head)
        q = self.q_proj(x).view(heads_shape).transpose(1, 2)
        k = self.k_proj(context).view(heads_shape).transpose(1, 2)
        v = self.v_proj(context).view(heads_shape).transpose(1, 2)
        weight = q @ k.transpose(-1, -2)
        weight /= math.sqrt(self.d_head)
        weight = F.softmax(weight, dim=-1)
        out = (weight @ v).transpose(1, 2).reshape(input_shape)
        return self.out_proj(out)
`;

describe('lint: a head split whose sizes are a tuple bound to a name (ATT004)', () => {
  it('cross-attention: `q.view(heads_shape)` with `heads_shape = (B, -1, h, d_head)`, scaled by sqrt(d_head): silent', async () => {
    assert.deepEqual(await codes(CROSS, 'ATT004'), []);
  });
  it('the same tuple naming the sequence length (self-attention), and `reshape(heads_shape)`: silent', async () => {
    const src = CROSS.replace('(batch_size, -1, self.n_heads', '(batch_size, seq_len, self.n_heads').replace(
      'k = self.k_proj(context).view',
      'k = self.k_proj(context).reshape',
    );
    assert.deepEqual(await codes(src, 'ATT004'), []);
  });
  it('the same split written with the sizes inline is silent too (the two forms read alike)', async () => {
    const src = CROSS.replaceAll('.view(heads_shape)', '.view(batch_size, -1, self.n_heads, self.d_head)');
    assert.deepEqual(await codes(src, 'ATT004'), []);
  });
  it('a view whose sizes are a parameter the code does not show: silent (no evidence the width is still whole)', async () => {
    const src = CROSS.replace('def forward(self, x, context):', 'def forward(self, x, context, heads_shape):').replace(
      '        heads_shape = (batch_size, -1, self.n_heads, self.d_head)\n',
      '',
    );
    assert.deepEqual(await codes(src, 'ATT004'), []);
  });
  it('buggy: the projections never split into heads, scaled by one head width: reported', async () => {
    const src = CROSS.replaceAll('.view(heads_shape).transpose(1, 2)', '').replace('(weight @ v).transpose(1, 2).reshape(input_shape)', 'weight @ v');
    assert.deepEqual(await codes(src, 'ATT004'), [26]);
  });
  it('buggy: never split, the keys turned by ops of known effect on a rank-unknown value: still reported', async () => {
    const unsplit = CROSS.replaceAll('.view(heads_shape).transpose(1, 2)', '').replace('(weight @ v).transpose(1, 2).reshape(input_shape)', 'weight @ v');
    for (const turned of [
      'torch.bmm(q, k.permute(0, 2, 1))',
      'q @ k.mT',
      'q.float() @ k.float().transpose(-2, -1)',
      'q @ k.transpose(-2, -1).expand(q.shape[0], -1, -1)',
    ]) {
      const src = unsplit.replace('weight = q @ k.transpose(-1, -2)', `weight = ${turned}`);
      assert.ok(src.includes(turned));
      assert.deepEqual(await codes(src, 'ATT004'), [26], turned);
    }
  });
  it('buggy: the named tuple keeps the whole width as one axis, `(B, -1, d_embed)`: reported', async () => {
    const src = CROSS.replace(
      'def __init__(self, n_heads, d_embed, d_cross):',
      'def __init__(self, n_heads, d_embed, d_cross):\n        self.d_embed = d_embed',
    )
      .replace('heads_shape = (batch_size, -1, self.n_heads, self.d_head)', 'heads_shape = (batch_size, -1, self.d_embed)')
      .replaceAll('.view(heads_shape).transpose(1, 2)', '.view(heads_shape)')
      .replace('(weight @ v).transpose(1, 2).reshape(input_shape)', 'weight @ v');
    assert.deepEqual(await codes(src, 'ATT004'), [27]);
  });
  it('buggy: split by the named tuple but scaled by the model width: reported', async () => {
    const src = CROSS.replace(
      'def __init__(self, n_heads, d_embed, d_cross):',
      'def __init__(self, n_heads, d_embed, d_cross):\n        self.d_embed = d_embed',
    ).replace('math.sqrt(self.d_head)', 'math.sqrt(self.d_embed)');
    assert.deepEqual(await codes(src, 'ATT004'), [27]);
  });
});

const UNET = `from torch import nn
from attention import CrossAttention


class TransformerBlock(nn.Module):
    def __init__(self, n_heads, n_embd, d_context=768):
        super().__init__()
        channels = n_heads * n_embd
        self.norm = nn.LayerNorm(channels)
        self.attn = CrossAttention(n_heads, channels, d_context)

    def forward(self, x, context):
        return x + self.attn(self.norm(x), context)
`;

describe('lint: the cross-attention module used from the UNet of another file (ATT004, workspace)', () => {
  it('correct: silent in both files', async () => {
    const files = { 'attention.py': CROSS, 'unet.py': UNET };
    assert.deepEqual(await workspaceFindingLines(files, 'attention.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'unet.py', 'ATT004'), []);
  });
  it('buggy: the module never splits into heads, still reported with its caller in another file', async () => {
    const bug = CROSS.replaceAll('.view(heads_shape).transpose(1, 2)', '').replace('(weight @ v).transpose(1, 2).reshape(input_shape)', 'weight @ v');
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': bug, 'unet.py': UNET }, 'attention.py', 'ATT004'), [26]);
  });
});

const OPS = `import math
import torch
import torch.nn.functional as F
from torch import nn
from einops import rearrange


class PatternAttention(nn.Module):
    def __init__(self, n_heads, d_embed, d_cross):
        super().__init__()
        self.q_proj = nn.Linear(d_embed, d_embed)
        self.k_proj = nn.Linear(d_cross, d_embed)
        self.v_proj = nn.Linear(d_cross, d_embed)
        self.n_heads = n_heads
        self.d_head = d_embed // n_heads
        self.split = "b n (h d) -> b h n d"

    def forward(self, x, context):
        q = rearrange(self.q_proj(x), self.split, h=self.n_heads)
        k = rearrange(self.k_proj(context), self.split, h=self.n_heads)
        v = rearrange(self.v_proj(context), self.split, h=self.n_heads)
        w = F.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d_head), dim=-1)
        return w @ v


class UnflattenAttention(nn.Module):
    def __init__(self, n_heads, d_embed):
        super().__init__()
        self.q_proj = nn.Linear(d_embed, d_embed)
        self.k_proj = nn.Linear(d_embed, d_embed)
        self.n_heads = n_heads
        self.d_head = d_embed // n_heads
        self.d_embed = d_embed

    def forward(self, x, context):
        q = self.q_proj(x).unflatten(-1, (self.n_heads, -1)).transpose(1, 2)
        k = self.k_proj(context).unflatten(-1, (self.n_heads, -1)).transpose(1, 2)
        return F.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d_head), dim=-1)
`;

describe('lint: heads split by an op whose sizes are not read, or by unflatten (ATT004)', () => {
  it('an einops pattern held in an attribute, and `unflatten(-1, (heads, -1))`, each scaled by one head width: silent', async () => {
    assert.deepEqual(await codes(OPS, 'ATT004'), []);
  });
  it('a helper splitting heads with a starred shape of unknown length, `t.reshape(*t.shape[:-1], h, -1)`: silent', async () => {
    const src = OPS.replace(
      '        q = self.q_proj(x).unflatten(-1, (self.n_heads, -1)).transpose(1, 2)\n        k = self.k_proj(context).unflatten(-1, (self.n_heads, -1)).transpose(1, 2)\n',
      '        q = self.split_heads(self.q_proj(x))\n        k = self.split_heads(self.k_proj(context))\n',
    ).replace(
      '    def forward(self, x, context):\n        q = self.split_heads',
      '    def split_heads(self, t):\n        return t.reshape(*t.shape[:-1], self.n_heads, -1).transpose(-2, -3)\n\n    def forward(self, x, context):\n        q = self.split_heads',
    );
    assert.ok(src.includes('def split_heads'));
    assert.deepEqual(await codes(src, 'ATT004'), []);
  });
  it('buggy: the same modules with the projections never split, scaled by one head width: both reported', async () => {
    const src = OPS.replaceAll(/rearrange\((self\.[qkv]_proj\((?:x|context)\)), self\.split, h=self\.n_heads\)/g, '$1').replaceAll(
      '.unflatten(-1, (self.n_heads, -1)).transpose(1, 2)',
      '',
    );
    assert.deepEqual(await codes(src, 'ATT004'), [22, 38]);
  });
  it('buggy: split by unflatten but scaled by the model width: reported', async () => {
    const src = OPS.replace(
      'return F.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d_head)',
      'return F.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d_embed)',
    );
    assert.deepEqual(await codes(src, 'ATT004'), [38]);
  });
});
