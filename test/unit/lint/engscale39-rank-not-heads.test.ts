// Session 39 (eng-scale-s39): scores of rank 4 whose extra axis is not a head axis.
//
// ATT004 reports sqrt of the model width on per-head scores. It took scores of rank 4 for per-head scores whatever the
// code showed of the extra axis, so single-head attention within chunks or windows (`view(B, n_chunks, L, D)`) or per
// frame of a video (a 4-D input, `(B, F, N, C)`) was reported wherever the file split some width into heads elsewhere
// (probes s61, s62 and s66 of test/lint-probes/session-39/scale-axis). The code shows the features are not split:
// the view's last size is the last axis of the projection's input, read off the tensor, and the projection keeps the
// width (so each position's features are the projection's whole output), or no view restates the features at all since
// the projection (a fused projection's chunk of a 4-D input). Those scores are no longer read as per-head.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// x: (B, T, D); q, k, v: (B, n, L, D) when chunked, (B, H, T, D // H) when split; the scores (B, n, L, L) / (B, H, T, T).
const CHUNKED = (split: string, scale = 'self.d_model ** 0.5'): string => `import torch
import torch.nn as nn


class Chunked(nn.Module):
    def __init__(self, d_model, chunk, n_heads):
        super().__init__()
        self.d_model = d_model
        self.chunk = chunk
        self.h = n_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        n = T // self.chunk
        q = self.wq(x).${split}
        k = self.wk(x).${split}
        v = self.wv(x).${split}
        s = torch.matmul(q, k.transpose(-1, -2)) / ${scale}
        return torch.matmul(s.softmax(-1), v)


class Elsewhere(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_k = d_model // n_heads
`;

// x: (B, F, N, C) frames of tokens; q, k, v: (B, F, N, C) (one head), or (B, F, h, N, C // h) when split.
const FRAMES = (q: string): string => `import torch
import torch.nn as nn
from einops import rearrange


class PerFrame(nn.Module):
    def __init__(self, channels, heads):
        super().__init__()
        self.channels = channels
        self.heads = heads
        self.qkv = nn.Linear(channels, 3 * channels)

    def forward(self, x):
        # x: (B, F, N, C)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        ${q}
        s = torch.einsum("bf...nc,bf...mc->bf...nm", q, k) * self.channels ** -0.5
        return torch.einsum("bf...nm,bf...mc->bf...nc", s.softmax(dim=-1), v)


class Elsewhere(nn.Module):
    def __init__(self, channels, heads):
        super().__init__()
        self.dh = channels // heads
`;

const FRAMES_EINSUM = (q: string): string =>
  FRAMES(q).replace('"bf...nc,bf...mc->bf...nm"', '"bfnc,bfmc->bfnm"').replace('"bf...nm,bf...mc->bf...nc"', '"bfnm,bfmc->bfnc"');

describe('engscale39: rank-4 scores whose extra axis is not heads (ATT004)', () => {
  it('is silent on one head within chunks, the view keeping the projection whole (B, n, L, D)', async () => {
    assert.deepEqual(await findingLines(CHUNKED('view(B, n, self.chunk, D)'), 'ATT004'), []);
  });
  it('still reports sqrt(d_model) once the same projection is split into heads (the bug)', async () => {
    const split = 'view(B, T, self.h, D // self.h).transpose(1, 2)';
    assert.deepEqual(await findingLines(CHUNKED(split), 'ATT004'), [21]);
  });
  it('still reports one over the width on the chunks (a division by the dimension)', async () => {
    assert.deepEqual(await findingLines(CHUNKED('view(B, n, self.chunk, D)', 'self.d_model'), 'ATT004'), [21]);
  });
  it('is silent on one head per frame of a 4-D input, features never restated (einsum over bfnc)', async () => {
    assert.deepEqual(await findingLines(FRAMES_EINSUM('# one head: (B, F, N, C)'), 'ATT004'), []);
  });
  it('still reports the per-frame scores once q and k are split into heads', async () => {
    const split = 'q, k, v = (rearrange(t, "b f n (h d) -> b f h n d", h=self.heads) for t in (q, k, v))';
    assert.deepEqual(await findingLines(FRAMES(split), 'ATT004'), [17]);
  });
  it('is silent on the chunked module when the head split is in another workspace file', async () => {
    const attn = CHUNKED('view(B, n, self.chunk, D)').replace(/\n\nclass Elsewhere[\s\S]*$/, '\n');
    const model = `from attn import Chunked


class Model:
    def __init__(self, d_model, n_heads):
        self.d_k = d_model // n_heads
        self.local = Chunked(d_model, 16, n_heads)
`;
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': attn, 'model.py': model }, 'attn.py', 'ATT004'), []);
  });
});

// x: (B, T, dim); q: (B, 1, T, dim) (one head) or (B, H, T, dim // H); the kernel's scores (B, ·, T, S).
const KERNEL = (q: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attend(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.dim = dim
        self.heads = heads
        self.to_q = nn.Linear(dim, dim)
        self.to_kv = nn.Linear(dim, 2 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q = ${q}
        k, v = self.to_kv(x).chunk(2, dim=-1)
        k, v = k.view(q.shape), v.view(q.shape)
        return F.scaled_dot_product_attention(q, k, v, scale=self.dim ** -0.5)


class Elsewhere(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.dh = dim // heads
`;

describe('engscale39: a kernel of rank 4 without heads (ATT004)', () => {
  it('is silent on scale=1/sqrt(dim) for one head added as a unit axis', async () => {
    assert.deepEqual(await findingLines(KERNEL('self.to_q(x).unsqueeze(1)'), 'ATT004'), []);
  });
  it('still reports scale=1/sqrt(dim) on queries split into heads (the bug)', async () => {
    const split = 'self.to_q(x).view(B, T, self.heads, C // self.heads).transpose(1, 2)';
    assert.deepEqual(await findingLines(KERNEL(split), 'ATT004'), [19]);
  });
});
