// Session 35 (precscale35): four classes of findings decided from a guess, each with the code that shares its shape.
//
// 1. ATT004, a head width held under a caller's name (training t24q-01-clean): `ScaledDotProduct(temperature=dim_key
//    ** 0.5)` in a module whose queries are `view(b, n, self.heads, self.dim_key)`, built `MultiHead(heads, dim, dim)`
//    by an encoder. In that context the factor holds the encoder's `dim`, a name read as the model width; so does the
//    view's per-head size. The sizes the product sums over are now compared by the value they hold in the context
//    (AxisInfo.sizeValue), not only by the text written at the view: the scale is that per-head width.
// 2. ATT004, rank 4 taken for heads (HF SAM 3's `DotProductScoring`): scores of queries that are their projection's
//    whole output, never split into heads, over a stack of decoder layers `[L, B, Q, C]`, scaled by 1/sqrt of that
//    width. Nothing shows heads; the fourth axis is the layers. Silent; queries split into heads are still reported.
//    Also: a projection as wide as the factor times the head count (`nn.Linear(query_dim, dim * heads)`, or `inner =
//    dim * heads` bound once in the constructor) gives each head the factor's width, whatever the name `dim` suggests.
// 3. ATT003, a model unscaled by design (HF GPT-Neo): the eager class forms unscaled scores, and a class of the file
//    derived from it hands the kernel `softmax_scale=1.0`: the same attention, stated unscaled. An unrelated class of
//    the file doing so says nothing about this one.
// 4. ATT005, scores nothing reads (HF SAM 2's `Sam2MultiScaleAttention`): a leftover product with the heads after the
//    tokens, softmaxed and dropped, beside the kernel call that does the work. Used, it is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SDP = `import torch
import torch.nn as nn


class ScaledDotProduct(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v):
        scores = torch.matmul(q / self.temperature, k.transpose(2, 3))
        weights = torch.softmax(scores, dim=-1)
        return torch.matmul(weights, v)
`;

const MULTI = (scale: string): string => `

class MultiHead(nn.Module):
    def __init__(self, heads: int, dim_model: int, dim_key: int):
        super().__init__()
        self.heads, self.dim_key = heads, dim_key
        self.to_q = nn.Linear(dim_model, heads * dim_key, bias=False)
        self.to_k = nn.Linear(dim_model, heads * dim_key, bias=False)
        self.to_v = nn.Linear(dim_model, heads * dim_key, bias=False)
        self.attend = ScaledDotProduct(temperature=${scale})

    def forward(self, x):
        b, n = x.size(0), x.size(1)
        q = self.to_q(x).view(b, n, self.heads, self.dim_key).transpose(1, 2)  # (B, H, N, dk)
        k = self.to_k(x).view(b, n, self.heads, self.dim_key).transpose(1, 2)
        v = self.to_v(x).view(b, n, self.heads, self.dim_key).transpose(1, 2)
        return self.attend(q, k, v).transpose(1, 2).reshape(b, n, -1)
`;

const ENCODER = (keyWidth: string, importLine = ''): string => `${importLine}

class Encoder(nn.Module):
    def __init__(self, dim: int = 256, heads: int = 4):
        super().__init__()
        self.block = MultiHead(heads, dim, ${keyWidth})

    def forward(self, x):
        return self.block(x)
`;

describe('precscale35: ATT004 per-head width held under a caller name', () => {
  it('is silent on dim_key ** 0.5 when every head is as wide as the caller dim (t24q-01-clean)', async () => {
    assert.deepEqual(await findingLines(SDP + MULTI('dim_key**0.5') + ENCODER('dim'), 'ATT004'), []);
  });
  it('is silent on the same scale with heads narrower than the model (the usual form)', async () => {
    assert.deepEqual(await findingLines(SDP + MULTI('dim_key**0.5') + ENCODER('dim // heads'), 'ATT004'), []);
  });
  it('still reports the width going into the projection when the heads are narrower (the bug)', async () => {
    assert.deepEqual(await findingLines(SDP + MULTI('dim_model**0.5') + ENCODER('dim // heads'), 'ATT004'), [11]);
  });
  it('reads the same across files: the encoder in a file importing the module', async () => {
    const files = (scale: string, keyWidth: string): Record<string, string> => ({
      'attn.py': SDP + MULTI(scale),
      'model.py': ENCODER(keyWidth, 'import torch.nn as nn\n\nfrom attn import MultiHead\n'),
    });
    assert.deepEqual(await workspaceFindingLines(files('dim_key**0.5', 'dim'), 'attn.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files('dim_model**0.5', 'dim // heads'), 'attn.py', 'ATT004'), [11]);
  });
});

const SCORING = (queries: string, keys: string): string => `import math

import torch
import torch.nn as nn


class DotProductScoring(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int = 8):
        super().__init__()
        self.num_heads = num_heads
        self.text_proj = nn.Linear(hidden_size, hidden_size)
        self.query_proj = nn.Linear(hidden_size, hidden_size)
        self.scale = 1.0 / math.sqrt(hidden_size)

    def forward(self, decoder_states, text):
        """
        Args:
            decoder_states: [num_layers, batch_size, num_queries, hidden_size]
            text: [batch_size, seq_len, hidden_size]
        """
        L, B, Q, _ = decoder_states.shape
        proj_q = ${queries}
        proj_t = self.text_proj(text)
        scores = torch.matmul(proj_q, ${keys})
        scores = scores * self.scale
        return scores.softmax(dim=-1)
`;

describe('precscale35: ATT004 rank 4 is no head axis', () => {
  it('is silent on 1/sqrt(width) for whole projections over a stack of decoder layers (SAM 3 scoring)', async () => {
    assert.deepEqual(await findingLines(SCORING('self.query_proj(decoder_states)', 'proj_t.transpose(-1, -2).unsqueeze(0)'), 'ATT004'), []);
  });
  it('still reports the model width once the queries are split into heads', async () => {
    const src = SCORING(
      'self.query_proj(decoder_states).view(L, B, Q, self.num_heads, -1)',
      'proj_t.view(B, -1, self.num_heads, proj_q.shape[-1]).permute(0, 2, 3, 1).unsqueeze(0)',
    );
    assert.deepEqual(await findingLines(src, 'ATT004'), [25]);
  });
  it('still reports the model width on ordinary 4-D per-head scores', async () => {
    const src = `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int):
        super().__init__()
        self.h, self.d = num_heads, hidden_size // num_heads
        self.q = nn.Linear(hidden_size, hidden_size)
        self.k = nn.Linear(hidden_size, hidden_size)
        self.scale = 1.0 / math.sqrt(hidden_size)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.d).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.d).transpose(1, 2)
        return (torch.matmul(q, k.transpose(-1, -2)) * self.scale).softmax(dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [19]);
  });
});

const NEO = (flashScale: string, base = 'NeoSelfAttention'): string => `import torch
import torch.nn as nn

from .flash import flash_forward


class NeoSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)  # (B, H, T, hd)

    def attend(self, query, key, value):
        weights = torch.matmul(query, key.transpose(-1, -2))
        weights = torch.softmax(weights, dim=-1)
        return torch.matmul(weights, value)

    def forward(self, x):
        q, k, v = self.split(self.q_proj(x)), self.split(self.k_proj(x)), self.split(self.v_proj(x))
        return self.attend(q, k, v)


class NeoFlashAttention(${base}):
    def forward(self, x):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.num_heads, self.head_dim)
        k = self.k_proj(x).view(b, t, self.num_heads, self.head_dim)
        v = self.v_proj(x).view(b, t, self.num_heads, self.head_dim)
        return flash_forward(q, k, v, causal=True${flashScale})
`;

describe('precscale35: ATT003 unscaled by design, stated by a related class', () => {
  it('is silent when a class derived from the eager one hands the kernel softmax_scale=1.0 (GPT-Neo)', async () => {
    assert.deepEqual(await findingLines(NEO(', softmax_scale=1.0'), 'ATT003'), []);
  });
  it('reports the unscaled eager scores when the derived class leaves the kernel its default scale', async () => {
    assert.deepEqual(await findingLines(NEO(''), 'ATT003'), [22]);
    assert.deepEqual(await findingLines(NEO(', softmax_scale=self.head_dim**-0.5'), 'ATT003'), [22]);
  });
  it('reads a unit scale= only on a call named for attention', async () => {
    assert.deepEqual(await findingLines(NEO(', scale=1.0').replace(/flash_forward/g, 'flash_attention_forward'), 'ATT003'), []);
    assert.deepEqual(await findingLines(NEO(', scale=1.0').replace(/flash_forward/g, 'rotate'), 'ATT003'), [22]);
  });
  it('takes nothing from an unrelated class of the file', async () => {
    assert.deepEqual(await findingLines(NEO(', softmax_scale=1.0', 'nn.Module'), 'ATT003'), [22]);
  });
});

const HIERA = (tail: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiScaleAttention(nn.Module):
    def __init__(self, dim: int, dim_out: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim_out // num_heads
        self.scale = head_dim**-0.5
        self.qkv = nn.Linear(dim, dim_out * 3)
        self.proj = nn.Linear(dim_out, dim_out)

    def forward(self, x):
        B, H, W, _ = x.shape
        # qkv with shape (B, H * W, 3, nHead, C)
        qkv = self.qkv(x).reshape(B, H * W, 3, self.num_heads, -1)
        q, k, v = torch.unbind(qkv, 2)  # (B, H * W, nHead, C)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        attn = attn.softmax(dim=-1)
${tail}`;

describe('precscale35: ATT005 scores nothing reads', () => {
  it('is silent on a leftover product dropped beside the kernel call (SAM 2)', async () => {
    const tail = `        out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        return self.proj(out.transpose(1, 2).reshape(B, H, W, -1))
`;
    assert.deepEqual(await findingLines(HIERA(tail), 'ATT005'), []);
  });
  it('reports the same product when its weights are used or returned', async () => {
    assert.deepEqual(await findingLines(HIERA(`        return self.proj((attn @ v).reshape(B, H, W, -1))\n`), 'ATT005'), [20]);
    assert.deepEqual(await findingLines(HIERA(`        return attn\n`), 'ATT005'), [20]);
    assert.deepEqual(await findingLines(HIERA(`        self.last = attn\n        return x\n`), 'ATT005'), [20]);
  });
});

const PER_HEAD = (out: string, split: string, extra = ''): string => `import torch
import torch.nn as nn
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, query_dim, dim=64, heads=8):
        super().__init__()
        self.heads = heads${extra}
        self.scale = dim ** -0.5
        self.to_q = nn.Linear(query_dim, ${out}, bias=False)
        self.to_k = nn.Linear(query_dim, ${out}, bias=False)

    def forward(self, x):
        B, N, _ = x.shape
        q = ${split.replace(/X/g, 'self.to_q(x)')}
        k = ${split.replace(/X/g, 'self.to_k(x)')}
        return ((q @ k.transpose(-2, -1)) * self.scale).softmax(dim=-1)
`;

describe('precscale35: ATT004 a per-head width named dim', () => {
  const VIEW = 'X.view(B, N, self.heads, -1).transpose(1, 2)';
  const EINOPS = "rearrange(X, 'b n (h d) -> b h n d', h=self.heads)";
  it('is silent when the projection is dim times the head count', async () => {
    assert.deepEqual(await findingLines(PER_HEAD('dim * heads', VIEW), 'ATT004'), []);
    assert.deepEqual(await findingLines(PER_HEAD('heads * dim', EINOPS), 'ATT004'), []);
    assert.deepEqual(await findingLines(PER_HEAD('inner', VIEW, '\n        inner = dim * heads'), 'ATT004'), []);
  });
  it('still reports dim when the projection keeps that width and splits it into heads', async () => {
    assert.deepEqual(await findingLines(PER_HEAD('dim', VIEW), 'ATT004'), [18]);
    assert.deepEqual(await findingLines(PER_HEAD('dim', EINOPS), 'ATT004'), [18]);
  });
  it('does not take a product with another count for heads', async () => {
    assert.deepEqual(await findingLines(PER_HEAD('dim * 1', VIEW), 'ATT004'), [18]);
  });
});
