// Session 30 (leftovers30): open classes of ATT006, ATT004 and ATT008, precision first. Correct forms written the way
// real code writes them stay silent (ATT006: weights renormalised after a mask, padded query rows zeroed, hand-written
// dropout, the key mask of the scores applied again after the softmax, a causal triangle applied again; ATT004: kernel
// scales that are the root of the stated width, or with no width stated; ATT008: a causal buffer sliced with the cache
// offset, a windowed flash kernel, cross-attention with a cache, is_causal only at prefill). Then the classes added, each
// with its correct form, and a cross-file pair where the evidence can sit in another file:
//  1. ATT006: a key mask applied after a softmax whose scores only a causal triangle masked before it (a padding mask
//     multiplied in after a causal softmax, `w * keep[:, None, None, :]`, `masked_fill(~keep[...], 0)`, `where`):
//     the padded keys keep their share and the rows no longer sum to 1. Reported only when the code shows the mask
//     before is a causal triangle alone and the one after varies over the keys alone, and nothing renormalises.
//  2. ATT002 (keep29's open class): a slice-bound helper of another file called with a count that shows no length
//     (`W - len(p)`, `p.count(0)`) gives no polarity, as a same-file call does (cross-file summaries carry it).
//  3. ATT004: a number handed to a kernel as its scale (`scale=1.0 / 64`, `softmax_scale=1 / 64`, `scale=64`, a
//     named `self.scale = 1.0 / 64`) is compared with the queries' stated width as `/ 64` on the scores is; silent
//     when the width is not stated.
//  5. Messages: a mask times a large number subtracted from the scores is named so; a factor multiplied in by a call
//     (`torch.mul(s, 1.0 / self.head_dim)`) is one over the dimension, not "divided by `1.0 / self.head_dim`".
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

const ATT006_OK: readonly (readonly [id: string, what: string, code: string])[] = [
  [
    'r1_renorm',
    'weights masked after softmax and divided by their new sum',
    `import torch


def attend(q, k, v, m):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.softmax(s, dim=-1)
    w = w * m
    w = w / (w.sum(dim=-1, keepdim=True) + 1e-9)
    return w @ v
`,
  ],
  [
    'r2_renorm_inline',
    '(w * m) / (w * m).sum(-1) inline',
    `import torch


def attend(q, k, v, m):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.softmax(s, dim=-1)
    return (w * m) / (w * m).sum(-1, keepdim=True) @ v
`,
  ],
  [
    'r3_query_rows',
    'padded queries zeroed after softmax (query axis)',
    `import torch


def attend(q, k, v, q_pad):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.softmax(s, dim=-1)
    w = w.masked_fill(q_pad[:, None, :, None], 0.0)
    return w @ v
`,
  ],
  [
    'r4_dropout',
    'hand-written dropout mask rescaled by 1 / (1 - p)',
    `import torch


def attend(q, k, v, p=0.1, training=True):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.softmax(s, dim=-1)
    if training:
        keep = (torch.rand_like(w) > p).float()
        w = w * keep / (1 - p)
    return w @ v
`,
  ],
  [
    'r5_same_key_mask',
    'masked_fill(pad, 0) after a softmax whose scores the same key mask filled with -inf',
    `import torch


def attend(q, k, v, attention_mask):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(attention_mask[:, None, None, :], float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w.masked_fill(attention_mask[:, None, None, :], 0.0)
    return w @ v
`,
  ],
  [
    'r6_causal_then_key_renorm',
    'causal before, key mask after, then renormalised',
    `import torch


def attend(q, k, v, attention_mask):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * attention_mask[:, None, None, :]
    w = w / w.sum(-1, keepdim=True).clamp(min=1e-6)
    return w @ v
`,
  ],
  [
    'r7_causal_then_query_rows',
    'causal before, padded query rows zeroed after',
    `import torch


def attend(q, k, v, attention_mask):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w.masked_fill(attention_mask[:, None, :, None], 0.0)
    return w @ v
`,
  ],
  [
    'r8_joint_mask_before',
    'causal and key masks joined before the softmax, the key mask again after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~(causal & keep[:, None, None, :]), float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w.masked_fill(~keep[:, None, None, :], 0.0)
    return w @ v
`,
  ],
  [
    'r9_both_before',
    'causal and key masks both filled before, the key mask multiplied in after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    s = s.masked_fill(~keep[:, None, None, :], float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * keep[:, None, None, :]
    return w @ v
`,
  ],
  [
    'r10_query_axis_mul',
    'causal before, a (B, 1, T, 1) query mask multiplied after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * keep[:, None, :, None]
    return w @ v
`,
  ],
  [
    'r11_causal_again',
    'the same causal triangle multiplied in after the causal softmax',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * causal
    return w @ v
`,
  ],
];

const ATT006_BUG: readonly (readonly [id: string, what: string, code: string, line: number])[] = [
  [
    'k1_attention_mask',
    'causal fill before, tokenizer keep mask multiplied over the keys after',
    `import torch


def attend(q, k, v, attention_mask):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * attention_mask[:, None, None, :]
    return w @ v
`,
    10,
  ],
  [
    'k2_built_keep',
    'causal fill before, keep mask built from ids multiplied over the keys after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = (ids != pad_id).float()
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * keep[:, None, None, :]
    return w @ v
`,
    11,
  ],
  [
    'k3_additive_causal',
    'additive causal bias before, masked_fill(~keep, 0) over the keys after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    bias = torch.full((T, T), float("-inf"), device=q.device).triu(1)
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + bias
    w = torch.softmax(s, dim=-1)
    w = w.masked_fill(~keep[:, None, None, :], 0.0)
    return w @ v
`,
    10,
  ],
  [
    'k4_where',
    'causal fill before, torch.where(keep, w, 0) over the keys after',
    `import torch


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    keep = ids != pad_id
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = torch.where(keep[:, None, None, :], w, torch.zeros_like(w))
    return w @ v
`,
    11,
  ],
];

const ATT008_OK: readonly (readonly [id: string, what: string, code: string])[] = [
  [
    'v1_cache_slice',
    'causal buffer sliced with the cache offset, [start_pos:start_pos + T, :start_pos + T]',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, max_len):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wqkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("causal", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)))
        self.cache_k = None
        self.cache_v = None

    def forward(self, x, start_pos=0):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if start_pos > 0:
            k = torch.cat([self.cache_k, k], dim=2)
            v = torch.cat([self.cache_v, v], dim=2)
        self.cache_k, self.cache_v = k, v
        mask = self.causal[start_pos:start_pos + T, :start_pos + T]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'v2_flash_window',
    'flash_attn_func(causal=True, window_size=...) over cached keys',
    `import torch
from flash_attn import flash_attn_func


def attend(q, k, v, cache=None, window=256):
    if cache is not None:
        k = torch.cat([cache[0], k], dim=1)
        v = torch.cat([cache[1], v], dim=1)
    out = flash_attn_func(q, k, v, causal=True, window_size=(window, 0))
    return out, (k, v)
`,
  ],
  [
    'v3_cross_cache',
    'cross-attention keys cached from the memory, no causal mask',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, memory, cache=None):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        if cache is None:
            S = memory.shape[1]
            k, v = self.kv(memory).view(B, S, 2, self.n_heads, -1).permute(2, 0, 3, 1, 4)
            cache = (k, v)
        k, v = cache
        out = F.scaled_dot_product_attention(q, k, v)
        return out.transpose(1, 2).reshape(B, T, C), cache
`,
  ],
  [
    'v4_prefill_only',
    'is_causal only when there is more than one query and no cache',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, past=None):
    if past is not None:
        k = torch.cat([past[0], k], dim=-2)
        v = torch.cat([past[1], v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=q.size(-2) > 1 and past is None)
    return out, (k, v)


def decode(q, k, v, past):
    return attend(q, k, v, past)
`,
  ],
];

const ATT004_OK: readonly (readonly [id: string, what: string, code: string])[] = [
  [
    's1_kernel_root',
    'scale=1.0 / 8 on 64-wide heads',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=1.0 / 8)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
  ],
  [
    's2_kernel_pow',
    'scale=64 ** -0.5',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=64 ** -0.5)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
  ],
  [
    's3_kernel_named_root',
    'self.scale = 1.0 / 8 handed to the kernel',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)
        self.scale = 1.0 / 8

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
  ],
  [
    's4_kernel_unknown',
    'scale=1.0 / 64 with the head width not stated (view(..., -1))',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=1.0 / 64)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
  ],
  [
    's5_kernel_other',
    'scale=0.125',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=0.125)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
  ],
];

const ATT004_BUG: readonly (readonly [id: string, what: string, code: string, line: number])[] = [
  [
    'l1_kernel_inverse',
    'scale=1.0 / 64 on 64-wide heads',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=1.0 / 64)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    15,
  ],
  [
    'l2_kernel_int',
    'scale=1 / 64',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=1 / 64)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    15,
  ],
  [
    'l3_kernel_pow',
    'scale=64 ** -1',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=64 ** -1)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    15,
  ],
  [
    'l4_kernel_width',
    'scale=64',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=64)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    15,
  ],
  [
    'l5_flash',
    'softmax_scale=1 / 64 to flash_attn_func',
    `import torch
from flash_attn import flash_attn_func
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=1 / 64).transpose(1, 2)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    16,
  ],
  [
    'l6_named',
    'self.scale = 1.0 / 64 handed to the kernel',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.proj = nn.Linear(512, 512)
        self.scale = 1.0 / 64

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        return self.proj(out.transpose(1, 2).reshape(B, T, 512))
`,
    16,
  ],
  [
    'l7_mul_call',
    'torch.mul(scores, 1.0 / self.head_dim)',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = torch.mul(q @ k.transpose(-2, -1), 1.0 / self.head_dim)
        return s.softmax(-1) @ v
`,
    15,
  ],
];
const MASKS = `import torch


def key_keep(ids, pad_id):
    return (ids != pad_id).float()
`;
const crossAttn = (renormalised: boolean): string => `import torch

from masks import key_keep


def attend(q, k, v, ids, pad_id):
    T = q.size(-2)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~causal, float("-inf"))
    w = torch.softmax(s, dim=-1)
    w = w * key_keep(ids, pad_id)[:, None, None, :]
${renormalised ? '    w = w / w.sum(-1, keepdim=True).clamp(min=1e-6)\n' : ''}    return w @ v
`;

describe('leftovers30: ATT006 key masks after a causal softmax, ATT004 kernel literals, ATT008 correct forms', () => {
  for (const [id, what, code] of ATT006_OK)
    it(`ATT006 correct, silent: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT006'), []);
    });
  for (const [id, what, code, line] of ATT006_BUG)
    it(`ATT006 buggy, line ${line}: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT006'), [line]);
    });
  it('ATT006 cross-file: the key mask built in another module, multiplied in after the causal softmax', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'attn.py': crossAttn(false) }, 'attn.py', 'ATT006'), [12]);
  });
  it('ATT006 cross-file, fixed: the same weights renormalised', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'attn.py': crossAttn(true) }, 'attn.py', 'ATT006'), []);
  });
  it('ATT006: a key mask known only by a name the code does not index over the keys stays silent after a causal softmax', async () => {
    const src = (ATT006_BUG[0]?.[2] ?? '').replace('w = w * attention_mask[:, None, None, :]', 'w = w * attention_mask');
    assert.deepEqual(await findingLines(src, 'ATT006'), []);
  });
  for (const [id, what, code] of ATT008_OK)
    it(`ATT008 correct, silent: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT008'), []);
    });
  for (const [id, what, code] of ATT004_OK)
    it(`ATT004 correct, silent: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT004'), []);
    });
  for (const [id, what, code, line] of ATT004_BUG)
    it(`ATT004 buggy, line ${line}: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT004'), [line]);
      assert.deepEqual(await findingLines(code, 'ATT003'), []);
    });
  it('ATT004 cross-file: a kernel scale imported from a config module, one over the stated width or its root', async () => {
    const attn = (ATT004_BUG[0]?.[2] ?? '').replace('scale=1.0 / 64', 'scale=SCALE').replace('import torch\n', 'import torch\n\nfrom config import SCALE\n');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': 'SCALE = 1.0 / 64\n', 'attn.py': attn }, 'attn.py', 'ATT004'), [17]);
    assert.deepEqual(await workspaceFindingLines({ 'config.py': 'SCALE = 1.0 / 8\n', 'attn.py': attn }, 'attn.py', 'ATT004'), []);
  });
  it('ATT004 message: a factor multiplied in by a call is one over the dimension', async () => {
    const code = ATT004_BUG.find(([id]) => id === 'l7_mul_call')?.[2] ?? '';
    const f = (await linter()).lintPython(code).find((x) => x.code === 'ATT004');
    assert.match(f?.message ?? '', /^`1\.0 \/ self\.head_dim` is 1\/\(dim \/\/ n_heads\), one over a dimension/);
  });
  it('ATT002 message: a mask subtracted from the scores is named as subtracted', async () => {
    const code = `import tensorflow as tf


def attend(q, k, v, ids):
    keep = tf.cast(tf.not_equal(ids, 0), tf.float32)
    e = tf.matmul(q, k, transpose_b=True) / 8.0
    e -= keep[:, None, :] * 1e9
    w = tf.nn.softmax(e, axis=-1)
    return tf.matmul(w, v)
`;
    const f = (await linter()).lintPython(code).find((x) => x.code === 'ATT002');
    assert.equal(f?.line, 7);
    assert.match(
      f?.message ?? '',
      /but subtracting it times a large number from the scores masks where the mask is True\/1: the positions to keep are masked out/,
    );
  });
});
