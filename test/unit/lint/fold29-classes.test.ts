// Session 29 (fold29): ATT003/ATT004 precision, the family "the scale exists, but not as a factor on the scores".
// Correct forms, silent for both rules, each written as real code writes it:
//  1. Folded into the projection weights in place (new: evaluator.ts foldedWeightScales / foldedEntryScales): under
//     torch.no_grad() `self.q_proj.weight.mul_(s)` / `.data *= s` / `.copy_(w * s)`, Keras `kernel.assign(kernel * s)`,
//     and at load time, a conversion function or a load_state_dict hook editing the state dict entry the string
//     `"q_proj.weight"` names. Only a factor that is a negative power of a width (or a division by a positive one) counts.
//  2. Learnt or fixed temperatures: Swin v2 clamp(logit_scale).exp(), XCiT temperature, a learnt scale, CLIP.
//  3. QK-norm (RMSNorm q_norm/k_norm) and F.normalize with a fixed large scale.
//  4. Kernels' own scale parameters (flash-attn softmax_scale, its default, xformers scale=).
// Each class's buggy twin stays reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const CORRECT: readonly (readonly [id: string, what: string, code: string])[] = [
  [
    'c01_mul_no_grad',
    'class 1: q_proj.weight.mul_(head_dim ** -0.5) and its bias under torch.no_grad()',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q_proj.weight.mul_(self.head_dim ** -0.5)
            self.q_proj.bias.mul_(self.head_dim ** -0.5)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c02_data_imul',
    'class 1: q_proj.weight.data *= head_dim ** -0.5',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q_proj.weight.data *= self.head_dim ** -0.5

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c03_copy_reset',
    'class 1: weight.copy_(weight * scale) in a @torch.no_grad() reset_parameters',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.reset_parameters()

    @torch.no_grad()
    def reset_parameters(self):
        scale = self.head_dim ** -0.5
        self.q_proj.weight.copy_(self.q_proj.weight * scale)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c04_convert_checkpoint',
    'class 1: a conversion function scaling state_dict entries whose names end with "q_proj.weight"',
    `import math
import torch


def convert_checkpoint(state_dict, num_heads, hidden):
    head_dim = hidden // num_heads
    for name in list(state_dict):
        if name.endswith("attn.q_proj.weight") or name.endswith("attn.q_proj.bias"):
            state_dict[name] = state_dict[name] * (1.0 / math.sqrt(head_dim))
    return state_dict


class SelfAttention(torch.nn.Module):
    def __init__(self, hidden, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = torch.nn.Linear(hidden, hidden)
        self.k_proj = torch.nn.Linear(hidden, hidden)
        self.v_proj = torch.nn.Linear(hidden, hidden)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        w = torch.softmax(torch.matmul(q, k.transpose(-1, -2)), dim=-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c05_keras_kernel_assign',
    'class 1: Keras self.wq.kernel.assign(self.wq.kernel * depth ** -0.5) in build()',
    `import tensorflow as tf


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def build(self, input_shape):
        super().build(input_shape)
        self.wq.build(input_shape)
        self.wq.kernel.assign(self.wq.kernel * self.depth ** -0.5)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        batch_size = tf.shape(x)[0]
        q = self.split_heads(self.wq(x), batch_size)
        k = self.split_heads(self.wk(x), batch_size)
        v = self.split_heads(self.wv(x), batch_size)
        logits = tf.matmul(q, k, transpose_b=True)
        weights = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(weights, v)
`,
  ],
  [
    'c14_load_hook',
    'class 1: a load_state_dict pre-hook, state_dict[prefix + "q_proj.weight"] *= 1/sqrt(head_dim)',
    `import math
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self._register_load_state_dict_pre_hook(self._fold_scale)

    def _fold_scale(self, state_dict, prefix, *args):
        key = prefix + "q_proj.weight"
        if key in state_dict:
            state_dict[prefix + "q_proj.weight"] *= 1.0 / math.sqrt(self.head_dim)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c06_swinv2_cosine',
    'class 2: Swin v2 cosine attention, clamp(logit_scale, max=log(100)).exp()',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones((num_heads, 1, 1))))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)
`,
  ],
  [
    'c07_xcit_temperature',
    'class 2: XCiT, learnable temperature nn.Parameter(torch.ones(heads, 1, 1)) over normalised q, k',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class XCA(nn.Module):
    def __init__(self, dim, num_heads=8):
        super().__init__()
        self.num_heads = num_heads
        self.temperature = nn.Parameter(torch.ones(num_heads, 1, 1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q = q.transpose(-2, -1)
        k = k.transpose(-2, -1)
        v = v.transpose(-2, -1)
        q = F.normalize(q, dim=-1)
        k = F.normalize(k, dim=-1)
        attn = (q @ k.transpose(-2, -1)) * self.temperature
        attn = attn.softmax(dim=-1)
        x = (attn @ v).permute(0, 3, 1, 2).reshape(B, N, C)
        return self.proj(x)
`,
  ],
  [
    'c08_learnt_scale',
    'class 2: scale = nn.Parameter(torch.tensor(head_dim ** -0.5))',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        head_dim = dim // heads
        self.scale = nn.Parameter(torch.tensor(head_dim ** -0.5))
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).reshape(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = dots.softmax(dim=-1)
        return torch.matmul(attn, v).transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    'c09_clip_logit_scale',
    'class 2: CLIP logit_scale.exp() over normalised features',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class CLIPHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.text_proj = nn.Linear(dim, dim)
        self.image_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.ones([]) * 2.6592)

    def forward(self, image_features, text_features):
        q = F.normalize(self.image_proj(image_features), dim=-1)
        k = F.normalize(self.text_proj(text_features), dim=-1)
        logits = self.logit_scale.exp() * q @ k.t()
        return logits.softmax(dim=-1)
`,
  ],
  [
    'c10_qk_rmsnorm',
    'class 3: q_norm / k_norm RMSNorm per head, then q @ k.T',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_norm = nn.RMSNorm(self.head_dim)
        self.k_norm = nn.RMSNorm(self.head_dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = self.q_norm(q)
        k = self.k_norm(k)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c11_normalize_fixed',
    'class 3: F.normalize q and k with a fixed large scale (* 10)',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class NormedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)
        attn = (q @ k.transpose(-2, -1) * 10).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c12_flash_softmax_scale',
    'class 4: flash_attn_func softmax_scale=q.shape[-1] ** -0.5, and its default',
    `import torch
from flash_attn import flash_attn_func


def attend(q, k, v, causal=True):
    # q, k, v: (batch, seqlen, nheads, headdim)
    return flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=q.shape[-1] ** -0.5, causal=causal)


def attend_default(q, k, v):
    return flash_attn_func(q, k, v, causal=True)
`,
  ],
  [
    'c13_xformers_scale',
    'class 4: xformers memory_efficient_attention(..., scale=head_dim ** -0.5)',
    `import torch
import torch.nn as nn
import xformers.ops as xops


class MemEffAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).unbind(2)
        out = xops.memory_efficient_attention(q, k, v, scale=self.scale)
        return out.reshape(B, T, C)
`,
  ],
];

const BUGGY: readonly (readonly [id: string, code: string, line: number, what: string, src: string])[] = [
  [
    'b01_init_not_fold',
    'ATT003',
    22,
    'class 1 twin: in-place init (normal_, zero_) under no_grad folds no scale',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q_proj.weight.normal_(std=0.02)
            self.q_proj.bias.zero_()

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b02_fold_one_over_d',
    'ATT004',
    14,
    'class 1 twin: the weight folded with 1/head_dim, d instead of sqrt(d)',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q_proj.weight.mul_(1.0 / self.head_dim)


    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b03_fold_constant',
    'ATT003',
    22,
    'class 1 twin: the weight multiplied by 0.5, no width: a fixed factor, no scale',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q_proj.weight.mul_(0.5)
            self.q_proj.bias.mul_(0.5)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b04_convert_no_scale',
    'ATT003',
    26,
    'class 1 twin: the conversion only casts the q_proj entries',
    `import math
import torch


def convert_checkpoint(state_dict, num_heads, hidden):
    head_dim = hidden // num_heads
    for name in list(state_dict):
        if name.endswith("attn.q_proj.weight") or name.endswith("attn.q_proj.bias"):
            state_dict[name] = state_dict[name].float()
    return state_dict


class SelfAttention(torch.nn.Module):
    def __init__(self, hidden, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = torch.nn.Linear(hidden, hidden)
        self.k_proj = torch.nn.Linear(hidden, hidden)
        self.v_proj = torch.nn.Linear(hidden, hidden)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, -1).transpose(1, 2)
        w = torch.softmax(torch.matmul(q, k.transpose(-1, -2)), dim=-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b08_learnt_scale_twice',
    'ATT004',
    16,
    'class 2 twin: the learnt scale applied twice',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        head_dim = dim // heads
        self.scale = nn.Parameter(torch.tensor(head_dim ** -0.5))
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).reshape(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale * self.scale
        attn = dots.softmax(dim=-1)
        return torch.matmul(attn, v).transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    'b10_k_norm_only',
    'ATT003',
    18,
    'class 3 twin: only k normalised, q not',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_norm = nn.RMSNorm(self.head_dim)
        self.k_norm = nn.RMSNorm(self.head_dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k = self.k_norm(k)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b12_flash_one_over_d',
    'ATT004',
    7,
    'class 4 twin: softmax_scale=1.0 / headdim',
    `import torch
from flash_attn import flash_attn_func


def attend(q, k, v, causal=True):
    # q, k, v: (batch, seqlen, nheads, headdim)
    return flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=1.0 / q.shape[-1], causal=causal)
`,
  ],
  [
    'b13_xformers_one_over_d',
    'ATT004',
    17,
    'class 4 twin: xformers scale=head_dim ** -1',
    `import torch
import torch.nn as nn
import xformers.ops as xops


class MemEffAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -1
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).unbind(2)
        out = xops.memory_efficient_attention(q, k, v, scale=self.scale)
        return out.reshape(B, T, C)
`,
  ],
];

// Class 3, cross-file: the scale applied by a wrapper function of another file.
const UTIL = `import math


def scale_queries(q):
    return q * (1.0 / math.sqrt(q.shape[-1]))


def attention_probs(q, k):
    return (q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))).softmax(dim=-1)
`;
const MODEL = `import torch.nn as nn
from .util import scale_queries, attention_probs


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q = scale_queries(q)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`;
const PLAIN = MODEL.replace('        q = scale_queries(q)\n', '');

describe('fold29: scales folded into weights, learnt, normalised or passed to kernels (ATT003/ATT004)', () => {
  for (const [id, what, code] of CORRECT) {
    it(`correct, silent: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT003'), [], 'ATT003');
      assert.deepEqual(await findingLines(code, 'ATT004'), [], 'ATT004');
    });
  }
  for (const [id, code, line, what, src] of BUGGY) {
    it(`buggy, ${code} at line ${line}: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(src, code), [line]);
      assert.deepEqual(await findingLines(src, code === 'ATT003' ? 'ATT004' : 'ATT003'), []);
    });
  }
  it('cross-file: q scaled by a wrapper function imported from another file (silent)', async () => {
    const files = { 'pkg/util.py': UTIL, 'pkg/model.py': MODEL, 'pkg/__init__.py': '' };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT004'), []);
  });
  it('cross-file twin: without the wrapper the scores are unscaled (ATT003)', async () => {
    const files = { 'pkg/util.py': UTIL, 'pkg/model.py': PLAIN, 'pkg/__init__.py': '' };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT003'), [14]);
  });
});
