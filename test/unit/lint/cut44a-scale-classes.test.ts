// Session 44 (eng-s44a): two scale classes found in code cut the way the labelled sets cut it.
//
// Class 1 (ATT003): a function or method handed its queries and keys as parameters (`def attend(q, k, v, mask)`, a
// module's `forward(self, query, key, value)`) that multiplies them with no scale, and that no call in view reaches
// (no caller in the file, none in a workspace file importing it). Its caller may scale q first or pass a pre-scaled
// tensor, and it is cut away: the missing factor is no evidence, and the rule is silent. With a caller in view the
// caller decides, as before: a caller passing unscaled projections is reported, one that scales q is not. Queries or
// keys the function projects itself (`q = self.to_q(x)`) are its own and stay judged.
//
// Class 2 (ATT004): scores an einsum forms by summing over more axes than the features (tied row attention,
// 'brhid,brhjd->bhij' sums over the rows r and the features d), scaled by one 1/sqrt per summed axis
// (`* self.scale * num_rows ** -0.5`): one normalisation, not 1/sqrt(d) twice. Two such factors on an einsum that
// sums over the features alone stay reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTEND = (body: string): string => `import torch


def attend(q, k, v, mask=None):
    q = q.transpose(1, 2)
    k = k.transpose(1, 2)
    ${body}
    if mask is not None:
        logits = logits.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(logits, dim=-1)
    return (weights @ v.transpose(1, 2)).transpose(1, 2)
`;

const CALLER = (qArg: string): string => `import torch
from torch import nn

from .ops import attend


class Block(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).unbind(2)
        return attend(${qArg}, k, v, mask).reshape(B, T, C)
`;

const MODULE = (forward: string): string => `import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)

${forward}
`;

describe('cut44a class 1 (ATT003): a helper handed q and k, with no caller in view', () => {
  it('is silent on a helper whose caller is cut away', async () => {
    assert.deepEqual(await findingLines(ATTEND('logits = q @ k.transpose(-2, -1)'), 'ATT003'), []);
  });

  it('is silent on a module forward handed query and key', async () => {
    const fwd = `    def forward(self, query, key, value):
        scores = torch.matmul(query, key.transpose(-2, -1))
        return torch.softmax(scores, dim=-1) @ value`;
    assert.deepEqual(await findingLines(MODULE(fwd), 'ATT003'), []);
  });

  it('still reports queries and keys the function projects itself', async () => {
    const fwd = `    def forward(self, x):
        q, k = self.to_q(x), self.to_k(x)
        scores = torch.matmul(q, k.transpose(-2, -1))
        return torch.softmax(scores, dim=-1) @ x`;
    assert.deepEqual(await findingLines(MODULE(fwd), 'ATT003'), [14]);
  });

  it('still reports the helper when a caller in the file passes unscaled projections, not when it scales q', async () => {
    const withCaller = (qArg: string): string =>
      ATTEND('logits = q @ k.transpose(-2, -1)') +
      `

def block(x, w_q, w_k, w_v, scale):
    return attend(${qArg}, x @ w_k, x @ w_v)
`;
    assert.deepEqual(await findingLines(withCaller('x @ w_q'), 'ATT003'), [10]);
    assert.deepEqual(await findingLines(withCaller('(x @ w_q) * scale'), 'ATT003'), []);
  });

  it('the scaled form of the helper stays silent', async () => {
    assert.deepEqual(await findingLines(ATTEND('logits = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5'), 'ATT003'), []);
  });

  it('across files: the importing caller decides', async () => {
    const ops = ATTEND('logits = q @ k.transpose(-2, -1)');
    assert.deepEqual(await workspaceFindingLines({ 'pkg/ops.py': ops }, 'pkg/ops.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'pkg/ops.py': ops, 'pkg/block.py': CALLER('q * self.scale') }, 'pkg/ops.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'pkg/ops.py': ops, 'pkg/block.py': CALLER('q') }, 'pkg/ops.py', 'ATT003'), [10]);
  });
});

const TIED = (logits: string): string => `import torch
from torch import einsum, nn


class TiedRowAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=32):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.qkv = nn.Linear(dim, dim_head * heads * 3, bias=False)

    def forward(self, x, rows):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        b = x.shape[0] // rows
        q, k, v = (t.reshape(b, rows, t.shape[1], self.heads, -1).transpose(2, 3) for t in (q, k, v))
        logits = ${logits}
        attn = logits.softmax(dim=-1)
        return attn
`;

describe('cut44a class 2 (ATT004): one 1/sqrt per axis an einsum sums over', () => {
  it('is silent on tied row attention scaled by the head width and the row count', async () => {
    assert.deepEqual(await findingLines(TIED('einsum("brhid,brhjd->bhij", q, k) * self.scale * rows ** -0.5'), 'ATT004'), []);
  });

  it('the single-scale form is silent too', async () => {
    assert.deepEqual(await findingLines(TIED('einsum("brhid,brhjd->bhij", q, k) * self.scale'), 'ATT004'), []);
  });

  it('still reports two factors on an einsum that sums over the features alone', async () => {
    assert.deepEqual(await findingLines(TIED('einsum("brhid,brhjd->brhij", q, k) * self.scale * rows ** -0.5'), 'ATT004'), [16]);
  });

  it('across files: the script that builds the model and passes the row count', async () => {
    const train = `import torch

from model import TiedRowAttention

net = TiedRowAttention(128)
msa = torch.randn(2 * 16, 50, 128)
out = net(msa, rows=16)
`;
    const right = TIED('einsum("brhid,brhjd->bhij", q, k) * self.scale * rows ** -0.5');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': right, 'train.py': train }, 'model.py', 'ATT004'), []);
    const wrong = TIED('einsum("brhid,brhjd->brhij", q, k) * self.scale * rows ** -0.5');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': wrong, 'train.py': train }, 'model.py', 'ATT004'), [16]);
  });
});

// Class 3 (ATT004, found by the folder cuts): a module's own scale handed to a fused kernel through q, divided by the
// kernel's default in one factor (`q = q * (self.scale / (dim_head ** -0.5))` before `F.scaled_dot_product_attention`
// without `scale=`), with a caller in view that binds the scale to a number (`Attend(scale=qk_norm_scale)` with
// `qk_norm_scale=10`). Read in that caller's context the factor is 10 * sqrt(dim_head), a positive power of the head
// width, and was reported; the sqrt cancels the kernel's 1/sqrt(dim_head), so the net scale is the module's 10. The
// factor `1 / (dim_head ** -0.5)` alone (the kernel then runs unscaled) stays reported.
const ATTEND_KERNEL = (factor: string): string => `import torch.nn.functional as F
from torch import nn


class Attend(nn.Module):
    def __init__(self, dropout=0.0, scale=None):
        super().__init__()
        self.dropout = dropout
        self.scale = scale

    def forward(self, q, k, v, mask=None):
        dim_head = q.shape[-1]
        if self.scale is not None:
            q = q * ${factor}
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`;

const QK_NORM_BLOCK = `from torch import nn
from einops import rearrange

from attend import Attend


class Attention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, qk_norm=False, qk_norm_scale=10):
        super().__init__()
        self.heads = heads
        scale = qk_norm_scale if qk_norm else None
        self.attend = Attend(scale=scale)
        self.to_qkv = nn.Linear(dim, dim_head * heads * 3, bias=False)

    def forward(self, x, mask=None):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        return self.attend(q, k, v, mask=mask)
`;

describe('cut44a class 3 (ATT004): a custom scale divided by the kernel default in one factor', () => {
  it('is silent alone and with the caller that binds the scale to a number', async () => {
    const attend = ATTEND_KERNEL('(self.scale / (dim_head ** -0.5))');
    assert.deepEqual(await findingLines(attend, 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': attend, 'block.py': QK_NORM_BLOCK }, 'attend.py', 'ATT004'), []);
  });

  it('the scale passed to the kernel is silent too', async () => {
    const attend = ATTEND_KERNEL('1').replace('attn_mask=mask)', 'attn_mask=mask, scale=self.scale)');
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': attend, 'block.py': QK_NORM_BLOCK }, 'attend.py', 'ATT004'), []);
  });

  it('still reports the sqrt alone, which leaves the kernel unscaled', async () => {
    const attend = ATTEND_KERNEL('(1 / (dim_head ** -0.5))');
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': attend, 'block.py': QK_NORM_BLOCK }, 'attend.py', 'ATT004'), [14]);
  });
});

describe('cut44a class 1 (ATT003): keys joined from parameters', () => {
  const GLOBAL = (keys: string): string => `import torch
from torch import nn


class GlobalLocalAttention(nn.Module):
    def global_attention(self, global_q, global_k, local_k, global_v, local_v):
        keys = ${keys}
        values = torch.cat([global_v, local_v], dim=2)
        weights = torch.einsum("bhgf,bhxf->bhgx", global_q, keys)
        probs = nn.functional.softmax(weights, dim=-1)
        return torch.einsum("bhgx,bhxf->bhgf", probs, values)
`;

  it('is silent when the keys are parameters joined along the sequence', async () => {
    assert.deepEqual(await findingLines(GLOBAL('torch.cat([global_k, local_k], dim=2)'), 'ATT003'), []);
  });

  it('still reports keys joined with a projection the method makes itself', async () => {
    assert.deepEqual(await findingLines(GLOBAL('torch.cat([global_k, self.to_k(local_k)], dim=2)'), 'ATT003'), [10]);
  });
});

describe('cut44a class 1 (ATT003): a helper the file hands on is not unreached', () => {
  it('still reports a helper the file passes to another function (a caller the contexts do not show)', async () => {
    const src = `${ATTEND('logits = q @ k.transpose(-2, -1)')}

batched_attend = torch.vmap(attend)
`;
    assert.deepEqual(await findingLines(src, 'ATT003'), [10]);
  });
});

// Class 4 (ATT004, recorded by eng-s44c in /work/wt/s44-classes.md): an FP8 KV cache dequantised by its quantisation
// scale before a fused kernel that is given its softmax scale (`k = k_fp8.to(torch.float16) * k_scale`, then
// `flash_attn_with_kvcache(..., softmax_scale=head_dim ** -0.5)`). A factor known only by its name was read as a
// manual softmax scale, and the kernel's softmax_scale= as a second one. A name that says it is a tensor's
// quantisation scale (`k_scale`, `v_scale`, `kv_scale`, `k_descale`, `fp8_scale`) is no softmax scale; a factor
// named `scale` on the keys still is.
const DEQUANT = (kScale: string, defs = ''): string => `import torch
from flash_attn import flash_attn_with_kvcache
${defs}

def reference(q, k_fp8, v_fp8, ${kScale}, v_scale, lens, head_dim):
    k = k_fp8.to(torch.float16) * ${kScale}
    v = v_fp8.to(torch.float16) * v_scale
    return flash_attn_with_kvcache(q, k, v, cache_seqlens=lens, softmax_scale=head_dim ** -0.5, causal=True)
`;

describe('cut44a class 4 (ATT004): keys dequantised by their quantisation scale before a kernel', () => {
  it('is silent on k_scale', async () => {
    assert.deepEqual(await findingLines(DEQUANT('k_scale'), 'ATT004'), []);
  });

  // Session 48 (eng-s48a): a factor known only by its name (`scale`, a parameter no call binds) is no evidence of a
  // softmax scale either; the keys are reported where a caller shows the factor to be 1/sqrt(head_dim).
  it('is silent on keys multiplied by a parameter named scale that no call binds', async () => {
    assert.deepEqual(await findingLines(DEQUANT('scale'), 'ATT004'), []);
  });

  it('still reports keys multiplied by a softmax scale a caller passes', async () => {
    const src = `${DEQUANT('scale')}

def step(q, k_fp8, v_fp8, v_scale, lens, head_dim):
    return reference(q, k_fp8, v_fp8, head_dim ** -0.5, v_scale, lens, head_dim)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [8]);
  });

  it('across files: the cache quantised by a helper of another file', async () => {
    const quant = `import torch


def quantise(t):
    t_scale = t.abs().max() / 448.0
    return (t / t_scale).to(torch.float8_e4m3fn), t_scale
`;
    const model =
      DEQUANT('k_scale', '\nfrom quant import quantise\n') +
      `

def step(q, keys, values, lens, head_dim):
    k_fp8, k_scale = quantise(keys)
    v_fp8, v_scale = quantise(values)
    return reference(q, k_fp8, v_fp8, k_scale, v_scale, lens, head_dim)
`;
    assert.deepEqual(await workspaceFindingLines({ 'quant.py': quant, 'model.py': model }, 'model.py', 'ATT004'), []);
    const wrong =
      DEQUANT('scale', '\nfrom quant import quantise\n') +
      `

def step(q, keys, values, lens, head_dim):
    k_fp8, k_scale = quantise(keys)
    v_fp8, v_scale = quantise(values)
    return reference(q, k_fp8, v_fp8, head_dim ** -0.5, v_scale, lens, head_dim)
`;
    assert.deepEqual(await workspaceFindingLines({ 'quant.py': quant, 'model.py': wrong }, 'model.py', 'ATT004'), [10]);
  });
});
